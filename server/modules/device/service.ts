// Devices (issue 11 part 2): a paid device order becomes one device per unit (createDevices, inside
// the payment's transaction); shipping issues one activation code per device (issueCodes, inside
// the shipping transaction, only hashes kept); the owner activates a device with its code, which
// starts a position of kind 'device' the next UTC day, paid daily by the settlement.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { LangCode } from '../../../contract/constants.ts'
import type { Device, DeviceStatus } from '../../../contract/device.ts'
import { ATTEMPT_WINDOW_MS, attemptAllowed, formatCode, makeCode, normalizeCode } from '../../../contract/deviceRules.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements, type Queryable, type Tx } from '../../db/query/types.ts'
import { constraintOf } from '../../db/errors.ts'
import { ApiError, badRequest, conflict, notFound, tooMany } from '../../http/errors.ts'
import { pickText } from '../goods/rules.ts'
import { dayOf, dayStart } from '../release/schedule.ts'
import { answerKeyedIn } from '../../db/keyedEffect.ts'
import { lockUser } from '../user/lock.ts'

const SQL = {
  order: 'SELECT id, user_id, type, created_at FROM pay_orders WHERE id = ?',
  lines: 'SELECT id, product_id, spec_id, quantity, power FROM order_lines WHERE order_id = ? ORDER BY id',
  insert: `INSERT INTO devices (user_id, order_id, line_id, unit, product_id, spec_id, power, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (line_id, unit) DO NOTHING`,
  pendingOfOrder: "SELECT id FROM devices WHERE order_id = ? AND status = 'pending' ORDER BY id",
  devicesOfOrder: 'SELECT id, status FROM devices WHERE order_id = ? ORDER BY id',
  putCode: `INSERT INTO device_codes (device_id, code_hash, issued_at) VALUES (?, ?, ?)
            ON CONFLICT (device_id) DO UPDATE SET code_hash = excluded.code_hash, issued_at = excluded.issued_at, used_at = NULL`,
  list: `SELECT d.*, o.order_no, l.name, l.spec_name, l.cover, (c.device_id IS NOT NULL) AS shipped,
                (SELECT a.ok FROM device_attempts a WHERE a.device_id = d.id ORDER BY a.at DESC, a.id DESC LIMIT 1) AS last_ok
         FROM devices d JOIN pay_orders o ON o.id = d.order_id JOIN order_lines l ON l.id = d.line_id
         LEFT JOIN device_codes c ON c.device_id = d.id
         WHERE d.user_id = ? ORDER BY d.id DESC`,
  own: 'SELECT d.*, c.code_hash, c.used_at FROM devices d LEFT JOIN device_codes c ON c.device_id = d.id WHERE d.id = ? AND d.user_id = ?',
  byHash: 'SELECT d.id, d.user_id, d.status FROM device_codes c JOIN devices d ON d.id = c.device_id WHERE c.code_hash = ?',
  failures: 'SELECT at FROM device_attempts WHERE user_id = ? AND ok = 0 AND at > ? ORDER BY at',
  lastSuccess: 'SELECT MAX(at) AS at FROM device_attempts WHERE user_id = ? AND ok = 1',
  attempt: 'INSERT INTO device_attempts (user_id, device_id, ok, at) VALUES (?, ?, ?, ?)',
  prune: 'DELETE FROM device_attempts WHERE at < ?',
  position: `INSERT INTO positions (user_id, kind, asset, base, rate_ppm, period_days, remaining, start_day, source, created_at)
             VALUES (?, 'device', 'NADI', ?, ?, 1, NULL, ?, ?, ?)`,
  activate: "UPDATE devices SET status = 'success', position_id = ?, activated_at = ? WHERE id = ? AND status = 'pending'",
  useCode: 'UPDATE device_codes SET used_at = ? WHERE device_id = ?',
} as const


/** What issuing codes runs, in the shipping's (or the operator's) transaction of the asynchronous way. */
const CODES = statements({
  orderState: statement<{ type: string; fulfilment: string | null }, [id: number]>('SELECT type, fulfilment FROM pay_orders WHERE id = ?'),
  pendingOfOrder: statement<{ id: bigint }, [orderId: number | bigint]>(SQL.pendingOfOrder),
  devicesOfOrder: statement<{ id: bigint; status: string }, [orderId: number | bigint]>(SQL.devicesOfOrder),
  putCode: statement<never, [deviceId: bigint, hash: string, at: number]>(SQL.putCode),
})

/** What createDevices runs, in the payment's transaction of the asynchronous way. */
const MAKE = statements({
  order: statement<{ id: bigint; user_id: bigint; type: string }, [id: number | bigint]>(SQL.order),
  lines: statement<{ id: bigint; product_id: bigint; spec_id: bigint; quantity: bigint; power: bigint }, [orderId: bigint]>(SQL.lines),
  insert: statement<never, [user: bigint, order: bigint, line: bigint, unit: number, product: bigint, spec: bigint, power: bigint, at: number]>(SQL.insert),
})

/** What is stored of a code: SHA-256 of its normalized form (the code has ~79 random bits). */
export const hashCode = (normalized: string): string => createHash('sha256').update(normalized).digest('hex')

/**
 * Inside the payment's transaction (preOrder fulfil()): one pending device per unit of each line of a
 * paid device order, at the line's power. Idempotent: a unit already made is kept as it is.
 */
export async function createDevices(tx: Tx, orderId: number | bigint, at: number): Promise<number> {
  const o = await tx.get(MAKE.order, orderId)
  if (!o || o.type !== 'device') return 0
  let made = 0
  for (const l of await tx.all(MAKE.lines, o.id)) {
    for (let unit = 1; unit <= Number(l.quantity); unit++) {
      made += (await tx.run(MAKE.insert, o.user_id, o.id, l.id, unit, l.product_id, l.spec_id, l.power, at)).changes
    }
  }
  return made
}

export interface IssuedCode {
  device_id: number
  /** As printed: XXXX-XXXX-XXXX-XXXX. */
  code: string
}

/**
 * Inside a transaction: a new code for each device of the order not activated yet (replacing an
 * earlier one, which stops working). Answers the codes in clear — the only time they exist in clear.
 */
export async function issueCodes(tx: Tx, orderId: number | bigint, at: number, random: (n: number) => Uint8Array = randomBytes): Promise<IssuedCode[]> {
  const codes: IssuedCode[] = []
  for (const { id } of await tx.all(CODES.pendingOfOrder, orderId)) {
    // A collision with another device's code (unique index) is astronomically unlikely; retry anyway,
    // in a savepoint: on PostgreSQL a refused statement would otherwise end the whole transaction.
    for (;;) {
      const code = makeCode(random)
      try {
        await tx.savepoint((t) => t.run(CODES.putCode, id, hashCode(code), at))
        codes.push({ device_id: Number(id), code: formatCode(code) })
        break
      } catch (err) {
        if (constraintOf(err) !== 'unique') throw err
      }
    }
  }
  return codes
}

export class CodesRefused extends Error {
  override name = 'CodesRefused'
}

/** The operator's `device codes <order>`: reissue the codes of a shipped device order's devices not activated yet. */
export async function reissueCodes(ctx: Pick<Ctx, 'sql' | 'now'>, orderId: number): Promise<IssuedCode[]> {
  return ctx.sql.transaction(async (tx) => {
    const o = await tx.get(CODES.orderState, orderId)
    if (!o || o.type !== 'device') throw new CodesRefused(`no device order ${orderId}`)
    if (o.fulfilment !== 'pending_receipt' && o.fulfilment !== 'completed') throw new CodesRefused(`order ${orderId} is ${o.fulfilment ?? 'not paid'}: codes are issued when it ships`)
    const devices = await tx.all(CODES.devicesOfOrder, orderId)
    if (devices.length > 0 && devices.every((d) => d.status === 'success')) throw new CodesRefused(`every device of order ${orderId} is activated already`)
    return issueCodes(tx, orderId, ctx.now())
  })
}

interface DeviceRow {
  id: bigint
  user_id: bigint
  order_id: bigint
  product_id: bigint
  power: bigint
  status: 'pending' | 'success'
  activated_at: bigint | null
  created_at: bigint
}

type ListedRow = DeviceRow & { order_no: string; name: string; spec_name: string; cover: string; shipped: bigint; last_ok: bigint | null }

/** The caller's devices, newest first: read outside any transaction, and inside the activation's for its answer. */
const LIST = statement<ListedRow, [userId: number]>(SQL.list)

/** What activating a device runs, in its transaction. */
const ACTIVATE = statements({
  failures: statement<{ at: bigint }, [userId: number, since: number]>(SQL.failures),
  lastSuccess: statement<{ at: bigint | null }, [userId: number]>(SQL.lastSuccess),
  own: statement<DeviceRow & { code_hash: string | null; used_at: bigint | null }, [deviceId: number, userId: number]>(SQL.own),
  byHash: statement<{ id: bigint; user_id: bigint; status: string }, [hash: string]>(SQL.byHash),
  attempt: statement<never, [userId: number, deviceId: number | bigint | null, ok: number, at: number]>(SQL.attempt),
  prune: statement<never, [before: number]>(SQL.prune),
  position: statement<{ id: bigint }, [userId: number, power: bigint, ratePpm: number | bigint, startDay: number, source: string, at: number]>(`${SQL.position} RETURNING id`),
  activate: statement<never, [positionId: bigint, at: number, id: bigint]>(SQL.activate),
  useCode: statement<never, [at: number, deviceId: bigint]>(SQL.useCode),
})

function deviceWire(d: ListedRow, lang: LangCode): Device {
  const status: DeviceStatus = d.status === 'success' ? 'success' : d.last_ok === 0n ? 'failed' : 'pending'
  return {
    id: Number(d.id),
    goods_id: Number(d.product_id),
    name: pickText(d.name, lang),
    spec_name: pickText(d.spec_name, lang),
    cover: d.cover,
    power: formatMoney(d.power),
    status,
    shipped: d.shipped === 1n,
    activated_at: d.activated_at === null ? null : Number(d.activated_at),
    mining_from: d.activated_at === null ? null : dayStart(dayOf(Number(d.activated_at)) + 1),
    order_id: Number(d.order_id),
    order_no: d.order_no,
    created_at: Number(d.created_at),
  }
}

export function createDeviceService(ctx: Ctx) {
  /** The caller's devices read through `q`: the activation's tx (its writes seen), or the database. */
  const listIn = async (q: Queryable, userId: number, lang: LangCode): Promise<Device[]> => (await q.all(LIST, userId)).map((d) => deviceWire(d, lang))

  return {
    list: (userId: number, lang: LangCode): Promise<Device[]> => listIn(ctx.sql, userId, lang),

    /**
     * Activates the caller's device with its code. A refusal changes no device, code or position; it
     * is only counted (device_attempts) — the count is what rate-limits guessing, so it is written in
     * its own transaction and the error thrown after it commits.
     */
    async activate(userId: number, lang: LangCode, deviceId: number, rawCode: string): Promise<Device> {
      const now = ctx.now()
      const activated = async (q: Queryable) => (await listIn(q, userId, lang)).find((x) => x.id === deviceId)!
      // A refused attempt commits too (it is counted): its refusal is the answer kept with it.
      answerKeyedIn(async (refused: ApiError | null, tx) => refused ?? (await activated(tx)))
      const outcome = await ctx.sql.transaction(async (tx): Promise<ApiError | null> => {
        // Two attempts at once, from two processes, count their failures one after the other, so the
        // limit cannot be overrun by racing it.
        await lockUser(tx, userId)
        const failures = (await tx.all(ACTIVATE.failures, userId, now - ATTEMPT_WINDOW_MS)).map((r) => Number(r.at))
        const last = (await tx.get(ACTIVATE.lastSuccess, userId))?.at ?? null
        if (!attemptAllowed(failures, last === null ? null : Number(last), now)) return tooMany()
        const code = normalizeCode(rawCode)
        // A malformed code is a typo, not a guess: refused without counting it.
        if (code === null) return badRequest('errors.deviceCodeFormat')
        const d = await tx.get(ACTIVATE.own, deviceId, userId)
        const fail = async (err: ApiError, known: boolean) => {
          await tx.run(ACTIVATE.attempt, userId, known ? deviceId : null, 0, now)
          return err
        }
        if (!d) return fail(notFound('errors.deviceNotFound'), false)
        if (d.status === 'success') return conflict('errors.deviceAlreadyActive')
        if (d.code_hash === null) return conflict('errors.deviceNotShipped')
        const hash = hashCode(code)
        if (!timingSafeEqual(Buffer.from(hash), Buffer.from(d.code_hash))) {
          const other = await tx.get(ACTIVATE.byHash, hash)
          // The code of another of the caller's own devices, already used: say so. Anyone else's code
          // reads like a wrong one, so a code tells nothing about other users' devices.
          if (other && other.user_id === BigInt(userId) && other.status === 'success') return fail(conflict('errors.deviceCodeUsed'), true)
          return fail(badRequest('errors.deviceCodeWrong'), true)
        }
        const startDay = dayOf(now) + 1
        const pos = (await tx.get(ACTIVATE.position, userId, d.power, ctx.config.devices.ratePpm, startDay, `device:${d.id}`, now))!
        // Conditional on pending: the position above is rolled back with it if the device was activated meanwhile.
        if ((await tx.run(ACTIVATE.activate, pos.id, now, d.id)).changes !== 1) throw conflict('errors.deviceAlreadyActive')
        await tx.run(ACTIVATE.useCode, now, d.id)
        await tx.run(ACTIVATE.attempt, userId, d.id, 1, now)
        await tx.run(ACTIVATE.prune, now - 30 * 86_400_000)
        return null
      })
      if (outcome) throw outcome
      return activated(ctx.sql)
    },
  }
}

export type DeviceService = ReturnType<typeof createDeviceService>
