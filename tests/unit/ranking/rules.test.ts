import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../../server/db/migrate.ts'
import { compareEntries, pageCount, pageInRange, parseShares, rank, share, splitPrizes, type Entry } from '../../../server/modules/ranking/rules.ts'

/** A small seeded generator, so a failing case can be run again. */
function rng(seed: number) {
  let x = seed >>> 0 || 1
  return (n: number) => {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    return x % n
  }
}
const e = (userId: number, amount: number, reachedAt: number): Entry => ({ userId: BigInt(userId), amount: BigInt(amount), reachedAt: BigInt(reachedAt) })

describe('the order of a ranking', () => {
  it('puts the larger amount first, then who reached it first, then the lower user id', () => {
    expect(rank([e(1, 10, 5), e(2, 20, 9), e(3, 10, 4), e(4, 10, 4)]).map((r) => [r.rank, Number(r.userId)])).toEqual([
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 1],
    ])
  })

  it('is a total order: any permutation of the same entries ranks the same way, ranks 1…n', () => {
    const r = rng(7)
    for (let run = 0; run < 300; run++) {
      const n = 1 + r(30)
      const entries = Array.from({ length: n }, (_, i) => e(i + 1, r(5), r(4)))
      const shuffled = [...entries].sort(() => r(3) - 1)
      const a = rank(entries)
      const b = rank(shuffled)
      expect(b).toEqual(a)
      expect(a.map((x) => x.rank)).toEqual(Array.from({ length: n }, (_, i) => i + 1))
      for (let i = 1; i < n; i++) expect(compareEntries(a[i - 1]!, a[i]!)).toBeLessThan(0)
    }
  })

  it('is the order the database reads the day’s ranking in (the index the settlement pays from)', () => {
    const db = new Database(':memory:')
    db.defaultSafeIntegers(true)
    migrate(db)
    const r = rng(11)
    const n = 400
    const insertUser = db.prepare("INSERT INTO users (id, code, name, created_at) VALUES (?, ?, 'u', 0)")
    const insertDay = db.prepare('INSERT INTO ranking_days (day, user_id, amount, reached_at) VALUES (1, ?, ?, ?)')
    const entries: Entry[] = []
    for (let i = 1; i <= n; i++) {
      const en = e(i, 1 + r(20), r(10))
      entries.push(en)
      insertUser.run(i, `C${i}`)
      insertDay.run(i, en.amount, en.reachedAt)
    }
    const sql = db.prepare('SELECT user_id FROM ranking_days WHERE day = 1 ORDER BY amount DESC, reached_at, user_id').all() as { user_id: bigint }[]
    expect(sql.map((x) => x.user_id)).toEqual(rank(entries).map((x) => x.userId))
    db.close()
  })
})

describe('the pools’ share and the prize split', () => {
  it('takes a floored share of an income', () => {
    expect(share(1_000n, 100_000n)).toBe(100n)
    expect(share(9n, 100_000n)).toBe(0n)
    expect(share(0n, 500_000n)).toBe(0n)
    expect(share(-5n, 500_000n)).toBe(0n)
  })

  it('pays each rank its share of the pool, floored; ranks nobody reached stay in the pool', () => {
    expect(splitPrizes(1000n, [500_000n, 300_000n, 200_000n], 3)).toEqual({ prizes: [500n, 300n, 200n], paid: 1000n, kept: 0n })
    expect(splitPrizes(1000n, [500_000n, 300_000n, 200_000n], 1)).toEqual({ prizes: [500n], paid: 500n, kept: 500n })
    expect(splitPrizes(1000n, [500_000n, 300_000n, 200_000n], 0)).toEqual({ prizes: [], paid: 0n, kept: 1000n })
    expect(splitPrizes(10n, [333_333n, 333_333n, 333_334n], 3)).toEqual({ prizes: [3n, 3n, 3n], paid: 9n, kept: 1n })
    expect(splitPrizes(0n, [1_000_000n], 5)).toEqual({ prizes: [0n], paid: 0n, kept: 0n })
  })

  it('never pays more than the pool, and paid + kept is the pool, over random pools, shares and winners', () => {
    const r = rng(3)
    for (let run = 0; run < 1000; run++) {
      const pool = BigInt(r(1_000_000_000)) * BigInt(1 + r(1000))
      let left = 1_000_000
      const shares = Array.from({ length: 1 + r(20) }, () => {
        const s = r(left + 1)
        left -= s
        return BigInt(s)
      })
      const winners = r(30)
      const { prizes, paid, kept } = splitPrizes(pool, shares, winners)
      expect(prizes.length).toBe(Math.min(winners, shares.length))
      expect(paid).toBe(prizes.reduce((a, b) => a + b, 0n))
      expect(paid <= pool).toBe(true)
      expect(paid + kept).toBe(pool)
      prizes.forEach((p, i) => expect(p).toBe((pool * shares[i]!) / 1_000_000n))
    }
  })
})

describe('the prize shares setting', () => {
  it('reads comma-separated ppm, rank 1 first', () => {
    expect(parseShares('X', '500000, 300000,200000')).toEqual([500_000n, 300_000n, 200_000n])
  })
  it.each(['', 'a', '0', '-1', '600000,500000', '1.5', `${'1,'.repeat(100)}1`])('refuses "%s", naming the setting', (raw) => {
    expect(() => parseShares('NADI_X', raw)).toThrow(/NADI_X/)
  })
})

describe('pages', () => {
  it('the first page is always in range; a later one only while it starts inside the list', () => {
    expect(pageInRange(1, 10, 0)).toBe(true)
    expect(pageInRange(2, 10, 10)).toBe(false)
    expect(pageInRange(2, 10, 11)).toBe(true)
    expect(pageCount(10, 0)).toBe(1)
    expect(pageCount(10, 21)).toBe(3)
  })
})
