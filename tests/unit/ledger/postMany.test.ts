// postMany against post: a batch must leave exactly what posting its inputs one by one (in one
// transaction) leaves — the same postings, entries, accounts and balances — and refuse what that
// would refuse, writing nothing.

import { afterEach, describe, expect, it } from 'vitest'
import { transaction } from '../../../server/db/index.ts'
import {
  accountKey,
  balance,
  custody,
  DUST,
  FEES,
  fund,
  InsufficientFunds,
  InvalidPosting,
  MINING,
  post,
  postMany,
  RefConflict,
  trade,
  type AccountRef,
  type Asset,
  type Bucket,
  type PostingInput,
  type PostResult,
} from '../../../server/ledger/index.ts'
import { freshDb, prng, type TestDb } from './support.ts'

const USERS = 12
const ASSETS: Asset[] = ['USDT', 'NADI']
const isCustody = (a: AccountRef) => 'platform' in a && a.platform.startsWith('custody:')

const open: TestDb[] = []
function db(): TestDb {
  const t = freshDb(USERS)
  open.push(t)
  return t
}
afterEach(() => {
  for (const t of open.splice(0)) t.close()
})

/** Every row the ledger keeps, in id order. */
function contents(t: TestDb) {
  const all = (sql: string) => t.sqlite.prepare(sql).all()
  return {
    postings: all('SELECT * FROM ledger_postings ORDER BY id'),
    entries: all('SELECT * FROM ledger_entries ORDER BY id'),
    accounts: all('SELECT * FROM ledger_accounts ORDER BY id'),
  }
}

function errorOf(fn: () => unknown): Error | null {
  try {
    fn()
    return null
  } catch (e) {
    return e as Error
  }
}

async function errorOfAsync(fn: () => Promise<unknown>): Promise<Error | null> {
  try {
    await fn()
    return null
  } catch (e) {
    return e as Error
  }
}

describe('postMany', () => {
  it('leaves the same postings, entries and balances as post one by one, and refuses what post would refuse (seeded random batches), synchronously and awaited', async () => {
    const one = db()
    const many = db()
    // The same batches awaited on the asynchronous way: one by one in a transaction, and as one postMany.
    const oneAsync = db()
    const manyAsync = db()
    const rng = prng(20261127)
    const user = () => BigInt(1 + rng.int(USERS))
    const userAccount = (): AccountRef => (rng.chance(0.6) ? fund(user()) : trade(user()))
    const account = (): AccountRef => (rng.chance(0.75) ? userAccount() : rng.chance(0.5) ? custody(rng.pick(['bsc', 'nadi'])) : rng.pick([MINING, FEES, DUST]))
    const posted: PostingInput[] = []
    let seq = 0
    let at = 1_000
    const outcomes: Record<string, number> = {}
    // What the generator expects the balances to be, so that most debits fit and a batch fails only
    // where it means to (one over-spend, one changed replay).
    let model = new Map<string, bigint>()
    const bucketKey = (a: AccountRef, asset: Asset, b: Bucket) => `${accountKey(a, asset)}|${b}`
    const bucket = (): Bucket => (rng.chance(0.15) ? 'frozen' : 'available')

    for (let batch = 0; batch < 16; batch++) {
      const size = rng.pick([1, 3, 40, 499, 500, 501, 1_100])
      const saved = new Map(model)
      const fault = [null, 'overspend', null, 'conflict'][batch % 4]
      const faultAt = rng.int(size)
      const inputs: PostingInput[] = []
      for (let i = 0; i < size; i++) {
        if (posted.length && (rng.chance(0.02) || (fault === 'conflict' && i === faultAt))) {
          // A ref posted before: the same content replays; changed, it is a conflict.
          const again = rng.pick(posted)
          if (inputs.some((p) => p.ref === again.ref)) continue
          inputs.push(fault === 'conflict' && i === faultAt ? { ...again, reason: 'changed' } : again)
          continue
        }
        const overspend = fault === 'overspend' && i === faultAt
        const moves = Array.from({ length: overspend ? 1 : 1 + rng.int(3) }, () => {
          let from = overspend ? userAccount() : account()
          const asset = rng.pick(ASSETS)
          const fromBucket = bucket()
          const have = model.get(bucketKey(from, asset, fromBucket)) ?? 0n
          let amount: bigint
          if (overspend) amount = have + rng.amount(1_000n)
          else if (isCustody(from) || have === 0n) {
            from = custody(rng.pick(['bsc', 'nadi']))
            amount = rng.amount(1_000_000_000n)
          } else amount = rng.chance(0.1) ? have : rng.amount(have)
          let to = account()
          while (accountKey(to, asset) === accountKey(from, asset)) to = account()
          const toBucket = bucket()
          model.set(bucketKey(from, asset, fromBucket), (model.get(bucketKey(from, asset, fromBucket)) ?? 0n) - amount)
          model.set(bucketKey(to, asset, toBucket), (model.get(bucketKey(to, asset, toBucket)) ?? 0n) + amount)
          return { from, to, asset, amount, fromBucket, toBucket }
        })
        inputs.push({ ref: `p:${++seq}`, reason: rng.pick(['deposit', 'transfer', 'settlement']), moves, at: at++, meta: rng.chance(0.3) ? { n: seq } : undefined })
      }

      const expected = errorOf(() => transaction(one.sqlite, () => inputs.map((p) => post(one.sqlite, p))))
      const before = contents(many)
      let results: PostResult[] = []
      const got = errorOf(() => (results = postMany(many.sqlite, inputs)))
      expect(got?.constructor, `batch ${batch}: ${got?.message} / ${expected?.message}`).toBe(expected?.constructor)
      if (got) {
        model = saved
        expect(got.message).toBe(expected!.message)
        expect(contents(many), `refused batch ${batch} wrote something`).toEqual(before)
        outcomes[got.name] = (outcomes[got.name] ?? 0) + 1
      } else {
        expect(results.map((r) => r.ref)).toEqual(inputs.map((p) => p.ref))
        outcomes.posted = (outcomes.posted ?? 0) + 1
        outcomes.replayed = (outcomes.replayed ?? 0) + results.filter((r) => r.replayed).length
        posted.push(...inputs.filter((_, i) => !results[i]!.replayed))
      }
      expect(contents(many), `after batch ${batch}`).toEqual(contents(one))

      const gotOne = await errorOfAsync(() => oneAsync.sql.transaction(async (tx) => { for (const p of inputs) await post(tx, p) }))
      const gotMany = await errorOfAsync(() => postMany(manyAsync.sql, inputs))
      expect(gotOne?.message, `batch ${batch}, awaited one by one`).toBe(expected?.message)
      expect(gotMany?.message, `batch ${batch}, awaited as one`).toBe(expected?.message)
      expect(contents(oneAsync), `after batch ${batch}, awaited one by one`).toEqual(contents(one))
      expect(contents(manyAsync), `after batch ${batch}, awaited as one`).toEqual(contents(one))
    }
    // The seed must exercise each path, or this test proves less than it says.
    expect(outcomes.posted).toBeGreaterThan(2)
    expect(outcomes.replayed).toBeGreaterThan(0)
    expect(outcomes.InsufficientFunds).toBeGreaterThan(0)
    expect(outcomes.RefConflict).toBeGreaterThan(0)
    // ~2.5 s alone; a machine shared with other test runs has taken 11.
  }, 30_000)

  it('refuses a batch whose debits of one account together exceed its balance, though each alone fits, and writes nothing', () => {
    const t = db()
    post(t.sqlite, { ref: 'fund', reason: 'fund', userId: null, moves: [{ from: custody('nadi'), to: MINING, asset: 'NADI', amount: 1_000n }] })
    const before = contents(t)
    const pay = (u: number) => ({ ref: `pay:${u}`, reason: 'settlement', userId: BigInt(u), moves: [{ from: MINING, to: fund(u), asset: 'NADI', amount: 100n }] })
    const inputs = Array.from({ length: USERS }, (_, i) => pay(i + 1))
    const err = errorOf(() => postMany(t.sqlite, inputs))
    expect(err).toBeInstanceOf(InsufficientFunds)
    expect((err as InsufficientFunds).current).toBe(0n)
    expect(contents(t)).toEqual(before)
    // Ten of them fit exactly.
    postMany(t.sqlite, inputs.slice(0, 10))
    expect(balance(t.sqlite, MINING, 'NADI').available).toBe(0n)
  })

  it('replays a ref already posted with the same content, and refuses a changed one as RefConflict writing nothing', () => {
    const t = db()
    const first = post(t.sqlite, { ref: 'd:1', reason: 'deposit', moves: [{ from: custody('bsc'), to: fund(1), asset: 'USDT', amount: 5n }] })
    const again = postMany(t.sqlite, [
      { ref: 'd:1', reason: 'deposit', moves: [{ from: custody('bsc'), to: fund(1), asset: 'USDT', amount: 5n }] },
      { ref: 'd:2', reason: 'deposit', moves: [{ from: custody('bsc'), to: fund(2), asset: 'USDT', amount: 7n }] },
    ])
    expect(again[0]).toEqual({ id: first.id, ref: 'd:1', replayed: true })
    expect(again[1]!.replayed).toBe(false)
    expect(balance(t.sqlite, fund(1), 'USDT').available).toBe(5n)
    const before = contents(t)
    const err = errorOf(() =>
      postMany(t.sqlite, [
        { ref: 'd:3', reason: 'deposit', moves: [{ from: custody('bsc'), to: fund(3), asset: 'USDT', amount: 1n }] },
        { ref: 'd:1', reason: 'deposit', moves: [{ from: custody('bsc'), to: fund(1), asset: 'USDT', amount: 6n }] },
      ]),
    )
    expect(err).toBeInstanceOf(RefConflict)
    expect(contents(t)).toEqual(before)
  })

  it('refuses a batch naming one ref twice before writing anything', () => {
    const t = db()
    const d = { ref: 'd:1', reason: 'deposit', moves: [{ from: custody('bsc'), to: fund(1), asset: 'USDT', amount: 5n }] }
    expect(() => postMany(t.sqlite, [d, { ...d }])).toThrow(InvalidPosting)
    expect(t.counts()).toEqual({ postings: 0, entries: 0, accounts: 0 })
  })

  it('lets a custody account go negative, as post does, and no other platform account', () => {
    const t = db()
    postMany(t.sqlite, [
      { ref: 'd:1', reason: 'deposit', moves: [{ from: custody('bsc'), to: fund(1), asset: 'USDT', amount: 5n }] },
      { ref: 'd:2', reason: 'deposit', moves: [{ from: custody('bsc'), to: fund(2), asset: 'USDT', amount: 7n }] },
    ])
    expect(balance(t.sqlite, custody('bsc'), 'USDT').available).toBe(-12n)
    const before = contents(t)
    expect(() => postMany(t.sqlite, [{ ref: 'f:1', reason: 'payout', moves: [{ from: FEES, to: fund(1), asset: 'USDT', amount: 1n }] }])).toThrow(InsufficientFunds)
    expect(contents(t)).toEqual(before)
  })

  it('runs inside the caller transaction: a later failure there undoes the batch', () => {
    const t = db()
    expect(() =>
      transaction(t.sqlite, () => {
        postMany(t.sqlite, [{ ref: 'd:1', reason: 'deposit', moves: [{ from: custody('bsc'), to: fund(1), asset: 'USDT', amount: 5n }] }])
        throw new Error('business change failed')
      }),
    ).toThrow('business change failed')
    expect(t.counts()).toEqual({ postings: 0, entries: 0, accounts: 0 })
  })
})
