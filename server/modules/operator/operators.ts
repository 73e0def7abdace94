// Operators and the operator log (issue 35 items 1, 2 and 6): the one set of functions both the CLI
// (./commands.ts) and the console's routes (./routes.ts) run, so the two cannot drift. Each write and
// its operator-log entry are one transaction: there is no write without its record.
import { getAddress } from 'ethers'
import type { Selectable } from 'kysely'
import { CODE } from '../../../contract/constants.ts'
import type { Operator, OperatorRole, OplogEntry } from '../../../contract/operator.ts'
import { constraintOf } from '../../db/errors.ts'
import type { OplogTable } from '../../db/schema.ts'
import { statement, statements, type Queryable, type Sql, type Tx } from '../../db/query/types.ts'
import { ApiError } from '../../http/errors.ts'

/** A refusal of an operator action: nothing was written. Localized on a route, English on the CLI. */
export class OperatorRefused extends ApiError {
  override name = 'OperatorRefused'
}

const refused = (status: number, key: string, params: Record<string, string | number> = {}) =>
  new OperatorRefused(status, status === 404 ? CODE.NOT_FOUND : status === 409 ? CODE.CONFLICT : status === 403 ? CODE.FORBIDDEN : CODE.INVALID, key, params)

/**
 * Who did it: an operator (their checksummed address and role then), or an OS user at the server's
 * shell with no operator named (`cli:<user>`, no role: the shell is the authority the first admin
 * comes from).
 */
export interface Actor {
  actor: string
  role: OperatorRole | null
}

/** An address as the app takes a wallet's: 0x and 40 hex digits in any case, kept in lower case; null when it is none. */
export function normalAddress(text: string): string | null {
  return /^0x[0-9a-fA-F]{40}$/.test(text) ? text.toLowerCase() : null
}

/** The actor filter as stored: an address checksummed, cli:<user> as it is. */
export function actorKey(text: string): string {
  const address = normalAddress(text)
  return address ? getAddress(address) : text
}

export const shellActor = (osUser: string): Actor => ({ actor: `cli:${osUser}`, role: null })

interface OperatorRow {
  id: bigint
  address: string
  role: OperatorRole
  added_at: bigint
  added_by: string
}

type OplogRow = Selectable<OplogTable>

const OPERATORS = statements({
  current: statement<OperatorRow, [address: string]>('SELECT id, address, role, added_at, added_by FROM operators WHERE address = ? AND removed_at IS NULL'),
  list: statement<OperatorRow, []>('SELECT id, address, role, added_at, added_by FROM operators WHERE removed_at IS NULL ORDER BY added_at, id'),
  add: statement<{ id: bigint }, [address: string, role: OperatorRole, at: number, by: string]>(
    'INSERT INTO operators (address, role, added_at, added_by) VALUES (?, ?, ?, ?) RETURNING id',
  ),
  remove: statement<never, [at: number, by: string, id: bigint]>('UPDATE operators SET removed_at = ?, removed_by = ? WHERE id = ? AND removed_at IS NULL'),
  endSessions: statement<never, [at: number, operatorId: bigint]>('UPDATE operator_sessions SET revoked_at = ? WHERE operator_id = ? AND revoked_at IS NULL'),
  log: statement<never, [at: number, actor: string, role: OperatorRole | null, action: string, type: string, id: string, before: string | null, after: string | null, reason: string | null]>(
    'INSERT INTO oplog (at, actor, role, action, object_type, object_id, before, after, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ),
})

const wire = (r: OperatorRow): Operator => ({ address: getAddress(r.address), role: r.role, added_at: Number(r.added_at), added_by: r.added_by })
/** What the log keeps of an operator, before and after. */
const logged = (r: { address: string; role: OperatorRole }) => ({ address: getAddress(r.address), role: r.role })

/** The current operator at an address (any case), or null. */
export async function currentOperator(q: Queryable, address: string): Promise<(Operator & { id: bigint }) | null> {
  const a = normalAddress(address)
  const row = a ? await q.get(OPERATORS.current, a) : undefined
  return row ? { ...wire(row), id: row.id } : null
}

export async function listOperators(q: Queryable): Promise<Operator[]> {
  return (await q.all(OPERATORS.list)).map(wire)
}

export interface OplogWrite {
  action: string
  objectType: string
  objectId: string
  before: unknown
  after: unknown
  reason: string | null
}

/** One entry of the operator log, in the transaction of the write it records. */
export async function recordOplog(tx: Queryable, by: Actor, at: number, e: OplogWrite): Promise<void> {
  const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v))
  await tx.run(OPERATORS.log, at, by.actor, by.role, e.action, e.objectType, e.objectId, json(e.before), json(e.after), e.reason)
}

export interface AddOperator {
  address: string
  role: OperatorRole
  by: Actor
  reason: string | null
  now: number
}

/** `operator add` and POST operators: a new operator, refused when the address already is one. */
export async function addOperator(sql: Sql, a: AddOperator): Promise<Operator> {
  const address = normalAddress(a.address)
  if (!address) throw refused(400, 'operator.errors.badAddress', { address: a.address })
  try {
    return await sql.transaction(async (tx: Tx) => {
      const existing = await tx.get(OPERATORS.current, address)
      if (existing) throw alreadyOperator(existing)
      await tx.run(OPERATORS.add, address, a.role, a.now, a.by.actor)
      const added = (await tx.get(OPERATORS.current, address))!
      await recordOplog(tx, a.by, a.now, { action: 'operator.add', objectType: 'operator', objectId: getAddress(address), before: null, after: logged(added), reason: a.reason })
      return wire(added)
    })
  } catch (e) {
    // Two adds of one address at once: the unique current row lets one in; the other hears why.
    if (constraintOf(e) !== 'unique') throw e
    const now = await sql.get(OPERATORS.current, address)
    throw now ? alreadyOperator(now) : e
  }
}

const alreadyOperator = (r: OperatorRow) => refused(409, 'operator.errors.alreadyOperator', { address: getAddress(r.address), role: r.role })

export interface RemoveOperator {
  address: string
  by: Actor
  reason: string | null
  now: number
}

/** `operator remove` and DELETE operators/:address: the operator's row is closed and every session of theirs ends at once. */
export async function removeOperator(sql: Sql, r: RemoveOperator): Promise<Operator> {
  const address = normalAddress(r.address)
  if (!address) throw refused(400, 'operator.errors.badAddress', { address: r.address })
  return sql.transaction(async (tx) => {
    const current = await tx.get(OPERATORS.current, address)
    // Another removal that committed first leaves nothing to remove: the same answer as for a stranger.
    if (!current || (await tx.run(OPERATORS.remove, r.now, r.by.actor, current.id)).changes !== 1) throw refused(404, 'operator.errors.notOperator', { address: getAddress(address) })
    await tx.run(OPERATORS.endSessions, r.now, current.id)
    await recordOplog(tx, r.by, r.now, { action: 'operator.remove', objectType: 'operator', objectId: getAddress(address), before: logged(current), after: null, reason: r.reason })
    return wire(current)
  })
}

export interface OplogFilter {
  objectType?: string | undefined
  objectId?: string | undefined
  /** An operator's address (any case) or cli:<user>. */
  actor?: string | undefined
  since?: number | undefined
  page: number
  pageSize: number
}

/** The operator log, newest first, with its filters: one object's history, one operator's acts, from a moment on. */
export async function listOplog(q: Queryable, f: OplogFilter): Promise<{ list: OplogEntry[]; total: number }> {
  const where: string[] = []
  const args: (string | number)[] = []
  const add = (condition: string, arg: string | number) => {
    where.push(condition)
    args.push(arg)
  }
  if (f.objectType !== undefined) add('object_type = ?', f.objectType)
  // An operator is logged by their checksummed address, whatever case the filter is typed in.
  if (f.objectId !== undefined) add('object_id = ?', f.objectType === 'operator' ? actorKey(f.objectId) : f.objectId)
  if (f.actor !== undefined) add('actor = ?', actorKey(f.actor))
  if (f.since !== undefined) add('at >= ?', f.since)
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : ''
  const total = await q.get(statement<{ n: bigint }>(`SELECT count(*) AS n FROM oplog ${clause}`), ...args)
  const rows = await q.all(statement<OplogRow>(`SELECT * FROM oplog ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`), ...args, f.pageSize, (f.page - 1) * f.pageSize)
  const parsed = (v: string | null): unknown => (v === null ? null : JSON.parse(v))
  return {
    total: Number(total?.n ?? 0),
    list: rows.map((r) => ({ id: Number(r.id), at: Number(r.at), actor: r.actor, role: r.role, action: r.action, object_type: r.object_type, object_id: r.object_id, before: parsed(r.before), after: parsed(r.after), reason: r.reason })),
  }
}
