// The matching engine of one spot market (DESIGN §8): price-time priority over limit and market orders,
// partial fills, cancels, self-trade prevention. Pure and synchronous: the same commands in the same
// order always give the same events and the same state, which is what journal replay relies on.
//
// Layout, chosen for a million commands a second: each side keeps its price levels in an array sorted
// so that the best level is last (matching and most adds/cancels happen at the end, where push/pop
// are O(1); elsewhere a binary search and a short splice); a level is a FIFO intrusive doubly-linked
// list of its orders, so a cancel unlinks in O(1); open orders are found by id in a Map. Events go
// to the sink as scalar arguments, so the hot path allocates only the order itself.

import { checkSpec, defaultSpec, maxQuote, type MarketSpec } from './spec.ts'
import type {
  Command,
  DoneReason,
  EngineSink,
  EngineSnapshot,
  Order,
  OrderStatus,
  OrderType,
  PlaceCommand,
  RejectReason,
  Side,
  SnapshotLevel,
  SnapshotOrder,
} from './types.ts'

class OrderNode implements Order {
  filledLots = 0
  filledQuote = 0
  status: OrderStatus = 'pending'
  prev: OrderNode | null = null
  next: OrderNode | null = null
  level: Level | null = null
  constructor(
    readonly id: number,
    readonly userId: number,
    readonly side: Side,
    readonly type: OrderType,
    readonly price: number,
    readonly lots: number,
    readonly quote: number,
    readonly ts: number,
  ) {}
}

class Level {
  total = 0
  head: OrderNode | null = null
  tail: OrderNode | null = null
  constructor(
    readonly price: number,
    /** price for bids, −price for asks: levels sort ascending by key, best last. */
    readonly key: number,
  ) {}

  append(o: OrderNode): void {
    o.level = this
    o.prev = this.tail
    o.next = null
    if (this.tail) this.tail.next = o
    else this.head = o
    this.tail = o
    this.total += o.lots - o.filledLots
  }

  unlink(o: OrderNode): void {
    if (o.prev) o.prev.next = o.next
    else this.head = o.next
    if (o.next) o.next.prev = o.prev
    else this.tail = o.prev
    o.prev = o.next = null
    o.level = null
  }
}

class BookSide {
  /** Ascending by key, so the best level is last. */
  readonly levels: Level[] = []
  constructor(
    readonly side: Side,
    private readonly sign: 1 | -1,
  ) {}

  best(): Level | undefined {
    return this.levels[this.levels.length - 1]
  }

  /** Index of the level with this key, or ~(where it would go). */
  private search(key: number): number {
    const a = this.levels
    let lo = 0
    let hi = a.length - 1
    // Most traffic is at or near the best level: test the end before bisecting.
    if (hi >= 0) {
      const last = (a[hi] as Level).key
      if (key === last) return hi
      if (key > last) return ~a.length
    }
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const k = (a[mid] as Level).key
      if (k < key) lo = mid + 1
      else if (k > key) hi = mid - 1
      else return mid
    }
    return ~lo
  }

  levelFor(price: number): Level {
    const key = price * this.sign
    const i = this.search(key)
    if (i >= 0) return this.levels[i] as Level
    const level = new Level(price, key)
    const at = ~i
    if (at === this.levels.length) this.levels.push(level)
    else this.levels.splice(at, 0, level)
    return level
  }

  remove(level: Level): void {
    const a = this.levels
    if (a[a.length - 1] === level) a.pop()
    else {
      const i = this.search(level.key)
      if (i >= 0) a.splice(i, 1)
    }
  }
}

const isSafe = Number.isSafeInteger

export class Engine {
  readonly spec: MarketSpec
  private readonly bids = new BookSide('buy', 1)
  private readonly asks = new BookSide('sell', -1)
  private readonly open = new Map<number, OrderNode>()
  /** Open orders per user, kept with `open`: the exchange's per-user limit reads it (openCountOf). */
  private readonly openOfUser = new Map<number, number>()
  private lastId = 0
  private readonly maxQuote: number

  constructor(spec: MarketSpec = defaultSpec) {
    checkSpec(spec)
    this.spec = spec
    this.maxQuote = maxQuote(spec)
  }

  /**
   * An engine in exactly the state a snapshot() recorded: the same orders at the same levels in the
   * same time priority, the same last order id. Journal replay starts from here instead of from the
   * first command ever. Throws when the snapshot is not one this spec could have produced.
   */
  static restore(snap: EngineSnapshot, spec: MarketSpec = defaultSpec): Engine {
    const e = new Engine(spec)
    if (!isSafe(snap.lastOrderId) || snap.lastOrderId < 0) throw new Error(`restore: bad lastOrderId ${snap.lastOrderId}`)
    e.lastId = snap.lastOrderId
    const all: OrderNode[] = []
    for (const [book, levels] of [
      [e.bids, snap.bids],
      [e.asks, snap.asks],
    ] as const) {
      for (const l of levels) {
        const level = book.levelFor(l.price)
        for (const so of l.orders) {
          if (so.side !== book.side || so.price !== l.price || so.type !== 'limit') throw new Error(`restore: order ${so.id} does not belong at ${book.side} ${l.price}`)
          if (so.id > snap.lastOrderId || !(so.filledLots < so.lots)) throw new Error(`restore: order ${so.id} cannot be open`)
          const o = new OrderNode(so.id, so.userId, so.side, so.type, so.price, so.lots, so.quote, so.ts)
          o.filledLots = so.filledLots
          o.filledQuote = so.filledQuote
          o.status = so.status
          level.append(o)
          all.push(o)
        }
        if (level.total !== l.totalLots || level.total === 0) throw new Error(`restore: level ${book.side} ${l.price} holds ${level.total}, the snapshot says ${l.totalLots}`)
      }
    }
    // openOrders() iterates in id order, as a live engine's does.
    for (const o of all.sort((a, b) => a.id - b.id)) e.rest(o)
    return e
  }

  /** Applies one command; true when it was accepted (a cancel that took effect, a place that was taken). */
  apply(cmd: Command, sink: EngineSink): boolean {
    if (cmd.kind === 'place') return this.place(cmd, sink)
    if (cmd.kind === 'cancel') return this.cancel(cmd, sink)
    sink.rejected(cmd, 'bad_command')
    return false
  }

  /** An open order by id (pending or partially filled); finished orders are not kept. */
  order(id: number): Order | undefined {
    return this.open.get(id)
  }

  /** Open orders in id order. */
  openOrders(): IterableIterator<Order> {
    return this.open.values()
  }

  get openCount(): number {
    return this.open.size
  }

  /** How many of one user's orders are open (resting on the book). */
  openCountOf(userId: number): number {
    return this.openOfUser.get(userId) ?? 0
  }

  private rest(o: OrderNode): void {
    this.open.set(o.id, o)
    this.openOfUser.set(o.userId, (this.openOfUser.get(o.userId) ?? 0) + 1)
  }

  private forget(o: OrderNode): void {
    this.open.delete(o.id)
    const n = (this.openOfUser.get(o.userId) ?? 1) - 1
    if (n === 0) this.openOfUser.delete(o.userId)
    else this.openOfUser.set(o.userId, n)
  }

  /** The id of the last accepted order: the next place must use a larger one. */
  get lastOrderId(): number {
    return this.lastId
  }

  bestBid(): number | null {
    return this.bids.best()?.price ?? null
  }

  bestAsk(): number | null {
    return this.asks.best()?.price ?? null
  }

  /** Up to n levels of a side as [price ticks, total lots], best first. */
  levels(side: Side, n: number): [number, number][] {
    const a = (side === 'buy' ? this.bids : this.asks).levels
    const out: [number, number][] = []
    for (let i = a.length - 1; i >= 0 && out.length < n; i--) {
      const l = a[i] as Level
      out.push([l.price, l.total])
    }
    return out
  }

  snapshot(): EngineSnapshot {
    return { lastOrderId: this.lastId, bids: snapshotSide(this.bids), asks: snapshotSide(this.asks) }
  }

  private validate(cmd: PlaceCommand): RejectReason | null {
    if (!isSafe(cmd.orderId) || cmd.orderId <= 0 || !isSafe(cmd.userId) || !Number.isFinite(cmd.ts)) return 'bad_command'
    if (cmd.side !== 'buy' && cmd.side !== 'sell') return 'bad_command'
    if (cmd.orderId <= this.lastId) return 'duplicate_id'
    const s = this.spec
    if (cmd.type === 'limit') {
      if (!isSafe(cmd.price) || cmd.price < 1 || cmd.price > s.maxPriceTicks) return 'bad_price'
      if (!isSafe(cmd.lots) || cmd.lots < s.minLots || cmd.lots > s.maxLots) return 'bad_lots'
      if (cmd.price * cmd.lots < s.minNotional) return 'min_notional'
      return null
    }
    if (cmd.type !== 'market') return 'bad_command'
    if (cmd.side === 'sell') {
      // The price a market sell gets is unknown here, so only the size limits apply to it.
      if (!isSafe(cmd.lots) || cmd.lots < s.minLots || cmd.lots > s.maxLots) return 'bad_lots'
      return null
    }
    if (!isSafe(cmd.quote) || cmd.quote < 0 || cmd.quote > this.maxQuote) return 'bad_quote'
    if (cmd.quote < s.minNotional) return 'min_notional'
    return null
  }

  private place(cmd: PlaceCommand, sink: EngineSink): boolean {
    const reason = this.validate(cmd)
    if (reason) {
      sink.rejected(cmd, reason)
      return false
    }
    this.lastId = cmd.orderId
    const limit = cmd.type === 'limit'
    const o = new OrderNode(
      cmd.orderId,
      cmd.userId,
      cmd.side,
      cmd.type,
      limit ? cmd.price : 0,
      cmd.type === 'market' && cmd.side === 'buy' ? 0 : cmd.lots,
      cmd.type === 'market' && cmd.side === 'buy' ? cmd.quote : 0,
      cmd.ts,
    )
    sink.accepted(o)
    const end = this.match(o, sink)
    if (end !== null) {
      o.status = end === 'filled' || (end === 'budget' && o.filledLots > 0) ? 'filled' : 'cancelled'
      sink.done(o, end)
      return true
    }
    // A limit order with lots left: it rests.
    const book = o.side === 'buy' ? this.bids : this.asks
    const level = book.levelFor(o.price)
    level.append(o)
    this.rest(o)
    sink.level(o.side, o.price, level.total)
    return true
  }

  /** Matches o against the opposite side; returns why it is done, or null when a limit order's rest must go on the book. */
  private match(o: OrderNode, sink: EngineSink): DoneReason | null {
    const buy = o.side === 'buy'
    const book = buy ? this.asks : this.bids
    const bookSide = book.side
    const limit = o.type === 'limit'
    const budgeted = buy && !limit
    const userId = o.userId
    for (;;) {
      if (budgeted && o.filledQuote === o.quote) return 'filled'
      const level = book.best()
      if (level === undefined) return limit ? null : 'no_liquidity'
      const price = level.price
      if (limit && (buy ? price > o.price : price < o.price)) return null
      let want: number
      if (budgeted) {
        want = Math.floor((o.quote - o.filledQuote) / price)
        if (want === 0) return 'budget'
      } else want = o.lots - o.filledLots
      let m = level.head
      while (m !== null && want > 0) {
        const next = m.next
        const rest = m.lots - m.filledLots
        if (m.userId === userId) {
          // Self-trade prevention: the resting order gives way, the incoming one goes on.
          level.unlink(m)
          level.total -= rest
          this.forget(m)
          m.status = 'cancelled'
          sink.done(m, 'self_trade')
          m = next
          continue
        }
        const lots = rest < want ? rest : want
        const quote = lots * price
        want -= lots
        level.total -= lots
        m.filledLots += lots
        m.filledQuote += quote
        o.filledLots += lots
        o.filledQuote += quote
        o.status = 'partially_filled'
        const makerDone = lots === rest
        if (makerDone) {
          level.unlink(m)
          this.forget(m)
          m.status = 'filled'
        } else m.status = 'partially_filled'
        sink.fill(m, o, price, lots, quote)
        if (makerDone) sink.done(m, 'filled')
        m = next
      }
      sink.level(bookSide, price, level.total)
      if (level.total === 0) book.remove(level)
      if (!budgeted && o.filledLots === o.lots) return 'filled'
    }
  }

  private cancel(cmd: Command, sink: EngineSink): boolean {
    if (!isSafe(cmd.orderId) || !isSafe(cmd.userId)) {
      sink.rejected(cmd, 'bad_command')
      return false
    }
    const o = this.open.get(cmd.orderId)
    if (o === undefined) {
      sink.rejected(cmd, 'unknown_order')
      return false
    }
    if (o.userId !== cmd.userId) {
      sink.rejected(cmd, 'not_owner')
      return false
    }
    const level = o.level as Level
    level.unlink(o)
    level.total -= o.lots - o.filledLots
    this.forget(o)
    o.status = 'cancelled'
    sink.done(o, 'cancelled')
    sink.level(o.side, o.price, level.total)
    if (level.total === 0) (o.side === 'buy' ? this.bids : this.asks).remove(level)
    return true
  }
}

function snapshotOrder(o: OrderNode): SnapshotOrder {
  return {
    id: o.id,
    userId: o.userId,
    side: o.side,
    type: o.type,
    price: o.price,
    lots: o.lots,
    quote: o.quote,
    filledLots: o.filledLots,
    filledQuote: o.filledQuote,
    status: o.status,
    ts: o.ts,
  }
}

function snapshotSide(book: BookSide): SnapshotLevel[] {
  const out: SnapshotLevel[] = []
  for (let i = book.levels.length - 1; i >= 0; i--) {
    const l = book.levels[i] as Level
    const orders: SnapshotOrder[] = []
    for (let o = l.head; o !== null; o = o.next) orders.push(snapshotOrder(o))
    out.push({ price: l.price, totalLots: l.total, orders })
  }
  return out
}
