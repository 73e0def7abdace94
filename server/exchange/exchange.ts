// The NADI/USDT market as a service (DESIGN §8): the pure engine in memory, every accepted command
// journaled, every money consequence posted through the ledger, all of one command in one savepoint of
// a group-committed transaction. An order is acknowledged only after that commit: acknowledged orders
// survive a crash, and the book is rebuilt at start by replaying the journal.
//
// A batch of commands, inside one transaction (issue 34 §3: a fixed number of statements per batch,
// not a few per command, since each is a round trip on PostgreSQL):
//   read:   the stored orders its cancels and repeated client ids name, and the trade balances its
//           places freeze from (two and one statements)
//   run:    each command in memory, in order — place: check the freeze against that balance plus what
//           the batch moved so far → engine.apply → its journal row, order rows, fills, deals and
//           money moves, staged (./batchWrites.ts); cancel: engine.apply → the same
//   write:  every table's rows in one multi-row statement, the money as the batch's one netted
//           posting (ledger.postMany), what the callers write beside their commands (AlsoWrite)
// A refusal (bad input, insufficient funds, an engine refusal) happens before anything of its command
// is staged: it refuses alone and the batch goes on. A failure while writing would leave the engine
// ahead of the database, so the batch is abandoned and the engine rebuilt from the journal.
//
// A market that cannot be rebuilt (its journal does not replay, or the replayed book disagrees with
// the open orders) halts instead of taking the process down: it refuses every command with "trading
// is paused", says so on `status:<instId>` and GET trade/status, logs the journal position, and waits
// for the operator's `market repair` (./repair.ts) while the rest of the server keeps serving.
//
// After each commit, what the batch did is published: book updates (seqId/prevSeqId, checksum),
// trades, candles, the ticker, and to their owners only user@update_order and user@balance.

import type { BalanceUpdate, BookData, CancelReason, MarketStatus, Order as WireOrder, OrderStatus, Side } from '../../contract/trade.ts'
import { BARS, INST_ID, type Bar } from '../../contract/trade.ts'
import { formatMoney } from '../../contract/money.ts'
import type { Connection } from '../db/index.ts'
import { currentKeyedEffect, outsideKeyedEffect, type KeyedEffect } from '../db/keyedEffect.ts'
import { claimKeysIn, recordKeysIn, releaseKeysIn } from '../db/idempotencyKeys.ts'
import type { Queryable, Sql, Tx } from '../db/query/types.ts'
import * as ledger from '../ledger/index.ts'
import { scoreFills } from '../modules/activity/scores.ts'
import { BatchWrites, readKnownOrders, readTradeAvailable, readTradeBalances, type Unseen } from './batchWrites.ts'
import { statement } from '../db/query/types.ts'
import { constraintOf } from '../db/errors.ts'
import {
  Engine,
  frozenForPlace,
  priceUnits,
  quoteStep,
  releaseOnDone,
  settleFill,
  sizeUnits,
  type Command,
  type EngineSink,
  type Fees,
  type MarketSpec,
  type Order as EngineOrder,
  type PlaceCommand,
  type RejectReason,
} from './engine/index.ts'
import { BookFeed, CandleBook, TickerWindow, TradeRing, candleToWire, type CandleChange, type CandleState } from './marketData/index.ts'
import { listStatement, type ListType } from '../db/query/list.ts'
import { EXCHANGE, type CandleRow, type OrderRow } from './statements.ts'
import { MarketFault, replayJournal } from './journal.ts'
import { overOpenLimit } from './openLimit.ts'
import { planRepair } from './repair.ts'
import { applyRepair, diagnose, readRepairInputs, type Diagnosis, type RepairRecord } from './repairStore.ts'

/** A tagged command's outcome in a batch: the order it placed or cancelled, or its refusal. */
export type Outcome = { tag: number; order: OrderRow; refused: null } | { tag: number; order: null; refused: TradeRejected }

/**
 * Writes that must commit with their commands or not at all, given all the tagged commands of a batch
 * at once (so they too cost a fixed number of statements): an engine process marks there the trading
 * commands that asked for them done (server/roles/tradeCommands.ts), so a command is applied once even
 * when the process dies between the two. Throwing abandons the batch.
 */
export type AlsoWrite = (tx: Tx, outcomes: Outcome[]) => Promise<void>

/** A command waiting for its batch. */
interface Queued {
  command: { kind: 'place'; userId: number; input: PlaceInput } | { kind: 'cancel'; userId: number; orderId: number }
  tag: number | undefined
  /** The keyed request it was sent for: its Idempotency-Key's answer is written in the command's batch. */
  keyed: KeyedEffect | undefined
  /** Its place in the order commands arrived (a command run again keeps it). */
  seq: number
  /** Run again once already, after its batch failed for no fault of its own. */
  rerun?: true
  resolve(row: OrderRow): void
  reject(e: unknown): void
}

type Answer = { ok: true; row: OrderRow } | { ok: false; error: unknown }

/** A refusal the caller turns into a localized 4xx (the route maps reason → message). */
export class TradeRejected extends Error {
  constructor(
    readonly reason: RejectReason | 'insufficient_funds' | 'halted' | 'open_orders_limit',
    readonly detail: { asset?: string; current?: bigint; required?: bigint; max?: number } = {},
  ) {
    super(`order refused: ${reason}`)
    this.name = 'TradeRejected'
  }
}

export interface Publisher {
  /** A push to every subscriber of a public stream. */
  publish(stream: string, frame: unknown): void
  /** A push on a private stream to one user's connections only. */
  publishToUser(userId: number, stream: string, frame: unknown): void
  /** Whether anyone listens: a push nobody would receive is not even built (it costs reads). */
  listening?(stream: string, userId?: number): boolean
}

/** A user's trade-account balances as user@balance sends them; read from the ledger, so any process can answer. */
export async function tradeBalances(q: Sql | Tx, userId: number): Promise<BalanceUpdate[]> {
  const b = await ledger.balances(q, userId)
  return balanceUpdates((asset) => b[asset].trade)
}

/** user@balance's data from a user's trade balance per asset (none: zero). */
function balanceUpdates(of: (asset: 'USDT' | 'NADI') => { available: bigint; frozen: bigint } | undefined): BalanceUpdate[] {
  return (['USDT', 'NADI'] as const).map((asset) => {
    const b = of(asset)
    return { asset, account: 'trade' as const, available: formatMoney(b?.available ?? 0n), frozen: formatMoney(b?.frozen ?? 0n) }
  })
}

export interface ExchangeOptions {
  conn: Connection
  spec: MarketSpec
  fees: Fees
  now: () => number
  publisher?: Publisher
  log?: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void }
  /** A snapshot of the book is saved every this many commands; a start replays only the journal after the newest. */
  snapshotEvery?: number
  /** Group commit limits (DESIGN: at most ~5 ms or 500 commands per flush). */
  maxBatch?: number
  maxDelayMs?: number
  /**
   * PostgreSQL: a batch begins beside an open one once this many commands are queued (default 32,
   * at most maxBatch); with fewer it waits for the open one to commit, and takes them all then.
   */
  overlapFrom?: number
  /** Open orders one user may have in this market (NADI_TRADE_MAX_OPEN_ORDERS); none when unset. */
  maxOpenPerUser?: number
}

/** What the caller asks for, already converted to the engine's integers (spec.ts). */
export type PlaceInput =
  | { side: Side; type: 'limit'; price: number; lots: number; clientOrderId: string }
  | { side: 'sell'; type: 'market'; lots: number; clientOrderId: string }
  | { side: 'buy'; type: 'market'; quote: number; clientOrderId: string }

interface FillEffect {
  fillId: number
  makerOrderId: number
  takerOrderId: number
  takerSide: Side
  price: number
  lots: number
  quote: number
  ts: number
}

/** What one committed command did, for publishing after the commit. */
interface Effects {
  levels: { side: Side; price: number; lots: number }[]
  fills: FillEffect[]
  orders: Set<number>
  users: Set<number>
}

const OPEN: ReadonlySet<string> = new Set(['pending', 'partially_filled'])

export class Exchange {
  readonly spec: MarketSpec
  readonly fees: Fees
  private engine: Engine
  private feed = new BookFeed()
  readonly candles = new CandleBook()
  readonly ticker = new TickerWindow()
  readonly trades = new TradeRing()
  private nextOrderId = 1
  private nextFillId = 1
  /** Commands waiting for their batch, and the market's own turns (rebuild, check, repair, snapshot), in the order asked. */
  private queue: (Queued | Turn)[] = []
  /** The market's writer, while it runs: it takes what is queued until nothing is. */
  private driver: Promise<void> | null = null
  /** Batches whose transactions have not ended; each promise settles when its own has. */
  private readonly inflight = new Set<Promise<void>>()
  /** The batch begun last: the next one writes only after it committed. */
  private last: Batch | null = null
  /** Commands queued that make a batch worth beginning beside an open one (ExchangeOptions.overlapFrom). */
  private readonly overlapFrom: number
  /** Wakes the writer waiting for that many commands. */
  private wake: (() => void) | null = null
  /** Commands taken so far (Queued.seq). */
  private arrived = 0
  /** Batches begun, and those begun while the one before was still open (for tests and the bench: overlap really happens). */
  batches = 0
  overlapped = 0
  /** Batches open at once: on PostgreSQL the next one reads and runs while the one before writes and commits. */
  private readonly openAtOnce: number
  private closed = false
  private also: AlsoWrite | null = null
  /** The batch whose commands are being run (read, then applied in memory). */
  private b = new Batch()
  /** Set when the engine moved but its command's writes cannot follow: the batch is abandoned and the book rebuilt. */
  private diverged = false
  /**
   * The engine may not be the book the database holds (a batch was abandoned, a repair rewrote the
   * book, or it was never built): the next batch rebuilds it from the journal first, in its own
   * transaction, so no batch runs on it meanwhile. Set from the start: a market never started builds
   * its book before its first command.
   */
  private stale = true
  /** What made the batch diverge: the cause its abandonment carries (a lost connection answers 503). */
  private divergedBy: unknown = undefined
  private cur: Effects | null = null
  private refused: RejectReason | null = null
  private sinceSnapshot = 0
  private readonly sink: EngineSink
  /** Set while the market is halted: what halted it, and when. */
  private fault: { at: number; message: string; journalSeq: bigint | null } | null = null

  constructor(private readonly o: ExchangeOptions) {
    this.spec = o.spec
    this.fees = o.fees
    this.engine = new Engine(o.spec)
    this.openAtOnce = o.conn.sql.dialect === 'postgres' ? 2 : 1
    this.overlapFrom = Math.min(o.overlapFrom ?? 32, o.maxBatch ?? 500)
    const effects = () => this.cur as Effects
    this.sink = {
      accepted: () => {},
      rejected: (_cmd, reason) => {
        this.refused = reason
      },
      fill: (maker, taker, price, lots, quote) => {
        effects().fills.push({ fillId: this.nextFillId++, makerOrderId: maker.id, takerOrderId: taker.id, takerSide: taker.side, price, lots, quote, ts: taker.ts })
        effects().orders.add(maker.id)
        effects().users.add(maker.userId)
      },
      done: (order, why) => {
        // The engine forgets a finished order; its command's writes still need it, and why it ended.
        this.doneOrders.set(order.id, order)
        if (order.status === 'cancelled' && why !== 'cancelled' && why !== 'filled') this.cancelReasons.set(order.id, why)
        effects().orders.add(order.id)
        effects().users.add(order.userId)
      },
      level: (side, price, lots) => {
        effects().levels.push({ side, price, lots })
      },
    }
  }

  // ── Start: rebuild from the journal ───────────────────────────────────────────────────────────

  /**
   * Replays the journal into a fresh engine and reloads market data. Call once, and await it, before
   * serving. Never throws for a journal that does not replay: the market halts (status()) and the rest serves.
   */
  async start(): Promise<void> {
    await this.recoverSoon()
    try {
      await this.loadMarketData()
    } catch (e) {
      // Candles, ticker and tape are derived views: without them the market still trades correctly.
      this.o.log?.error({ err: e, instId: this.spec.instId }, 'exchange: market data could not be loaded; candles and ticker start empty')
    }
  }

  /**
   * The book rebuilt, if stale, in a turn of the market's writer of its own: after every batch queued
   * before it, before any queued after (a batch finding the book stale rebuilds it first anyway).
   */
  private recoverSoon(): Promise<void> {
    return this.turn((tx) => this.recoverIn(tx))
  }

  /** Rebuilds a stale book from the journal, through the writer's transaction; a market that cannot be rebuilt halts. */
  private async recoverIn(tx: Tx): Promise<void> {
    if (!this.stale) return
    this.stale = false
    try {
      await this.rebuild(tx)
    } catch (e) {
      this.halt(e)
    }
  }

  private async rebuild(tx: Tx): Promise<void> {
    const replayed = await replayJournal(tx, this.spec)
    const engine = replayed.engine
    const maxOrder = Number((await tx.get(EXCHANGE.maxOrderId))?.id ?? 0n)
    const maxFill = Number((await tx.get(EXCHANGE.maxFillId))?.id ?? 0n)
    this.nextOrderId = Math.max(this.nextOrderId, replayed.lastOrderId + 1, maxOrder + 1)
    this.nextFillId = Math.max(this.nextFillId, maxFill + 1)
    await this.checkAgainstOrders(tx, engine, replayed.lastSeq)
    this.engine = engine
    this.showBook(engine)
    if (this.fault) {
      this.fault = null
      this.o.log?.info({ instId: this.spec.instId, journalSeq: String(replayed.lastSeq) }, 'exchange: the market is live again')
      this.publishStatus()
    }
  }

  /** A new feed with the book's levels (none while halted); subscribers get a fresh snapshot. */
  private showBook(engine: Engine | null): void {
    const feed = new BookFeed({ startSeqId: this.feed.seqId + 1 })
    for (const side of ['buy', 'sell'] as const) {
      for (const [price, lots] of engine?.levels(side, Number.MAX_SAFE_INTEGER) ?? []) feed.change(side, priceUnits(this.spec, price), sizeUnits(this.spec, lots))
    }
    feed.flush(this.o.now())
    this.feed = feed
    this.o.publisher?.publish(`books:${this.spec.instId}`, this.bookFrame('snapshot', feed.snapshot(this.o.now())))
  }

  /** The replayed book must hold exactly the orders the database calls open. */
  private async checkAgainstOrders(tx: Tx, engine: Engine, lastSeq: bigint): Promise<void> {
    const open = new Map<number, bigint>()
    for (const r of await tx.all(EXCHANGE.openOrders, this.spec.instId)) open.set(Number(r.id), r.filled)
    const differ: number[] = []
    for (const o of engine.openOrders()) {
      const filled = open.get(o.id)
      if (filled === undefined || filled !== sizeUnits(this.spec, o.filledLots)) differ.push(o.id)
      open.delete(o.id)
    }
    differ.push(...open.keys())
    if (differ.length) {
      throw new MarketFault(
        `exchange: the replayed book (${engine.openCount} open) disagrees with trade_orders on ${differ.length} orders (e.g. ${differ.slice(0, 5).join(', ')})`,
        lastSeq,
      )
    }
  }

  /**
   * Stops the market: every command is refused until a repair, the book is withdrawn from view (it is
   * not known), the fault is logged with its journal position and pushed on status:<instId>.
   */
  private halt(e: unknown): void {
    const journalSeq = e instanceof MarketFault ? e.journalSeq : null
    const message = e instanceof Error ? e.message : String(e)
    this.fault = { at: this.o.now(), message, journalSeq }
    this.engine = new Engine(this.spec)
    this.o.log?.error(
      { err: e, instId: this.spec.instId, journalSeq: journalSeq === null ? null : String(journalSeq), command: e instanceof MarketFault ? e.command : null },
      'exchange: the market is HALTED (trading paused; the rest of the server serves). Run `tsx server/cli.ts market check`, then `market repair`',
    )
    this.showBook(null)
    this.publishStatus()
  }

  private publishStatus(): void {
    this.o.publisher?.publish(`status:${this.spec.instId}`, { arg: { channel: 'status', instId: this.spec.instId }, action: 'update', data: [this.status()] })
  }

  /** Live, or halted since when and at which journal row. */
  status(): MarketStatus {
    const f = this.fault
    return f
      ? { inst_id: INST_ID, state: 'halted', since: f.at, journal_seq: f.journalSeq === null ? null : Number(f.journalSeq) }
      : { inst_id: INST_ID, state: 'live', since: null, journal_seq: null }
  }

  /** What `market check` reports: where the journal stops replaying, what disagrees, what a repair would do. */
  diagnose(): Promise<Diagnosis> {
    // A turn of the market's own writer: no batch of the market is open meanwhile, so none commits
    // between its reads.
    return this.turn((tx) => diagnose(tx, this.spec))
  }

  /**
   * The operator's repair: halts the market if it is live (only when there is something to repair),
   * rebuilds the book from the open orders and the ledger (./repair.ts) in one transaction of the
   * market's own, then brings it back from that state. Null when the market is healthy and live.
   */
  async repair(): Promise<RepairRecord | null> {
    if (!this.fault && (await this.diagnose()).healthy) return null
    if (!this.fault) this.halt(new MarketFault('exchange: halted by the operator for a repair', null))
    const fault = this.fault!.message
    // A turn of the market's writer: the repair reads and writes in one transaction of its own, so it
    // is atomic and no batch of commands is open beside it.
    const record = await this.turn(async (tx) => {
      const inputs = await readRepairInputs(tx, this.spec)
      const done = await applyRepair(tx, this.spec, planRepair(this.spec, inputs.orders, inputs.frozen, inputs.lastOrderId), fault, this.o.now())
      // The next batch rebuilds from the repaired book before it runs.
      this.stale = true
      return done
    })
    await this.recoverSoon()
    this.o.log?.info({ instId: this.spec.instId, repair: record.repairId, journalSeq: record.journalSeq, cancelled: record.plan.cancel.length, released: record.plan.release.length }, 'exchange: market repaired')
    return record
  }

  /** What halted the market, for the operator (never sent to users: it names orders and users). */
  get faultDetail(): string | null {
    return this.fault?.message ?? null
  }

  private async loadMarketData(): Promise<void> {
    const sql = this.o.conn.sql
    const now = this.o.now()
    const stored = new Map<Bar, CandleState[]>()
    let resumeFrom = Number.MAX_SAFE_INTEGER
    for (const bar of BARS) {
      const rows = (await sql.all(EXCHANGE.lastCandles, this.spec.instId, bar, this.candles.keep)).reverse()
      const candles = rows.map(candleOfRow)
      stored.set(bar, candles)
      resumeFrom = Math.min(resumeFrom, candles.length ? candles[candles.length - 1]!.ts : 0)
    }
    // The newest stored candles may miss fills committed after they were saved: they are rebuilt from
    // those fills. With no fill since (demo history, a market that has not traded since), they are whole.
    const rebuild = resumeFrom !== Number.MAX_SAFE_INTEGER && (await sql.get(EXCHANGE.anyFillSince, this.spec.instId, resumeFrom)) !== undefined
    for (const [bar, candles] of stored) {
      if (rebuild) candles.pop()
      if (candles.length) this.candles.load(bar, candles)
    }
    if (!rebuild) resumeFrom = Number.MAX_SAFE_INTEGER
    const dayAgo = now - 24 * 3600_000
    for (const f of await sql.all(EXCHANGE.fillsSince, this.spec.instId, Math.min(resumeFrom, dayAgo))) {
      const ts = Number(f.created_at)
      if (ts >= resumeFrom) this.candles.onTrade(ts, f.price, f.size, f.quote)
      if (ts >= dayAgo) this.ticker.onTrade(ts, f.price, f.size, f.quote)
    }
    const recent = (await sql.all(EXCHANGE.recentFills, this.spec.instId, 100)).reverse()
    for (const f of recent) this.trades.push({ tradeId: Number(f.id), price: f.price, size: f.size, takerSide: f.taker_side, ts: Number(f.created_at) })
  }

  // ── Commands ──────────────────────────────────────────────────────────────────────────────────

  /**
   * Places an order for the user; resolves with it once durable. The same clientOrderId again answers
   * the order it placed the first time, whatever else differs. Refusals: TradeRejected. `tag`: the
   * command's outcome goes to the AlsoWrite in its batch (refusals too, a halted market's included).
   */
  place(userId: number, input: PlaceInput, tag?: number): Promise<OrderRow> {
    return this.enqueue({ kind: 'place', userId, input }, tag)
  }

  /** Cancels one of the user's open orders; resolves with it once durable. */
  cancel(userId: number, orderId: number, tag?: number): Promise<OrderRow> {
    return this.enqueue({ kind: 'cancel', userId, orderId }, tag)
  }

  /** Where the outcomes of tagged commands are written, in their batch's transaction. */
  alsoWrite(write: AlsoWrite): void {
    this.also = write
  }

  /** Waits for what is queued to commit and stops taking commands. */
  async close(): Promise<void> {
    this.closed = true
    while (this.driver || this.inflight.size) await Promise.all([this.driver, ...this.inflight])
    await this.published()
  }

  /** Resolves once what the batches committed so far push and save after their commits is done. */
  async published(): Promise<void> {
    await Promise.all([this.userPushes, this.candleSaves])
  }

  private enqueue(command: Queued['command'], tag: number | undefined): Promise<OrderRow> {
    if (this.closed) return Promise.reject(new Error('the market is closed'))
    if (this.fault && tag === undefined) return Promise.reject(new TradeRejected('halted'))
    return new Promise<OrderRow>((resolve, reject) => {
      this.queue.push({ command, tag, keyed: currentKeyedEffect(), seq: ++this.arrived, resolve, reject })
      if (this.wake && this.queue.length >= this.overlapFrom) this.wake()
      this.drive()
    })
  }

  /**
   * fn in a transaction of its own once no batch of the market is open, before any batch queued
   * after it: what must see the book and the database agree (a rebuild, a check, a repair, a snapshot).
   */
  private turn<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ turn: fn, resolve: resolve as (v: unknown) => void, reject })
      this.drive()
    })
  }

  /**
   * The market's one writer. Batches follow each other in the order of their commands; on PostgreSQL
   * a batch reads and runs while the one before it writes and commits (each on a connection of its
   * own), and writes only once that one committed, so the journal's order is the engine's and every
   * batch writes over the rows of the one before. A turn, or a book to rebuild, waits until no batch
   * is open.
   */
  private drive(): void {
    if (this.driver) return
    const delay = this.o.maxDelayMs ?? 0
    // The batches serve every request in them: not the scope of the one that started the writer.
    this.driver = outsideKeyedEffect(
      () =>
        new Promise<void>((r) => (delay > 0 ? setTimeout(r, delay) : setImmediate(r))).then(async () => {
          for (;;) {
            const next = this.queue[0]
            if (!next) break
            const alone = 'turn' in next || this.stale
            if (alone ? this.inflight.size > 0 : this.inflight.size >= this.openAtOnce) {
              await Promise.race(this.inflight)
              continue
            }
            // Beside an open batch only with enough commands to be worth a batch of their own: a few
            // would make twice the batches, each with its fixed statements and commit, for no gain
            // in a market whose commands arrive slower than a batch commits.
            if (this.inflight.size > 0 && this.queue.length < this.overlapFrom) {
              await Promise.race([...this.inflight, new Promise<void>((r) => (this.wake = r))])
              this.wake = null
              // Woken by the commands a commit's answers send back (all of them in one burst of
              // microtasks): the batch takes the whole burst, not the first of it.
              await new Promise((r) => setImmediate(r))
              continue
            }
            if ('turn' in next) {
              this.queue.shift()
              await this.o.conn.sql.transaction(next.turn).then(next.resolve, next.reject)
              continue
            }
            let n = 0
            const max = this.o.maxBatch ?? 500
            while (n < this.queue.length && n < max && !('turn' in this.queue[n]!)) n++
            await this.begin(this.queue.splice(0, n) as Queued[])
          }
        }),
    ).finally(() => {
      this.driver = null
      if (this.queue.length) this.drive()
    })
  }

  /**
   * Opens a batch for these commands; resolves once they have run in memory (or the batch failed
   * before), which is when the next batch may begin. Its commands are answered after its commit, or,
   * when it failed, once the book is the journal's again: whoever reads it after the failure sees
   * nothing of the abandoned commands.
   */
  private begin(taken: Queued[]): Promise<void> {
    // One that ended failed began no wait: the book was stale after it, so this batch rebuilds it first.
    const prev = this.last?.ended === false ? this.last : null
    this.batches++
    if (prev) this.overlapped++
    const batch = new Batch()
    this.last = batch
    let ran!: () => void
    const run = new Promise<void>((r) => (ran = r))
    const ended: Promise<{ ok: true; answers: Answer[] } | { ok: false; error: unknown }> = this.o.conn.sql
      .transaction((tx) => this.runBatch(tx, batch, taken, prev, ran))
      .then(
        (answers) => {
          batch.committed = true
          this.afterCommit(batch)
          batch.settle(null)
          return { ok: true as const, answers }
        },
        (error: unknown) => {
          this.stale = true
          batch.settle(error)
          if (!(error instanceof BatchAbandoned)) this.o.log?.error({ err: error }, 'exchange: a batch failed to commit; rebuilding the book from the journal')
          return { ok: false as const, error }
        },
      )
    const open = ended.then(() => {
      this.inflight.delete(open)
    })
    this.inflight.add(open)
    void ended.then(async (o) => {
      if (o.ok) {
        taken.forEach((q, i) => {
          const a = o.answers[i]!
          if (a.ok) q.resolve(a.row)
          else q.reject(a.error)
        })
        return
      }
      // A batch that failed for no fault of its commands (abandoned behind a failed one; money another
      // process moved meanwhile, which the ledger refused; a deadlock) kept nothing: its commands run
      // once more, in their order, over the book rebuilt first (it is stale now).
      let failed = taken
      if (rerunnable(o.error)) {
        const again = taken.filter((q) => !q.rerun)
        if (again.length) {
          for (const q of again) q.rerun = true
          this.requeue(again)
        }
        failed = taken.filter((q) => !again.includes(q))
        if (!failed.length) return
      }
      // A rebuild that cannot run now (the connection is lost) is left to the next batch, which finds the book stale.
      await this.recoverSoon().catch(() => {})
      for (const q of failed) q.reject(o.error)
    })
    return Promise.race([run, open])
  }

  /** Commands back in the queue, before every command that arrived after them. */
  private requeue(commands: Queued[]): void {
    const at = this.queue.findIndex((e) => 'seq' in e && e.seq > commands[0]!.seq)
    this.queue.splice(at < 0 ? this.queue.length : at, 0, ...commands)
    this.drive()
  }

  /**
   * A batch's commands, in its transaction: read, run, write (see the top of this file). Answers each
   * command; throws when the batch must be abandoned. `prev`: the batch begun before, which may not
   * have committed yet; `ran`: called once the commands have run in memory.
   */
  private async runBatch(tx: Tx, batch: Batch, taken: Queued[], prev: Batch | null, ran: () => void): Promise<Answer[]> {
    this.b = batch
    this.diverged = false
    this.divergedBy = undefined
    let answers: Answer[]
    try {
      answers = await this.runCommands(tx, batch, taken, prev && !prev.committed ? prev : null)
      batch.availableMoved = batch.money.tradeAvailableMoved()
    } catch (e) {
      // The next batch begins only once this one has ended (and left the book stale).
      throw this.diverged ? new Error('exchange: a batch failed while writing; it is abandoned', { cause: this.divergedBy ?? e }) : e
    }
    ran()
    // Its writes build on the rows of the batch before (the changed orders, the balances): they go
    // out once that one committed, and not at all when it failed.
    if (prev) await prev.committedOrThrow()
    try {
      return await this.writeBatch(tx, batch, taken, answers)
    } catch (e) {
      throw new Error('exchange: a batch failed while writing; it is abandoned', { cause: e })
    }
  }

  /** Phase one of a batch: its reads in one round, then each command in memory, staged in `batch`. */
  private async runCommands(tx: Tx, batch: Batch, taken: Queued[], unseenPrev: Batch | null): Promise<Answer[]> {
    // The batch's reads and its keys' claims sent together (see BatchWrites.write): a key another
    // request holds refuses its command before it is applied.
    const keyedAt = taken.flatMap((q, i) => (q.keyed ? [i] : []))
    await this.recoverIn(tx)
    const unseen: Unseen | undefined = unseenPrev ? { xid: unseenPrev.xid!, writes: unseenPrev.w, availableMoved: unseenPrev.availableMoved } : undefined
    const places = taken.flatMap((q) => (q.command.kind === 'place' ? [q.command] : []))
    const accounts = new Map(places.map((p) => [`${p.userId}:${holdAsset(p.input)}`, [p.userId, holdAsset(p.input)] as const]))
    const [known, available, claimed, xid] = await settledAll([
      readKnownOrders(
        tx,
        taken.flatMap((q) => (q.command.kind === 'cancel' ? [q.command.orderId] : [])),
        [...new Map(places.map((p) => [`${p.userId}\n${p.input.clientOrderId}`, [p.userId, p.input.clientOrderId] as const])).values()],
        unseen,
      ),
      readTradeAvailable(tx, [...accounts.values()], unseen),
      claimKeysIn(tx, keyedAt.map((i) => taken[i]!.keyed!)),
      // What the next batch asks its reads about, should it read before this one committed.
      tx.dialect === 'postgres' ? tx.get(XACT_ID).then((r) => r!.xid) : Promise.resolve(null),
    ] as const)
    batch.xid = xid
    batch.w.know(known)
    batch.money.startBatch(available)
    const held = new Set(keyedAt.filter((_, j) => !claimed[j]))
    const answers: Answer[] = []
    for (const [i, q] of taken.entries()) {
      if (held.has(i)) {
        answers.push({ ok: false, error: q.keyed!.held() })
        continue
      }
      try {
        const c = q.command
        answers.push({ ok: true, row: c.kind === 'place' ? this.placeNow(c.userId, c.input) : this.cancelNow(c.userId, c.orderId) })
      } catch (error) {
        if (this.diverged) throw error
        if (q.keyed) batch.refusedKeys.push(q.keyed)
        answers.push({ ok: false, error })
      }
    }
    return answers
  }

  /** Phase two: everything the batch staged, written in one round or two, then its money as one posting. */
  private async writeBatch(tx: Tx, batch: Batch, taken: Queued[], answers: Answer[]): Promise<Answer[]> {
    const refused = batch.refusedKeys
    const [written] = await settledAll([batch.w.write(tx), refused.length ? releaseKeysIn(tx, refused) : Promise.resolve(), scoreFills(tx, batch.scored)] as const)
    batch.written = written.orders
    const outcomes: Outcome[] = []
    const answered: { keyed: KeyedEffect; value: unknown }[] = []
    for (const [i, q] of taken.entries()) {
      const a = answers[i] as Answer
      if (a.ok && q.keyed) answered.push({ keyed: q.keyed, value: a.row })
      if (q.tag === undefined) continue
      if (a.ok) outcomes.push({ tag: q.tag, order: a.row, refused: null })
      else if (a.error instanceof TradeRejected) outcomes.push({ tag: q.tag, order: null, refused: a.error })
    }
    if (outcomes.length && !this.also) throw new Error('exchange: tagged commands without an AlsoWrite')
    await settledAll([this.postBatch(tx, batch, written.seqs), answered.length ? recordKeysIn(tx, answered) : Promise.resolve(), outcomes.length ? this.also!(tx, outcomes) : Promise.resolve()] as const)
    return answers
  }

  private placeNow(userId: number, input: PlaceInput): OrderRow {
    // Queued before a halt in the same batch: refused like any command after it.
    if (this.fault) throw new TradeRejected('halted')
    const existing = this.b.w.orderByClientId(userId, input.clientOrderId)
    if (existing) return existing
    // Here and not in the engine: the engine is what replay rebuilds, and journaled orders stay.
    // One writer per market runs this, so concurrent requests are counted one after the other.
    const max = this.o.maxOpenPerUser
    if (max !== undefined && overOpenLimit(this.engine.openCountOf(userId), max, input.type)) throw new TradeRejected('open_orders_limit', { max })
    const ts = this.o.now()
    const orderId = this.nextOrderId
    const cmd: PlaceCommand =
      input.type === 'limit'
        ? { kind: 'place', orderId, userId, side: input.side, type: 'limit', price: input.price, lots: input.lots, ts }
        : input.side === 'sell'
          ? { kind: 'place', orderId, userId, side: 'sell', type: 'market', lots: input.lots, ts }
          : { kind: 'place', orderId, userId, side: 'buy', type: 'market', quote: input.quote, ts }
    const hold = frozenForPlace(this.spec, cmd)
    // The freeze, checked against what the ledger holds plus what this batch has already moved.
    const available = this.b.money.available(userId, hold.asset)
    if (available < hold.amount) throw new TradeRejected('insufficient_funds', { asset: hold.asset, current: available, required: hold.amount })
    this.b.money.move(ledger.trade(userId), hold.asset, -hold.amount, hold.amount)
    // Taken even if the command fails: ids only need to increase, and the engine may have seen this one.
    this.nextOrderId++
    this.run(cmd, userId, input.clientOrderId, hold.amount)
    return this.b.w.order(orderId) as OrderRow
  }

  private cancelNow(userId: number, orderId: number): OrderRow {
    if (this.fault) throw new TradeRejected('halted')
    const order = this.engine.order(orderId)
    if (!order || order.userId !== userId) throw new TradeRejected(order ? 'not_owner' : 'unknown_order')
    this.run({ kind: 'cancel', orderId, userId, ts: this.o.now() }, userId, null, 0n)
    const row = this.b.w.order(orderId)
    if (!row) {
      // The engine holds an order trade_orders does not: the book and the table disagree.
      this.diverged = true
      throw new Error(`exchange: order ${orderId} is open in the engine but not stored`)
    }
    return row
  }

  /**
   * Applies a command and, once accepted, stages its journal row and what it did. Its money moves are
   * staged in the batch's money and reach the ledger with the batch's one netted posting; a refusal drops them.
   */
  private run(cmd: Command, userId: number, clientOrderId: string | null, frozen: bigint): void {
    try {
      const effects: Effects = { levels: [], fills: [], orders: new Set([cmd.orderId]), users: new Set([userId]) }
      this.cur = effects
      this.refused = null
      const accepted = this.engine.apply(cmd, this.sink)
      this.cur = null
      // A refused command changed nothing, in the engine or in the database: nothing is written before here.
      if (!accepted) throw new TradeRejected(this.refused ?? 'bad_command')
      let journaled: number
      try {
        journaled = this.b.w.addJournal(this.spec.instId, JSON.stringify(cmd), cmd.ts)
        this.write(cmd, effects, clientOrderId, frozen)
      } catch (e) {
        // Staged in part after the engine took it: the whole batch is abandoned and the engine
        // rebuilt from the journal.
        this.diverged = true
        this.divergedBy = e
        throw e
      }
      this.sinceSnapshot++
      this.b.money.keep(journaled)
      this.b.effects.push(effects)
    } finally {
      this.b.money.dropStaged()
      this.doneOrders.clear()
      this.cancelReasons.clear()
    }
  }

  private write(cmd: Command, effects: Effects, clientOrderId: string | null, frozen: bigint): void {
    const spec = this.spec
    const fees = new Map<number, bigint>()
    const addFee = (id: number, fee: bigint) => fees.set(id, (fees.get(id) ?? 0n) + fee)
    const order = (id: number) => this.engine.order(id) ?? this.doneOrders.get(id)
    // The money of each fill first: the new order's row needs its fees, and the fills need its row.
    const settled = effects.fills.map((f) => {
      const maker = order(f.makerOrderId)
      const taker = order(f.takerOrderId)
      if (!maker || !taker) throw new Error(`exchange: fill ${f.fillId} of unknown orders`)
      const s = settleFill(spec, this.fees, { makerSide: maker.side, price: f.price, lots: f.lots, quote: f.quote })
      const buyer = maker.side === 'buy' ? maker : taker
      const seller = maker.side === 'buy' ? taker : maker
      // The buyer's frozen USDT pays the seller (less its fee); the seller's frozen NADI pays the buyer (less its fee).
      this.b.money.move(ledger.trade(buyer.userId), 'USDT', 0n, -s.buyerPays)
      this.b.money.move(ledger.trade(seller.userId), 'USDT', s.sellerReceives, 0n)
      this.b.money.move(ledger.trade(seller.userId), 'NADI', 0n, -s.sellerPays)
      this.b.money.move(ledger.trade(buyer.userId), 'NADI', s.buyerReceives, 0n)
      if (s.sellerFee > 0n) this.b.money.move(ledger.FEES, 'USDT', s.sellerFee, 0n)
      if (s.buyerFee > 0n) this.b.money.move(ledger.FEES, 'NADI', s.buyerFee, 0n)
      addFee(buyer.id, s.buyerFee)
      addFee(seller.id, s.sellerFee)
      return { f, s, buyer, seller }
    })
    for (const id of effects.orders) {
      const o = order(id)
      if (!o) continue
      if (!OPEN.has(o.status)) {
        const release = releaseOnDone(spec, o)
        if (release.amount > 0n) this.b.money.move(ledger.trade(o.userId), release.asset, release.amount, -release.amount)
      }
      const filled = sizeUnits(spec, o.filledLots)
      const filledQuote = BigInt(o.filledQuote) * quoteStep(spec)
      if (cmd.kind === 'place' && id === cmd.orderId) {
        // The new order as the command left it; later commands of the batch change it in place.
        this.b.w.place({
          id: BigInt(id),
          user_id: BigInt(o.userId),
          client_order_id: clientOrderId as string,
          inst_id: spec.instId,
          side: o.side,
          type: o.type,
          price: o.type === 'limit' ? priceUnits(spec, o.price) : null,
          size: o.type === 'limit' || o.side === 'sell' ? sizeUnits(spec, o.lots) : null,
          quote_amount: o.type === 'market' && o.side === 'buy' ? BigInt(o.quote) * quoteStep(spec) : null,
          filled,
          filled_quote: filledQuote,
          fee: fees.get(id) ?? 0n,
          fee_asset: o.side === 'buy' ? 'NADI' : 'USDT',
          frozen,
          status: o.status,
          cancel_reason: this.cancelReasons.get(id) ?? null,
          created_at: BigInt(cmd.ts),
          updated_at: BigInt(cmd.ts),
        })
      } else {
        this.b.w.change(id, filled, filledQuote, fees.get(id) ?? 0n, o.status, this.cancelReasons.get(id) ?? null, cmd.ts)
      }
    }
    for (const { f, s, buyer, seller } of settled) {
      const price = priceUnits(spec, f.price)
      this.b.w.fill(f.fillId, spec.instId, f.makerOrderId, f.takerOrderId, f.takerSide, price, s.base, s.quote, f.ts)
      this.b.w.deal(f.fillId, buyer.id, buyer.userId, 'buy', s.buyerRole, price, s.base, s.quote, s.buyerFee, 'NADI', f.ts)
      this.b.w.deal(f.fillId, seller.id, seller.userId, 'sell', s.sellerRole, price, s.base, s.quote, s.sellerFee, 'USDT', f.ts)
      this.b.scored.push({ buyerId: buyer.userId, sellerId: seller.userId, quote: s.quote, at: f.ts })
    }
  }

  /** Orders that finished during the command being written (the engine forgets them). */
  private readonly doneOrders = new Map<number, EngineOrder>()
  /** Why the engine cancelled an order of the command being written when its owner did not. */
  private readonly cancelReasons = new Map<number, CancelReason>()

  /** The batch's money: one posting per committed batch (per MAX_ENTRIES), each account's moves netted, written set-based. */
  private async postBatch(tx: Tx, batch: Batch, seqs: bigint[]): Promise<void> {
    const at = this.o.now()
    const postings = batch.money.take().map((p) => {
      const first = seqs[p.first] as bigint
      const last = seqs[p.last] as bigint
      return { ref: `trade:${this.spec.instId}:${last}`, reason: 'trade', userId: null, entries: p.list, at, meta: { journal: [String(first), String(last)] } }
    })
    // Any refusal abandons the batch (its transaction is rolled back): no savepoint.
    if (postings.length) await ledger.postMany(tx, postings, { abandonsOnRefusal: true })
  }

  // ── After a commit: publish ───────────────────────────────────────────────────────────────────

  private afterCommit(done: Batch): void {
    const batch = done.effects
    const written = done.written
    if (this.sinceSnapshot >= (this.o.snapshotEvery ?? 10_000) && !this.fault) {
      this.sinceSnapshot = 0
      // In a turn of its own: the book as it stands after every journal entry committed before it,
      // with no batch open that the engine has run but the journal does not hold yet.
      void this.turn(async (tx) => {
        if (!this.stale && !this.fault) await tx.run(EXCHANGE.insertSnapshot, this.spec.instId, JSON.stringify(this.engine.snapshot()), this.o.now())
      }).catch((err: unknown) => this.o.log?.error({ err }, 'exchange: saving a snapshot failed (the journal still has everything)'))
    }
    const pub = this.o.publisher
    const inst = this.spec.instId
    const orders = new Set<number>()
    const users = new Set<number>()
    const candles = new Map<string, CandleChange>()
    let traded = false
    for (const e of batch) {
      for (const l of e.levels) this.feed.change(l.side, priceUnits(this.spec, l.price), sizeUnits(this.spec, l.lots))
      for (const f of e.fills) {
        const price = priceUnits(this.spec, f.price)
        const size = sizeUnits(this.spec, f.lots)
        const quote = BigInt(f.quote) * quoteStep(this.spec)
        for (const c of this.candles.onTrade(f.ts, price, size, quote)) candles.set(`${c.bar}:${c.candle.ts}`, c)
        this.ticker.onTrade(f.ts, price, size, quote)
        const t = this.trades.push({ tradeId: f.fillId, price, size, takerSide: f.takerSide, ts: f.ts })
        pub?.publish(`trades:${inst}`, { arg: { channel: 'trades', instId: inst }, action: 'update', data: [t] })
        traded = true
      }
      for (const id of e.orders) orders.add(id)
      for (const u of e.users) users.add(u)
    }
    const now = this.o.now()
    const book = this.feed.flush(now)
    if (book) pub?.publish(`books:${inst}`, this.bookFrame('update', book))
    if (traded) {
      pub?.publish(`tickers:${inst}`, { arg: { channel: 'tickers', instId: inst }, action: 'update', data: [this.ticker.toWire(now)] })
      for (const c of candles.values()) {
        pub?.publish(`candle${c.bar}:${inst}`, { arg: { channel: `candle${c.bar}`, instId: inst }, action: 'update', data: [candleToWire(c.candle)] })
      }
      this.saveCandles([...candles.values()])
    }
    if (!pub) return
    // One batch's pushes after the other's: each reads after its own commit, and a user's last push is
    // the newest state even when a read of an earlier batch answers late.
    this.userPushes = this.userPushes
      .then(() => this.pushToUsers(pub, orders, users, written))
      .catch((err: unknown) => this.o.log?.error({ err }, 'exchange: pushing orders and balances to their owners failed'))
  }

  private candleSaves: Promise<void> = Promise.resolve()
  /** The private pushes of the batches committed so far, in commit order. */
  private userPushes: Promise<void> = Promise.resolve()

  private async pushToUsers(pub: Publisher, orders: Set<number>, users: Set<number>, written: Map<number, OrderRow>): Promise<void> {
    const sql = this.o.conn.sql
    const listens = (stream: string, userId: number) => pub.listening?.(stream, userId) ?? true
    for (const id of orders) {
      const row = written.get(id) ?? (await sql.get(EXCHANGE.orderById, id))
      if (row && listens('user@update_order', Number(row.user_id))) {
        pub.publishToUser(Number(row.user_id), 'user@update_order', { arg: { channel: 'user@update_order' }, action: 'update', data: [toWireOrder(row)] })
      }
    }
    // The balances of every listening user in one read, not one each.
    const listening = [...users].filter((u) => listens('user@balance', u))
    if (!listening.length) return
    const held = new Map<number, Map<string, { available: bigint; frozen: bigint }>>()
    for (const r of await readTradeBalances(sql, listening)) {
      const u = Number(r.user_id)
      if (!held.has(u)) held.set(u, new Map())
      held.get(u)!.set(r.asset, r)
    }
    for (const u of listening) {
      pub.publishToUser(u, 'user@balance', { arg: { channel: 'user@balance' }, action: 'update', data: balanceUpdates((asset) => held.get(u)?.get(asset)) })
    }
  }

  /** Candles as they stand, saved so history outlives the process (best effort: fills can rebuild them). */
  private saveCandles(changes: CandleChange[]): void {
    if (!changes.length) return
    for (const c of changes) this.unsavedCandles.set(`${c.bar}:${c.candle.ts}`, c)
    if (this.savingCandles) return
    this.savingCandles = true
    // A transaction of its own, not the batch's: a candle that fails to save must not cost the trades.
    // One save after the other, so a candle's older state never lands after its newer one; what
    // changed while one was saving is saved next as one statement, each candle at its newest state
    // (candles are derived from the fills and rebuilt from them at start: none is skipped, only
    // written less often under load).
    this.candleSaves = (async () => {
      while (this.unsavedCandles.size) {
        const rows = [...this.unsavedCandles.values()]
        this.unsavedCandles.clear()
        try {
          await this.o.conn.sql.run(
            listStatement('INSERT INTO trade_candles (inst_id, bar, ts, open, high, low, close, vol, vol_quote)', '(?, ?, ?, ?, ?, ?, ?, ?, ?)', CANDLE_TYPES, rows.length, CANDLE_UPSERT),
            ...rows.flatMap(({ bar, candle: c }) => [this.spec.instId, bar, c.ts, c.open, c.high, c.low, c.close, c.vol, c.volQuote]),
          )
        } catch (e) {
          this.o.log?.error({ err: e }, 'exchange: saving candles failed (they are rebuilt from fills at start)')
        }
      }
      this.savingCandles = false
    })()
  }

  /** Candles changed since the last save began, by bar and start: the newest state of each. */
  private readonly unsavedCandles = new Map<string, CandleChange>()
  private savingCandles = false

  private bookFrame(action: 'snapshot' | 'update', data: BookData) {
    return { arg: { channel: 'books', instId: this.spec.instId }, action, data: [data] }
  }

  get conn(): Connection {
    return this.o.conn
  }

  now(): number {
    return this.o.now()
  }

  // ── Reads ─────────────────────────────────────────────────────────────────────────────────────

  /** The book as subscribers get it; a deeper one (every level) for the mirrors of other processes. */
  bookSnapshot(depth?: number): BookData {
    return this.feed.snapshot(this.o.now(), depth)
  }

  depth(n: number) {
    return this.feed.depth(n, this.o.now())
  }

  /** The last trade's price, units of 1e-8 (the wallet's exchange quotes at it once the market trades). */
  lastPrice(): bigint | null {
    const c = this.candles.current('1m')
    return c ? c.close : null
  }

  async history(bar: Bar, before: number | undefined, limit: number): Promise<CandleState[]> {
    const mem = this.candles.history(bar, before, limit)
    if (mem.length >= limit) return mem
    // Memory holds the newest candles; what is older than its oldest comes from the saved ones.
    const edge = mem.length ? mem[0]!.ts : (before ?? Number.MAX_SAFE_INTEGER)
    return [...(await savedCandlesBefore(this.o.conn.sql, this.spec.instId, bar, edge, limit - mem.length)), ...mem]
  }

  tradeBalances(userId: number): Promise<BalanceUpdate[]> {
    return tradeBalances(this.o.conn.sql, userId)
  }

  /** For tests and the audit: what the open orders hold, per user and asset. */
  frozenByOrders(): Map<string, bigint> {
    const out = new Map<string, bigint>()
    for (const o of this.engine.openOrders()) {
      const f = frozenForPlace(this.spec, o)
      const spent = o.side === 'buy' ? BigInt(o.filledQuote) * quoteStep(this.spec) : sizeUnits(this.spec, o.filledLots)
      const key = `${o.userId}:${f.asset}`
      out.set(key, (out.get(key) ?? 0n) + f.amount - spent)
    }
    return out
  }

  engineSnapshot() {
    return this.engine.snapshot()
  }
}

/** Saved candles of a bar older than `edge` (exclusive), oldest first: `limit` of them at most. */
export async function savedCandlesBefore(q: Queryable, instId: string, bar: Bar, edge: number, limit: number): Promise<CandleState[]> {
  if (limit <= 0) return []
  return (await q.all(EXCHANGE.candlesBefore, instId, bar, edge, limit)).reverse().map(candleOfRow)
}

function candleOfRow(r: CandleRow): CandleState {
  return { ts: Number(r.ts), open: r.open, high: r.high, low: r.low, close: r.close, vol: r.vol, volQuote: r.vol_quote }
}

const money = (v: bigint | null) => (v === null ? null : formatMoney(v))

export function toWireOrder(r: OrderRow): WireOrder {
  return {
    id: Number(r.id),
    client_order_id: r.client_order_id,
    inst_id: 'NADI-USDT',
    side: r.side,
    type: r.type,
    price: money(r.price),
    size: money(r.size),
    quote_amount: money(r.quote_amount),
    filled: formatMoney(r.filled),
    filled_quote: formatMoney(r.filled_quote),
    avg_price: r.filled > 0n ? formatMoney((r.filled_quote * 100_000_000n) / r.filled) : null,
    fee: formatMoney(r.fee),
    fee_asset: r.fee_asset,
    status: r.status as OrderStatus,
    cancel_reason: r.status === 'cancelled' ? ((r.cancel_reason as CancelReason | null) ?? null) : null,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  }
}

/** A turn of the market's writer: fn in a transaction of its own, no batch open beside it. */
interface Turn {
  turn: (tx: Tx) => Promise<unknown>
  resolve(v: unknown): void
  reject(e: unknown): void
}

/**
 * A batch that was open behind one that failed: it had run its commands over that one's, so it is
 * rolled back unwritten and its commands fail with a "try again" (they changed nothing).
 */
export class BatchAbandoned extends Error {
  constructor(cause: unknown) {
    super('exchange: the batch before this one failed, so this one was abandoned unwritten', { cause })
    this.name = 'MarketBatchAbandoned'
  }
}

/**
 * A batch failure its commands did not cause, which running them again over the rebuilt book can get
 * past: the batch before failed; the ledger refused the batch's posting because money was moved out of
 * a trade account by another process after the batch read it (InsufficientFunds, or the balance's
 * CHECK); PostgreSQL broke a deadlock or a serialization failure by aborting it.
 */
function rerunnable(e: unknown): boolean {
  for (let cur = e, depth = 0; cur instanceof Error && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (cur instanceof BatchAbandoned || cur instanceof ledger.InsufficientFunds || constraintOf(cur) === 'check') return true
    const code = 'code' in cur ? cur.code : undefined
    if (code === '40P01' || code === '40001') return true
  }
  return false
}

/** The transaction's id (assigned now: a batch writes anyway), as text. */
const XACT_ID = statement<{ xid: string }>('SELECT CAST(pg_current_xact_id() AS TEXT) AS xid')

type Scored = { buyerId: number; sellerId: number; quote: bigint; at: number }

/** One batch of commands: what it stages while its commands run, then writes, commits and publishes. */
class Batch {
  readonly w = new BatchWrites()
  readonly money = new BatchMoney()
  /** What each committed command did, published after the commit. */
  readonly effects: Effects[] = []
  /** Its fills, for the activity scores (one statement for all). */
  readonly scored: Scored[] = []
  /** Keys of commands refused in memory: released in its transaction. */
  readonly refusedKeys: KeyedEffect[] = []
  /** PostgreSQL: its transaction's id, asked of the reads of the batch after it (batchWrites.ts Unseen). */
  xid: string | null = null
  /** Its net moves of trade accounts' available once its commands ran (before its posting takes them). */
  availableMoved: ReadonlyMap<string, bigint> = new Map()
  /** The orders it wrote, as they stand: pushed after its commit without reading them back. */
  written = new Map<number, OrderRow>()
  /** Committed: every statement sent from now on sees its rows. */
  committed = false
  /** Its transaction ended, committed or not. */
  ended = false
  private readonly outcome: Promise<void>
  private settleWith!: (error: unknown) => void

  constructor() {
    this.outcome = new Promise<void>((resolve, reject) => {
      this.settleWith = (error) => (error === null ? resolve() : reject(new BatchAbandoned(error)))
    })
    // Awaited only by a batch begun behind this one, if any.
    this.outcome.catch(() => {})
  }

  /** Committed (null) or failed (what failed it). */
  settle(error: unknown): void {
    this.ended = true
    this.settleWith(error)
  }

  /** Resolves once it committed and was published; throws BatchAbandoned when it failed. */
  committedOrThrow(): Promise<void> {
    return this.outcome
  }
}

/** The asset a place freezes (engine/settlement.ts frozenForPlace): what the batch reads the balance of. */
const holdAsset = (input: PlaceInput): 'USDT' | 'NADI' => (input.side === 'buy' ? 'USDT' : 'NADI')

/**
 * The money of the commands in the current batch, per ledger account and bucket: the moves of the
 * command being run are staged and kept only when it succeeds; at the commit they become one
 * posting. Available balances are what the ledger held when the batch began (read for all its places
 * at once) plus what this batch has moved so far, so a freeze is checked against money that is really
 * there. One writer per market, and only the market moves trade accounts' available while it runs a
 * batch; the ledger's CHECK refuses the posting should anything else have.
 */
class BatchMoney {
  /** A posting holds at most ENTRY_ID_SPAN entries: a large batch is cut into several, each balanced. */
  static readonly MAX_ENTRIES = 1000
  private kept = new Map<string, ledger.EntryInput>()
  private staged = new Map<string, ledger.EntryInput>()
  private first: number | null = null
  private last: number | null = null
  private done: Segment[] = []
  /** Trade accounts' available at the batch's start, by `${userId}:${asset}`. */
  private base = new Map<string, bigint>()

  /** A new batch, with the trade balances its places were read for. */
  startBatch(tradeAvailable: Map<string, bigint>): void {
    this.reset()
    this.base = tradeAvailable
  }

  available(userId: number, asset: 'USDT' | 'NADI'): bigint {
    const account = ledger.trade(userId)
    const key = `${ledger.accountKey(account, asset)}|available`
    let delta = (this.kept.get(key)?.delta ?? 0n) + (this.staged.get(key)?.delta ?? 0n)
    for (const seg of this.done) delta += seg.byKey.get(key)?.delta ?? 0n
    // Every place's account was read at the batch's start (readTradeAvailable: 0 when it has none).
    const base = this.base.get(`${userId}:${asset}`)
    if (base === undefined) throw new Error(`exchange: the trade balance of user ${userId} in ${asset} was not read for this batch`)
    return base + delta
  }

  move(account: ledger.AccountRef, asset: 'USDT' | 'NADI', available: bigint, frozen: bigint): void {
    for (const [bucket, delta] of [
      ['available', available],
      ['frozen', frozen],
    ] as const) {
      if (delta === 0n) continue
      const key = `${ledger.accountKey(account, asset)}|${bucket}`
      const e = this.staged.get(key)
      if (e) e.delta += delta
      else this.staged.set(key, { account, asset, bucket, delta })
    }
  }

  /** The command succeeded: its moves (which balance on their own) join the batch. `journaled`: its journal row's index in the batch. */
  keep(journaled: number): void {
    if (this.kept.size + this.staged.size > BatchMoney.MAX_ENTRIES) this.closeSegment()
    for (const [key, e] of this.staged) {
      const k = this.kept.get(key)
      if (k) k.delta += e.delta
      else this.kept.set(key, { ...e })
    }
    this.staged.clear()
    this.first ??= journaled
    this.last = journaled
  }

  private closeSegment(): void {
    if (this.last !== null) this.done.push({ byKey: this.kept, first: this.first!, last: this.last })
    this.kept = new Map()
    this.first = this.last = null
  }

  /** The net moves of trade accounts' available kept so far, by `${userId}:${asset}`. */
  tradeAvailableMoved(): Map<string, bigint> {
    const out = new Map<string, bigint>()
    for (const byKey of [...this.done.map((seg) => seg.byKey), this.kept]) {
      for (const e of byKey.values()) {
        if (e.bucket !== 'available' || !('user' in e.account) || e.account.kind !== 'trade') continue
        const key = `${e.account.user}:${e.asset}`
        out.set(key, (out.get(key) ?? 0n) + e.delta)
      }
    }
    return out
  }

  dropStaged(): void {
    this.staged.clear()
  }

  /** The batch's postings: net entries per segment (zero ones left out), with the journal rows (indices in the batch) each covers; the batch starts afresh. */
  take(): { list: ledger.EntryInput[]; first: number; last: number }[] {
    this.closeSegment()
    const out = this.done
      .map((seg) => ({ list: [...seg.byKey.values()].filter((e) => e.delta !== 0n), first: seg.first, last: seg.last }))
      .filter((p) => p.list.length > 0)
    this.reset()
    return out
  }

  reset(): void {
    this.kept = new Map()
    this.staged.clear()
    this.done = []
    this.first = this.last = null
    this.base = new Map()
  }
}

interface Segment {
  byKey: Map<string, ledger.EntryInput>
  /** The first and last journal rows it covers, as indices in the batch. */
  first: number
  last: number
}

/**
 * Every statement's answer, once all have answered: the first refusal (in the order given) is thrown,
 * after the others settled, so none of them is left unawaited while the batch is abandoned.
 */
async function settledAll<T extends readonly unknown[]>(all: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(all)
  const failed = settled.find((r) => r.status === 'rejected')
  if (failed) throw failed.reason
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T
}

const CANDLE_TYPES: ListType[] = ['text', 'text', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint']
const CANDLE_UPSERT = ' ON CONFLICT (inst_id, bar, ts) DO UPDATE SET open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, vol = excluded.vol, vol_quote = excluded.vol_quote'
