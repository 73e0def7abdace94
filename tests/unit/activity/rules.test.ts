import { describe, expect, it } from 'vitest'
import { payouts, prizeOf, prizeProblems, prizeTotals, rankScores, statusAt, sumByAsset, type PrizeRange } from '../../../server/modules/activity/rules.ts'

const U = 100_000_000n
const PRIZES: PrizeRange[] = [
  { from: 1, to: 1, asset: 'USDT', amount: 100n * U },
  { from: 2, to: 3, asset: 'USDT', amount: 50n * U },
  { from: 4, to: 10, asset: 'NADI', amount: 10n * U },
]

describe('status from the window', () => {
  it('is upcoming before the start, running from the start, ended from the end (the end is exclusive)', () => {
    expect(statusAt(1000, 2000, 999)).toBe('upcoming')
    expect(statusAt(1000, 2000, 1000)).toBe('running')
    expect(statusAt(1000, 2000, 1999)).toBe('running')
    expect(statusAt(1000, 2000, 2000)).toBe('ended')
  })
})

describe('the leaderboard', () => {
  it('ranks the higher score first', () => {
    const r = rankScores([
      { userId: 1, score: 10n, reachedAt: 5 },
      { userId: 2, score: 30n, reachedAt: 9 },
      { userId: 3, score: 20n, reachedAt: 1 },
    ])
    expect(r.map((x) => [x.rank, x.userId])).toEqual([
      [1, 2],
      [2, 3],
      [3, 1],
    ])
  })

  it('breaks a tie by who reached the score first, then by the older account', () => {
    const r = rankScores([
      { userId: 7, score: 50n, reachedAt: 300 },
      { userId: 9, score: 50n, reachedAt: 100 },
      { userId: 4, score: 50n, reachedAt: 300 },
    ])
    expect(r.map((x) => x.userId)).toEqual([9, 4, 7])
    expect(r.map((x) => x.rank)).toEqual([1, 2, 3])
  })

  it('leaves out anyone without a score, and compares amounts beyond 2^53 exactly', () => {
    const big = 2n ** 60n
    const r = rankScores([
      { userId: 1, score: big, reachedAt: 1 },
      { userId: 2, score: big + 1n, reachedAt: 2 },
      { userId: 3, score: 0n, reachedAt: 0 },
    ])
    expect(r.map((x) => x.userId)).toEqual([2, 1])
  })
})

describe('prizes', () => {
  it('gives each rank of a range the range amount, and nothing past the last range', () => {
    expect(prizeOf(1, PRIZES)).toEqual({ asset: 'USDT', amount: 100n * U })
    expect(prizeOf(3, PRIZES)).toEqual({ asset: 'USDT', amount: 50n * U })
    expect(prizeOf(10, PRIZES)).toEqual({ asset: 'NADI', amount: 10n * U })
    expect(prizeOf(11, PRIZES)).toBeNull()
  })

  it('totals the whole table per asset', () => {
    expect(prizeTotals(PRIZES)).toEqual(
      new Map([
        ['USDT', 200n * U],
        ['NADI', 70n * U],
      ]),
    )
  })

  it('pays only ranks that have a participant: four participants take ranks 1-4 of ten', () => {
    const board = rankScores([1, 2, 3, 4].map((u) => ({ userId: u, score: BigInt(100 - u), reachedAt: u })))
    const p = payouts(board, PRIZES)
    expect(p.map((x) => [x.rank, x.userId, x.asset, x.amount])).toEqual([
      [1, 1, 'USDT', 100n * U],
      [2, 2, 'USDT', 50n * U],
      [3, 3, 'USDT', 50n * U],
      [4, 4, 'NADI', 10n * U],
    ])
    expect(sumByAsset(p)).toEqual(
      new Map([
        ['USDT', 200n * U],
        ['NADI', 10n * U],
      ]),
    )
  })

  it('pays nobody past the prize ranges', () => {
    const board = rankScores(Array.from({ length: 15 }, (_, i) => ({ userId: i + 1, score: BigInt(100 - i), reachedAt: 0 })))
    expect(payouts(board, PRIZES)).toHaveLength(10)
  })

  it('a prize table runs from rank 1 without gaps or overlaps, with amounts above 0', () => {
    expect(prizeProblems(PRIZES, 1000)).toEqual([])
    expect(prizeProblems([], 1000)).toEqual(['at least one prize range'])
    expect(prizeProblems([{ from: 2, to: 3, asset: 'USDT', amount: 1n }], 1000)[0]).toMatch(/expected from 1, found 2/)
    expect(prizeProblems([{ from: 1, to: 2, asset: 'USDT', amount: 1n }, { from: 4, to: 5, asset: 'USDT', amount: 1n }], 1000)[0]).toMatch(/expected from 3, found 4/)
    expect(prizeProblems([{ from: 1, to: 3, asset: 'USDT', amount: 1n }, { from: 3, to: 5, asset: 'USDT', amount: 1n }], 1000)[0]).toMatch(/expected from 4, found 3/)
    expect(prizeProblems([{ from: 1, to: 0, asset: 'USDT', amount: 1n }], 1000)[0]).toMatch(/before from/)
    expect(prizeProblems([{ from: 1, to: 1, asset: 'USDT', amount: 0n }], 1000)[0]).toMatch(/above 0/)
    expect(prizeProblems([{ from: 1, to: 1001, asset: 'USDT', amount: 1n }], 1000)[0]).toMatch(/at most 1000 ranks/)
  })
})
