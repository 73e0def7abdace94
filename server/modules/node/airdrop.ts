// The MEME airdrop doubling a node grants (SPEC §1; issue 11 part 4): each node records its tier's
// airdrop multiplier when paid, and an airdrop multiplies what a user receives by the highest
// multiplier among the nodes they hold that day — 1 without one. Read by the operator's airdrop
// (server/modules/airdrop/service.ts).
import { statement, statements, type Queryable } from '../../db/query/types.ts'

export interface HeldNode {
  multiplier: number
  status: 'pending' | 'active' | 'returned' | 'cancelled'
  /** The first day it mines (the day after payment), and the first day after its term. */
  startDay: number | null
  endDay: number | null
}

/**
 * Whether a node is held on a day: paid by then (its grants take effect with the payment, the day
 * before it starts mining) and its term not over. A returned node still counts for the days of its
 * term, so an airdrop of a past day reads what the user held that day.
 */
export function heldOn(n: HeldNode, day: number): boolean {
  if (n.status !== 'active' && n.status !== 'returned') return false
  if (n.startDay === null || n.endDay === null) return false
  return n.startDay - 1 <= day && day < n.endDay
}

/** The highest multiplier of the nodes held on the day; 1 without one (pure). */
export function highestMultiplier(nodes: readonly HeldNode[], day: number): number {
  let best = 1
  for (const n of nodes) if (heldOn(n, day) && n.multiplier > best) best = n.multiplier
  return best
}

type Row = { airdrop_multiplier: bigint; status: HeldNode['status']; start_day: bigint | null; end_day: bigint | null }
type Day = { day: number }

// Candidates only; heldOn() decides (one rule, in one place).
const S = statements({
  ofUser: statement<Row, [Day & { user: number | bigint }]>(`SELECT airdrop_multiplier, status, start_day, end_day FROM node_orders
           WHERE user_id = @user AND status IN ('active', 'returned') AND start_day <= @day + 1 AND @day < end_day`),
  all: statement<Row & { user_id: bigint }, [Day]>(`SELECT user_id, airdrop_multiplier, status, start_day, end_day FROM node_orders
        WHERE status IN ('active', 'returned') AND start_day <= @day + 1 AND @day < end_day AND airdrop_multiplier > 1`),
})

const held = (r: Row): HeldNode => ({
  multiplier: Number(r.airdrop_multiplier),
  status: r.status,
  startDay: r.start_day === null ? null : Number(r.start_day),
  endDay: r.end_day === null ? null : Number(r.end_day),
})

/** The user's airdrop multiplier on a day (UTC day number), read through `q`: the database or a transaction's tx. */
export async function airdropMultiplier(q: Queryable, userId: number | bigint, day: number): Promise<number> {
  const rows = await q.all(S.ofUser, { user: userId, day })
  return highestMultiplier(rows.map(held), day)
}

/** Every user whose multiplier on the day is above 1, with it (one query, for an airdrop to many). */
export async function airdropMultipliers(q: Queryable, day: number): Promise<Map<bigint, number>> {
  const byUser = new Map<bigint, HeldNode[]>()
  for (const r of await q.all(S.all, { day })) {
    const list = byUser.get(r.user_id) ?? []
    list.push(held(r))
    byUser.set(r.user_id, list)
  }
  const out = new Map<bigint, number>()
  for (const [user, nodes] of byUser) {
    const m = highestMultiplier(nodes, day)
    if (m > 1) out.set(user, m)
  }
  return out
}
