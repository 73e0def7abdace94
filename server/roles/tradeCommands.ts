// Trading across processes (issue 19, docs/processes.md): an API process has no engine, so it writes
// the user's place or cancel into trade_commands (migration 028) and waits; the market's engine
// leader claims what is pending, applies it through its Exchange and marks it done in the same
// transaction as what it wrote. The bus only wakes the other side (tradecmd:<instId> → the engine,
// tradedone:<instId> → the API processes); both also look at the table on a timer, so a lost wake-up
// costs latency, never an answer.
//
// Exactly once: done commits with the command's order, fills and journal entry (Exchange's AlsoWrite,
// one statement for a batch's commands, refusals included),
// so a successor that finds a command taken and not done knows nothing of it was kept and applies it
// again; a place also carries the user's client_order_id, which the engine answers with the order it
// placed the first time. An API process that has waited too long for a command still pending marks
// it abandoned (only if still pending: a row lock decides between it and the engine's claim) and
// answers "trading is paused"; one already taken is waited for, since its outcome is coming.

import { Compile } from 'typebox/compile'
import { Type } from 'typebox'
import type { FastifyBaseLogger } from 'fastify'
import { statement, statements, type Queryable, type Tx } from '../db/query/types.ts'
import { TradeRejected, type Exchange, type Outcome, type PlaceInput } from '../exchange/exchange.ts'
import { chunks } from '../exchange/batchWrites.ts'
import { listStatement } from '../db/query/list.ts'
import { EXCHANGE, type OrderRow } from '../exchange/statements.ts'
import type { Bus } from './bus.ts'
import { ENGINE_KEY } from './leader.ts'

/** The bus topics that wake each side. */
export const commandTopics = (instId: string) => ({ sent: `tradecmd:${instId}`, done: `tradedone:${instId}` })

type Kind = 'place' | 'cancel'
type Reason = TradeRejected['reason']

const Side = Type.Union([Type.Literal('buy'), Type.Literal('sell')])
const Cid = Type.String({ pattern: '^[A-Za-z0-9_-]{1,40}$' })
const Int = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
const placeCheck = Compile(
  Type.Union([
    Type.Object({ side: Side, type: Type.Literal('limit'), price: Int, lots: Int, clientOrderId: Cid }, { additionalProperties: false }),
    Type.Object({ side: Type.Literal('sell'), type: Type.Literal('market'), lots: Int, clientOrderId: Cid }, { additionalProperties: false }),
    Type.Object({ side: Type.Literal('buy'), type: Type.Literal('market'), quote: Int, clientOrderId: Cid }, { additionalProperties: false }),
  ]),
)
const cancelCheck = Compile(Type.Object({ orderId: Int }, { additionalProperties: false }))
const REASONS: ReadonlySet<string> = new Set<Reason>(['bad_command', 'duplicate_id', 'bad_price', 'bad_lots', 'bad_quote', 'min_notional', 'unknown_order', 'not_owner', 'insufficient_funds', 'halted', 'open_orders_limit'])

/** A done command's result as stored: the order it placed or cancelled, or why it was refused. */
type Result = { order_id: number } | { rejected: Reason; detail: { asset?: string; current?: string; required?: string; max?: number } }

function parseResult(text: string | null): Result | null {
  if (text === null) return null
  try {
    const r = JSON.parse(text) as Partial<{ order_id: unknown; rejected: unknown; detail: Record<string, unknown> }>
    if (typeof r.order_id === 'number' && Number.isSafeInteger(r.order_id)) return { order_id: r.order_id }
    if (typeof r.rejected === 'string' && REASONS.has(r.rejected)) {
      const d = r.detail ?? {}
      const str = (v: unknown) => (typeof v === 'string' && /^\d{1,30}$/.test(v) ? v : undefined)
      const max = typeof d.max === 'number' && Number.isSafeInteger(d.max) && d.max > 0 ? d.max : undefined
      return { rejected: r.rejected as Reason, detail: { asset: typeof d.asset === 'string' ? d.asset : undefined, current: str(d.current), required: str(d.required), max } }
    }
  } catch {
    // Falls through: a result nobody could have written is an error, below.
  }
  return null
}

/** A refusal as stored. */
function resultOf(e: TradeRejected): Result {
  const d = e.detail
  return { rejected: e.reason, detail: { asset: d.asset, current: d.current?.toString(), required: d.required?.toString(), max: d.max } }
}

// ── The engine's side ─────────────────────────────────────────────────────────────────────────────

type Row = { id: bigint; user_id: bigint; kind: string; body: string }

const ENGINE = statements({
  claim: statement<never, [instId: string]>("UPDATE trade_commands SET status = 'taken' WHERE inst_id = ? AND status = 'pending'"),
  taken: statement<Row, [instId: string]>("SELECT id, user_id, kind, body FROM trade_commands WHERE inst_id = ? AND status = 'taken' ORDER BY id LIMIT 1000"),
  done: statement<never, [result: string, at: number, id: number]>("UPDATE trade_commands SET status = 'done', result = ?, done_at = ? WHERE id = ? AND status = 'taken'"),
  prune: statement<never, [instId: string, before: number]>("DELETE FROM trade_commands WHERE inst_id = ? AND status IN ('done', 'abandoned') AND created_at < ?"),
})

export interface CommandServer {
  /** Stops taking commands and waits for those applied to commit. */
  close(): Promise<void>
}

/**
 * The engine leader's consumer: claims what is pending, applies taken commands in id order (those a
 * predecessor took and never finished first), marks each done with what it wrote, and wakes the
 * API processes. `everyMs`: how often it looks without a wake-up (and at the orphans of a dead leader).
 */
export function serveTradeCommands(exchange: Exchange, bus: Bus, opts: { log: Pick<FastifyBaseLogger, 'warn' | 'error'>; now: () => number; everyMs?: number }): CommandServer {
  const sql = exchange.conn.sql
  const inst = exchange.spec.instId
  const topics = commandTopics(inst)
  /** Submitted by this leader and not yet committed: a look meanwhile must not apply them twice. */
  const inFlight = new Set<number>()
  /**
   * Committed by this leader, each with the number of looks begun by then. A look's claim runs in a
   * transaction of its own, beside the batches: one begun before a command's batch committed may read
   * it as still taken and answer after the commit, when it is no longer in flight; it must not apply
   * it again. A look begun after the commit reads it as done.
   */
  const committed = new Map<number, number>()
  let looks = 0
  const finished: number[] = []
  let closed = false
  let looking = false
  let again = false
  const applying = new Set<Promise<unknown>>()

  const markDone = async (tx: Tx, id: number, result: Result) => {
    if ((await tx.run(ENGINE.done, JSON.stringify(result), opts.now(), id)).changes !== 1) throw new Error(`trade command ${id} was not ours to finish (another engine took it?)`)
  }
  // A batch's commands marked done in one statement, in the batch's transaction.
  exchange.alsoWrite(async (tx, outcomes: Outcome[]) => {
    const at = opts.now()
    for (const rows of chunks(outcomes)) {
      const params = rows.flatMap((o) => [o.tag, JSON.stringify(o.order ? { order_id: Number(o.order.id) } : resultOf(o.refused)), at])
      const { changes: marked } = await tx.run(
        listStatement(
          "UPDATE trade_commands SET status = 'done', result = v.column2, done_at = v.column3 FROM (",
          '(CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT))',
          ['bigint', 'text', 'bigint'],
          rows.length,
          ") AS v WHERE trade_commands.id = v.column1 AND trade_commands.status = 'taken'",
        ),
        ...params,
      )
      if (marked !== rows.length) throw new Error(`trade commands ${rows.map((o) => o.tag).join(', ')}: ${rows.length - marked} were not ours to finish (another engine took them?)`)
    }
  })
  const announce = (id: number) => {
    finished.push(id)
    if (finished.length === 1) setImmediate(() => bus.publish(topics.done, { ids: finished.splice(0) }))
  }

  const apply = (row: { id: bigint; user_id: bigint; kind: string; body: string }) => {
    const id = Number(row.id)
    const userId = Number(row.user_id)
    inFlight.add(id)
    let body: unknown = null
    try {
      body = JSON.parse(row.body)
    } catch {
      // A body no API process wrote: refused below like any malformed one.
    }
    // Tagged with the command's id: the exchange marks it done in the batch that applies or refuses it.
    const run =
      row.kind === 'place' && placeCheck.Check(body)
        ? exchange.place(userId, body as PlaceInput, id)
        : row.kind === 'cancel' && cancelCheck.Check(body)
          ? exchange.cancel(userId, (body as { orderId: number }).orderId, id)
          : null
    const p = (run ?? sql.transaction((tx) => markDone(tx, id, resultOf(new TradeRejected('bad_command')))))
      .catch((e: unknown) => {
        // A refusal was marked in its batch; anything else left the command taken.
        if (!(e instanceof TradeRejected)) throw e
      })
      .then(
        () => {
          inFlight.delete(id)
          committed.set(id, looks)
          announce(id)
        },
        (err: unknown) => {
          // Not committed (the batch failed, the database went away): left taken, so the next look or the next leader applies it.
          inFlight.delete(id)
          opts.log.error({ err, command: id }, 'engine: a trading command failed to commit; it is tried again')
        },
      )
      .finally(() => applying.delete(p))
    applying.add(p)
  }

  // Claimed and read in one transaction.
  const claimed = () =>
    sql.transaction(async (tx) => {
      await tx.run(ENGINE.claim, inst)
      return tx.all(ENGINE.taken, inst)
    })
  const look = async () => {
    if (closed) return
    if (looking) {
      again = true
      return
    }
    looking = true
    try {
      do {
        again = false
        const begun = ++looks
        const rows = await claimed()
        for (const [id, at] of committed) if (at < begun) committed.delete(id) // read as done by this look and every later one
        for (const row of rows) {
          const id = Number(row.id)
          if (!inFlight.has(id) && !committed.has(id) && !closed) apply(row)
        }
      } while (again && !closed)
    } catch (err) {
      opts.log.error({ err }, 'engine: reading the trading commands failed')
    } finally {
      looking = false
    }
  }

  const off = bus.subscribe(topics.sent, () => void look())
  const timer = setInterval(() => void look(), opts.everyMs ?? 250)
  // Answered commands are kept a day, for support; then they go.
  const pruner = setInterval(() => {
    sql.run(ENGINE.prune, inst, opts.now() - 86_400_000).catch((err: unknown) => opts.log.warn({ err }, 'engine: pruning old trading commands failed'))
  }, 3_600_000)
  pruner.unref()
  void look()
  return {
    async close() {
      closed = true
      off()
      clearInterval(timer)
      clearInterval(pruner)
      await Promise.allSettled([...applying])
    },
  }
}

// ── The API's side ────────────────────────────────────────────────────────────────────────────────

export interface RemoteTrading {
  place(userId: number, input: PlaceInput): Promise<OrderRow>
  cancel(userId: number, orderId: number): Promise<OrderRow>
  /** Whether an engine leads the market now (looked up at most every half second). */
  engineLeads(): boolean
  close(): void
}

export interface RemoteTradingOptions {
  instId: string
  /** The market's index: its engine's election key is ENGINE_KEY + index. */
  index: number
  now: () => number
  /** How long a command may wait to be taken before it is abandoned as "trading is paused" (3 s). */
  pendingMs?: number
  /** How long a taken command is waited for before the answer is "not known yet" (30 s). */
  takenMs?: number
  /** How often the table is looked at without a wake-up (200 ms). */
  pollMs?: number
}

/** The outcome of a taken command that never arrived: the user should look at their orders before trying again. */
export class TradeOutcomeUnknown extends Error {
  override name = 'TradeOutcomeUnknown'
}

const API = statements({
  insert: statement<{ id: bigint }, [instId: string, userId: number, kind: Kind, body: string, at: number]>(
    'INSERT INTO trade_commands (inst_id, user_id, kind, body, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
  ),
  read: statement<{ status: string; result: string | null }, [id: number]>('SELECT status, result FROM trade_commands WHERE id = ?'),
  abandon: statement<never, [at: number, id: number]>("UPDATE trade_commands SET status = 'abandoned', done_at = ? WHERE id = ? AND status = 'pending'"),
  leads: statement<{ n: bigint }, [key: number]>(
    `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = ? AND objsubid = 1 AND granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  ),
})

/** An API process's way to trade: the command table to the engine leader, the answer back. */
export function remoteTrading(sql: Queryable, bus: Bus, o: RemoteTradingOptions): RemoteTrading {
  const topics = commandTopics(o.instId)
  const key = ENGINE_KEY + o.index
  // Looked up at most every half second; the status reads what was last known (a look in flight is shared).
  let leading = { at: -Infinity, yes: false }
  let looking: Promise<boolean> | null = null
  const leadsNow = (): Promise<boolean> => {
    if (Date.now() - leading.at < 500) return Promise.resolve(leading.yes)
    return (looking ??= sql
      .get(API.leads, key)
      .then((r) => (leading = { at: Date.now(), yes: Number(r!.n) > 0 }).yes)
      .finally(() => (looking = null)))
  }
  // The status is read synchronously, so the last answer is kept fresh by a look every quarter second
  // (as old as the synchronous look it replaces allowed); a failed look leaves the last answer.
  const refresh = setInterval(() => void leadsNow().catch(() => undefined), 250)
  refresh.unref()
  void leadsNow().catch(() => undefined)
  const engineLeads = () => leading.yes

  const waiters = new Map<number, () => void>()
  const wakeAll = () => {
    for (const w of [...waiters.values()]) w()
  }
  const off = bus.subscribe(topics.done, (msg) => {
    const ids = (msg as { ids?: unknown }).ids
    if (!Array.isArray(ids)) return
    for (const id of ids) if (typeof id === 'number') waiters.get(id)?.()
  }, wakeAll)

  const outcome = async (id: number) => (await sql.get(API.read, id))!

  async function send(userId: number, kind: Kind, body: object): Promise<OrderRow> {
    if (!(await leadsNow())) throw new TradeRejected('halted')
    const id = Number((await sql.get(API.insert, o.instId, userId, kind, JSON.stringify(body), o.now()))!.id)
    bus.publish(topics.sent, { id })
    const started = Date.now()
    const pendingMs = o.pendingMs ?? 3_000
    const takenMs = o.takenMs ?? 30_000
    for (;;) {
      const r = await outcome(id)
      if (r.status === 'done') return answer(id, r.result)
      const waited = Date.now() - started
      if (r.status === 'pending' && waited >= pendingMs) {
        // Nothing applied it and nothing will: the engine takes only what is pending.
        if ((await sql.run(API.abandon, o.now(), id)).changes === 1) throw new TradeRejected('halted')
        continue
      }
      if (waited >= takenMs) throw new TradeOutcomeUnknown(`trade command ${id} was taken but not answered within ${takenMs} ms`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, o.pollMs ?? 200)
        function done() {
          clearTimeout(timer)
          waiters.delete(id)
          resolve()
        }
        waiters.set(id, done)
      })
    }
  }

  async function answer(id: number, text: string | null): Promise<OrderRow> {
    const r = parseResult(text)
    if (r === null) throw new Error(`trade command ${id} is done with a result that cannot be read`)
    if ('rejected' in r) {
      const d = r.detail
      throw new TradeRejected(r.rejected, { asset: d.asset, current: d.current === undefined ? undefined : BigInt(d.current), required: d.required === undefined ? undefined : BigInt(d.required), max: d.max })
    }
    return (await sql.get(EXCHANGE.orderById, r.order_id))!
  }

  return {
    place: (userId, input) => send(userId, 'place', input),
    cancel: (userId, orderId) => send(userId, 'cancel', { orderId }),
    engineLeads,
    close: () => {
      clearInterval(refresh)
      off()
    },
  }
}
