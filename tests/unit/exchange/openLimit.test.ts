import { describe, expect, it } from 'vitest'
import { defaultSpec, Engine, nullSink, type PlaceCommand } from '../../../server/exchange/engine/index.ts'
import { overOpenLimit } from '../../../server/exchange/openLimit.ts'
import { loadConfig } from '../../../server/config.ts'

describe('the per-user limit of open orders', () => {
  it('refuses a limit order once the user has the limit open, not before', () => {
    expect(overOpenLimit(199, 200, 'limit')).toBe(false)
    expect(overOpenLimit(200, 200, 'limit')).toBe(true)
    expect(overOpenLimit(250, 200, 'limit')).toBe(true)
  })
  it('never refuses a market order, which takes no place on the book', () => {
    expect(overOpenLimit(200, 200, 'market')).toBe(false)
  })
  it('is 200 by default, NADI_TRADE_MAX_OPEN_ORDERS otherwise, and a value below 1 stops the start', () => {
    expect(loadConfig({ NADI_ENV: 'test' }, '/srv').trade.maxOpenOrdersPerUser).toBe(200)
    expect(loadConfig({ NADI_ENV: 'test', NADI_TRADE_MAX_OPEN_ORDERS: '5' }, '/srv').trade.maxOpenOrdersPerUser).toBe(5)
    expect(() => loadConfig({ NADI_ENV: 'test', NADI_TRADE_MAX_OPEN_ORDERS: '0' }, '/srv')).toThrow(/NADI_TRADE_MAX_OPEN_ORDERS must be an integer from 1/)
    expect(() => loadConfig({ NADI_ENV: 'test', NADI_TRADE_MAX_OPEN_ORDERS: 'lots' }, '/srv')).toThrow(/NADI_TRADE_MAX_OPEN_ORDERS/)
  })
})

describe('the engine counts each user’s open orders', () => {
  let id = 0
  const limit = (userId: number, side: 'buy' | 'sell', price: number, lots: number): PlaceCommand => ({ kind: 'place', orderId: ++id, userId, side, type: 'limit', price, lots, ts: id })

  it('as they rest, fill, cancel and give way to their owner’s own order, and after a restore', () => {
    const e = new Engine(defaultSpec)
    const lots = defaultSpec.minLots
    const price = Math.ceil(defaultSpec.minNotional / lots) + 10
    const resting = [0, 1, 2].map((i) => limit(1, 'sell', price + i, lots))
    for (const c of resting) e.apply(c, nullSink)
    e.apply(limit(2, 'sell', price + 5, lots), nullSink)
    expect([e.openCountOf(1), e.openCountOf(2), e.openCountOf(3)]).toEqual([3, 1, 0])
    // Another user's buy fills one of user 1's asks whole: it is no longer open.
    e.apply(limit(3, 'buy', price, lots), nullSink)
    expect(e.openCountOf(1)).toBe(2)
    e.apply({ kind: 'cancel', orderId: resting[1]!.orderId, userId: 1, ts: ++id }, nullSink)
    expect(e.openCountOf(1)).toBe(1)
    // User 1's own buy reaches their last ask: it gives way (self-trade) and the buy rests in its place.
    e.apply(limit(1, 'buy', price + 3, lots), nullSink)
    expect(e.openCountOf(1)).toBe(1)
    expect(Engine.restore(e.snapshot(), defaultSpec).openCountOf(1)).toBe(1)
    expect(Engine.restore(e.snapshot(), defaultSpec).openCountOf(2)).toBe(1)
  })
})
