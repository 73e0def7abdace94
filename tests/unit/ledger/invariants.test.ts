// Property test of the ledger against a model: seeded random sequences of 10,000+ operations of every
// kind (deposits from custody, fund↔trade, user→user, freezes, unfreezes, settlements with fees, fees,
// burns, sweeps, over-spends, replays, conflicting refs, failing business transactions). The model says
// what each operation must do; the ledger must agree, a refused operation must change nothing, and
// after every batch the full audit — with a frozen holder fed by the model's open holds — must be clean.

import { afterAll, describe, expect, it } from 'vitest'
import { transaction } from '../../../server/db/index.ts'
import {
  accountId,
  accountKey,
  audit,
  balance,
  BURNED,
  custody,
  FEES,
  fund,
  InsufficientFunds,
  InvalidPosting,
  post,
  RefConflict,
  registerFrozenHolder,
  trade,
  TREASURY,
  type AccountRef,
  type Asset,
  type Bucket,
  type PostingInput,
} from '../../../server/ledger/index.ts'
import { freshDb, prng, type TestDb } from './support.ts'

const OPS = 10_000
const CHECK_EVERY = 250
const USERS = 8
const CHAINS = ['bsc', 'nadi'] as const
const ASSETS: Asset[] = ['USDT', 'NADI', 'MEME']
/** Up to 2^54 units: above what a float holds exactly, and 10,000 deposits still fit custody's 64 bits. */
const SIZES = [100n, 100_000_000n, 1_000_000_000_000n, 2n ** 54n]

interface Leg {
  account: AccountRef
  asset: Asset
  bucket: Bucket
  delta: bigint
}

/** The model's view of a posting: its net changes per account bucket. */
function legsOf(input: PostingInput): Leg[] {
  const legs = new Map<string, Leg>()
  const add = (account: AccountRef, asset: Asset, bucket: Bucket, delta: bigint) => {
    const k = `${accountKey(account, asset)}|${bucket}`
    const leg = legs.get(k)
    if (leg) leg.delta += delta
    else legs.set(k, { account, asset, bucket, delta })
  }
  for (const m of input.moves ?? []) {
    add(m.from, m.asset, m.fromBucket ?? 'available', -m.amount)
    add(m.to, m.asset, m.toBucket ?? 'available', m.amount)
  }
  return [...legs.values()]
}

const isCustody = (a: AccountRef) => 'platform' in a && a.platform.startsWith('custody:')

class Model {
  readonly balances = new Map<string, { account: AccountRef; asset: Asset; available: bigint; frozen: bigint }>()

  get(account: AccountRef, asset: Asset) {
    const b = this.balances.get(accountKey(account, asset))
    return { available: b?.available ?? 0n, frozen: b?.frozen ?? 0n }
  }

  /** Whether applying the legs would take a non-custody bucket below zero. */
  shortfall(legs: Leg[]): boolean {
    return legs.some((l) => !isCustody(l.account) && this.get(l.account, l.asset)[l.bucket] + l.delta < 0n)
  }

  apply(legs: Leg[]) {
    for (const l of legs) {
      const k = accountKey(l.account, l.asset)
      let b = this.balances.get(k)
      if (!b) this.balances.set(k, (b = { account: l.account, asset: l.asset, available: 0n, frozen: 0n }))
      b[l.bucket] += l.delta
    }
  }
}

interface Hold {
  account: AccountRef
  asset: Asset
  amount: bigint
}

async function runSequence(seed: number, ops: number) {
  const t: TestDb = freshDb(USERS)
  const { sqlite } = t
  const rng = prng(seed)
  const model = new Model()
  const holds: Hold[] = []
  const done: { input: PostingInput; id: bigint }[] = []
  const stats: Record<string, number> = {}
  const count = (what: string) => void (stats[what] = (stats[what] ?? 0) + 1)
  let seq = 0
  const ref = (what: string) => `${what}:${seed}:${++seq}`

  // The feature that "holds" frozen funds here is the test itself: the audit checks frozen against it.
  const unregister = registerFrozenHolder(`property test ${seed}`, async (db) => {
    const m = new Map<bigint, bigint>()
    for (const h of holds) {
      const id = await accountId(db, h.account, h.asset)
      if (id === null) throw new Error(`hold on an account that does not exist: ${accountKey(h.account, h.asset)}`)
      m.set(id, (m.get(id) ?? 0n) + h.amount)
    }
    return m
  })

  const snapshot = () => ({ counts: t.counts(), rows: sqlite.prepare('SELECT * FROM ledger_accounts ORDER BY id').all() })
  const user = () => BigInt(1 + rng.int(USERS))
  const otherUser = (u: bigint) => BigInt(1 + ((Number(u) - 1 + 1 + rng.int(USERS - 1)) % USERS))
  const asset = () => rng.pick(ASSETS)
  const size = () => rng.amount(rng.pick(SIZES))
  /** Mostly what is there, sometimes exactly all of it, sometimes more (an over-spend the ledger must refuse). */
  const spend = (have: bigint) => (rng.chance(0.15) ? have + rng.amount(have / 10n + 1n) : rng.chance(0.1) && have > 0n ? have : rng.amount(have))

  function checkAccounts(legs: Leg[]) {
    for (const l of legs) expect(balance(sqlite, l.account, l.asset), accountKey(l.account, l.asset)).toEqual(model.get(l.account, l.asset))
  }

  /** Posts in its own transaction, as an action would; the model decides whether it must succeed. */
  function attempt(what: string, input: PostingInput, onSuccess?: () => void): boolean {
    const legs = legsOf(input)
    const mustFail = model.shortfall(legs)
    const before = mustFail ? snapshot() : null
    try {
      const r = transaction(sqlite, () => post(sqlite, input))
      expect(mustFail, `${what} should have been refused`).toBe(false)
      expect(r.replayed).toBe(false)
      model.apply(legs)
      done.push({ input, id: r.id })
      onSuccess?.()
      count(what)
      checkAccounts(legs)
      return true
    } catch (err) {
      if (!mustFail || !(err instanceof InsufficientFunds)) throw err
      expect(snapshot(), `refused ${what} changed something`).toEqual(before)
      count(`${what} refused`)
      return false
    }
  }

  function expectUnchanged(what: string, fn: () => void, error: new (...a: never[]) => Error) {
    const before = snapshot()
    expect(fn, what).toThrow(error)
    expect(snapshot(), `${what} changed something`).toEqual(before)
    count(what)
  }

  const operations: [number, () => void][] = [
    // deposit: the chain's custody (may go negative) → a user's fund account
    [14, () => {
      const u = user()
      attempt('deposit', { ref: ref('deposit'), reason: 'deposit', moves: [{ from: custody(rng.pick(CHAINS)), to: fund(u), asset: asset(), amount: size() }] })
    }],
    // withdrawal straight to the chain
    [5, () => {
      const u = user()
      const a = asset()
      const amount = spend(model.get(fund(u), a).available)
      attempt('withdraw', { ref: ref('withdraw'), reason: 'withdraw', moves: [{ from: fund(u), to: custody(rng.pick(CHAINS)), asset: a, amount }] })
    }],
    // fund ↔ trade
    [14, () => {
      const u = user()
      const a = asset()
      const [from, to] = rng.chance(0.5) ? [fund(u), trade(u)] : [trade(u), fund(u)]
      attempt('fund↔trade', { ref: ref('draw'), reason: 'transfer', moves: [{ from, to, asset: a, amount: spend(model.get(from, a).available) }] })
    }],
    // user → user
    [10, () => {
      const u = user()
      const v = otherUser(u)
      const a = asset()
      attempt('user→user', { ref: ref('p2p'), reason: 'transfer', moves: [{ from: fund(u), to: fund(v), asset: a, amount: spend(model.get(fund(u), a).available) }] })
    }],
    // freeze (an order placed, a withdrawal requested)
    [10, () => {
      const u = user()
      const account = rng.chance(0.5) ? fund(u) : trade(u)
      const a = asset()
      const amount = spend(model.get(account, a).available)
      attempt('freeze', { ref: ref('freeze'), reason: 'order', moves: [{ from: account, to: account, asset: a, amount, fromBucket: 'available', toBucket: 'frozen' }] }, () =>
        holds.push({ account, asset: a, amount }),
      )
    }],
    // unfreeze part or all of a hold (an order cancelled)
    [6, () => {
      const h = rng.pick(holds)
      if (!h) return
      const amount = rng.chance(0.4) ? h.amount : rng.amount(h.amount)
      attempt('unfreeze', { ref: ref('unfreeze'), reason: 'cancel', moves: [{ from: h.account, to: h.account, asset: h.asset, amount, fromBucket: 'frozen', toBucket: 'available' }] }, () =>
        release(h, amount),
      )
    }],
    // unfreezing more than the account has frozen
    [2, () => {
      const u = user()
      const a = asset()
      const account = rng.chance(0.5) ? fund(u) : trade(u)
      const amount = model.get(account, a).frozen + rng.amount(1000n)
      const ok = attempt('over-unfreeze', { ref: ref('unfreeze'), reason: 'cancel', moves: [{ from: account, to: account, asset: a, amount, fromBucket: 'frozen', toBucket: 'available' }] })
      expect(ok).toBe(false)
    }],
    // settle a hold: frozen → the counterparty's trade account, with a 1% fee to FEES, in one posting
    [8, () => {
      const h = rng.pick(holds)
      if (!h) return
      const owner = 'user' in h.account ? h.account.user : 1n
      const amount = rng.chance(0.4) ? h.amount : rng.amount(h.amount)
      const fee = amount / 100n
      const moves = [{ from: h.account, fromBucket: 'frozen' as const, to: trade(otherUser(owner)), asset: h.asset, amount: amount - fee }]
      if (fee > 0n) moves.push({ from: h.account, fromBucket: 'frozen', to: FEES, asset: h.asset, amount: fee })
      attempt('settle', { ref: ref('fill'), reason: 'trade.fill', moves }, () => release(h, amount))
    }],
    // a fee, a burn, a sweep of fees into the treasury (platform accounts cannot go negative either)
    [4, () => {
      const u = user()
      const a = asset()
      attempt('fee', { ref: ref('fee'), reason: 'fee', moves: [{ from: fund(u), to: FEES, asset: a, amount: spend(model.get(fund(u), a).available / 50n) }] })
    }],
    [3, () => {
      const u = user()
      attempt('burn', { ref: ref('burn'), reason: 'burn', moves: [{ from: fund(u), to: BURNED, asset: 'NADI', amount: spend(model.get(fund(u), 'NADI').available / 20n) }] })
    }],
    [2, () => {
      const a = asset()
      attempt('sweep', { ref: ref('sweep'), reason: 'sweep', userId: null, moves: [{ from: FEES, to: TREASURY, asset: a, amount: spend(model.get(FEES, a).available) }] })
    }],
    // spending frozen funds: more than available, though available + frozen would cover it
    [3, () => {
      const h = rng.pick(holds)
      if (!h) return
      const have = model.get(h.account, h.asset)
      const amount = have.available + rng.amount(have.frozen)
      const ok = attempt('spend frozen', { ref: ref('spend'), reason: 'transfer', moves: [{ from: h.account, to: FEES, asset: h.asset, amount }] })
      expect(ok).toBe(false)
    }],
    // a retried action: the same ref and content posts once
    [5, () => {
      const d = rng.pick(done)
      if (!d) return
      const before = snapshot()
      const r = transaction(sqlite, () => post(sqlite, d.input))
      expect(r).toEqual({ id: d.id, ref: d.input.ref, replayed: true })
      expect(snapshot()).toEqual(before)
      count('replay')
    }],
    // the same ref with other content is a conflict
    [2, () => {
      const d = rng.pick(done)
      if (!d?.input.moves?.[0]) return
      const [first, ...rest] = d.input.moves
      const changed = { ...d.input, moves: [{ ...first, amount: first.amount + 1n }, ...rest] }
      expectUnchanged('conflicting ref', () => transaction(sqlite, () => post(sqlite, changed)), RefConflict)
    }],
    // a business transaction whose second posting is refused rolls back its first one too
    [2, () => {
      const u = user()
      const a = asset()
      const credit = size()
      const over = model.get(fund(u), a).available + credit + 1n
      expectUnchanged(
        'failed action',
        () =>
          transaction(sqlite, () => {
            post(sqlite, { ref: ref('deposit'), reason: 'deposit', moves: [{ from: custody('bsc'), to: fund(u), asset: a, amount: credit }] })
            post(sqlite, { ref: ref('pay'), reason: 'payment', moves: [{ from: fund(u), to: TREASURY, asset: a, amount: over }] })
          }),
        InsufficientFunds,
      )
    }],
    // a refusal the action catches: the rest of its transaction still commits, the refused posting left nothing
    [2, () => {
      const u = user()
      const a = asset()
      const have = model.get(fund(u), a).available
      const credit = size()
      const good: PostingInput = { ref: ref('deposit'), reason: 'deposit', moves: [{ from: custody('nadi'), to: fund(u), asset: a, amount: credit }] }
      const bad: PostingInput = { ref: ref('pay'), reason: 'payment', moves: [{ from: fund(u), to: TREASURY, asset: a, amount: have + 1n }] }
      const r = transaction(sqlite, () => {
        expect(() => post(sqlite, bad)).toThrow(InsufficientFunds)
        return post(sqlite, good)
      })
      model.apply(legsOf(good))
      done.push({ input: good, id: r.id })
      checkAccounts(legsOf(good))
      expect(sqlite.prepare('SELECT COUNT(*) FROM ledger_postings WHERE ref = ?').pluck().get(bad.ref)).toBe(0n)
      count('caught refusal')
    }],
    // entries that do not balance
    [1, () => {
      const u = user()
      const bad = { ref: ref('bad'), reason: 'test', entries: [{ account: fund(u), asset: asset(), bucket: 'available' as const, delta: size() }] }
      expectUnchanged('unbalanced', () => post(sqlite, bad), InvalidPosting)
    }],
  ]

  function release(h: Hold, amount: bigint) {
    h.amount -= amount
    if (h.amount === 0n) holds.splice(holds.indexOf(h), 1)
  }

  const total = operations.reduce((s, [w]) => s + w, 0)
  function pickOperation(): () => void {
    let r = rng.int(total)
    for (const [w, op] of operations) {
      if (r < w) return op
      r -= w
    }
    throw new Error('unreachable')
  }

  async function fullCheck(at: number) {
    const report = await audit(t.sql)
    expect(report.violations, `audit after ${at} operations (seed ${seed})`).toEqual([])
    // Every account the database has is the model's, and the other way round.
    const rows = sqlite.prepare('SELECT user_id, kind, asset, available, frozen FROM ledger_accounts').all() as {
      user_id: bigint | null
      kind: string
      asset: Asset
      available: bigint
      frozen: bigint
    }[]
    expect(rows.length).toBe(model.balances.size)
    for (const r of rows) {
      const account = (r.user_id === null ? { platform: r.kind } : { user: r.user_id, kind: r.kind }) as AccountRef
      expect({ available: r.available, frozen: r.frozen }).toEqual(model.get(account, r.asset))
    }
    for (const a of ASSETS) {
      let sum = 0n
      for (const b of model.balances.values()) if (b.asset === a) sum += b.available + b.frozen
      expect(sum).toBe(0n)
    }
    expect(t.counts().postings).toBe(done.length)
  }

  try {
    for (let i = 1; i <= ops; i++) {
      try {
        pickOperation()()
      } catch (err) {
        throw new Error(`seed ${seed}, operation ${i}: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
      }
      if (i % CHECK_EVERY === 0) await fullCheck(i)
    }
    await fullCheck(ops)
    return stats
  } finally {
    unregister()
    t.close()
  }
}

describe('ledger invariants over random operation sequences', () => {
  const seen: Record<string, number>[] = []
  afterAll(() => {
    // Every kind of operation ran, refusals included, so the sequences exercised what they claim.
    const all = Object.assign({}, ...seen) as Record<string, number>
    for (const what of ['deposit', 'withdraw', 'fund↔trade', 'user→user', 'freeze', 'unfreeze', 'settle', 'fee', 'burn', 'sweep', 'replay']) {
      expect(all[what], what).toBeGreaterThan(0)
    }
    for (const what of ['withdraw refused', 'fund↔trade refused', 'user→user refused', 'freeze refused', 'over-unfreeze refused', 'spend frozen refused']) {
      expect(all[what], what).toBeGreaterThan(0)
    }
    for (const what of ['conflicting ref', 'failed action', 'caught refusal', 'unbalanced']) expect(all[what], what).toBeGreaterThan(0)
  })

  it.each([0x5eed, 0xc0ffee, 20260310])(
    'seed %i: 10,000 operations keep every invariant, refused ones change nothing, a replayed ref posts once',
    async (seed) => {
      seen.push(await runSequence(seed, OPS))
    },
    120_000,
  )
})
