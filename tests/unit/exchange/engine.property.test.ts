// Property tests of the matching engine over seeded random command streams (limit and market orders of
// both sides, cancels by owners and by others, crossing prices, a few users so self-trades happen,
// invalid and duplicate commands). Every command is checked against:
//   - a naive reference matcher (a flat list sorted by price then id): same fills, same ends;
//   - the book: never crossed, each level's total = Σ of its orders' rests = what level events said;
//   - a model of balances driven only by frozenForPlace / settleFill / releaseOnDone: per asset the sum
//     over users plus fees is constant, nothing goes negative, a user's frozen = what their open orders hold;
//   - replay: an engine fed the same commands alongside, and a fresh one at the end, have equal snapshots.

import { describe, expect, it } from 'vitest'
import {
  defaultSpec,
  Engine,
  frozenForPlace,
  heldBy,
  nullSink,
  releaseOnDone,
  settleFill,
  type Command,
  type DoneReason,
  type EngineSink,
  type Fees,
  type Order,
  type PlaceCommand,
  type RejectReason,
  type SettlementAsset,
  type Side,
} from '../../../server/exchange/engine/index.ts'

const SEEDS = [0x9e3779b9, 0x1234567, 0xdeadbeef, 42]
const COMMANDS = 10_000
const USERS = 6
const spec = defaultSpec
const fees: Fees = { makerFeePpm: 1000, takerFeePpm: 2500 }
const START_USDT = 50_000_000_000n // 500 USDT
const START_NADI = 50_000_000_000n // 500 NADI

function xorshift32(seed: number) {
  let x = seed >>> 0 || 1
  const next = () => {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    return x / 2 ** 32
  }
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  return { next, int }
}

// --- the reference: obviously right, slow ---------------------------------------------------------

interface RefOrder {
  id: number
  userId: number
  side: Side
  price: number
  lots: number
  filled: number
}

class Reference {
  resting: RefOrder[] = []

  cancel(orderId: number, userId: number): string[] | RejectReason {
    const i = this.resting.findIndex((o) => o.id === orderId)
    if (i < 0) return 'unknown_order'
    if ((this.resting[i] as RefOrder).userId !== userId) return 'not_owner'
    this.resting.splice(i, 1)
    return [`done ${orderId} cancelled`]
  }

  /** Called only for places the engine accepted (validation has its own unit tests). */
  place(cmd: PlaceCommand): string[] {
    const out: string[] = []
    const buy = cmd.side === 'buy'
    const limitPrice = cmd.type === 'limit' ? cmd.price : null
    const budget = cmd.type === 'market' && cmd.side === 'buy' ? cmd.quote : null
    const lots = budget === null ? (cmd as { lots: number }).lots : 0
    let filled = 0
    let spent = 0
    const candidates = this.resting
      .filter((o) => o.side !== cmd.side && (limitPrice === null || (buy ? o.price <= limitPrice : o.price >= limitPrice)))
      .sort((a, b) => (buy ? a.price - b.price : b.price - a.price) || a.id - b.id)
    let end: DoneReason | null = null
    for (let i = 0; i < candidates.length; ) {
      const m = candidates[i] as RefOrder
      const want = budget !== null ? Math.floor((budget - spent) / m.price) : lots - filled
      if (want === 0) {
        end = budget !== null && spent < budget ? 'budget' : 'filled'
        break
      }
      if (m.userId === cmd.userId) {
        this.resting.splice(this.resting.indexOf(m), 1)
        out.push(`done ${m.id} self_trade`)
        i++
        continue
      }
      const q = Math.min(want, m.lots - m.filled)
      m.filled += q
      filled += q
      spent += q * m.price
      out.push(`fill ${m.id} ${cmd.orderId} ${m.price} ${q}`)
      if (m.filled === m.lots) {
        this.resting.splice(this.resting.indexOf(m), 1)
        out.push(`done ${m.id} filled`)
        i++
      }
    }
    if (end === null) {
      if (budget !== null) end = spent === budget ? 'filled' : 'no_liquidity'
      else if (filled === lots) end = 'filled'
      else if (cmd.type === 'market') end = 'no_liquidity'
    }
    if (end !== null) out.push(`done ${cmd.orderId} ${end}`)
    else this.resting.push({ id: cmd.orderId, userId: cmd.userId, side: cmd.side, price: cmd.type === 'limit' ? cmd.price : 0, lots, filled })
    return out
  }
}

// --- the simulation ---------------------------------------------------------------------------------

type Bucket = { available: bigint; frozen: bigint }
type Wallet = Record<SettlementAsset, Bucket>

interface Outcome {
  violations: Record<string, string[]>
  counts: Record<string, number>
  commands: Command[]
  live: Engine
}

const PROPERTIES = ['reference', 'crossed', 'levels', 'conservation', 'negative', 'frozen', 'budget', 'replay'] as const
type Property = (typeof PROPERTIES)[number]

function simulate(seed: number): Outcome {
  const rnd = xorshift32(seed)
  const engine = new Engine(spec)
  const twin = new Engine(spec)
  const ref = new Reference()
  const violations = Object.fromEntries(PROPERTIES.map((p) => [p, [] as string[]])) as Record<Property, string[]>
  const counts: Record<string, number> = {}
  const count = (k: string) => void (counts[k] = (counts[k] ?? 0) + 1)
  const fail = (p: Property, step: number, msg: string) => {
    if (violations[p].length < 5) violations[p].push(`seed ${seed} step ${step}: ${msg}`)
  }

  const wallets = new Map<number, Wallet>()
  for (let u = 1; u <= USERS; u++) {
    wallets.set(u, { USDT: { available: START_USDT, frozen: 0n }, NADI: { available: START_NADI, frozen: 0n } })
  }
  const feesHeld: Record<SettlementAsset, bigint> = { USDT: 0n, NADI: 0n }
  const wallet = (u: number) => wallets.get(u) as Wallet
  const total = (a: SettlementAsset) => [...wallets.values()].reduce((s, w) => s + w[a].available + w[a].frozen, 0n) + feesHeld[a]
  const startTotals = { USDT: total('USDT'), NADI: total('NADI') }

  const eventLevels = new Map<string, number>()
  let step = 0
  let events: string[] = []
  // An object, not a let: TypeScript does not see the sink's assignments when narrowing.
  const last: { rejection: RejectReason | null } = { rejection: null }

  const sink: EngineSink = {
    accepted(o) {
      if (o.status !== 'pending' || o.filledLots !== 0) fail('reference', step, `accepted order ${o.id} is not fresh`)
    },
    rejected(_cmd, reason) {
      last.rejection = reason
    },
    fill(m, t, price, lots, quote) {
      events.push(`fill ${m.id} ${t.id} ${price} ${lots}`)
      if (quote !== price * lots || price !== m.price) fail('reference', step, `fill quote/price wrong: ${price}×${lots}=${quote}`)
      const s = settleFill(spec, fees, { makerSide: m.side, price, lots, quote })
      const buyer = wallet(m.side === 'buy' ? m.userId : t.userId)
      const seller = wallet(m.side === 'sell' ? m.userId : t.userId)
      buyer.USDT.frozen -= s.buyerPays
      buyer.NADI.available += s.buyerReceives
      seller.NADI.frozen -= s.sellerPays
      seller.USDT.available += s.sellerReceives
      feesHeld.NADI += s.buyerFee
      feesHeld.USDT += s.sellerFee
      count('fills')
      if (m.userId === t.userId) fail('reference', step, `user ${m.userId} traded with themself`)
    },
    done(o, reason) {
      events.push(`done ${o.id} ${reason}`)
      count(`done:${reason}`)
      if (o.type === 'market' && o.side === 'buy' && o.filledQuote > o.quote) fail('budget', step, `market buy ${o.id} spent ${o.filledQuote} of ${o.quote}`)
      if (o.type === 'market' && o.side === 'buy' && reason === 'budget' && engine.bestAsk() !== null && o.quote - o.filledQuote >= (engine.bestAsk() as number)) {
        fail('budget', step, `market buy ${o.id} stopped with ${o.quote - o.filledQuote} left, enough for a lot at ${engine.bestAsk()}`)
      }
      const r = releaseOnDone(spec, o)
      const w = wallet(o.userId)[r.asset]
      w.frozen -= r.amount
      w.available += r.amount
    },
    level(side, price, totalLots) {
      const key = `${side}:${price}`
      if (totalLots === 0) eventLevels.delete(key)
      else eventLevels.set(key, totalLots)
    },
  }

  let nextId = 1
  let mid = 10_000
  const commands: Command[] = []
  const issued: number[] = []

  for (step = 0; step < COMMANDS; step++) {
    if (step % 50 === 0) mid += rnd.int(-2, 2)
    const userId = rnd.int(1, USERS)
    const r = rnd.next()
    let cmd: Command
    if (r < 0.45) {
      const side: Side = rnd.next() < 0.5 ? 'buy' : 'sell'
      const price = side === 'buy' ? mid + rnd.int(-15, 3) : mid + rnd.int(-3, 15)
      const lots = rnd.next() < 0.03 ? rnd.int(1, 99) : rnd.int(100, 1500)
      cmd = { kind: 'place', orderId: nextId++, userId, side, type: 'limit', price, lots, ts: step }
    } else if (r < 0.55) {
      cmd = { kind: 'place', orderId: nextId++, userId, side: 'sell', type: 'market', lots: rnd.int(50, 3000), ts: step }
    } else if (r < 0.65) {
      const quote = rnd.next() < 0.05 ? rnd.int(1, 999_999) : rnd.int(1_000_000, 30_000_000)
      cmd = { kind: 'place', orderId: nextId++, userId, side: 'buy', type: 'market', quote, ts: step }
    } else if (r < 0.92) {
      const open = [...engine.openOrders()]
      const pickOpen = open.length > 0 && rnd.next() < 0.85
      const target = pickOpen ? (open[rnd.int(0, open.length - 1)] as Order) : null
      const orderId = target ? target.id : issued.length ? (issued[rnd.int(0, issued.length - 1)] as number) : 1
      const owner = target && rnd.next() < 0.9 ? target.userId : userId
      cmd = { kind: 'cancel', orderId, userId: owner, ts: step }
    } else if (r < 0.96) {
      const orderId = Math.max(1, engine.lastOrderId - rnd.int(0, 3))
      cmd = { kind: 'place', orderId, userId, side: 'buy', type: 'limit', price: mid - 20, lots: 200, ts: step }
    } else {
      const price = [0, spec.maxPriceTicks + 1, mid + 0.5][rnd.int(0, 2)] as number
      cmd = { kind: 'place', orderId: nextId++, userId, side: 'sell', type: 'limit', price, lots: 200, ts: step }
    }

    // The service's part: a place is only applied if its hold can be frozen.
    if (cmd.kind === 'place') {
      const hold = frozenForPlace(spec, cmd)
      const w = wallet(cmd.userId)[hold.asset]
      if (w.available < hold.amount) {
        count('unaffordable')
        continue
      }
      w.available -= hold.amount
      w.frozen += hold.amount
      issued.push(cmd.orderId)
    }

    events = []
    last.rejection = null
    let placed: PlaceCommand | null = null
    const accepted = engine.apply(cmd, sink)
    commands.push(cmd)
    twin.apply(cmd, nullSink)

    if (cmd.kind === 'place') {
      if (accepted) placed = cmd
      else {
        count(`rejected:${last.rejection}`)
        const hold = frozenForPlace(spec, cmd)
        const w = wallet(cmd.userId)[hold.asset]
        w.available += hold.amount
        w.frozen -= hold.amount
      }
    }

    // Reference.
    if (cmd.kind === 'cancel') {
      const want = ref.cancel(cmd.orderId, cmd.userId)
      if (typeof want === 'string') {
        if (accepted || last.rejection !== want) fail('reference', step, `cancel ${cmd.orderId}: expected ${want}, got ${accepted ? 'accepted' : last.rejection}`)
      } else if (!accepted || events.join('|') !== want.join('|')) fail('reference', step, `cancel events ${events.join('|')} ≠ ${want.join('|')}`)
      if (!accepted) count(`rejected:${last.rejection}`)
    } else if (placed) {
      const want = ref.place(placed)
      if (events.join('|') !== want.join('|')) fail('reference', step, `place ${placed.orderId}: ${events.join('|')} ≠ ${want.join('|')}`)
    }

    // The book.
    const bid = engine.bestBid()
    const ask = engine.bestAsk()
    if (bid !== null && ask !== null && bid >= ask) fail('crossed', step, `bid ${bid} ≥ ask ${ask}`)
    const sums = new Map<string, number>()
    const held = new Map<string, bigint>()
    for (const o of engine.openOrders()) {
      const key = `${o.side}:${o.price}`
      sums.set(key, (sums.get(key) ?? 0) + o.lots - o.filledLots)
      const h = heldBy(spec, o)
      const hk = `${o.userId}:${h.asset}`
      held.set(hk, (held.get(hk) ?? 0n) + h.amount)
      const status = o.filledLots === 0 ? 'pending' : 'partially_filled'
      if (o.status !== status || o.filledLots >= o.lots || o.type !== 'limit') fail('levels', step, `open order ${o.id} is ${o.status} with ${o.filledLots}/${o.lots}`)
    }
    const engineLevels = new Map<string, number>()
    for (const side of ['buy', 'sell'] as const) {
      const ls = engine.levels(side, Infinity)
      for (let i = 0; i < ls.length; i++) {
        const [price, lots] = ls[i] as [number, number]
        engineLevels.set(`${side}:${price}`, lots)
        const prev = ls[i - 1]
        if (prev && (side === 'buy' ? prev[0] <= price : prev[0] >= price)) fail('levels', step, `${side} levels out of order at ${price}`)
      }
    }
    const same = (a: Map<string, number>, b: Map<string, number>) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v)
    if (!same(sums, engineLevels)) fail('levels', step, `level totals ${JSON.stringify([...engineLevels])} ≠ sums of orders ${JSON.stringify([...sums])}`)
    if (!same(eventLevels, engineLevels)) fail('levels', step, `book from level events ≠ engine levels`)

    // The money.
    for (const a of ['USDT', 'NADI'] as const) {
      if (total(a) !== startTotals[a]) fail('conservation', step, `${a} total ${total(a)} ≠ ${startTotals[a]}`)
      for (const [u, w] of wallets) {
        if (w[a].available < 0n || w[a].frozen < 0n) fail('negative', step, `user ${u} ${a} ${w[a].available}/${w[a].frozen}`)
        const expected = held.get(`${u}:${a}`) ?? 0n
        if (w[a].frozen !== expected) fail('frozen', step, `user ${u} ${a} frozen ${w[a].frozen} ≠ held by open orders ${expected}`)
      }
    }

    if (step % 500 === 0 && JSON.stringify(twin.snapshot()) !== JSON.stringify(engine.snapshot())) fail('replay', step, 'lock-step twin differs')
  }

  const fresh = new Engine(spec)
  for (const c of commands) fresh.apply(c, nullSink)
  if (JSON.stringify(fresh.snapshot()) !== JSON.stringify(engine.snapshot())) fail('replay', COMMANDS, 'fresh replay differs')
  counts.feesUSDT = Number(feesHeld.USDT)
  counts.feesNADI = Number(feesHeld.NADI)
  return { violations, counts, commands, live: engine }
}

const outcomes = new Map<number, Outcome>()
const outcome = (seed: number) => {
  let o = outcomes.get(seed)
  if (!o) outcomes.set(seed, (o = simulate(seed)))
  return o
}

describe.each(SEEDS.map((s) => [`0x${s.toString(16)}`, s] as const))(`random stream of ${COMMANDS} commands, seed %s`, (_name, seed) => {
  it('matches like a naive price-then-time reference: same fills, same ends, same cancel verdicts', () => {
    expect(outcome(seed).violations.reference).toEqual([])
  })
  it('the book is never crossed after any command', () => {
    expect(outcome(seed).violations.crossed).toEqual([])
  })
  it('every level total equals the sum of its orders and what the level events said', () => {
    expect(outcome(seed).violations.levels).toEqual([])
  })
  it('per asset, users plus fees always hold the same total', () => {
    expect(outcome(seed).violations.conservation).toEqual([])
  })
  it('no balance ever goes negative', () => {
    expect(outcome(seed).violations.negative).toEqual([])
  })
  it("each user's frozen balance equals what their open orders still hold", () => {
    expect(outcome(seed).violations.frozen).toEqual([])
  })
  it('a market buy never spends more than its budget and stops only when it cannot buy a lot', () => {
    expect(outcome(seed).violations.budget).toEqual([])
  })
  it('a fresh engine fed the same commands reaches an equal snapshot', () => {
    const o = outcome(seed)
    expect(o.violations.replay).toEqual([])
    const fresh = new Engine(spec)
    for (const c of o.commands) fresh.apply(c, nullSink)
    expect(fresh.snapshot()).toEqual(o.live.snapshot())
  })
  it('the stream exercises every path (fills, self-trades, every end, rejections, fees)', () => {
    const c = outcome(seed).counts
    for (const k of ['fills', 'done:filled', 'done:cancelled', 'done:self_trade', 'done:no_liquidity', 'done:budget', 'rejected:duplicate_id', 'rejected:bad_price', 'rejected:min_notional', 'rejected:unknown_order', 'rejected:not_owner']) {
      expect(c[k] ?? 0, k).toBeGreaterThan(0)
    }
    expect(c.feesUSDT).toBeGreaterThan(0)
    expect(c.feesNADI).toBeGreaterThan(0)
    expect(outcome(seed).live.openCount).toBeGreaterThan(0)
  })
})
