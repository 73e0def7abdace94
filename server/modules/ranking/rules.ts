// The ranking's arithmetic (issue 12 part 3), pure: the order of a ranking, the pools' shares of the
// day's income, the prize split. The SQL in service.ts orders by the same keys as compareEntries;
// the tests hold the two to each other.

export const PPM = 1_000_000n

/** One user's figure in a ranking: what they added (USDT units of 1e-8) and when it last grew. */
export interface Entry {
  userId: bigint
  amount: bigint
  reachedAt: bigint
}

/** Larger amount first; of equal amounts, who reached it first (earlier reachedAt), then the lower user id. */
export function compareEntries(a: Entry, b: Entry): number {
  if (a.amount !== b.amount) return a.amount > b.amount ? -1 : 1
  if (a.reachedAt !== b.reachedAt) return a.reachedAt < b.reachedAt ? -1 : 1
  if (a.userId !== b.userId) return a.userId < b.userId ? -1 : 1
  return 0
}

/** The ranking of a set of entries: sorted, rank 1 first. Ranks are distinct (the tie-break is total). */
export function rank<E extends Entry>(entries: readonly E[]): (E & { rank: number })[] {
  return [...entries].sort(compareEntries).map((e, i) => ({ ...e, rank: i + 1 }))
}

/** floor(amount × ppm / 1e6): a pool's share of an income. */
export function share(amount: bigint, ppm: bigint): bigint {
  if (amount <= 0n || ppm <= 0n) return 0n
  return (amount * ppm) / PPM
}

/**
 * The prizes of a pool of `pool` for `winners` winners ranked 1…winners, rank i getting
 * floor(pool × shares[i] / 1e6). Ranks beyond the winners get nothing: with fewer winners than
 * shares, their shares stay in the pool, as do the floors' remainders. Never pays more than the pool
 * (shares sum to at most 1e6, checked at start).
 */
export function splitPrizes(pool: bigint, sharesPpm: readonly bigint[], winners: number): { prizes: bigint[]; paid: bigint; kept: bigint } {
  const n = Math.max(0, Math.min(winners, sharesPpm.length))
  const prizes = sharesPpm.slice(0, n).map((s) => share(pool, s))
  const paid = prizes.reduce((a, b) => a + b, 0n)
  return { prizes, paid, kept: (pool > 0n ? pool : 0n) - paid }
}

/**
 * A prize-share list from its setting: comma-separated ppm per rank, rank 1 first, each ≥ 1, summing
 * to at most 1,000,000, 1–100 ranks. The list's length is how many win (top N). Throws a message
 * naming the setting.
 */
export function parseShares(name: string, raw: string): bigint[] {
  const parts = raw.split(',').map((p) => p.trim())
  if (parts.length < 1 || parts.length > 100 || parts.some((p) => !/^[1-9][0-9]{0,6}$/.test(p))) {
    throw new Error(`${name} must be 1–100 comma-separated shares in ppm (e.g. 500000,300000,200000), got "${raw}"`)
  }
  const shares = parts.map(BigInt)
  const sum = shares.reduce((a, b) => a + b, 0n)
  if (sum > PPM) throw new Error(`${name} shares sum to ${sum} ppm, more than the whole pool (1000000)`)
  return shares
}

/** A page beyond the last is refused (the first page of an empty list is not: it is just empty). */
export function pageInRange(page: number, pageSize: number, total: number): boolean {
  return page === 1 || (page - 1) * pageSize < total
}

/** The number of pages of a list, at least 1. */
export const pageCount = (pageSize: number, total: number) => Math.max(1, Math.ceil(total / pageSize))
