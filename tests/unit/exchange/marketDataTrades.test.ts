import { describe, expect, it } from 'vitest'
import { TradeRing } from '../../../server/exchange/marketData/trades.ts'

const U = 100_000_000n
const t0 = Date.UTC(2024, 8, 1, 10, 0, 0)

describe('recent trades', () => {
  it('keeps the last 100 trades, newest first, with the taker side', () => {
    const ring = new TradeRing()
    for (let i = 1; i <= 250; i++) {
      const pushed = ring.push({ tradeId: i, price: BigInt(i) * U, size: U / 2n, takerSide: i % 2 ? 'buy' : 'sell', ts: t0 + i })
      expect(pushed).toEqual({ trade_id: i, inst_id: 'NADI-USDT', price: String(i), size: '0.5', side: i % 2 ? 'buy' : 'sell', ts: t0 + i })
    }
    const recent = ring.recent()
    expect(recent).toHaveLength(100)
    expect(recent.map((r) => r.trade_id)).toEqual(Array.from({ length: 100 }, (_, k) => 250 - k))
    expect(recent[0]?.side).toBe('sell')
    expect(ring.recent(3).map((r) => r.trade_id)).toEqual([250, 249, 248])
  })

  it('before the ring fills it lists what it has', () => {
    const ring = new TradeRing(5)
    expect(ring.recent()).toEqual([])
    for (let i = 1; i <= 3; i++) ring.push({ tradeId: i, price: U, size: U, takerSide: 'buy', ts: i })
    expect(ring.recent().map((r) => r.trade_id)).toEqual([3, 2, 1])
    for (let i = 4; i <= 7; i++) ring.push({ tradeId: i, price: U, size: U, takerSide: 'buy', ts: i })
    expect(ring.recent().map((r) => r.trade_id)).toEqual([7, 6, 5, 4, 3])
  })
})
