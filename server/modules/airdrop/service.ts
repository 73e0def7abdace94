// The operator's airdrop (`cli airdrop`): each eligible user is credited the amount per user × their
// node airdrop multiplier (node/airdrop.ts) from the treasury into their fund account, one ledger
// posting per (airdrop, user) under ref airdrop:<id>:<user>, so a re-run — after a crash, or by
// mistake — credits only who was not credited yet, and with the same terms posts nothing. The terms
// (asset, amount per user, day, and who: all users or a fingerprint of the list) are recorded in every
// posting's meta; a re-run with other terms is refused — a re-run of a listed airdrop that forgot its
// list would otherwise credit everyone. The platform's root account is never credited. All or nothing:
// one transaction (the caller's tx), refused whole when the treasury is short.
import { createHash } from 'node:crypto'
import { formatMoney } from '../../../contract/money.ts'
import * as ledger from '../../ledger/index.ts'
import { statement, statements, type Tx } from '../../db/query/types.ts'
import { dayOf, dayStart } from '../release/schedule.ts'
import { airdropAmount, airdropRef, type UserToken } from './rules.ts'

export class AirdropRefused extends Error {
  override name = 'AirdropRefused'
}

export interface Airdrop {
  id: string
  asset: ledger.KnownAsset
  perUser: bigint
  users: 'all' | UserToken[]
  /** null: the recorded day on a re-run, else today's. */
  day: number | null
}

export interface AirdropResult {
  day: number
  /** Credited by this run, and of them with a multiplier above 1. */
  credited: number
  multiplied: number
  /** Already credited by an earlier run (skipped). */
  already: number
  total: bigint
  treasury: bigint
}

type UserRow = { id: bigint; is_root: bigint }

const S = statements({
  // The ref's prefix as a range, so the unique index on ref answers it.
  recorded: statement<{ meta: string | null }, [{ lo: string; hi: string }]>('SELECT meta FROM ledger_postings WHERE ref >= @lo AND ref < @hi ORDER BY ref LIMIT 1'),
  all: statement<{ id: bigint }, []>('SELECT id FROM users WHERE is_root = 0 ORDER BY id'),
  byId: statement<UserRow, [id: bigint]>('SELECT id, is_root FROM users WHERE id = ?'),
  byAddress: statement<UserRow, [address: string]>('SELECT id, is_root FROM users WHERE wallet_address = ?'),
})

const iso = (day: number) => new Date(dayStart(day)).toISOString().slice(0, 10)

async function users(tx: Tx, who: Airdrop['users']): Promise<bigint[]> {
  if (who === 'all') return (await tx.all(S.all)).map((r) => r.id)
  const ids = new Set<bigint>()
  const unknown: string[] = []
  for (const t of who) {
    const r = 'id' in t ? await tx.get(S.byId, t.id) : await tx.get(S.byAddress, t.address)
    if (r?.is_root) throw new AirdropRefused(`user ${r.id} is the platform's root account, which is never credited`)
    if (r) ids.add(r.id)
    else unknown.push('id' in t ? `user ${t.id}` : t.address)
  }
  if (unknown.length) throw new AirdropRefused(`no such user: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ` (and ${unknown.length - 5} more)` : ''}`)
  return [...ids].sort((a, b) => (a < b ? -1 : 1))
}

/** Each user's node airdrop multiplier above 1 on a day (node/airdrop.ts: airdropMultipliers). */
export type MultipliersOn = (day: number) => Promise<Map<bigint, number>>

/**
 * Runs in the caller's transaction `tx`. Throws AirdropRefused, having written nothing. The
 * multipliers are read of node_orders, which the airdrop does not write (the CLI reads them through tx:
 * on SQLite a statement outside an open transaction would wait for it).
 */
export async function airdrop(tx: Tx, a: Airdrop, now: number, multipliersOn: MultipliersOn): Promise<AirdropResult> {
  const prefix = `airdrop:${a.id}:`
  const seen = await tx.get(S.recorded, { lo: prefix, hi: `airdrop:${a.id};` })
  let day = a.day ?? dayOf(now)
  const eligible = await users(tx, a.users)
  const scope = a.users === 'all' ? 'all users' : `${eligible.length} listed users (${createHash('sha256').update(eligible.join(',')).digest('hex').slice(0, 16)})`
  if (seen) {
    const m = JSON.parse(seen.meta ?? '{}') as { asset?: string; per_user?: string; day?: string; users?: string }
    if (a.day === null && m.day) day = dayOf(Date.parse(`${m.day}T00:00:00Z`))
    const terms = `${a.asset} ${formatMoney(a.perUser)} per user for ${iso(day)}${m.users === undefined ? '' : ` to ${scope}`}`
    const was = `${m.asset} ${m.per_user} per user for ${m.day}${m.users === undefined ? '' : ` to ${m.users}`}`
    if (terms !== was) throw new AirdropRefused(`airdrop ${a.id} was made with ${was}; a re-run takes the same terms (this one: ${terms})`)
  }
  if (day > dayOf(now)) throw new AirdropRefused(`--day ${iso(day)} has not come yet: the multipliers are the nodes held on a day that has begun`)

  const multipliers = await multipliersOn(day)
  const plan: { user: bigint; amount: bigint; multiplier: number }[] = []
  let already = 0
  let total = 0n
  for (const user of eligible) {
    if (await ledger.findPosting(tx, airdropRef(a.id, user))) {
      already++
      continue
    }
    const multiplier = multipliers.get(user) ?? 1
    const amount = airdropAmount(a.perUser, multiplier)
    plan.push({ user, amount, multiplier })
    total += amount
  }
  const held = (await ledger.balance(tx, ledger.TREASURY, a.asset)).available
  if (held < total) throw new AirdropRefused(`the treasury has ${formatMoney(held)} ${a.asset}, the airdrop needs ${formatMoney(total)} ${a.asset} for ${plan.length} users`)
  const meta = { airdrop: a.id, asset: a.asset, per_user: formatMoney(a.perUser), day: iso(day), users: scope }
  for (const p of plan) {
    await ledger.transfer(tx, {
      ref: airdropRef(a.id, p.user),
      reason: 'airdrop',
      userId: p.user,
      from: ledger.TREASURY,
      to: ledger.fund(p.user),
      asset: a.asset,
      amount: p.amount,
      at: now,
      meta: { ...meta, multiplier: p.multiplier },
    })
  }
  return {
    day,
    credited: plan.length,
    multiplied: plan.filter((p) => p.multiplier > 1).length,
    already,
    total,
    treasury: (await ledger.balance(tx, ledger.TREASURY, a.asset)).available,
  }
}
