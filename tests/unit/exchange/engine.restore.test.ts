import { describe, expect, it } from 'vitest'
import { Engine, defaultSpec, nullSink, type Command, type EngineSnapshot } from '../../../server/exchange/engine/index.ts'

/** A deterministic stream of places (some crossing) and cancels around a mid of 2,500 ticks. */
function commands(seed: number, n: number): Command[] {
  let x = seed
  const rand = () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
  const out: Command[] = []
  const open: { id: number; userId: number }[] = []
  let id = 0
  for (let i = 0; i < n; i++) {
    const userId = 1 + Math.floor(rand() * 8)
    if (open.length && rand() < 0.3) {
      const o = open.splice(Math.floor(rand() * open.length), 1)[0]!
      out.push({ kind: 'cancel', orderId: o.id, userId: o.userId, ts: i })
      continue
    }
    const side = rand() < 0.5 ? 'buy' : 'sell'
    const price = 2500 + Math.floor((rand() - (side === 'buy' ? 0.6 : 0.4)) * 40)
    out.push({ kind: 'place', orderId: ++id, userId, side, type: 'limit', price, lots: 400 + Math.floor(rand() * 2000), ts: i })
    open.push({ id, userId })
  }
  return out
}

describe('engine snapshot and restore', () => {
  it.each([7, 1234, 99991])('seed %i: a restored engine equals the live one and goes on exactly like it', (seed) => {
    const stream = commands(seed, 4000)
    const live = new Engine(defaultSpec)
    for (const c of stream.slice(0, 2500)) live.apply(c, nullSink)
    const snap = live.snapshot()
    expect(snap.bids.length + snap.asks.length).toBeGreaterThan(0)
    const restored = Engine.restore(JSON.parse(JSON.stringify(snap)) as EngineSnapshot, defaultSpec)
    expect(restored.snapshot()).toEqual(snap)
    expect([...restored.openOrders()].map((o) => o.id)).toEqual([...live.openOrders()].map((o) => o.id))
    const accepted = (e: Engine) => stream.slice(2500).map((c) => e.apply(c, nullSink))
    expect(accepted(restored)).toEqual(accepted(live))
    expect(restored.snapshot()).toEqual(live.snapshot())
  })

  it('a snapshot that could not have come from an engine is refused', () => {
    const live = new Engine(defaultSpec)
    live.apply({ kind: 'place', orderId: 1, userId: 1, side: 'buy', type: 'limit', price: 2500, lots: 500, ts: 0 }, nullSink)
    const snap = live.snapshot()
    const wrongTotal = structuredClone(snap)
    wrongTotal.bids[0]!.totalLots = 499
    expect(() => Engine.restore(wrongTotal)).toThrow(/holds 500/)
    const wrongSide = structuredClone(snap)
    wrongSide.asks = wrongSide.bids
    expect(() => Engine.restore(wrongSide)).toThrow(/does not belong/)
    const futureId = structuredClone(snap)
    futureId.lastOrderId = 0
    expect(() => Engine.restore(futureId)).toThrow(/cannot be open/)
  })
})
