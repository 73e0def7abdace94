import { describe, expect, it } from 'vitest'
import {
  checkFees,
  checkSpec,
  defaultFees,
  defaultSpec,
  Engine,
  frozenForPlace,
  heldBy,
  lotsOf,
  marketInfo,
  maxQuote,
  nullSink,
  priceUnits,
  quoteStep,
  quoteUnits,
  releaseOnDone,
  settleFill,
  sizeUnits,
  tickLotsOf,
  ticksOf,
  type Command,
  type EngineSink,
  type MarketSpec,
  type Order,
  type Side,
} from '../../../server/exchange/engine/index.ts'

// Small limits so that tests can name edge values directly.
const spec: MarketSpec = { ...defaultSpec, minLots: 2, maxLots: 1000, maxPriceTicks: 5000, minNotional: 100 }

type Event = (string | number)[]

/** Records every event as a flat tuple, with the order's state at the moment of the call. */
function recorder(): EngineSink & { events: Event[]; take(): Event[] } {
  const events: Event[] = []
  return {
    events,
    take() {
      return events.splice(0)
    },
    accepted: (o) => void events.push(['accepted', o.id]),
    rejected: (c, reason) => void events.push(['rejected', c.orderId, reason]),
    fill: (m, t, price, lots, quote) => void events.push(['fill', m.id, t.id, price, lots, quote]),
    done: (o, reason) => void events.push(['done', o.id, reason, o.status]),
    level: (side, price, total) => void events.push(['level', side, price, total]),
  }
}

let ids = 0
let ts = 1_000
const limit = (userId: number, side: Side, price: number, lots: number, orderId = ++ids): Command => ({ kind: 'place', orderId, userId, side, type: 'limit', price, lots, ts: ++ts })
const marketSell = (userId: number, lots: number): Command => ({ kind: 'place', orderId: ++ids, userId, side: 'sell', type: 'market', lots, ts: ++ts })
const marketBuy = (userId: number, quote: number): Command => ({ kind: 'place', orderId: ++ids, userId, side: 'buy', type: 'market', quote, ts: ++ts })
const cancel = (userId: number, orderId: number): Command => ({ kind: 'cancel', orderId, userId, ts: ++ts })

function setup() {
  const engine = new Engine(spec)
  const sink = recorder()
  const run = (...cmds: Command[]) => {
    for (const c of cmds) engine.apply(c, sink)
    return sink.take()
  }
  return { engine, sink, run }
}

describe('resting and the book', () => {
  it('a limit order with no counterpart rests on its side as pending', () => {
    const { engine, run } = setup()
    const bid = limit(1, 'buy', 100, 5)
    expect(run(bid)).toEqual([
      ['accepted', bid.orderId],
      ['level', 'buy', 100, 5],
    ])
    expect(engine.order(bid.orderId)).toMatchObject({ status: 'pending', filledLots: 0, price: 100, lots: 5 })
    expect(engine.bestBid()).toBe(100)
    expect(engine.bestAsk()).toBeNull()
  })

  it('levels are best first: asks ascending, bids descending, with summed lots', () => {
    const { engine, run } = setup()
    run(limit(1, 'buy', 98, 3), limit(2, 'buy', 99, 4), limit(3, 'buy', 98, 5), limit(1, 'sell', 103, 2), limit(2, 'sell', 101, 6), limit(3, 'sell', 102, 7))
    expect(engine.levels('buy', 10)).toEqual([
      [99, 4],
      [98, 8],
    ])
    expect(engine.levels('sell', 10)).toEqual([
      [101, 6],
      [102, 7],
      [103, 2],
    ])
    expect(engine.levels('sell', 2)).toEqual([
      [101, 6],
      [102, 7],
    ])
    expect(engine.bestBid()).toBe(99)
    expect(engine.bestAsk()).toBe(101)
    expect([...engine.openOrders()].map((o) => o.id)).toEqual([...engine.openOrders()].map((o) => o.id).sort((a, b) => a - b))
    expect(engine.openCount).toBe(6)
  })
})

describe('price-time priority', () => {
  it('a buy takes the lowest asks first, each at the maker price', () => {
    const { engine, run } = setup()
    const a105 = limit(1, 'sell', 105, 2)
    const a101 = limit(2, 'sell', 101, 2)
    const a103 = limit(3, 'sell', 103, 2)
    run(a105, a101, a103)
    const buy = limit(4, 'buy', 105, 5)
    expect(run(buy)).toEqual([
      ['accepted', buy.orderId],
      ['fill', a101.orderId, buy.orderId, 101, 2, 202],
      ['done', a101.orderId, 'filled', 'filled'],
      ['level', 'sell', 101, 0],
      ['fill', a103.orderId, buy.orderId, 103, 2, 206],
      ['done', a103.orderId, 'filled', 'filled'],
      ['level', 'sell', 103, 0],
      ['fill', a105.orderId, buy.orderId, 105, 1, 105],
      ['level', 'sell', 105, 1],
      ['done', buy.orderId, 'filled', 'filled'],
    ])
    expect(engine.order(a105.orderId)).toMatchObject({ status: 'partially_filled', filledLots: 1, filledQuote: 105 })
  })

  it('a sell takes the highest bids first', () => {
    const { run } = setup()
    const b90 = limit(1, 'buy', 90, 2)
    const b95 = limit(2, 'buy', 95, 2)
    run(b90, b95)
    const sell = limit(3, 'sell', 90, 3)
    const fills = run(sell).filter((e) => e[0] === 'fill')
    expect(fills).toEqual([
      ['fill', b95.orderId, sell.orderId, 95, 2, 190],
      ['fill', b90.orderId, sell.orderId, 90, 1, 90],
    ])
  })

  it('at one price the earlier order fills first', () => {
    const { run } = setup()
    const first = limit(1, 'sell', 100, 3)
    const second = limit(2, 'sell', 100, 3)
    const third = limit(3, 'sell', 100, 3)
    run(first, second, third)
    const buy = limit(4, 'buy', 100, 4)
    expect(run(buy).filter((e) => e[0] === 'fill')).toEqual([
      ['fill', first.orderId, buy.orderId, 100, 3, 300],
      ['fill', second.orderId, buy.orderId, 100, 1, 100],
    ])
  })

  it('a limit order does not trade through its own price', () => {
    const { engine, run } = setup()
    run(limit(1, 'sell', 101, 5))
    const buy = limit(2, 'buy', 100, 5)
    expect(run(buy)).toEqual([
      ['accepted', buy.orderId],
      ['level', 'buy', 100, 5],
    ])
    expect(engine.bestBid()).toBe(100)
    expect(engine.bestAsk()).toBe(101)
  })
})

describe('partial fills', () => {
  it('a maker partly filled keeps its place and the rest of its lots', () => {
    const { engine, run } = setup()
    const ask = limit(1, 'sell', 100, 10)
    const later = limit(2, 'sell', 100, 10)
    run(ask, later, limit(3, 'buy', 100, 4))
    expect(engine.order(ask.orderId)).toMatchObject({ status: 'partially_filled', filledLots: 4, filledQuote: 400 })
    expect(engine.levels('sell', 1)).toEqual([[100, 16]])
    // Still first in line:
    const buy = limit(3, 'buy', 100, 6)
    expect(run(buy).filter((e) => e[0] === 'fill')).toEqual([['fill', ask.orderId, buy.orderId, 100, 6, 600]])
  })

  it("a limit taker's unfilled rest goes on the book at its own price, partially filled", () => {
    const { engine, run } = setup()
    const ask = limit(1, 'sell', 100, 3)
    run(ask)
    const buy = limit(2, 'buy', 102, 8)
    expect(run(buy)).toEqual([
      ['accepted', buy.orderId],
      ['fill', ask.orderId, buy.orderId, 100, 3, 300],
      ['done', ask.orderId, 'filled', 'filled'],
      ['level', 'sell', 100, 0],
      ['level', 'buy', 102, 5],
    ])
    expect(engine.order(buy.orderId)).toMatchObject({ status: 'partially_filled', filledLots: 3, filledQuote: 300 })
    expect(engine.bestAsk()).toBeNull()
    expect(engine.bestBid()).toBe(102)
  })
})

describe('market orders', () => {
  it('a market sell on a thin book sells what it can, ends no_liquidity and never rests', () => {
    const { engine, run } = setup()
    const bid = limit(1, 'buy', 100, 3)
    run(bid)
    const sell = marketSell(2, 10)
    expect(run(sell)).toEqual([
      ['accepted', sell.orderId],
      ['fill', bid.orderId, sell.orderId, 100, 3, 300],
      ['done', bid.orderId, 'filled', 'filled'],
      ['level', 'buy', 100, 0],
      ['done', sell.orderId, 'no_liquidity', 'cancelled'],
    ])
    expect(engine.order(sell.orderId)).toBeUndefined()
    expect(engine.openCount).toBe(0)
  })

  it('a market sell on an empty book ends at once with nothing filled', () => {
    const { run } = setup()
    const sell = marketSell(2, 10)
    expect(run(sell)).toEqual([
      ['accepted', sell.orderId],
      ['done', sell.orderId, 'no_liquidity', 'cancelled'],
    ])
  })

  it('a market sell that finds enough is filled', () => {
    const { run } = setup()
    const bid = limit(1, 'buy', 100, 30)
    run(bid)
    const sell = marketSell(2, 10)
    expect(run(sell).at(-1)).toEqual(['done', sell.orderId, 'filled', 'filled'])
  })

  it('a market buy never spends more than its quote amount: floor(left / price) lots per level', () => {
    const { engine, run } = setup()
    const cheap = limit(1, 'sell', 100, 3)
    const dear = limit(2, 'sell', 150, 10)
    run(cheap, dear)
    const buy = marketBuy(3, 1000)
    let taker: Order | undefined
    const sink = recorder()
    const events: Event[] = []
    engine.apply(buy, { ...sink, accepted: (o) => (taker = o), fill: (...a) => sink.fill(...a) })
    events.push(...sink.take())
    expect(events).toEqual([
      ['fill', cheap.orderId, buy.orderId, 100, 3, 300],
      ['done', cheap.orderId, 'filled', 'filled'],
      ['level', 'sell', 100, 0],
      // 700 left buys floor(700 / 150) = 4 lots = 600
      ['fill', dear.orderId, buy.orderId, 150, 4, 600],
      ['level', 'sell', 150, 6],
      ['done', buy.orderId, 'budget', 'filled'],
    ])
    expect(taker).toMatchObject({ quote: 1000, lots: 0, price: 0, filledLots: 7, filledQuote: 900 })
    expect(engine.order(buy.orderId)).toBeUndefined()
  })

  it('a market buy that spends its budget exactly is filled', () => {
    const { run } = setup()
    run(limit(1, 'sell', 100, 10))
    const buy = marketBuy(2, 500)
    expect(run(buy).at(-1)).toEqual(['done', buy.orderId, 'filled', 'filled'])
  })

  it('a market buy that spends its budget exactly on the last lots of the book is filled, not out of liquidity', () => {
    const { run } = setup()
    run(limit(1, 'sell', 100, 2), limit(1, 'sell', 150, 2))
    const buy = marketBuy(2, 500)
    expect(run(buy).at(-1)).toEqual(['done', buy.orderId, 'filled', 'filled'])
  })

  it('a market buy whose budget buys no lot at the best ask ends budget with nothing filled', () => {
    const { engine, run } = setup()
    run(limit(1, 'sell', 400, 10))
    const buy = marketBuy(2, 399)
    expect(run(buy)).toEqual([
      ['accepted', buy.orderId],
      ['done', buy.orderId, 'budget', 'cancelled'],
    ])
    expect(engine.levels('sell', 1)).toEqual([[400, 10]])
  })

  it('a market buy that empties the book ends no_liquidity', () => {
    const { run } = setup()
    run(limit(1, 'sell', 100, 2))
    const buy = marketBuy(2, 1000)
    expect(run(buy).at(-1)).toEqual(['done', buy.orderId, 'no_liquidity', 'cancelled'])
  })
})

describe('cancel', () => {
  it("an owner's cancel removes the rest of its open order and the level update follows", () => {
    const { engine, run } = setup()
    const a = limit(1, 'buy', 100, 5)
    const b = limit(2, 'buy', 100, 7)
    run(a, b, limit(3, 'sell', 100, 2))
    expect(run(cancel(1, a.orderId))).toEqual([
      ['done', a.orderId, 'cancelled', 'cancelled'],
      ['level', 'buy', 100, 7],
    ])
    expect(run(cancel(2, b.orderId))).toEqual([
      ['done', b.orderId, 'cancelled', 'cancelled'],
      ['level', 'buy', 100, 0],
    ])
    expect(engine.bestBid()).toBeNull()
    expect(engine.openCount).toBe(0)
  })

  it("cancel of an unknown order, a finished order or another user's order is rejected and changes nothing", () => {
    const { engine, run } = setup()
    const filled = limit(1, 'sell', 100, 2)
    const open = limit(2, 'sell', 101, 5)
    run(filled, open, limit(3, 'buy', 100, 2))
    const before = engine.snapshot()
    expect(run(cancel(1, 999_999))).toEqual([['rejected', 999_999, 'unknown_order']])
    expect(run(cancel(1, filled.orderId))).toEqual([['rejected', filled.orderId, 'unknown_order']])
    expect(run(cancel(1, open.orderId))).toEqual([['rejected', open.orderId, 'not_owner']])
    expect(engine.snapshot()).toEqual(before)
    run(cancel(2, open.orderId))
    expect(run(cancel(2, open.orderId))).toEqual([['rejected', open.orderId, 'unknown_order']])
  })

  it('apply reports whether the command was accepted', () => {
    const { engine } = setup()
    const a = limit(1, 'buy', 100, 5)
    expect(engine.apply(a, nullSink)).toBe(true)
    expect(engine.apply(cancel(2, a.orderId), nullSink)).toBe(false)
    expect(engine.apply(cancel(1, a.orderId), nullSink)).toBe(true)
  })
})

describe('self-trade prevention', () => {
  it("a taker reaching its owner's resting order cancels that order and goes on matching", () => {
    const { engine, run } = setup()
    const own = limit(1, 'sell', 100, 5)
    const other = limit(2, 'sell', 101, 5)
    run(own, other)
    const buy = limit(1, 'buy', 101, 3)
    expect(run(buy)).toEqual([
      ['accepted', buy.orderId],
      ['done', own.orderId, 'self_trade', 'cancelled'],
      ['level', 'sell', 100, 0],
      ['fill', other.orderId, buy.orderId, 101, 3, 303],
      ['level', 'sell', 101, 2],
      ['done', buy.orderId, 'filled', 'filled'],
    ])
    expect(engine.order(own.orderId)).toBeUndefined()
  })

  it('own orders inside a level give way while others at that level still trade in time order', () => {
    const { run } = setup()
    const x = limit(2, 'buy', 100, 2)
    const mine = limit(1, 'buy', 100, 4)
    const y = limit(3, 'buy', 100, 4)
    run(x, mine, y)
    const sell = marketSell(1, 5)
    expect(run(sell)).toEqual([
      ['accepted', sell.orderId],
      ['fill', x.orderId, sell.orderId, 100, 2, 200],
      ['done', x.orderId, 'filled', 'filled'],
      ['done', mine.orderId, 'self_trade', 'cancelled'],
      ['fill', y.orderId, sell.orderId, 100, 3, 300],
      ['level', 'buy', 100, 1],
      ['done', sell.orderId, 'filled', 'filled'],
    ])
  })

  it('a limit order that only meets its own orders cancels them and rests', () => {
    const { engine, run } = setup()
    const own = limit(1, 'sell', 100, 5)
    run(own)
    const buy = limit(1, 'buy', 100, 5)
    expect(run(buy)).toEqual([
      ['accepted', buy.orderId],
      ['done', own.orderId, 'self_trade', 'cancelled'],
      ['level', 'sell', 100, 0],
      ['level', 'buy', 100, 5],
    ])
    expect(engine.order(buy.orderId)?.status).toBe('pending')
  })
})

describe('validation', () => {
  const cases: [string, Command, string][] = [
    ['price 0', limit(1, 'buy', 0, 5, 10), 'bad_price'],
    ['price above maxPriceTicks', limit(1, 'buy', 5001, 5, 10), 'bad_price'],
    ['a price that is not a whole number of ticks', limit(1, 'buy', 100.5, 5, 10), 'bad_price'],
    ['lots below minLots', limit(1, 'buy', 100, 1, 10), 'bad_lots'],
    ['lots above maxLots', limit(1, 'sell', 100, 1001, 10), 'bad_lots'],
    ['fractional lots', limit(1, 'sell', 100, 2.5, 10), 'bad_lots'],
    ['a limit notional below minNotional', limit(1, 'buy', 49, 2, 10), 'min_notional'],
    ['a market sell below minLots', { kind: 'place', orderId: 10, userId: 1, side: 'sell', type: 'market', lots: 1, ts: 1 }, 'bad_lots'],
    ['a market buy budget below minNotional', { kind: 'place', orderId: 10, userId: 1, side: 'buy', type: 'market', quote: 99, ts: 1 }, 'min_notional'],
    ['a market buy budget above the largest quote', { kind: 'place', orderId: 10, userId: 1, side: 'buy', type: 'market', quote: 5000 * 1000 + 1, ts: 1 }, 'bad_quote'],
    ['a fractional market buy budget', { kind: 'place', orderId: 10, userId: 1, side: 'buy', type: 'market', quote: 100.5, ts: 1 }, 'bad_quote'],
    ['an unknown side', { kind: 'place', orderId: 10, userId: 1, side: 'hold', type: 'limit', price: 100, lots: 5, ts: 1 } as unknown as Command, 'bad_command'],
    ['an unknown type', { kind: 'place', orderId: 10, userId: 1, side: 'buy', type: 'stop', price: 100, lots: 5, ts: 1 } as unknown as Command, 'bad_command'],
    ['an unknown kind', { kind: 'amend', orderId: 10, userId: 1, ts: 1 } as unknown as Command, 'bad_command'],
    ['an order id that is not a safe integer', limit(1, 'buy', 100, 5, 2 ** 53), 'bad_command'],
  ]
  for (const [what, cmd, reason] of cases) {
    it(`rejects ${what} with ${reason} and changes nothing`, () => {
      const { engine, run } = setup()
      run(limit(2, 'sell', 120, 5, 1), limit(3, 'buy', 80, 5, 2))
      const before = engine.snapshot()
      expect(run(cmd)).toEqual([['rejected', cmd.orderId, reason]])
      expect(engine.snapshot()).toEqual(before)
    })
  }

  it('accepts the edge values themselves', () => {
    const { run } = setup()
    const ok: Command[] = [
      limit(1, 'buy', 1, 1000, 10),
      limit(1, 'sell', 5000, 2, 11),
      limit(1, 'buy', 50, 2, 12),
      { kind: 'place', orderId: 13, userId: 2, side: 'buy', type: 'market', quote: 100, ts: 1 },
      { kind: 'place', orderId: 14, userId: 2, side: 'buy', type: 'market', quote: 5000 * 1000, ts: 1 },
    ]
    for (const c of ok) expect(run(c)[0]).toEqual(['accepted', c.orderId])
  })

  it('rejects a duplicate or non-increasing order id; a rejected place does not use up its id', () => {
    const { engine, run } = setup()
    run(limit(1, 'buy', 100, 5, 50))
    expect(run(limit(1, 'buy', 100, 5, 50))).toEqual([['rejected', 50, 'duplicate_id']])
    expect(run(limit(1, 'buy', 100, 5, 49))).toEqual([['rejected', 49, 'duplicate_id']])
    expect(run(limit(1, 'buy', 0, 5, 51))).toEqual([['rejected', 51, 'bad_price']])
    expect(run(limit(1, 'buy', 100, 5, 51))[0]).toEqual(['accepted', 51])
    expect(engine.lastOrderId).toBe(51)
  })

  it('an engine refuses a spec whose largest quote is not a safe integer', () => {
    expect(() => new Engine({ ...defaultSpec, maxPriceTicks: 1e9, maxLots: 1e8 })).toThrow(/MAX_SAFE_INTEGER/)
    expect(() => checkSpec({ ...defaultSpec, priceStep: 3n, sizeStep: 7n })).toThrow(/multiple of 1e8/)
    expect(() => checkSpec(defaultSpec)).not.toThrow()
  })
})

describe('snapshot and replay', () => {
  it('a fresh engine fed the same commands reaches an equal snapshot', () => {
    const { engine, run } = setup()
    const cmds = [limit(1, 'sell', 100, 5), limit(2, 'sell', 101, 5), limit(3, 'buy', 99, 4), limit(4, 'buy', 100, 7), marketBuy(5, 500), cancel(3, 3), limit(1, 'sell', 99, 2)]
    run(...cmds)
    const replay = new Engine(spec)
    for (const c of cmds) replay.apply(c, nullSink)
    expect(replay.snapshot()).toEqual(engine.snapshot())
    expect(engine.snapshot().asks[0]?.orders[0]).toMatchObject({ userId: 2, price: 101, status: 'partially_filled' })
  })

  it('snapshots differ when the time order at a level differs', () => {
    const a = new Engine(spec)
    const b = new Engine(spec)
    a.apply(limit(1, 'buy', 100, 5, 1), nullSink)
    a.apply(limit(2, 'buy', 100, 5, 2), nullSink)
    b.apply(limit(2, 'buy', 100, 5, 1), nullSink)
    b.apply(limit(1, 'buy', 100, 5, 2), nullSink)
    expect(a.snapshot()).not.toEqual(b.snapshot())
  })
})

describe('market spec conversions', () => {
  it('the default steps make one tick·lot 100 USDT units and keep the largest quote safe', () => {
    expect(quoteStep(defaultSpec)).toBe(100n)
    expect(Number.isSafeInteger(maxQuote(defaultSpec))).toBe(true)
  })

  it('units convert to ticks, lots and tick·lots only when they are whole multiples of the step', () => {
    expect(ticksOf(defaultSpec, 12_340_000n)).toBe(1234) // 0.1234 USDT
    expect(ticksOf(defaultSpec, 12_345_000n)).toBeNull()
    expect(ticksOf(defaultSpec, -10_000n)).toBeNull()
    expect(lotsOf(defaultSpec, 150_000_000n)).toBe(150) // 1.5 NADI
    expect(lotsOf(defaultSpec, 150_000_001n)).toBeNull()
    expect(tickLotsOf(defaultSpec, 1_050_000_000n)).toBe(10_500_000) // 10.5 USDT
    expect(tickLotsOf(defaultSpec, 1_050_000_050n)).toBeNull()
    expect(ticksOf(defaultSpec, 10_000n * BigInt(Number.MAX_SAFE_INTEGER) + 10_000n)).toBeNull()
    expect(priceUnits(defaultSpec, 1234)).toBe(12_340_000n)
    expect(sizeUnits(defaultSpec, 150)).toBe(150_000_000n)
    expect(quoteUnits(defaultSpec, 10_500_000)).toBe(1_050_000_000n)
  })

  it('marketInfo states the rules as wire decimals', () => {
    expect(marketInfo(defaultSpec, defaultFees)).toEqual({
      inst_id: 'NADI-USDT',
      base: 'NADI',
      quote: 'USDT',
      price_step: '0.0001',
      size_step: '0.01',
      min_size: '0.01',
      min_notional: '1',
      max_price: '1000',
      max_size: '1000000',
      maker_fee: '0.001',
      taker_fee: '0.001',
    })
  })

  it('fee rates outside 0…1e6 ppm are refused', () => {
    expect(() => checkFees({ makerFeePpm: -1, takerFeePpm: 1000 })).toThrow()
    expect(() => checkFees({ makerFeePpm: 1000, takerFeePpm: 1.5 })).toThrow()
    expect(() => checkFees(defaultFees)).not.toThrow()
  })
})

describe('settlement', () => {
  const d = defaultSpec
  const fees = { makerFeePpm: 1000, takerFeePpm: 2000 }

  it('freezes USDT for a buy (limit: price × lots, market: the budget) and NADI for a sell', () => {
    expect(frozenForPlace(d, { kind: 'place', orderId: 1, userId: 1, side: 'buy', type: 'limit', price: 12_345, lots: 200, ts: 0 })).toEqual({ asset: 'USDT', amount: 12_345n * 200n * 100n })
    expect(frozenForPlace(d, { kind: 'place', orderId: 1, userId: 1, side: 'buy', type: 'market', quote: 7_000_000, ts: 0 })).toEqual({ asset: 'USDT', amount: 700_000_000n })
    expect(frozenForPlace(d, { kind: 'place', orderId: 1, userId: 1, side: 'sell', type: 'limit', price: 12_345, lots: 200, ts: 0 })).toEqual({ asset: 'NADI', amount: 200_000_000n })
    expect(frozenForPlace(d, { kind: 'place', orderId: 1, userId: 1, side: 'sell', type: 'market', lots: 3, ts: 0 })).toEqual({ asset: 'NADI', amount: 3_000_000n })
  })

  it('a buyer pays quote and gets base less its fee in NADI; a seller gets quote less its fee in USDT', () => {
    // 2 NADI at 1.2345 USDT = 2.469 USDT; the buyer is the maker here.
    const s = settleFill(d, fees, { makerSide: 'buy', price: 12_345, lots: 200, quote: 12_345 * 200 })
    expect(s).toEqual({
      base: 200_000_000n,
      quote: 246_900_000n,
      buyerRole: 'maker',
      sellerRole: 'taker',
      buyerPays: 246_900_000n,
      buyerFee: 200_000n, // 0.1 % of 2 NADI
      buyerReceives: 199_800_000n,
      sellerPays: 200_000_000n,
      sellerFee: 493_800n, // 0.2 % of 2.469 USDT
      sellerReceives: 246_406_200n,
    })
    const t = settleFill(d, fees, { makerSide: 'sell', price: 12_345, lots: 200, quote: 12_345 * 200 })
    expect([t.buyerRole, t.buyerFee, t.sellerFee]).toEqual(['taker', 400_000n, 246_900n])
  })

  it('fees round down', () => {
    // 1 lot at 1 tick: quote 100 units, 0.1 % of it is 0.1 unit → 0
    const s = settleFill(d, defaultFees, { makerSide: 'sell', price: 1, lots: 1, quote: 1 })
    expect(s.sellerFee).toBe(0n)
    expect(s.sellerReceives).toBe(100n)
    expect(s.buyerFee).toBe(1000n)
  })

  it('refuses a fill whose quote is not price × lots', () => {
    expect(() => settleFill(d, fees, { makerSide: 'sell', price: 10, lots: 2, quote: 21 })).toThrow()
  })

  function played(cmds: Command[]): Map<number, Order> {
    const engine = new Engine(d)
    const seen = new Map<number, Order>()
    const keep = (o: Order) => void seen.set(o.id, o)
    const sink: EngineSink = { ...nullSink, accepted: keep, done: keep }
    for (const c of cmds) engine.apply(c, sink)
    return seen
  }

  it('a limit buy filled at a better price releases the difference when done', () => {
    const o = played([
      { kind: 'place', orderId: 1, userId: 1, side: 'sell', type: 'limit', price: 9_000, lots: 200, ts: 0 },
      { kind: 'place', orderId: 2, userId: 2, side: 'buy', type: 'limit', price: 10_000, lots: 200, ts: 0 },
    ]).get(2) as Order
    expect(o.status).toBe('filled')
    expect(releaseOnDone(d, o)).toEqual({ asset: 'USDT', amount: (10_000n - 9_000n) * 200n * 100n })
  })

  it("a market buy's unspent budget is released", () => {
    const o = played([
      { kind: 'place', orderId: 1, userId: 1, side: 'sell', type: 'limit', price: 30_000, lots: 100, ts: 0 },
      { kind: 'place', orderId: 2, userId: 2, side: 'buy', type: 'market', quote: 1_000_000 * 7 + 5, ts: 0 },
    ]).get(2) as Order
    expect(o.filledLots).toBe(100)
    expect(releaseOnDone(d, o)).toEqual({ asset: 'USDT', amount: (7_000_005n - 3_000_000n) * 100n })
  })

  it('a cancelled remainder is released, and frozen = spent + released', () => {
    const engine = new Engine(d)
    const place: Command = { kind: 'place', orderId: 1, userId: 1, side: 'sell', type: 'limit', price: 10_000, lots: 500, ts: 0 }
    engine.apply(place, nullSink)
    engine.apply({ kind: 'place', orderId: 2, userId: 2, side: 'buy', type: 'market', quote: 2_000_000, ts: 0 }, nullSink)
    const o = engine.order(1) as Order
    expect(heldBy(d, o)).toEqual({ asset: 'NADI', amount: 300n * 1_000_000n })
    expect(() => releaseOnDone(d, o)).toThrow(/still open/)
    engine.apply({ kind: 'cancel', orderId: 1, userId: 1, ts: 0 }, nullSink)
    const released = releaseOnDone(d, o)
    expect(released).toEqual({ asset: 'NADI', amount: 300_000_000n })
    expect(frozenForPlace(d, place as Extract<Command, { kind: 'place' }>).amount).toBe(BigInt(o.filledLots) * d.sizeStep + released.amount)
  })
})
