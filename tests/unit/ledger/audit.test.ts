import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  accountId,
  audit,
  custody,
  FEES,
  formatAudit,
  freeze,
  frozenHolderNames,
  fund,
  registerFrozenHolder,
  trade,
  transfer,
  type FrozenHolder,
  type Rule,
} from '../../../server/ledger/index.ts'
import { freshDb, type TestDb } from './support.ts'

let t: TestDb
let u1: bigint
let u2: bigint
beforeEach(() => {
  t = freshDb(2)
  ;[u1, u2] = t.users as [bigint, bigint]
  transfer(t.sqlite, { ref: 'd1', reason: 'deposit', from: custody('bsc'), to: fund(u1), asset: 'USDT', amount: 1000n })
  transfer(t.sqlite, { ref: 'd2', reason: 'deposit', from: custody('nadi'), to: fund(u2), asset: 'NADI', amount: 500n })
  transfer(t.sqlite, { ref: 't1', reason: 'transfer', from: fund(u1), to: trade(u1), asset: 'USDT', amount: 300n })
  transfer(t.sqlite, { ref: 'f1', reason: 'fee', from: fund(u1), to: FEES, asset: 'USDT', amount: 10n })
})
afterEach(() => t.close())

const rules = async (holders?: ReadonlyMap<string, FrozenHolder>) => (await audit(t.sql, holders ? { holders } : {})).violations.map((v) => v.rule).sort()
const idOf = (ref: Parameters<typeof accountId>[1], asset: 'USDT' | 'NADI') => accountId(t.sqlite, ref, asset) as bigint

describe('the audit', () => {
  it('a balanced ledger audits clean, with per-asset totals that sum to zero', async () => {
    const report = await audit(t.sql)
    expect(report.ok).toBe(true)
    expect(report.violations).toEqual([])
    expect(report.counts).toEqual({ accounts: 6, postings: 4, entries: 8 })
    const usdt = report.totals.find((x) => x.asset === 'USDT')
    expect(usdt).toMatchObject({ sum: 0n, users: { available: 990n, frozen: 0n }, platform: { 'custody:bsc': -1000n, fees: 10n } })
    expect(report.totals.find((x) => x.asset === 'NADI')).toMatchObject({ sum: 0n, platform: { 'custody:nadi': -500n } })
    expect(formatAudit(report)).toMatch(/OK: no violations/)
  })

  it('a balance changed behind the ledger’s back is reported: it no longer matches its entries and the asset no longer sums to zero', async () => {
    t.sqlite.prepare('UPDATE ledger_accounts SET available = available + 1 WHERE id = ?').run(idOf(trade(u1), 'USDT'))
    const report = await audit(t.sql)
    expect(report.ok).toBe(false)
    expect(report.violations.map((v) => v.rule).sort()).toEqual(['asset-sum', 'stored-vs-entries'])
    expect(report.violations.find((v) => v.rule === 'stored-vs-entries')).toMatchObject({ expected: 300n, actual: 301n, asset: 'USDT' })
    expect(formatAudit(report)).toMatch(/2 violations:\n {2}\[asset-sum\] USDT: all accounts sum to 0\.00000001, not 0/)
  })

  it('money moved between two balances behind the ledger’s back is caught by the entries even though the asset still sums to zero', async () => {
    const move = t.sqlite.prepare('UPDATE ledger_accounts SET available = available + ? WHERE id = ?')
    move.run(-5n, idOf(fund(u1), 'USDT'))
    move.run(5n, idOf(trade(u1), 'USDT'))
    expect(await rules()).toEqual(['stored-vs-entries', 'stored-vs-entries'])
  })

  it('a negative balance outside custody is reported', async () => {
    // The table's CHECK refuses it; an operator's raw SQL with checks off is what the audit is for.
    t.sqlite.pragma('ignore_check_constraints = ON')
    const move = t.sqlite.prepare('UPDATE ledger_accounts SET available = available + ? WHERE id = ?')
    move.run(-700n, idOf(fund(u1), 'USDT'))
    move.run(700n, idOf(custody('bsc'), 'USDT'))
    const report = await audit(t.sql)
    expect(report.violations.find((v) => v.rule === 'negative-balance')).toMatchObject({ actual: -10n, accountId: idOf(fund(u1), 'USDT') })
  })

  it('a posting whose stored entries do not sum to zero is reported, and so is a posting with none', async () => {
    const insertEntry = t.sqlite.prepare('INSERT INTO ledger_entries (id, posting_id, account_id, user_id, bucket, delta) VALUES (?, ?, ?, ?, ?, ?)')
    insertEntry.run(4n * 1024n + 2n, 4n, idOf(fund(u1), 'USDT'), u1, 'available', 1n)
    t.sqlite.prepare("INSERT INTO ledger_postings (ref, reason, user_id, meta, created_at) VALUES ('empty', 'test', NULL, NULL, 0)").run()
    const report = await audit(t.sql)
    expect(report.violations.map((v) => v.rule).sort()).toEqual(['posting-empty', 'posting-unbalanced', 'stored-vs-entries'])
    expect(report.violations.find((v) => v.rule === 'posting-unbalanced')).toMatchObject({ postingId: 4n, actual: 1n })
  })

  it('an entry that names another owner than its account’s is reported', async () => {
    const insertEntry = t.sqlite.prepare('INSERT INTO ledger_entries (id, posting_id, account_id, user_id, bucket, delta) VALUES (?, ?, ?, ?, ?, ?)')
    t.sqlite.prepare("INSERT INTO ledger_postings (ref, reason, user_id, meta, created_at) VALUES ('x', 'test', NULL, NULL, 0)").run()
    insertEntry.run(5n * 1024n, 5n, idOf(fund(u1), 'USDT'), u2, 'available', 1n)
    insertEntry.run(5n * 1024n + 1n, 5n, idOf(trade(u1), 'USDT'), null, 'available', -1n)
    const v = (await audit(t.sql)).violations.filter((x) => x.rule === 'entry-owner')
    expect(v).toHaveLength(2)
  })

  it('every violation is listed, not only the first', async () => {
    const move = t.sqlite.prepare('UPDATE ledger_accounts SET available = available + ? WHERE id = ?')
    move.run(1n, idOf(fund(u1), 'USDT'))
    move.run(1n, idOf(fund(u2), 'NADI'))
    expect(await rules()).toEqual<Rule[]>(['asset-sum', 'asset-sum', 'stored-vs-entries', 'stored-vs-entries'])
  })
})

describe('frozen equals what holders hold', () => {
  const held = (entries: [bigint, bigint][]): FrozenHolder => async () => new Map(entries)

  it('with no holder registered, any frozen amount is reported', async () => {
    freeze(t.sqlite, { ref: 'o1', reason: 'order', account: trade(u1), asset: 'USDT', amount: 100n })
    const report = await audit(t.sql)
    expect(report.holders).toEqual([])
    expect(report.violations).toMatchObject([{ rule: 'frozen-vs-holders', expected: 0n, actual: 100n, accountId: idOf(trade(u1), 'USDT') }])
  })

  it('frozen held exactly by the registered holders audits clean', async () => {
    freeze(t.sqlite, { ref: 'o1', reason: 'order', account: trade(u1), asset: 'USDT', amount: 100n })
    freeze(t.sqlite, { ref: 'w1', reason: 'withdraw.freeze', account: fund(u2), asset: 'NADI', amount: 40n })
    const trades = idOf(trade(u1), 'USDT')
    const funds = idOf(fund(u2), 'NADI')
    expect(await rules(new Map([['orders', held([[trades, 60n]])], ['more orders', held([[trades, 40n]])], ['withdrawals', held([[funds, 40n]])]]))).toEqual([])
  })

  it('a holder holding more than is frozen, or on an account that does not exist, is reported', async () => {
    const funds = idOf(fund(u1), 'USDT')
    expect((await audit(t.sql, { holders: new Map([['orders', held([[funds, 5n], [9999n, 1n]])]]) })).violations).toMatchObject([
      { rule: 'frozen-vs-holders', accountId: funds, expected: 5n, actual: 0n },
      { rule: 'frozen-vs-holders', accountId: 9999n, expected: 1n },
    ])
  })

  it('a holder that fails is reported, and the others still count', async () => {
    const boom: FrozenHolder = async () => {
      throw new Error('no such table: withdrawals')
    }
    expect((await audit(t.sql, { holders: new Map([['withdrawals', boom]]) })).violations).toMatchObject([
      { rule: 'holder-failed', message: 'frozen holder "withdrawals" failed: no such table: withdrawals' },
    ])
  })

  it('holders register by name once, and unregister', async () => {
    freeze(t.sqlite, { ref: 'o1', reason: 'order', account: trade(u1), asset: 'USDT', amount: 100n })
    const id = idOf(trade(u1), 'USDT')
    const off = registerFrozenHolder('test orders', held([[id, 100n]]))
    try {
      expect(() => registerFrozenHolder('test orders', held([]))).toThrow(/already registered/)
      expect(frozenHolderNames()).toEqual(['test orders'])
      expect((await audit(t.sql)).ok).toBe(true)
    } finally {
      off()
    }
    expect(frozenHolderNames()).toEqual([])
    expect((await audit(t.sql)).ok).toBe(false)
  })
})

describe('a ledger larger than one page of the audit', () => {
  it('every posting is read, whichever page it falls in, and the findings come in the order of one pass', async () => {
    // 12,000 postings written raw (a fee and its refund, balanced) beside the four of beforeEach: three pages.
    const fees = idOf(FEES, 'USDT')
    const custodyId = idOf(custody('bsc'), 'USDT')
    const posting = t.sqlite.prepare("INSERT INTO ledger_postings (id, ref, reason, user_id, created_at) VALUES (?, ?, 'other', NULL, 0)")
    const entry = t.sqlite.prepare("INSERT INTO ledger_entries (id, posting_id, account_id, user_id, bucket, delta) VALUES (?, ?, ?, NULL, 'available', ?)")
    t.sqlite.transaction(() => {
      for (let id = 100n; id < 12_100n; id++) {
        posting.run(id, `other:${id}`)
        // A few postings left without entries, one on each page.
        if (id === 200n || id === 6_000n || id === 12_050n) continue
        entry.run(id * 1024n, id, fees, 1n)
        entry.run(id * 1024n + 1n, id, custodyId, id === 5_500n || id === 11_000n ? -2n : -1n)
      }
    })()
    const report = await audit(t.sql)
    expect(report.counts.postings).toBe(4 + 12_000)
    expect(report.violations.filter((v) => v.rule === 'posting-empty').map((v) => v.postingId)).toEqual([200n, 6_000n, 12_050n])
    expect(report.violations.filter((v) => v.rule === 'posting-unbalanced').map((v) => v.postingId)).toEqual([5_500n, 11_000n])
    // The two extra units of custody are in its entries too: the stored balance is behind them by 2.
    expect(report.violations.find((v) => v.rule === 'stored-vs-entries' && v.accountId === custodyId)).toMatchObject({ expected: -1000n - 2n - 11_997n })
    // The stored balances were not touched, so every asset still sums to zero.
    expect(report.violations.map((v) => v.rule)).toEqual(['stored-vs-entries', 'stored-vs-entries', 'posting-unbalanced', 'posting-unbalanced', 'posting-empty', 'posting-empty', 'posting-empty'])
  })
})
