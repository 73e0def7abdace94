// The arithmetic of activities, pure: status from the window, the leaderboard's order, who wins what.
// The service feeds it rows read from the database; tests feed it by hand.
import type { ActivityStatus } from '../../../contract/activity.ts'

/** upcoming before starts_at, running in [starts_at, ends_at), ended from ends_at on. */
export function statusAt(startsAt: number, endsAt: number, now: number): ActivityStatus {
  if (now < startsAt) return 'upcoming'
  return now < endsAt ? 'running' : 'ended'
}

/** One participant's figure over the window: the total and the moment it was reached. */
export interface Score {
  userId: number
  /** Units of 1e-8 for money measures; a count for team growth. Always > 0 (no score, not in the activity). */
  score: bigint
  /** When the participant's last counted event happened: the moment they reached `score`. */
  reachedAt: number
}

export interface Ranked extends Score {
  rank: number
}

/**
 * The leaderboard: higher score first; on a tie, whoever reached the score first; then the older
 * account (a lower id), so the order is total and the same on every read. Ranks are 1, 2, 3… with no
 * shared ranks, since prizes are per rank.
 */
export function rankScores(scores: readonly Score[]): Ranked[] {
  const sorted = scores.filter((s) => s.score > 0n).sort((a, b) => (a.score === b.score ? a.reachedAt - b.reachedAt || a.userId - b.userId : a.score > b.score ? -1 : 1))
  return sorted.map((s, i) => ({ ...s, rank: i + 1 }))
}

/** Each rank from `from` to `to` (inclusive) wins `amount` units of `asset`. */
export interface PrizeRange {
  from: number
  to: number
  asset: string
  amount: bigint
}

/** The prize of one rank, or null past the last range. */
export function prizeOf(rank: number, prizes: readonly PrizeRange[]): { asset: string; amount: bigint } | null {
  const p = prizes.find((r) => rank >= r.from && rank <= r.to)
  return p ? { asset: p.asset, amount: p.amount } : null
}

/** What the whole prize table pays if every rank has a winner, per asset. */
export function prizeTotals(prizes: readonly PrizeRange[]): Map<string, bigint> {
  const out = new Map<string, bigint>()
  for (const p of prizes) out.set(p.asset, (out.get(p.asset) ?? 0n) + BigInt(p.to - p.from + 1) * p.amount)
  return out
}

export interface Payout {
  rank: number
  userId: number
  score: bigint
  reachedAt: number
  asset: string
  amount: bigint
}

/** The prizes a final leaderboard pays: one per ranked participant inside the prize ranges. Ranks with no participant pay nothing. */
export function payouts(board: readonly Ranked[], prizes: readonly PrizeRange[]): Payout[] {
  const out: Payout[] = []
  for (const r of board) {
    const p = prizeOf(r.rank, prizes)
    if (!p) break // ranks only grow along the board, and the ranges are contiguous from 1
    out.push({ rank: r.rank, userId: r.userId, score: r.score, reachedAt: r.reachedAt, asset: p.asset, amount: p.amount })
  }
  return out
}

/** Sum per asset of a list of payouts. */
export function sumByAsset(list: readonly { asset: string; amount: bigint }[]): Map<string, bigint> {
  const out = new Map<string, bigint>()
  for (const p of list) out.set(p.asset, (out.get(p.asset) ?? 0n) + p.amount)
  return out
}

/** Problems with a prize table that a schema cannot see: ranges contiguous from 1, amounts above 0. */
export function prizeProblems(prizes: readonly PrizeRange[], maxRanks: number): string[] {
  const problems: string[] = []
  if (prizes.length === 0) problems.push('at least one prize range')
  let next = 1
  for (const [i, p] of prizes.entries()) {
    if (p.from !== next) problems.push(`prizes[${i}]: ranks must follow on without gaps or overlaps: expected from ${next}, found ${p.from}`)
    if (p.to < p.from) problems.push(`prizes[${i}]: to (${p.to}) is before from (${p.from})`)
    if (p.amount <= 0n) problems.push(`prizes[${i}]: the amount must be above 0`)
    next = Math.max(next, p.to + 1)
  }
  if (next - 1 > maxRanks) problems.push(`prizes reach rank ${next - 1}; at most ${maxRanks} ranks win`)
  return problems
}
