import type { SqlConnection, SqlTransaction } from '../db/connection.ts'
import { ForeignTransactionError, inOwnTransaction } from '../db/index.ts'
import { constraintOf } from '../db/errors.ts'
import { InsufficientFunds, InvalidPosting, RefConflict } from './errors.ts'
import { all, get, isSync, isTx, op, run, runOn, runSync, together, type Answer, type On, type Steps } from '../db/steps.ts'
import { listStatement } from '../db/query/list.ts'
import { ENTRY_ID_SPAN, LEDGER, type AccountRow } from './statements.ts'
import {
  accountKey,
  BUCKETS,
  isAsset,
  isCustodyKind,
  PLATFORM_KINDS,
  type PlatformAccountKind,
  type AccountRef,
  type Asset,
  type Bucket,
  type EntryInput,
  type Json,
  type PostingHeader,
  type PostingInput,
  type PostResult,
} from './types.ts'

/** SQLite's INTEGER (and PostgreSQL's BIGINT): no amount, delta or balance may leave this range. */
export const INT64_MAX = (1n << 63n) - 1n
export const INT64_MIN = -(1n << 63n)

const REF_MAX = 200
const REASON_RE = /^[a-z][a-z0-9_.:-]{0,63}$/
const CHAIN_KEY_RE = /^[a-z0-9][a-z0-9_-]{0,31}$/

// ── Compiling a posting (pure) ──────────────────────────────────────────────────────────────────

/** The net change of one account (both buckets) within one posting. */
interface Leg {
  key: string
  account: AccountRef
  asset: Asset
  available: bigint
  frozen: bigint
}

interface Plan {
  ref: string
  reason: string
  userId: bigint | null
  meta: string | null
  at: number
  /** In first-mention order, every one with a non-zero change. */
  legs: Leg[]
}

function checkAccount(account: unknown): AccountRef {
  const a = account as Partial<{ user: unknown; kind: unknown; platform: unknown }> | null
  if (a && typeof a === 'object' && 'user' in a) {
    if (typeof a.user !== 'bigint' || a.user <= 0n || a.user > INT64_MAX) throw new InvalidPosting(`bad user id in account: ${String(a.user)}`)
    if (a.kind !== 'fund' && a.kind !== 'trade') throw new InvalidPosting(`bad user account kind: ${String(a.kind)}`)
    return { user: a.user, kind: a.kind }
  }
  if (a && typeof a === 'object' && 'platform' in a && typeof a.platform === 'string') {
    const p = a.platform
    if ((PLATFORM_KINDS as readonly string[]).includes(p)) return { platform: p as PlatformAccountKind }
    if (isCustodyKind(p) && CHAIN_KEY_RE.test(p.slice('custody:'.length))) return { platform: p as `custody:${string}` }
    throw new InvalidPosting(`unknown platform account: ${p}`)
  }
  throw new InvalidPosting(`not an account: ${JSON.stringify(account, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`)
}

function checkAsset(asset: unknown): Asset {
  if (!isAsset(asset)) throw new InvalidPosting(`unknown asset: ${String(asset)}`)
  return asset
}

function checkBucket(bucket: unknown, dflt: Bucket): Bucket {
  if (bucket === undefined) return dflt
  if (!(BUCKETS as readonly unknown[]).includes(bucket)) throw new InvalidPosting(`unknown bucket: ${String(bucket)}`)
  return bucket as Bucket
}

function checkAmount(amount: unknown): bigint {
  if (typeof amount !== 'bigint') throw new InvalidPosting(`amount must be a bigint in units of 1e-8, got ${typeof amount}`)
  if (amount <= 0n) throw new InvalidPosting(`amount must be positive, got ${amount}`)
  if (amount > INT64_MAX) throw new InvalidPosting(`amount out of range: ${amount}`)
  return amount
}

function checkUserId(id: unknown): bigint {
  const n = typeof id === 'number' && Number.isSafeInteger(id) ? BigInt(id) : id
  if (typeof n !== 'bigint' || n <= 0n || n > INT64_MAX) throw new InvalidPosting(`bad user id: ${String(id)}`)
  return n
}

/** JSON with object keys sorted (so equal content gives equal text) and bigints as decimal strings. */
export function canonicalJson(value: Json): string {
  const norm = (v: unknown): unknown => {
    if (typeof v === 'bigint') return v.toString()
    if (typeof v === 'number' && !Number.isFinite(v)) throw new InvalidPosting(`meta holds a non-finite number: ${v}`)
    if (Array.isArray(v)) return v.map(norm)
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {}
      for (const k of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[k]
        if (x !== undefined) out[k] = norm(x)
      }
      return out
    }
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v
    throw new InvalidPosting(`meta holds a ${typeof v}, which JSON cannot carry`)
  }
  return JSON.stringify(norm(value))
}

/** Validates and nets a posting; throws InvalidPosting. Touches no database. */
function compile(input: PostingInput): Plan {
  if (!input || typeof input !== 'object') throw new InvalidPosting('posting must be an object')
  const { ref, reason } = input
  if (typeof ref !== 'string' || ref.length === 0 || ref.length > REF_MAX) throw new InvalidPosting(`ref must be 1–${REF_MAX} characters`)
  if (typeof reason !== 'string' || !REASON_RE.test(reason)) throw new InvalidPosting(`bad reason: ${String(reason)}`)
  const at = input.at ?? Date.now()
  if (!Number.isSafeInteger(at) || at < 0) throw new InvalidPosting(`bad time: ${String(at)}`)
  const meta = input.meta === undefined || input.meta === null ? null : canonicalJson(input.meta)

  const moves = input.moves ?? []
  const entries = input.entries ?? []
  if (!Array.isArray(moves) || !Array.isArray(entries)) throw new InvalidPosting('moves and entries must be arrays')
  if (moves.length + entries.length === 0) throw new InvalidPosting('a posting needs at least one move or entry')

  const legs = new Map<string, Leg>()
  const add = (account: AccountRef, asset: Asset, bucket: Bucket, delta: bigint) => {
    const key = accountKey(account, asset)
    let leg = legs.get(key)
    if (!leg) legs.set(key, (leg = { key, account, asset, available: 0n, frozen: 0n }))
    leg[bucket] += delta
  }

  for (const m of moves) {
    const from = checkAccount(m?.from)
    const to = checkAccount(m.to)
    const asset = checkAsset(m.asset)
    const amount = checkAmount(m.amount)
    const fromBucket = checkBucket(m.fromBucket, 'available')
    const toBucket = checkBucket(m.toBucket, 'available')
    if (accountKey(from, asset) === accountKey(to, asset) && fromBucket === toBucket) {
      throw new InvalidPosting(`a move from an account bucket to itself changes nothing (${accountKey(from, asset)} ${fromBucket})`)
    }
    add(from, asset, fromBucket, -amount)
    add(to, asset, toBucket, amount)
  }
  for (const e of entries as EntryInput[]) {
    const account = checkAccount(e?.account)
    const asset = checkAsset(e.asset)
    const bucket = checkBucket(e.bucket, 'available')
    if (typeof e.delta !== 'bigint' || e.delta === 0n) throw new InvalidPosting(`an entry's delta must be a non-zero bigint, got ${String(e.delta)}`)
    if (e.delta > INT64_MAX || e.delta < INT64_MIN) throw new InvalidPosting(`delta out of range: ${e.delta}`)
    add(account, asset, bucket, e.delta)
  }

  // Double entry: within the posting, every asset's changes sum to zero.
  const perAsset = new Map<Asset, bigint>()
  for (const leg of legs.values()) perAsset.set(leg.asset, (perAsset.get(leg.asset) ?? 0n) + leg.available + leg.frozen)
  const off = [...perAsset].filter(([, sum]) => sum !== 0n)
  if (off.length) {
    throw new InvalidPosting(`entries do not sum to zero: ${off.map(([a, s]) => `${a} ${s > 0n ? '+' : ''}${s}`).join(', ')}`)
  }

  const kept: Leg[] = []
  const users = new Set<bigint>()
  let entryCount = 0n
  for (const leg of legs.values()) {
    if (leg.available === 0n && leg.frozen === 0n) continue
    for (const b of BUCKETS) {
      if (leg[b] > INT64_MAX || leg[b] < INT64_MIN) throw new InvalidPosting(`net change out of range on ${leg.key} ${b}`)
      if (leg[b] !== 0n) entryCount++
    }
    if ('user' in leg.account) users.add(leg.account.user)
    kept.push(leg)
  }
  if (kept.length === 0) throw new InvalidPosting('the posting changes nothing')
  if (entryCount > ENTRY_ID_SPAN) throw new InvalidPosting(`a posting has at most ${ENTRY_ID_SPAN} entries, this one ${entryCount}`)

  let userId: bigint | null
  if (input.userId === null) userId = null
  else if (input.userId !== undefined) userId = checkUserId(input.userId)
  else userId = users.size === 1 ? (users.values().next().value as bigint) : null

  return { ref, reason, userId, meta, at, legs: kept }
}

// ── Applying it ─────────────────────────────────────────────────────────────────────────────────

/** Sorted "accountKey|bucket|delta" lines: what a replay must match. */
function planSignature(plan: Plan): string[] {
  const lines: string[] = []
  for (const leg of plan.legs) for (const b of BUCKETS) if (leg[b] !== 0n) lines.push(`${leg.key}|${b}|${leg[b]}`)
  return lines.sort()
}

/** The same lines for a stored posting. */
function* storedSignature(postingId: bigint): Steps<string[]> {
  const first = postingId * ENTRY_ID_SPAN
  const rows = yield* all(LEDGER.entriesOfPosting, first, first + ENTRY_ID_SPAN - 1n)
  return rows
    .map((r) => {
      const account: AccountRef = r.user_id === null ? { platform: r.kind as `custody:${string}` } : { user: r.user_id, kind: r.kind as 'fund' }
      return `${accountKey(account, r.asset)}|${r.bucket}|${r.delta}`
    })
    .sort()
}

/** The posting already made under plan's ref: the same content answers it again, other content is a RefConflict. */
function* replay(plan: Plan): Steps<PostResult> {
  const existing = yield* get(LEDGER.postingByRef, plan.ref)
  if (!existing) throw new Error(`ledger: posting ${plan.ref} was refused as a duplicate and then not found`)
  const diff: string[] = []
  if (existing.reason !== plan.reason) diff.push(`reason "${existing.reason}" ≠ "${plan.reason}"`)
  if (existing.user_id !== plan.userId) diff.push(`user ${existing.user_id} ≠ ${plan.userId}`)
  if (existing.meta !== plan.meta) diff.push(`meta ${existing.meta} ≠ ${plan.meta}`)
  const stored = (yield* storedSignature(existing.id)).join(', ')
  const wanted = planSignature(plan).join(', ')
  if (stored !== wanted) diff.push(`entries [${stored}] ≠ [${wanted}]`)
  if (diff.length) throw new RefConflict(plan.ref, existing.id, diff.join('; '))
  return { id: existing.id, ref: existing.ref, replayed: true }
}

function accountRow(leg: Leg): Steps<AccountRow | undefined> {
  const a = leg.account
  return 'user' in a ? get(LEDGER.userAccount, a.user, a.kind, leg.asset) : get(LEDGER.platformAccount, a.platform, leg.asset)
}

function accountOp(leg: Leg) {
  const a = leg.account
  return 'user' in a ? op.get(LEDGER.userAccount, a.user, a.kind, leg.asset) : op.get(LEDGER.platformAccount, a.platform, leg.asset)
}

/**
 * Writes the posting. The posting row goes first: its unique ref finds a replay and its foreign key
 * an unknown user without a lookup of their own (a posting's cost is its statements). Balances are
 * then read and checked before any of them changes; a refusal after the posting row is undone by the
 * savepoint post runs this in.
 *
 * Under several connections (PostgreSQL) the checks here are read without a lock and can be stale;
 * what decides is the database: the ref's unique index (a second connection posting the same ref
 * waits for the first, then finds it), the delta updates applied under the row's lock, and the
 * table's CHECK that no user balance is below zero — a refusal there is the same InsufficientFunds.
 *
 * The posting row and the accounts' reads go out together, and so do the balances' updates and the
 * entries when every account exists (the usual case): two round trips on a pipelined connection.
 */
function* apply(plan: Plan): Steps<PostResult> {
  let inserted: { id: bigint } | undefined
  let rows: (AccountRow | undefined)[]
  try {
    const [posting, ...read] = yield* together(op.get(LEDGER.insertPosting, plan.ref, plan.reason, plan.userId, plan.meta, plan.at), ...plan.legs.map(accountOp))
    inserted = posting
    rows = read as (AccountRow | undefined)[]
  } catch (e) {
    if (constraintOf(e) === 'foreignKey') throw new InvalidPosting(`no user ${plan.userId}`)
    throw e
  }
  if (!inserted) return yield* replay(plan)
  const postingId = BigInt(inserted.id)

  for (const [i, leg] of plan.legs.entries()) {
    const a = leg.account
    const row = rows[i]
    const custodial = 'platform' in a && isCustodyKind(a.platform)
    for (const b of BUCKETS) {
      if (leg[b] === 0n) continue
      const current = row ? row[b] : 0n
      const next = current + leg[b]
      if (next > INT64_MAX || next < INT64_MIN) throw new InvalidPosting(`balance out of range on ${leg.key} ${b}`)
      if (next < 0n && !custodial) throw new InsufficientFunds(a, leg.asset, b, current, -leg[b])
    }
  }

  if (rows.every((r) => r !== undefined)) {
    const order = plan.legs.map((_, i) => i).sort((x, y) => (rows[x]!.id < rows[y]!.id ? -1 : rows[x]!.id > rows[y]!.id ? 1 : 0))
    const updates = order.map((i) => op.run(LEDGER.updateAccount, plan.legs[i]!.available, plan.legs[i]!.frozen, rows[i]!.id))
    const entries = entryOps(plan, postingId, rows.map((r) => r!.id))
    try {
      yield* together(...updates, ...entries)
    } catch (e) {
      if (constraintOf(e) !== 'check') throw e
      // A concurrent debit got there first: the first account this posting takes from, as it was seen.
      const i = order.find((k) => plan.legs[k]!.available < 0n || plan.legs[k]!.frozen < 0n) ?? order[0]!
      const leg = plan.legs[i]!
      const b: Bucket = leg.available < 0n ? 'available' : 'frozen'
      throw new InsufficientFunds(leg.account, leg.asset, b, rows[i]![b], -leg[b])
    }
    return { id: postingId, ref: plan.ref, replayed: false }
  }

  // Accounts that exist change first, in the order of their ids: two postings on other connections
  // that touch the same accounts then take their row locks in one order and never wait in a circle
  // (PostgreSQL would end such a deadlock by failing one of them).
  const ids: bigint[] = new Array<bigint>(plan.legs.length)
  const existing = plan.legs.map((_, i) => i).filter((i) => rows[i] !== undefined)
  if (existing.length > 1) existing.sort((x, y) => (rows[x]!.id < rows[y]!.id ? -1 : 1))
  for (const i of existing) yield* updateBalance(plan.legs[i]!, (ids[i] = rows[i]!.id), rows[i]!)
  for (let i = 0; i < plan.legs.length; i++) {
    if (rows[i] !== undefined) continue
    const leg = plan.legs[i]!
    const a = leg.account
    const owner = 'user' in a ? a.user : null
    let made
    try {
      made = yield* get(LEDGER.insertAccount, owner, 'user' in a ? a.kind : a.platform, leg.asset, leg.available, leg.frozen, plan.at)
    } catch (e) {
      const c = constraintOf(e)
      if (c === 'foreignKey') throw new InvalidPosting(`no user ${owner}`)
      if (c === 'check') throw new InsufficientFunds(a, leg.asset, leg.available < 0n ? 'available' : 'frozen', 0n, -(leg.available < 0n ? leg.available : leg.frozen))
      throw e
    }
    if (made) ids[i] = BigInt(made.id)
    else {
      // Another connection made the account since it was read: change it as any other.
      const row = yield* accountRow(leg)
      if (!row) throw new Error(`ledger: account ${leg.key} was refused as a duplicate and then not found`)
      yield* updateBalance(leg, (ids[i] = row.id), row)
    }
  }

  yield* together(...entryOps(plan, postingId, ids))
  return { id: postingId, ref: plan.ref, replayed: false }
}

/** The posting's entries, one per non-zero bucket of each leg, numbered from the posting's id. */
function entryOps(plan: Plan, postingId: bigint, accountIds: readonly bigint[]) {
  let entryId = postingId * ENTRY_ID_SPAN
  const ops: ReturnType<typeof op.run>[] = []
  for (const [i, leg] of plan.legs.entries()) {
    const owner = 'user' in leg.account ? leg.account.user : null
    if (leg.available !== 0n) ops.push(op.run(LEDGER.insertEntry, entryId++, postingId, accountIds[i]!, owner, 'available', leg.available))
    if (leg.frozen !== 0n) ops.push(op.run(LEDGER.insertEntry, entryId++, postingId, accountIds[i]!, owner, 'frozen', leg.frozen))
  }
  return ops
}

/** A leg's delta on its account; the CHECK's refusal (a concurrent debit got there first) is InsufficientFunds. */
function* updateBalance(leg: Leg, accountId: bigint, seen: AccountRow): Steps<void> {
  try {
    yield* run(LEDGER.updateAccount, leg.available, leg.frozen, accountId)
  } catch (e) {
    if (constraintOf(e) !== 'check') throw e
    const b: Bucket = seen.available + leg.available < 0n || leg.available < 0n ? 'available' : 'frozen'
    throw new InsufficientFunds(leg.account, leg.asset, b, seen[b], -leg[b])
  }
}

const txns = new WeakMap<SqlConnection, SqlTransaction<(plan: Plan) => PostResult>>()

/**
 * Records one double-entry posting and updates the balances, atomically. Call it inside the caller's
 * transaction so both commit or neither does: with its `tx` (`ctx.sql.transaction(async (tx) => { …;
 * await post(tx, …) })`), or, on SQLite's own connection (its tooling, tests that fill a file), inside
 * `transaction(sqlite, …)`. It runs in a savepoint there, so a refused posting leaves the caller's
 * transaction usable; given the database (`ctx.sql`) or SQLite's connection outside a transaction, it
 * opens its own. On SQLite's connection a transaction open that is not one of ours (a Kysely
 * transaction awaiting between its statements) is refused with ForeignTransactionError: the posting
 * would join it and be undone by its rollback.
 *
 * Refusals are thrown before anything is written: InvalidPosting (bad amount, asset, account, entries
 * that do not sum to zero per asset), InsufficientFunds (a bucket of a non-custody account would go
 * below zero), RefConflict (the ref was posted with different content). The same ref with the same
 * content returns the first posting with `replayed: true`.
 */
export function post<C extends On>(on: C, input: PostingInput): Answer<C, PostResult>
export function post(on: On, input: PostingInput): PostResult | Promise<PostResult> {
  const plan = compile(input)
  if (!isSync(on)) return isTx(on) ? on.savepoint((tx) => runOn(tx, apply(plan))) : on.transaction((tx) => runOn(tx, apply(plan)))
  let go = txns.get(on)
  if (!go) txns.set(on, (go = on.transaction((p: Plan) => runSync(on, apply(p)))))
  if (!on.inTransaction) return go.immediate(plan)
  if (!inOwnTransaction(on)) throw new ForeignTransactionError('ledger.post')
  return go(plan)
}

// ── Many postings at once ───────────────────────────────────────────────────────────────────────

/**
 * Postings per chunk: each chunk is a handful of multi-row statements, so a day's 100,000 postings
 * cost a few hundred round trips instead of a million. Entries are bounded too (a posting may have
 * many): 6 parameters each stays far below SQLite's 32,766 and PostgreSQL's 65,535.
 */
const CHUNK_POSTINGS = 500
const CHUNK_ENTRIES = 2_000
const CHUNK_ACCOUNTS = 1_000

/** Plans cut into chunks within the limits above (a posting is never split). */
function chunksOf(plans: Plan[]): Plan[][] {
  const out: Plan[][] = []
  let chunk: Plan[] = []
  let entries = 0
  for (const plan of plans) {
    const n = plan.legs.reduce((k, l) => k + (l.available !== 0n ? 1 : 0) + (l.frozen !== 0n ? 1 : 0), 0)
    if (chunk.length && (chunk.length === CHUNK_POSTINGS || entries + n > CHUNK_ENTRIES)) {
      out.push(chunk)
      chunk = []
      entries = 0
    }
    chunk.push(plan)
    entries += n
  }
  if (chunk.length) out.push(chunk)
  return out
}

interface Held {
  id: bigint
  available: bigint
  frozen: bigint
  /** The first leg on this account in the chunk: names it in a refusal. */
  leg: Leg
  deltaAvailable: bigint
  deltaFrozen: bigint
}

type UserAccountRow = AccountRow & { user_id: bigint; kind: 'fund' | 'trade'; asset: string }

/**
 * The statements that read the ids and balances of these accounts, and what makes of their answers
 * a map by accountKey (accounts that do not exist yet are absent): sent with others in one round.
 */
function accountReads(legs: Leg[]): { ops: ReturnType<typeof op.all>[]; found(answers: unknown[]): Map<string, AccountRow> } {
  const users = legs.filter((l) => 'user' in l.account)
  const params: unknown[] = []
  for (const l of users) {
    const a = l.account as { user: bigint; kind: string }
    params.push(a.user, a.kind, l.asset)
  }
  // The platform's accounts are few (a funding account and the dust, for a settled day): one read each.
  const platform = legs.filter((l) => 'platform' in l.account)
  const ops = [
    ...(users.length
      ? [
          op.all(
            listStatement<UserAccountRow>(
              'SELECT a.id, a.user_id, a.kind, a.asset, a.available, a.frozen FROM (',
              '(CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT))',
              ['bigint', 'text', 'text'],
              users.length,
              ') AS v JOIN ledger_accounts a ON a.user_id = v.column1 AND a.kind = v.column2 AND a.asset = v.column3 WHERE a.user_id IS NOT NULL',
            ),
            ...params,
          ),
        ]
      : []),
    ...platform.map((l) => op.all(LEDGER.platformAccount, (l.account as { platform: string }).platform, l.asset)),
  ]
  return {
    ops,
    found(answers) {
      const found = new Map<string, AccountRow>()
      const rest = [...answers]
      if (users.length) for (const r of rest.shift() as UserAccountRow[]) found.set(accountKey({ user: r.user_id, kind: r.kind }, r.asset), r)
      platform.forEach((l, i) => {
        const row = (rest[i] as AccountRow[])[0]
        if (row) found.set(l.key, row)
      })
      return found
    },
  }
}

function* readAccounts(legs: Leg[]): Steps<Map<string, AccountRow>> {
  const reads = accountReads(legs)
  return reads.found(yield* together(...reads.ops))
}

/**
 * One chunk of postMany: its postings and their accounts as apply() writes them; the balances' changes
 * are summed in `held`, and the entries' rows added to `entries`, both written once for the batch.
 */
function* applyChunk(chunk: Plan[], held: Map<string, Held>, results: Map<string, PostResult>, entries: EntryRows): Steps<void> {
  const params: unknown[] = []
  for (const p of chunk) params.push(p.ref, p.reason, p.userId, p.meta, p.at)
  // Every account of the chunk not met in an earlier one, first-mention order (the order post would
  // create missing ones in). Those of a posting that turns out to be a replay are read for nothing:
  // read with the postings' insert rather than after it, they cost no round trip of their own.
  const distinct = new Map<string, Leg>()
  const madeAt = new Map<string, number>()
  for (const p of chunk) {
    for (const l of p.legs) {
      if (distinct.has(l.key) || held.has(l.key)) continue
      distinct.set(l.key, l)
      madeAt.set(l.key, p.at)
    }
  }
  const legs = [...distinct.values()]
  const reads = accountReads(legs)
  let inserted: { id: bigint; ref: string }[]
  let rows: Map<string, AccountRow>
  try {
    // The insert first: a refusal of it aborts the transaction, and the first refusal is the one thrown.
    const [postings, ...accounts] = yield* together(
      op.all(
        listStatement<{ id: bigint; ref: string }>(
          'INSERT INTO ledger_postings (ref, reason, user_id, meta, created_at)',
          '(?, ?, ?, ?, ?)',
          ['text', 'text', 'bigint', 'text', 'bigint'],
          chunk.length,
          ' ON CONFLICT (ref) DO NOTHING RETURNING id, ref',
        ),
        ...params,
      ),
      ...reads.ops,
    )
    inserted = postings
    rows = reads.found(accounts)
  } catch (e) {
    if (constraintOf(e) === 'foreignKey') throw new InvalidPosting(`no such user among ${[...new Set(chunk.map((p) => p.userId))].join(', ')}`)
    throw e
  }
  const ids = new Map(inserted.map((r) => [r.ref, BigInt(r.id)]))
  const fresh = chunk.filter((p) => ids.has(p.ref))
  const needed = new Set(fresh.flatMap((p) => p.legs.map((l) => l.key)))
  const missing = legs.filter((l) => !rows.has(l.key) && needed.has(l.key))
  if (missing.length) {
    // Made empty here and credited by the update below, with the accounts that exist: one statement
    // for all. DO NOTHING: another connection may have made one since the read.
    const made: unknown[] = []
    for (const l of missing) {
      const a = l.account
      made.push('user' in a ? a.user : null, 'user' in a ? a.kind : a.platform, l.asset, madeAt.get(l.key))
    }
    try {
      yield* run(
        listStatement('INSERT INTO ledger_accounts (user_id, kind, asset, available, frozen, created_at)', '(?, ?, ?, 0, 0, ?)', ['bigint', 'text', 'text', 'bigint'], missing.length, ' ON CONFLICT DO NOTHING'),
        ...made,
      )
    } catch (e) {
      if (constraintOf(e) === 'foreignKey') throw new InvalidPosting(`no such user among ${missing.map((l) => ('user' in l.account ? l.account.user : '')).join(', ')}`)
      throw e
    }
    rows = yield* readAccounts(legs)
  }

  // Each posting checked against the balances the ones before it left, and a replay answered in its
  // place, so the refusal is the one post one by one would have met first.
  for (const l of legs) {
    const r = rows.get(l.key)
    if (r) held.set(l.key, { id: r.id, available: r.available, frozen: r.frozen, leg: l, deltaAvailable: 0n, deltaFrozen: 0n })
  }
  for (const p of chunk) {
    if (!ids.has(p.ref)) {
      results.set(p.ref, yield* replay(p))
      continue
    }
    for (const leg of p.legs) {
      const h = held.get(leg.key) as Held
      const custodial = 'platform' in leg.account && isCustodyKind(leg.account.platform)
      for (const b of BUCKETS) {
        if (leg[b] === 0n) continue
        const next = h[b] + leg[b]
        if (next > INT64_MAX || next < INT64_MIN) throw new InvalidPosting(`balance out of range on ${leg.key} ${b}`)
        if (next < 0n && !custodial) throw new InsufficientFunds(leg.account, leg.asset, b, h[b], -leg[b])
      }
    }
    for (const leg of p.legs) {
      const h = held.get(leg.key) as Held
      h.available += leg.available
      h.frozen += leg.frozen
      h.deltaAvailable += leg.available
      h.deltaFrozen += leg.frozen
    }
  }

  for (const p of fresh) {
    const postingId = ids.get(p.ref) as bigint
    let entryId = postingId * ENTRY_ID_SPAN
    for (const leg of p.legs) {
      const accountId = (held.get(leg.key) as Held).id
      const owner = 'user' in leg.account ? leg.account.user : null
      for (const b of BUCKETS) {
        if (leg[b] === 0n) continue
        entries.push([entryId++, postingId, accountId, owner, b, leg[b]])
      }
    }
    results.set(p.ref, { id: postingId, ref: p.ref, replayed: false })
  }
}

type EntryRow = [id: bigint, postingId: bigint, accountId: bigint, owner: bigint | null, bucket: Bucket, delta: bigint]
type EntryRows = EntryRow[]

/** The batch's entries, one statement per CHUNK_ENTRIES rows. */
function entryWrites(entries: EntryRows): ReturnType<typeof op.run>[] {
  const out: ReturnType<typeof op.run>[] = []
  for (let from = 0; from < entries.length; from += CHUNK_ENTRIES) {
    const rows = entries.slice(from, from + CHUNK_ENTRIES)
    out.push(op.run(listStatement('INSERT INTO ledger_entries (id, posting_id, account_id, user_id, bucket, delta)', '(?, ?, ?, ?, ?, ?)', ['bigint', 'bigint', 'bigint', 'bigint', 'text', 'bigint'], rows.length), ...rows.flat()))
  }
  return out
}

/**
 * The batch's net change of every account, one UPDATE per CHUNK_ACCOUNTS, sent with its entries in one
 * round. Once per batch, not per chunk: on PostgreSQL every update of a row is a new version of it,
 * and a funding account paying each chunk's postings would pile up hundreds of versions within the
 * transaction that each foreign key check of an entry and each later update walks.
 */
function* applyBalances(held: Map<string, Held>, entries: EntryRows): Steps<void> {
  // In the order of the accounts' ids, as apply() changes them (see there): a plan that probes the
  // primary key along the list takes the row locks in that order.
  const changed = [...held.values()].filter((h) => h.deltaAvailable !== 0n || h.deltaFrozen !== 0n).sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
  const updates: ReturnType<typeof op.run>[] = []
  for (let from = 0; from < changed.length; from += CHUNK_ACCOUNTS) {
    const changes = changed.slice(from, from + CHUNK_ACCOUNTS)
    const deltas: unknown[] = []
    for (const h of changes) {
      // The sum of a batch's deltas can leave 64 bits only where a custody account swings from one
      // end of the range to the other; post one by one would take that, a batch refuses it.
      for (const d of [h.deltaAvailable, h.deltaFrozen]) if (d > INT64_MAX || d < INT64_MIN) throw new InvalidPosting(`net change out of range on ${h.leg.key}`)
      deltas.push(h.id, h.deltaAvailable, h.deltaFrozen)
    }
    updates.push(
      op.run(
        listStatement(
          'UPDATE ledger_accounts SET available = available + v.column2, frozen = frozen + v.column3 FROM (',
          '(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))',
          ['bigint', 'bigint', 'bigint'],
          changes.length,
          ') AS v WHERE ledger_accounts.id = v.column1',
        ),
        ...deltas,
      ),
    )
  }
  try {
    // The entries before the updates: checking an entry's account takes a share lock on its row,
    // and an account row this transaction has already updated then needs a multixact for both locks
    // (the other order measured 30 % slower). An entry's own checks (its id within its posting's span,
    // a delta other than 0) hold by construction (compile), so a check refused here is an account's
    // balance going below 0.
    yield* together(...entryWrites(entries), ...updates)
  } catch (e) {
    if (constraintOf(e) !== 'check') throw e
    // A concurrent debit got there first: the first account the batch takes from, as seen.
    const h = changed.find((c) => c.deltaAvailable < 0n || c.deltaFrozen < 0n) ?? (changed[0] as Held)
    const b: Bucket = h.deltaAvailable < 0n ? 'available' : 'frozen'
    const delta = b === 'available' ? h.deltaAvailable : h.deltaFrozen
    throw new InsufficientFunds(h.leg.account, h.leg.asset, b, h[b] - delta, -delta)
  }
}

function* applyMany(plans: Plan[]): Steps<PostResult[]> {
  const results = new Map<string, PostResult>()
  const held = new Map<string, Held>()
  const entries: EntryRows = []
  for (const chunk of chunksOf(plans)) yield* applyChunk(chunk, held, results, entries)
  yield* applyBalances(held, entries)
  return plans.map((p) => results.get(p.ref) as PostResult)
}

const batchTxns = new WeakMap<SqlConnection, SqlTransaction<(plans: Plan[]) => PostResult[]>>()

export interface PostManyOptions {
  /**
   * The caller's transaction is rolled back whole when the postings are refused (the market's batch):
   * they then need no savepoint of their own, whose release is a round trip on PostgreSQL.
   */
  abandonsOnRefusal?: boolean
}

/**
 * Records many postings, with the same result and guarantees as calling post for each in order
 * (replays, RefConflict, InsufficientFunds judged against what the postings before left), but
 * set-based: a few multi-row statements per chunk of postings. All or nothing: any refusal undoes
 * the whole batch. Transactions as post: in the caller's (a savepoint) or its own.
 * Refs must be distinct within the batch.
 */
export function postMany<C extends On>(on: C, inputs: PostingInput[], opts?: PostManyOptions): Answer<C, PostResult[]>
export function postMany(on: On, inputs: PostingInput[], opts: PostManyOptions = {}): PostResult[] | Promise<PostResult[]> {
  const plans = inputs.map(compile)
  const refs = new Set<string>()
  for (const p of plans) {
    if (refs.has(p.ref)) throw new InvalidPosting(`ref ${p.ref} appears twice in one batch`)
    refs.add(p.ref)
  }
  if (!isSync(on)) {
    if (plans.length === 0) return Promise.resolve([])
    if (!isTx(on)) return on.transaction((tx) => runOn(tx, applyMany(plans)))
    return opts.abandonsOnRefusal ? runOn(on, applyMany(plans)) : on.savepoint((tx) => runOn(tx, applyMany(plans)))
  }
  if (plans.length === 0) return []
  let go = batchTxns.get(on)
  if (!go) batchTxns.set(on, (go = on.transaction((ps: Plan[]) => runSync(on, applyMany(ps)))))
  if (!on.inTransaction) return go.immediate(plans)
  if (!inOwnTransaction(on)) throw new ForeignTransactionError('ledger.postMany')
  return go(plans)
}

// ── The common operations, one line each ────────────────────────────────────────────────────────

type Amounted = PostingHeader & { asset: Asset; amount: bigint }

const header = (p: PostingHeader): PostingHeader => ({ ref: p.ref, reason: p.reason, userId: p.userId, meta: p.meta, at: p.at })

/** available of `from` → available of `to` (deposit, withdrawal, fund↔trade, user→user, fee, burn…). */
export function transfer<C extends On>(on: C, p: Amounted & { from: AccountRef; to: AccountRef }): Answer<C, PostResult> {
  return post(on, { ...header(p), moves: [{ from: p.from, to: p.to, asset: p.asset, amount: p.amount }] })
}

/** available → frozen of the same account (an order placed, a withdrawal requested). */
export function freeze<C extends On>(on: C, p: Amounted & { account: AccountRef }): Answer<C, PostResult> {
  const m = { from: p.account, to: p.account, asset: p.asset, amount: p.amount }
  return post(on, { ...header(p), moves: [{ ...m, fromBucket: 'available', toBucket: 'frozen' }] })
}

/** frozen → available of the same account (an order cancelled, a withdrawal refunded). */
export function unfreeze<C extends On>(on: C, p: Amounted & { account: AccountRef }): Answer<C, PostResult> {
  const m = { from: p.account, to: p.account, asset: p.asset, amount: p.amount }
  return post(on, { ...header(p), moves: [{ ...m, fromBucket: 'frozen', toBucket: 'available' }] })
}

/**
 * frozen of `from` → available of `to` (a fill paid to the counterparty, a withdrawal sent to the
 * chain). Several legs at once (e.g. the fee to FEES) are one `post` with several moves.
 */
export function settleFrozen<C extends On>(on: C, p: Amounted & { from: AccountRef; to: AccountRef; toBucket?: Bucket }): Answer<C, PostResult> {
  return post(on, {
    ...header(p),
    moves: [{ from: p.from, to: p.to, asset: p.asset, amount: p.amount, fromBucket: 'frozen', toBucket: p.toBucket ?? 'available' }],
  })
}
