// Rebuilding a halted market's book from a state the ledger agrees with (the operator's
// `market repair`). Pure: the caller reads the database, this decides, the caller writes.
//
// What is true after a fault is what committed: the order rows and the ledger postings written in
// the same transactions. The journal may not replay (two writers interleaved their commands in it),
// but every order row the database calls open was acknowledged and its money frozen by the ledger
// at the time. So the repaired book is the open orders of the database, in id (time) order, except:
//   - an order that cannot rest in a book (a market order left open, a price or size off the steps)
//     is cancelled;
//   - an order that crosses an older one still resting (two books each took an order the other
//     would have matched) is cancelled: matching it now would trade for its owner at a moment they
//     did not choose; a cancel returns their money;
//   - where a user's open orders hold more than the ledger has frozen for them, their newest orders
//     on that side are cancelled until what remains is covered: nothing is traded on money that is
//     not there.
// Whatever the ledger holds frozen beyond what the remaining orders hold goes back to available.
// No money is created or destroyed: every move stays inside the user's own trade account.

import type { Side } from '../../contract/trade.ts'
import { lotsOf, quoteStep, ticksOf, type EngineSnapshot, type MarketSpec, type SnapshotLevel, type SnapshotOrder } from './engine/index.ts'

export type Asset = 'USDT' | 'NADI'

/** An open order as trade_orders holds it (units of 1e-8). */
export interface OpenOrder {
  id: number
  userId: number
  side: Side
  type: 'limit' | 'market'
  price: bigint | null
  size: bigint | null
  filled: bigint
  filledQuote: bigint
  frozen: bigint
  createdAt: number
}

export type CancelWhy = 'not_restable' | 'crossed' | 'underfunded'

export interface RepairPlan {
  /** Orders the repaired book keeps, in id order. */
  keep: OpenOrder[]
  cancel: { order: OpenOrder; why: CancelWhy }[]
  /** frozen → available of a user's trade account: what no remaining order holds. */
  release: { userId: number; asset: Asset; amount: bigint }[]
  /** The repaired book, as the engine restores it. */
  snapshot: EngineSnapshot
}

/** The asset an order holds frozen, and how much it still holds (what it froze less what its fills spent). */
export function holdOf(o: Pick<OpenOrder, 'side' | 'frozen' | 'filled' | 'filledQuote'>): { asset: Asset; amount: bigint } {
  return o.side === 'buy' ? { asset: 'USDT', amount: o.frozen - o.filledQuote } : { asset: 'NADI', amount: o.frozen - o.filled }
}

export const accountKey = (userId: number, asset: Asset) => `${userId}:${asset}`

/**
 * Plans the repair. `orders`: every open order of the market; `frozen`: the ledger's frozen balance of
 * every user trade account that has one (key accountKey); `lastOrderId`: the largest order id ever
 * used, so new orders never reuse one.
 */
export function planRepair(spec: MarketSpec, orders: readonly OpenOrder[], frozen: ReadonlyMap<string, bigint>, lastOrderId: number): RepairPlan {
  const cancel: RepairPlan['cancel'] = []
  const sorted = [...orders].sort((a, b) => a.id - b.id)

  // 1. What can rest, and what does not cross what rests before it.
  let kept: { o: OpenOrder; so: SnapshotOrder }[] = []
  let bestBid: number | null = null
  let bestAsk: number | null = null
  for (const o of sorted) {
    const so = restable(spec, o)
    if (!so) {
      cancel.push({ order: o, why: 'not_restable' })
      continue
    }
    const crosses = o.side === 'buy' ? bestAsk !== null && so.price >= bestAsk : bestBid !== null && so.price <= bestBid
    if (crosses) {
      cancel.push({ order: o, why: 'crossed' })
      continue
    }
    if (o.side === 'buy') bestBid = bestBid === null ? so.price : Math.max(bestBid, so.price)
    else bestAsk = bestAsk === null ? so.price : Math.min(bestAsk, so.price)
    kept.push({ o, so })
  }

  // 2. Each account's remaining orders covered by what the ledger has frozen, newest cancelled first.
  const held = new Map<string, bigint>()
  for (const { o } of kept) {
    const h = holdOf(o)
    const k = accountKey(o.userId, h.asset)
    held.set(k, (held.get(k) ?? 0n) + h.amount)
  }
  const dropped = new Set<number>()
  for (let i = kept.length - 1; i >= 0; i--) {
    const o = kept[i]!.o
    const h = holdOf(o)
    const k = accountKey(o.userId, h.asset)
    if ((held.get(k) ?? 0n) > (frozen.get(k) ?? 0n)) {
      held.set(k, held.get(k)! - h.amount)
      dropped.add(o.id)
      cancel.push({ order: o, why: 'underfunded' })
    }
  }
  kept = kept.filter(({ o }) => !dropped.has(o.id))

  // 3. What the ledger holds frozen beyond the remaining orders goes back to available.
  const release: RepairPlan['release'] = []
  for (const [k, amount] of frozen) {
    const excess = amount - (held.get(k) ?? 0n)
    if (excess > 0n) {
      const [user, asset] = k.split(':') as [string, Asset]
      release.push({ userId: Number(user), asset, amount: excess })
    }
  }
  release.sort((a, b) => a.userId - b.userId || a.asset.localeCompare(b.asset))
  cancel.sort((a, b) => a.order.id - b.order.id)

  const maxId = Math.max(lastOrderId, ...orders.map((o) => o.id))
  return { keep: kept.map((k) => k.o), cancel, release, snapshot: snapshotOf(kept.map((k) => k.so), maxId) }
}

/** The order as the engine would hold it resting, or null when it cannot rest in a book. */
function restable(spec: MarketSpec, o: OpenOrder): SnapshotOrder | null {
  if (o.type !== 'limit' || o.price === null || o.size === null) return null
  const price = ticksOf(spec, o.price)
  const lots = lotsOf(spec, o.size)
  const filledLots = lotsOf(spec, o.filled)
  const step = quoteStep(spec)
  if (price === null || lots === null || filledLots === null || o.filledQuote % step !== 0n) return null
  if (price < 1 || price > spec.maxPriceTicks || lots < 1 || filledLots < 0 || filledLots >= lots) return null
  const h = holdOf(o)
  if (h.amount <= 0n) return null
  return {
    id: o.id,
    userId: o.userId,
    side: o.side,
    type: 'limit',
    price,
    lots,
    quote: 0,
    filledLots,
    filledQuote: Number(o.filledQuote / step),
    status: filledLots > 0 ? 'partially_filled' : 'pending',
    ts: o.createdAt,
  }
}

function snapshotOf(orders: SnapshotOrder[], lastOrderId: number): EngineSnapshot {
  const side = (s: Side): SnapshotLevel[] => {
    const levels = new Map<number, SnapshotLevel>()
    for (const o of orders) {
      if (o.side !== s) continue
      let l = levels.get(o.price)
      if (!l) levels.set(o.price, (l = { price: o.price, totalLots: 0, orders: [] }))
      l.orders.push(o)
      l.totalLots += o.lots - o.filledLots
    }
    // Best first: bids high to low, asks low to high; within a level, time (id) priority.
    return [...levels.values()].sort((a, b) => (s === 'buy' ? b.price - a.price : a.price - b.price))
  }
  return { lastOrderId, bids: side('buy'), asks: side('sell') }
}
