import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { transaction } from '../../../server/db/index.ts'
import {
  audit,
  balance,
  balances,
  BURNED,
  custody,
  entriesFor,
  FEES,
  findPosting,
  freeze,
  fund,
  InsufficientFunds,
  InvalidPosting,
  post,
  RefConflict,
  settleFrozen,
  trade,
  transfer,
  TREASURY,
  unfreeze,
  type AccountRef,
  type Asset,
  type PostingInput,
} from '../../../server/ledger/index.ts'
import { freshDb, type TestDb } from './support.ts'

const UNIT = 100_000_000n
const usdt = (n: number | string) => BigInt(Math.round(Number(n) * 1e8))

let t: TestDb
let u1: bigint
let u2: bigint
beforeEach(() => {
  t = freshDb(3)
  ;[u1, u2] = t.users as [bigint, bigint]
})
afterEach(() => t.close())

let n = 0
const ref = (what = 'op') => `${what}:${++n}`

function deposit(user: bigint, asset: Asset, amount: bigint, chain = 'bsc') {
  return transfer(t.sqlite, { ref: ref('deposit'), reason: 'deposit', from: custody(chain), to: fund(user), asset, amount })
}

/** Everything a refused posting must leave alone. */
function snapshot() {
  return {
    counts: t.counts(),
    rows: t.sqlite.prepare('SELECT id, user_id, kind, asset, available, frozen FROM ledger_accounts ORDER BY id').all(),
  }
}

function expectRefused(fn: () => unknown, type: new (...a: never[]) => Error): Error {
  const before = snapshot()
  let caught: unknown
  try {
    fn()
  } catch (err) {
    caught = err
  }
  expect(caught).toBeInstanceOf(type)
  expect(snapshot()).toEqual(before)
  return caught as Error
}

describe('moving money', () => {
  it('a deposit credits the user fund account and debits the chain custody, the one account allowed to go negative', async () => {
    deposit(u1, 'USDT', usdt(25))
    expect(balance(t.sqlite, fund(u1), 'USDT')).toEqual({ available: usdt(25), frozen: 0n })
    expect(balance(t.sqlite, custody('bsc'), 'USDT')).toEqual({ available: -usdt(25), frozen: 0n })
    expect((await audit(t.sql)).ok).toBe(true)
  })

  it('a transfer above available is rejected and leaves both balances unchanged', () => {
    deposit(u1, 'NADI', usdt(1.5))
    const err = expectRefused(
      () => transfer(t.sqlite, { ref: ref(), reason: 'transfer', from: fund(u1), to: fund(u2), asset: 'NADI', amount: usdt(2) }),
      InsufficientFunds,
    ) as InsufficientFunds
    expect(err.current).toBe(usdt(1.5))
    expect(err.required).toBe(usdt(2))
    expect(err.asset).toBe('NADI')
    expect(err.bucket).toBe('available')
    expect(err.message).toMatch(/^insufficient NADI: current 1\.5, required 2 /)
    expect(balance(t.sqlite, fund(u1), 'NADI').available).toBe(usdt(1.5))
    expect(balance(t.sqlite, fund(u2), 'NADI').available).toBe(0n)
  })

  it('spending exactly what is available leaves zero', () => {
    deposit(u1, 'USDT', 7n)
    transfer(t.sqlite, { ref: ref(), reason: 'transfer', from: fund(u1), to: trade(u1), asset: 'USDT', amount: 7n })
    expect(balances(t.sqlite, u1).USDT).toEqual({ fund: { available: 0n, frozen: 0n }, trade: { available: 7n, frozen: 0n } })
  })

  it('an account never used reads as zero and is created on first use', () => {
    expect(balance(t.sqlite, trade(u2), 'NADI')).toEqual({ available: 0n, frozen: 0n })
    expect(t.counts().accounts).toBe(0)
    deposit(u2, 'NADI', 1n)
    expect(t.counts().accounts).toBe(2)
  })

  it('spending from an account that was never used is rejected with current 0 and creates no account', () => {
    const err = expectRefused(
      () => transfer(t.sqlite, { ref: ref(), reason: 'transfer', from: trade(u2), to: fund(u2), asset: 'USDT', amount: 1n }),
      InsufficientFunds,
    ) as InsufficientFunds
    expect([err.current, err.required]).toEqual([0n, 1n])
    expect(t.counts().accounts).toBe(0)
  })

  it('fees, burned and treasury can never go negative, only custody can', () => {
    for (const platform of [FEES, BURNED, TREASURY]) {
      expectRefused(
        () => transfer(t.sqlite, { ref: ref(), reason: 'payout', from: platform, to: fund(u1), asset: 'USDT', amount: 1n }),
        InsufficientFunds,
      )
    }
    transfer(t.sqlite, { ref: ref(), reason: 'deposit', from: custody('nadi'), to: TREASURY, asset: 'NADI', amount: 5n })
    expect(balance(t.sqlite, custody('nadi'), 'NADI').available).toBe(-5n)
  })

  it('each chain has its own custody account per asset', () => {
    deposit(u1, 'USDT', 3n, 'bsc')
    deposit(u1, 'USDT', 4n, 'nadi')
    expect(balance(t.sqlite, custody('bsc'), 'USDT').available).toBe(-3n)
    expect(balance(t.sqlite, custody('nadi'), 'USDT').available).toBe(-4n)
    expect(balance(t.sqlite, fund(u1), 'USDT').available).toBe(7n)
  })

  it('a posting with several moves is all-or-nothing: a fee the user cannot also afford refuses the whole payment', () => {
    deposit(u1, 'USDT', 100n)
    const pay: PostingInput = {
      ref: ref('pay'),
      reason: 'payment',
      moves: [
        { from: fund(u1), to: TREASURY, asset: 'USDT', amount: 100n },
        { from: fund(u1), to: FEES, asset: 'USDT', amount: 1n },
      ],
    }
    const err = expectRefused(() => post(t.sqlite, pay), InsufficientFunds) as InsufficientFunds
    // The net requirement of the posting, not of one move.
    expect([err.current, err.required]).toEqual([100n, 101n])
  })

  it('amounts above 2^53 units are kept exactly, as bigints', async () => {
    const big = 2n ** 60n + 1n
    deposit(u1, 'USDT', big)
    transfer(t.sqlite, { ref: ref(), reason: 'transfer', from: fund(u1), to: trade(u1), asset: 'USDT', amount: 1n })
    expect(balance(t.sqlite, fund(u1), 'USDT').available).toBe(2n ** 60n)
    expect(balance(t.sqlite, trade(u1), 'USDT').available).toBe(1n)
    expect((await audit(t.sql)).totals[0]?.users.available).toBe(big)
  })

  it('a balance that would leave the 64-bit range is refused', () => {
    const max = 2n ** 63n - 1n
    deposit(u1, 'USDT', max)
    expectRefused(() => deposit(u1, 'USDT', 1n, 'nadi'), InvalidPosting) // the user's fund would pass 2^63 − 1
    expectRefused(() => deposit(u2, 'USDT', 2n), InvalidPosting) // custody:bsc would pass −2^63
  })
})

describe('frozen funds', () => {
  beforeEach(() => {
    deposit(u1, 'NADI', 10n * UNIT)
  })

  it('freezing moves available to frozen of the same account, and unfreezing moves it back', () => {
    freeze(t.sqlite, { ref: ref(), reason: 'withdraw.freeze', account: fund(u1), asset: 'NADI', amount: 4n * UNIT })
    expect(balance(t.sqlite, fund(u1), 'NADI')).toEqual({ available: 6n * UNIT, frozen: 4n * UNIT })
    unfreeze(t.sqlite, { ref: ref(), reason: 'withdraw.refund', account: fund(u1), asset: 'NADI', amount: 4n * UNIT })
    expect(balance(t.sqlite, fund(u1), 'NADI')).toEqual({ available: 10n * UNIT, frozen: 0n })
  })

  it('frozen funds cannot be spent', () => {
    freeze(t.sqlite, { ref: ref(), reason: 'order', account: fund(u1), asset: 'NADI', amount: 8n * UNIT })
    const err = expectRefused(
      () => transfer(t.sqlite, { ref: ref(), reason: 'transfer', from: fund(u1), to: fund(u2), asset: 'NADI', amount: 3n * UNIT }),
      InsufficientFunds,
    ) as InsufficientFunds
    expect([err.current, err.required]).toEqual([2n * UNIT, 3n * UNIT])
  })

  it('freezing more than available is rejected', () => {
    expectRefused(() => freeze(t.sqlite, { ref: ref(), reason: 'order', account: fund(u1), asset: 'NADI', amount: 10n * UNIT + 1n }), InsufficientFunds)
  })

  it('unfreezing more than frozen is rejected, naming the frozen bucket', () => {
    freeze(t.sqlite, { ref: ref(), reason: 'order', account: fund(u1), asset: 'NADI', amount: 2n })
    const err = expectRefused(
      () => unfreeze(t.sqlite, { ref: ref(), reason: 'cancel', account: fund(u1), asset: 'NADI', amount: 3n }),
      InsufficientFunds,
    ) as InsufficientFunds
    expect(err.bucket).toBe('frozen')
    expect(err.message).toMatch(/^insufficient frozen NADI: current 0\.00000002, required 0\.00000003/)
  })

  it('settling pays frozen funds of one account into the available funds of another', () => {
    freeze(t.sqlite, { ref: ref(), reason: 'order', account: fund(u1), asset: 'NADI', amount: 5n * UNIT })
    settleFrozen(t.sqlite, { ref: ref(), reason: 'fill', from: fund(u1), to: trade(u2), asset: 'NADI', amount: 3n * UNIT })
    expect(balance(t.sqlite, fund(u1), 'NADI')).toEqual({ available: 5n * UNIT, frozen: 2n * UNIT })
    expect(balance(t.sqlite, trade(u2), 'NADI')).toEqual({ available: 3n * UNIT, frozen: 0n })
  })

  it('settling more than is frozen is rejected even when available would cover it', () => {
    freeze(t.sqlite, { ref: ref(), reason: 'order', account: fund(u1), asset: 'NADI', amount: 1n })
    expectRefused(() => settleFrozen(t.sqlite, { ref: ref(), reason: 'fill', from: fund(u1), to: fund(u2), asset: 'NADI', amount: 2n }), InsufficientFunds)
  })

  it('a withdrawal sent to the chain settles frozen funds into custody and the fee into fees, in one posting', async () => {
    freeze(t.sqlite, { ref: 'wd:1:freeze', reason: 'withdraw.freeze', account: fund(u1), asset: 'NADI', amount: 3n * UNIT })
    post(t.sqlite, {
      ref: 'wd:1:send',
      reason: 'withdraw.send',
      moves: [
        { from: fund(u1), fromBucket: 'frozen', to: custody('nadi'), asset: 'NADI', amount: 2n * UNIT + UNIT / 2n },
        { from: fund(u1), fromBucket: 'frozen', to: FEES, asset: 'NADI', amount: UNIT / 2n },
      ],
    })
    expect(balance(t.sqlite, fund(u1), 'NADI')).toEqual({ available: 7n * UNIT, frozen: 0n })
    expect(balance(t.sqlite, FEES, 'NADI').available).toBe(UNIT / 2n)
    expect((await audit(t.sql)).ok).toBe(true)
  })
})

describe('what a posting must be', () => {
  const refuse = (input: Partial<PostingInput> & Record<string, unknown>) =>
    expectRefused(() => post(t.sqlite, { ref: ref(), reason: 'test', ...input } as PostingInput), InvalidPosting)

  it('a posting whose entries do not sum to zero is refused', () => {
    const err = refuse({ entries: [{ account: fund(u1), asset: 'USDT', bucket: 'available', delta: 5n }] })
    expect(err.message).toMatch(/do not sum to zero: USDT \+5/)
    refuse({
      entries: [
        { account: custody('bsc'), asset: 'USDT', bucket: 'available', delta: -5n },
        { account: fund(u1), asset: 'USDT', bucket: 'available', delta: 6n },
      ],
    })
  })

  it('a posting that balances overall but not per asset is refused', () => {
    const err = refuse({
      entries: [
        { account: custody('bsc'), asset: 'USDT', bucket: 'available', delta: -5n },
        { account: fund(u1), asset: 'NADI', bucket: 'available', delta: 5n },
      ],
    })
    expect(err.message).toMatch(/USDT -5, NADI \+5/)
  })

  it('balanced entries are accepted, and entries to the same bucket are netted', () => {
    const r = post(t.sqlite, {
      ref: ref(),
      reason: 'deposit',
      entries: [
        { account: custody('bsc'), asset: 'USDT', bucket: 'available', delta: -5n },
        { account: fund(u1), asset: 'USDT', bucket: 'available', delta: 2n },
        { account: fund(u1), asset: 'USDT', bucket: 'available', delta: 3n },
      ],
    })
    expect(findPosting(t.sqlite, r.ref)?.entries.map((e) => e.delta)).toEqual([-5n, 5n])
  })

  it('amounts must be positive bigints', () => {
    const move = (amount: unknown) => ({ moves: [{ from: custody('bsc'), to: fund(u1), asset: 'USDT', amount }] }) as Partial<PostingInput>
    for (const bad of [0n, -1n, 1, 1.5, '1', null, undefined, 2n ** 63n]) refuse(move(bad))
  })

  it('an unknown asset, account or bucket is refused', () => {
    refuse({ moves: [{ from: custody('bsc'), to: fund(u1), asset: 'BTC', amount: 1n }] })
    refuse({ moves: [{ from: { platform: 'bank' } as unknown as AccountRef, to: fund(u1), asset: 'USDT', amount: 1n }] })
    refuse({ moves: [{ from: custody('BSC chain'), to: fund(u1), asset: 'USDT', amount: 1n }] })
    refuse({ moves: [{ from: { user: 1n, kind: 'savings' } as unknown as AccountRef, to: fund(u1), asset: 'USDT', amount: 1n }] })
    refuse({ moves: [{ from: custody('bsc'), to: fund(u1), asset: 'USDT', amount: 1n, toBucket: 'locked' as 'frozen' }] })
  })

  it('an account of a user who does not exist is refused', () => {
    refuse({ moves: [{ from: custody('bsc'), to: fund(999), asset: 'USDT', amount: 1n }] })
    refuse({ moves: [{ from: custody('bsc'), to: TREASURY, asset: 'USDT', amount: 1n }], userId: 999 })
  })

  it('a posting that changes nothing is refused', () => {
    refuse({ moves: [] })
    refuse({ moves: [{ from: fund(u1), to: fund(u1), asset: 'USDT', amount: 1n }] })
    refuse({
      moves: [
        { from: fund(u1), to: fund(u2), asset: 'USDT', amount: 1n },
        { from: fund(u2), to: fund(u1), asset: 'USDT', amount: 1n },
      ],
    })
  })

  it('a ref and a reason are required', () => {
    const moves = [{ from: custody('bsc'), to: fund(u1), asset: 'USDT', amount: 1n }]
    refuse({ ref: '', moves })
    refuse({ ref: 'x'.repeat(201), moves })
    refuse({ reason: 'Not A Code', moves })
  })
})

describe('refs: a retried action posts once', () => {
  it('posting the same ref with the same content returns the first posting and writes nothing', () => {
    const first = deposit(u1, 'USDT', 5n)
    const before = snapshot()
    const again = transfer(t.sqlite, { ref: first.ref, reason: 'deposit', from: custody('bsc'), to: fund(u1), asset: 'USDT', amount: 5n })
    expect(again).toEqual({ id: first.id, ref: first.ref, replayed: true })
    expect(snapshot()).toEqual(before)
  })

  it('a replay is recognised even after the balance has been spent', () => {
    const first = deposit(u1, 'USDT', 5n)
    transfer(t.sqlite, { ref: ref(), reason: 'transfer', from: fund(u1), to: fund(u2), asset: 'USDT', amount: 5n })
    const spend = { ref: 'spend:1', reason: 'transfer', from: fund(u2), to: fund(u1), asset: 'USDT', amount: 5n } as const
    transfer(t.sqlite, spend)
    expect(transfer(t.sqlite, spend).replayed).toBe(true)
    expect(transfer(t.sqlite, { ref: first.ref, reason: 'deposit', from: custody('bsc'), to: fund(u1), asset: 'USDT', amount: 5n }).replayed).toBe(true)
  })

  it('meta with its keys in another order is the same content', () => {
    const m = { ref: 'dep:tx1', reason: 'deposit', from: custody('bsc'), to: fund(u1), asset: 'USDT', amount: 5n } as const
    transfer(t.sqlite, { ...m, meta: { tx: '0xab', log: 3, block: 10n } })
    expect(transfer(t.sqlite, { ...m, meta: { block: 10n, log: 3, tx: '0xab' } }).replayed).toBe(true)
    expect(findPosting(t.sqlite, 'dep:tx1')?.meta).toEqual({ block: '10', log: 3, tx: '0xab' })
  })

  it('a ref reused with a different amount, account, reason or meta is refused with RefConflict', () => {
    const m = { ref: 'dep:tx2', reason: 'deposit', from: custody('bsc'), to: fund(u1), asset: 'USDT', amount: 5n, meta: { tx: '0x1' } } as const
    transfer(t.sqlite, m)
    const variants = [
      { ...m, amount: 6n },
      { ...m, to: fund(u2) },
      { ...m, to: trade(u1) },
      { ...m, asset: 'NADI' },
      { ...m, reason: 'bonus' },
      { ...m, meta: { tx: '0x2' } },
      { ...m, userId: null },
    ]
    for (const v of variants) {
      const err = expectRefused(() => transfer(t.sqlite, v), RefConflict) as RefConflict
      expect(err.ref).toBe('dep:tx2')
    }
  })
})

describe('in the caller’s transaction', () => {
  it('a posting made in a transaction that later fails is rolled back with it', () => {
    const before = snapshot()
    expect(() =>
      transaction(t.sqlite, () => {
        deposit(u1, 'USDT', 10n)
        throw new Error('the business change failed')
      }),
    ).toThrow('the business change failed')
    expect(snapshot()).toEqual(before)
  })

  it('a refused posting the caller catches leaves its transaction usable and nothing of the posting behind', async () => {
    deposit(u1, 'USDT', 10n)
    transaction(t.sqlite, () => {
      expect(() => transfer(t.sqlite, { ref: 'a', reason: 'transfer', from: fund(u1), to: fund(u2), asset: 'USDT', amount: 11n })).toThrow(InsufficientFunds)
      transfer(t.sqlite, { ref: 'b', reason: 'transfer', from: fund(u1), to: fund(u2), asset: 'USDT', amount: 10n })
    })
    expect(findPosting(t.sqlite, 'a')).toBeNull()
    expect(balance(t.sqlite, fund(u2), 'USDT').available).toBe(10n)
    expect((await audit(t.sql)).ok).toBe(true)
  })

  it('two postings of one action see each other: the second can spend what the first credited', () => {
    transaction(t.sqlite, () => {
      deposit(u1, 'USDT', 10n)
      transfer(t.sqlite, { ref: ref(), reason: 'transfer', from: fund(u1), to: trade(u1), asset: 'USDT', amount: 10n })
    })
    expect(balance(t.sqlite, trade(u1), 'USDT').available).toBe(10n)
  })

  it('the stored rows cannot be edited or deleted: history is append-only', () => {
    deposit(u1, 'USDT', 10n)
    expect(() => t.sqlite.prepare('UPDATE ledger_entries SET delta = 1').run()).toThrow(/append-only/)
    expect(() => t.sqlite.prepare('DELETE FROM ledger_entries').run()).toThrow(/append-only/)
    expect(() => t.sqlite.prepare("UPDATE ledger_postings SET reason = 'x'").run()).toThrow(/append-only/)
    expect(() => t.sqlite.prepare('DELETE FROM ledger_postings').run()).toThrow(/append-only/)
  })
})

describe('reads', () => {
  it('balances lists both accounts of every asset, zeros included', () => {
    deposit(u1, 'USDT', 3n)
    freeze(t.sqlite, { ref: ref(), reason: 'order', account: fund(u1), asset: 'USDT', amount: 1n })
    expect(balances(t.sqlite, u1)).toEqual({
      USDT: { fund: { available: 2n, frozen: 1n }, trade: { available: 0n, frozen: 0n } },
      NADI: { fund: { available: 0n, frozen: 0n }, trade: { available: 0n, frozen: 0n } },
      MEME: { fund: { available: 0n, frozen: 0n }, trade: { available: 0n, frozen: 0n } },
    })
    expect(balances(t.sqlite, u2).USDT).toEqual({ fund: { available: 0n, frozen: 0n }, trade: { available: 0n, frozen: 0n } })
  })

  it('money records page a user’s own entries newest first, including what others sent them, and filter by reason', async () => {
    for (let i = 1; i <= 5; i++) deposit(u1, 'USDT', BigInt(i), 'bsc')
    transfer(t.sqlite, { ref: 'gift', reason: 'gift', from: fund(u1), to: fund(u2), asset: 'USDT', amount: 2n, meta: { note: 'hi' } })

    const page1 = await entriesFor(t.sql, u1, { page: 1, pageSize: 4 })
    expect(page1.total).toBe(6)
    expect(page1.list.map((e) => [e.reason, e.delta])).toEqual([
      ['gift', -2n],
      ['deposit', 5n],
      ['deposit', 4n],
      ['deposit', 3n],
    ])
    expect((await entriesFor(t.sql, u1, { page: 2, pageSize: 4 })).list.map((e) => e.delta)).toEqual([2n, 1n])
    expect((await entriesFor(t.sql, u1, { reason: 'deposit' })).total).toBe(5)

    const theirs = await entriesFor(t.sql, u2)
    expect(theirs.total).toBe(1)
    expect(theirs.list[0]).toMatchObject({ ref: 'gift', reason: 'gift', asset: 'USDT', account: 'fund', bucket: 'available', delta: 2n, meta: { note: 'hi' } })
  })

  it('a posting belongs to the one user it touches unless told otherwise', () => {
    deposit(u1, 'USDT', 5n)
    transfer(t.sqlite, { ref: 'p2p', reason: 'transfer', from: fund(u1), to: fund(u2), asset: 'USDT', amount: 1n })
    transfer(t.sqlite, { ref: 'p2p-owned', reason: 'transfer', from: fund(u1), to: fund(u2), asset: 'USDT', amount: 1n, userId: u1 })
    transfer(t.sqlite, { ref: 'fee', reason: 'fee', from: fund(u1), to: FEES, asset: 'USDT', amount: 1n })
    expect(findPosting(t.sqlite, 'p2p')?.userId).toBeNull()
    expect(findPosting(t.sqlite, 'p2p-owned')?.userId).toBe(u1)
    expect(findPosting(t.sqlite, 'fee')?.userId).toBe(u1)
  })
})
