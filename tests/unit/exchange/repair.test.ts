// Rebuilding a halted market's book (server/exchange/repair.ts): the open orders of the database, less
// what cannot stand, with every unit the ledger froze either held by a remaining order or released.
import { describe, expect, it } from 'vitest'
import { Engine, defaultSpec } from '../../../server/exchange/engine/index.ts'
import { accountKey, holdOf, planRepair, type OpenOrder } from '../../../server/exchange/repair.ts'

const U = 100_000_000n
const spec = defaultSpec
let nextId = 1

/** A resting limit order as trade_orders holds it; price in USDT, size in NADI (decimals as strings). */
function order(userId: number, side: 'buy' | 'sell', price: string, size: string, extra: Partial<OpenOrder> = {}): OpenOrder {
  const p = BigInt(Math.round(Number(price) * 1e8))
  const s = BigInt(Math.round(Number(size) * 1e8))
  return {
    id: nextId++,
    userId,
    side,
    type: 'limit',
    price: p,
    size: s,
    filled: 0n,
    filledQuote: 0n,
    frozen: side === 'buy' ? (p * s) / U : s,
    createdAt: 1_000 + nextId,
    ...extra,
  }
}

/** The ledger frozen exactly as the orders hold, per account. */
function frozenOf(orders: OpenOrder[]): Map<string, bigint> {
  const m = new Map<string, bigint>()
  for (const o of orders) {
    const h = holdOf(o)
    const k = accountKey(o.userId, h.asset)
    m.set(k, (m.get(k) ?? 0n) + h.amount)
  }
  return m
}

describe('planRepair', () => {
  it('a consistent market is rebuilt as it stands: nothing cancelled, nothing released, the engine restores it', () => {
    const orders = [order(1, 'buy', '0.24', '10'), order(2, 'sell', '0.26', '5'), order(1, 'buy', '0.24', '3'), order(3, 'sell', '0.25', '7')]
    const plan = planRepair(spec, orders, frozenOf(orders), 10)
    expect(plan.cancel).toEqual([])
    expect(plan.release).toEqual([])
    expect(plan.keep.map((o) => o.id)).toEqual(orders.map((o) => o.id))
    const e = Engine.restore(plan.snapshot, spec)
    expect(e.openCount).toBe(4)
    expect(e.bestBid()).toBe(2400)
    expect(e.bestAsk()).toBe(2500)
    expect(e.lastOrderId).toBe(10)
    // Time priority inside a level is id order.
    expect(plan.snapshot.bids[0]!.orders.map((o) => o.id)).toEqual([orders[0]!.id, orders[2]!.id])
  })

  it('an order crossing an older resting one is cancelled and its hold released; the older keeps its place', () => {
    const older = order(1, 'sell', '0.25', '10')
    const crossing = order(2, 'buy', '0.26', '4')
    const plan = planRepair(spec, [older, crossing], frozenOf([older, crossing]), 0)
    expect(plan.cancel).toEqual([{ order: crossing, why: 'crossed' }])
    expect(plan.release).toEqual([{ userId: 2, asset: 'USDT', amount: holdOf(crossing).amount }])
    expect(plan.keep).toEqual([older])
  })

  it('orders holding more than the ledger froze are cancelled newest first until the rest is covered', () => {
    const a = order(7, 'buy', '0.20', '100') // holds 20 USDT
    const b = order(7, 'buy', '0.21', '100') // 21
    const c = order(7, 'buy', '0.22', '100') // 22
    const frozen = new Map([[accountKey(7, 'USDT'), 45n * U]])
    const plan = planRepair(spec, [a, b, c], frozen, 0)
    // 63 held, 45 frozen: c (22) goes, a and b (41) are covered, the 4 left over go back to available.
    expect(plan.cancel).toEqual([{ order: c, why: 'underfunded' }])
    expect(plan.keep).toEqual([a, b])
    expect(plan.release).toEqual([{ userId: 7, asset: 'USDT', amount: 4n * U }])
    const less = planRepair(spec, [a, b, c], new Map([[accountKey(7, 'USDT'), 30n * U]]), 0)
    expect(less.cancel.map((x) => x.order.id)).toEqual([b.id, c.id])
    expect(less.release).toEqual([{ userId: 7, asset: 'USDT', amount: 10n * U }])
  })

  it('frozen funds no order holds are released; a partly filled order holds only what its fills did not spend', () => {
    const part = order(4, 'sell', '0.30', '10', { filled: 4n * U, filledQuote: (4n * U * 30n) / 100n })
    const frozen = new Map([
      [accountKey(4, 'NADI'), 6n * U],
      [accountKey(5, 'USDT'), 3n * U],
    ])
    const plan = planRepair(spec, [part], frozen, 0)
    expect(plan.cancel).toEqual([])
    expect(plan.release).toEqual([{ userId: 5, asset: 'USDT', amount: 3n * U }])
    const e = Engine.restore(plan.snapshot, spec)
    expect(e.order(part.id)).toMatchObject({ filledLots: 400, lots: 1000, status: 'partially_filled' })
  })

  it('an order that cannot rest (a market order left open, a price off the tick) is cancelled', () => {
    const market = order(1, 'buy', '0.25', '1', { type: 'market', price: null })
    const offTick = order(2, 'sell', '0.250005', '1')
    const plan = planRepair(spec, [market, offTick], frozenOf([market, offTick]), 0)
    expect(plan.cancel.map((c) => c.why)).toEqual(['not_restable', 'not_restable'])
    expect(plan.keep).toEqual([])
    expect(plan.release.map((r) => r.userId)).toEqual([1, 2])
  })

  it('moves no money in or out: kept holds plus releases equal what the ledger froze, per account', () => {
    // Random books with random ledger shortfalls and excesses.
    let seed = 42
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
    for (let round = 0; round < 200; round++) {
      const orders = Array.from({ length: 1 + rnd(30) }, () =>
        order(1 + rnd(4), rnd(2) ? 'buy' : 'sell', (0.2 + rnd(100) / 1000).toFixed(4), String(1 + rnd(50))),
      )
      const frozen = frozenOf(orders)
      for (const [k, v] of frozen) frozen.set(k, v + BigInt(rnd(3) - 1) * BigInt(rnd(20)) * U / 2n)
      for (const [k, v] of frozen) if (v < 0n) frozen.set(k, 0n)
      const plan = planRepair(spec, orders, frozen, 0)
      const held = frozenOf(plan.keep)
      for (const [k, v] of frozen) {
        const released = plan.release.filter((r) => accountKey(r.userId, r.asset) === k).reduce((s, r) => s + r.amount, 0n)
        expect((held.get(k) ?? 0n) + released).toBe(v)
      }
      for (const k of held.keys()) expect(frozen.has(k)).toBe(true)
      // The repaired book never crosses and restores.
      const e = Engine.restore(plan.snapshot, spec)
      const bid = e.bestBid()
      const ask = e.bestAsk()
      if (bid !== null && ask !== null) expect(bid).toBeLessThan(ask)
      expect(plan.keep.length + plan.cancel.length).toBe(orders.length)
    }
  })
})
