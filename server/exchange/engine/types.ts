// The engine's vocabulary. Pure. Prices are ticks, sizes lots, quotes tick·lots (spec.ts), all plain
// safe integers; ids and timestamps come from the caller so that replaying a journal is deterministic.

export type Side = 'buy' | 'sell'
export type OrderType = 'limit' | 'market'
export type OrderStatus = 'pending' | 'partially_filled' | 'filled' | 'cancelled'

interface CommandBase {
  /** Assigned by the caller, strictly increasing over accepted orders. */
  orderId: number
  userId: number
  /** Milliseconds; stored on the order, never read by the matching. */
  ts: number
}

export interface PlaceLimit extends CommandBase {
  kind: 'place'
  side: Side
  type: 'limit'
  price: number
  lots: number
}

export interface PlaceMarketSell extends CommandBase {
  kind: 'place'
  side: 'sell'
  type: 'market'
  lots: number
}

/** Spends at most `quote` tick·lots, buying whole lots only. */
export interface PlaceMarketBuy extends CommandBase {
  kind: 'place'
  side: 'buy'
  type: 'market'
  quote: number
}

export type PlaceCommand = PlaceLimit | PlaceMarketSell | PlaceMarketBuy

export interface CancelCommand extends CommandBase {
  kind: 'cancel'
}

export type Command = PlaceCommand | CancelCommand

/** A live order. The engine mutates it; callers only read (copy what must outlive the callback). */
export interface Order {
  readonly id: number
  readonly userId: number
  readonly side: Side
  readonly type: OrderType
  /** Ticks; 0 for a market order. */
  readonly price: number
  /** Lots asked; 0 for a market buy. */
  readonly lots: number
  /** The budget of a market buy in tick·lots; 0 otherwise. */
  readonly quote: number
  readonly filledLots: number
  /** Σ price × lots over its fills, tick·lots. */
  readonly filledQuote: number
  readonly status: OrderStatus
  readonly ts: number
}

/**
 * Why a command changed nothing.
 *   bad_command    malformed: unknown kind/side/type, ids or ts not safe integers / finite
 *   duplicate_id   a place whose orderId is not above every accepted order's id
 *   bad_price      not a whole number of ticks in 1…maxPriceTicks
 *   bad_lots       not a whole number of lots in minLots…maxLots
 *   bad_quote      a market buy budget that is not a whole number of tick·lots ≤ maxPriceTicks × maxLots
 *   min_notional   limit price × lots, or a market buy budget, below minNotional
 *   unknown_order  cancel of an order that is not open (never existed, filled, cancelled)
 *   not_owner      cancel of another user's open order
 */
export type RejectReason = 'bad_command' | 'duplicate_id' | 'bad_price' | 'bad_lots' | 'bad_quote' | 'min_notional' | 'unknown_order' | 'not_owner'

/**
 * Why an order ended.
 *   filled        everything asked was bought/sold (a market buy: its whole budget was spent)
 *   cancelled     by its owner
 *   self_trade    a resting order cancelled because its owner's own incoming order reached it
 *   no_liquidity  a market order that found no (more) opposite orders
 *   budget        a market buy whose remaining budget buys not one lot at the best ask
 */
export type DoneReason = 'filled' | 'cancelled' | 'self_trade' | 'no_liquidity' | 'budget'

/**
 * The engine's output, called synchronously inside apply() in this order for a place:
 * accepted(taker); then per opposite price level: fill / done(maker) as makers are met, and level()
 * once the level is left; then done(taker) — or level() of its own side when the rest goes on the book.
 * Order objects passed in are live: read them during the call.
 */
export interface EngineSink {
  accepted(order: Order): void
  rejected(cmd: Command, reason: RejectReason): void
  /** price in ticks, lots, quote = price × lots tick·lots. maker and taker show the state after this fill. */
  fill(maker: Order, taker: Order, price: number, lots: number, quote: number): void
  done(order: Order, reason: DoneReason): void
  /** The total open lots at a price level changed; 0 means the level is gone. */
  level(side: Side, price: number, totalLots: number): void
}

/** A sink that ignores everything (replays that only want the end state, benchmarks). */
export const nullSink: EngineSink = Object.freeze({
  accepted() {},
  rejected() {},
  fill() {},
  done() {},
  level() {},
})

export interface SnapshotOrder {
  id: number
  userId: number
  side: Side
  type: OrderType
  price: number
  lots: number
  quote: number
  filledLots: number
  filledQuote: number
  status: OrderStatus
  ts: number
}

export interface SnapshotLevel {
  price: number
  totalLots: number
  /** Time priority order. */
  orders: SnapshotOrder[]
}

/** The whole engine state as plain data: equal snapshots mean equal engines. */
export interface EngineSnapshot {
  lastOrderId: number
  /** Best first. */
  bids: SnapshotLevel[]
  asks: SnapshotLevel[]
}
