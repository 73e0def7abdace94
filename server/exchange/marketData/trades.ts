// The last public trades (trades:<instId>, GET /api/v1/trade/recentTrades), held in a fixed ring.

import { formatMoney } from '../../../contract/money.ts'
import { INST_ID, type PublicTrade, type Side } from '../../../contract/trade.ts'

export const RECENT_TRADES = 100

export interface TradeInput {
  tradeId: number
  /** units of 1e-8 */
  price: bigint
  size: bigint
  /** The taker's side: a market buy lifting asks is a 'buy' trade. */
  takerSide: Side
  ts: number
}

export function toPublicTrade(t: TradeInput): PublicTrade {
  return { trade_id: t.tradeId, inst_id: INST_ID, price: formatMoney(t.price), size: formatMoney(t.size), side: t.takerSide, ts: t.ts }
}

export class TradeRing {
  private readonly ring: PublicTrade[] = []
  /** Index the next trade is written to once the ring is full. */
  private next = 0

  constructor(readonly capacity: number = RECENT_TRADES) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`bad trade ring size ${capacity}`)
  }

  /** Records a trade; returns its wire form for the trades push. */
  push(t: TradeInput): PublicTrade {
    const wire = toPublicTrade(t)
    if (this.ring.length < this.capacity) this.ring.push(wire)
    else {
      this.ring[this.next] = wire
      this.next = (this.next + 1) % this.capacity
    }
    return wire
  }

  /** Up to `limit` most recent trades, newest first (as OKX's recent-trades call lists them). */
  recent(limit: number = this.capacity): PublicTrade[] {
    const len = this.ring.length
    const count = Math.min(Math.max(0, Math.floor(limit)), len)
    const newest = len < this.capacity ? len - 1 : (this.next - 1 + this.capacity) % this.capacity
    const out: PublicTrade[] = []
    for (let i = 0; i < count; i++) out.push({ ...(this.ring[(newest - i + len) % len] as PublicTrade) })
    return out
  }
}
