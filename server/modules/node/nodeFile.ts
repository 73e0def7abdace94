// The operator's node file (`node load <file.json>`): the elite, core and genesis tiers and the loan
// plans. Tiers are keyed by type and plans by slug: a listed one is added or updated, none is
// deleted. A node already bought keeps the terms it was bought on (node_orders copies them); a change
// of seats keeps the seats taken taken. Rates are percent text ("0.4" = 0.4 % a day). The demo's is
// demoNodes.json beside this file.
import { statement, statements, type Tx } from '../../db/query/types.ts'
import { parseMoney } from '../../../contract/money.ts'

export class NodeFileInvalid extends Error {
  override name = 'NodeFileInvalid'
}

export interface TierEntry {
  type: 'elite' | 'core' | 'genesis'
  seats: number
  limit_num: number
  amount: bigint
  days: number
  power: bigint
  level_id: number
  withdraw_rate_ppm: number
  machine_rate_ppm: number
  airdrop_multiplier: number
  advanced_agent: boolean
  active: boolean
}
export interface PlanEntry {
  slug: string
  ltv_ppm: number
  daily_rate_ppm: number
  max_days: number
  active: boolean
}
export interface NodeFile {
  tiers: TierEntry[]
  loan_plans: PlanEntry[]
}

const TYPES = ['elite', 'core', 'genesis'] as const

/** "0.4" (percent) → 4000 ppm; at most 4 decimals, 0–100 %. */
export function percentPpm(text: unknown, what: string): number {
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]{0,2})(\.[0-9]{1,4})?$/.test(text)) throw new NodeFileInvalid(`${what}: a percent like "0.4" (at most 4 decimals)`)
  const [w, f = ''] = text.split('.')
  const ppm = Number(w) * 10_000 + Number(f.padEnd(4, '0'))
  if (ppm > 1_000_000) throw new NodeFileInvalid(`${what}: at most 100 %`)
  return ppm
}

function int(v: unknown, what: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new NodeFileInvalid(`${what}: a whole number from ${min} to ${max}`)
  return v
}

function money(v: unknown, what: string, positive: boolean): bigint {
  const m = typeof v === 'string' ? parseMoney(v) : null
  if (m === null || (positive && m <= 0n)) throw new NodeFileInvalid(`${what}: ${positive ? 'a positive' : 'an'} amount like "1000" (at most 8 decimals)`)
  return m
}

const bool = (v: unknown, what: string, dflt: boolean): boolean => {
  if (v === undefined) return dflt
  if (typeof v !== 'boolean') throw new NodeFileInvalid(`${what}: true or false`)
  return v
}

export function checkNodeFile(raw: unknown): NodeFile {
  if (!raw || typeof raw !== 'object') throw new NodeFileInvalid('the file is an object with "tiers" and "loan_plans"')
  const r = raw as { tiers?: unknown; loan_plans?: unknown }
  const tiers = Array.isArray(r.tiers) ? r.tiers : r.tiers === undefined ? [] : null
  const plans = Array.isArray(r.loan_plans) ? r.loan_plans : r.loan_plans === undefined ? [] : null
  if (!tiers || !plans) throw new NodeFileInvalid('"tiers" and "loan_plans" are lists')
  const seen = new Set<string>()
  const out: NodeFile = {
    tiers: tiers.map((t: Record<string, unknown>, i) => {
      const at = `tiers[${i}]`
      if (!TYPES.includes(t?.type as TierEntry['type'])) throw new NodeFileInvalid(`${at}.type: elite, core or genesis`)
      if (seen.has(String(t.type))) throw new NodeFileInvalid(`${at}.type: ${String(t.type)} is listed twice`)
      seen.add(String(t.type))
      return {
        type: t.type as TierEntry['type'],
        seats: int(t.seats, `${at}.seats`, 0, 10_000_000),
        limit_num: int(t.limit_num, `${at}.limit_num`, 1, 1000),
        amount: money(t.amount, `${at}.amount`, true),
        days: int(t.days, `${at}.days`, 1, 3650),
        power: money(t.power, `${at}.power`, false),
        level_id: int(t.level_id, `${at}.level_id`, 0, 99),
        withdraw_rate_ppm: percentPpm(t.withdraw_rate, `${at}.withdraw_rate`),
        machine_rate_ppm: percentPpm(t.machine_rate, `${at}.machine_rate`),
        airdrop_multiplier: t.airdrop_multiplier === undefined ? 2 : int(t.airdrop_multiplier, `${at}.airdrop_multiplier`, 1, 100),
        advanced_agent: bool(t.advanced_agent, `${at}.advanced_agent`, true),
        active: bool(t.active, `${at}.active`, true),
      }
    }),
    loan_plans: plans.map((p: Record<string, unknown>, i) => {
      const at = `loan_plans[${i}]`
      if (typeof p?.slug !== 'string' || !/^[a-z0-9][a-z0-9-]{0,39}$/.test(p.slug)) throw new NodeFileInvalid(`${at}.slug: lower-case letters, digits and dashes`)
      const ltv = percentPpm(p.ltv, `${at}.ltv`)
      if (ltv === 0) throw new NodeFileInvalid(`${at}.ltv: above 0`)
      return { slug: p.slug, ltv_ppm: ltv, daily_rate_ppm: percentPpm(p.daily_rate, `${at}.daily_rate`), max_days: int(p.max_days, `${at}.max_days`, 1, 3650), active: bool(p.active, `${at}.active`, true) }
    }),
  }
  return out
}

type TierTerms = [limitNum: number, amount: bigint, days: number, power: bigint, levelId: number, withdrawRatePpm: number, machineRatePpm: number, airdropMultiplier: number, advancedAgent: number, active: number]

const LOAD = statements({
  tierOf: statement<{ id: bigint }, [type: TierEntry['type']]>('SELECT id FROM node_tiers WHERE type = ?'),
  addTier: statement<never, [type: TierEntry['type'], seatsTotal: number, seatsLeft: number, ...TierTerms, sort: number, createdAt: number, updatedAt: number]>(
    `INSERT INTO node_tiers (type, seats_total, seats_left, limit_num, amount, days, power, level_id, withdraw_rate_ppm, machine_rate_ppm, airdrop_multiplier, advanced_agent, active, sort, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  // Seats already taken (paid or held by an open order) stay taken. They are counted by the UPDATE,
  // on the row under its lock: a seat bought by another process between a read and this write would
  // otherwise be counted free and sold twice.
  updateTier: statement<never, [seats: bigint, seats: bigint, seats: bigint, seats: bigint, ...TierTerms, updatedAt: number, id: bigint]>(
    `UPDATE node_tiers SET seats_total = CASE WHEN CAST(? AS BIGINT) > seats_total - seats_left THEN CAST(? AS BIGINT) ELSE seats_total - seats_left END,
       seats_left = CASE WHEN CAST(? AS BIGINT) > seats_total - seats_left THEN CAST(? AS BIGINT) - (seats_total - seats_left) ELSE 0 END,
       limit_num = ?, amount = ?, days = ?, power = ?, level_id = ?, withdraw_rate_ppm = ?,
       machine_rate_ppm = ?, airdrop_multiplier = ?, advanced_agent = ?, active = ?, updated_at = ? WHERE id = ?`,
  ),
  plan: statement<never, [slug: string, ltvPpm: number, dailyRatePpm: number, maxDays: number, active: number, sort: number, createdAt: number]>(
    `INSERT INTO loan_plans (slug, ltv_ppm, daily_rate_ppm, max_days, active, sort, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (slug) DO UPDATE SET ltv_ppm = excluded.ltv_ppm, daily_rate_ppm = excluded.daily_rate_ppm, max_days = excluded.max_days, active = excluded.active`,
  ),
})

/** In the caller's transaction. Returns what changed. */
export async function loadNodeFile(tx: Tx, file: NodeFile, now: number): Promise<{ tiers: number; plans: number }> {
  const sortOf = (t: TierEntry['type']) => TYPES.indexOf(t)
  for (const t of file.tiers) {
    const old = await tx.get(LOAD.tierOf, t.type)
    const v: TierTerms = [t.limit_num, t.amount, t.days, t.power, t.level_id, t.withdraw_rate_ppm, t.machine_rate_ppm, t.airdrop_multiplier, t.advanced_agent ? 1 : 0, t.active ? 1 : 0]
    if (!old) {
      await tx.run(LOAD.addTier, t.type, t.seats, t.seats, ...v, sortOf(t.type), now, now)
    } else {
      const seats = BigInt(t.seats)
      await tx.run(LOAD.updateTier, seats, seats, seats, seats, ...v, now, old.id)
    }
  }
  for (const p of file.loan_plans) await tx.run(LOAD.plan, p.slug, p.ltv_ppm, p.daily_rate_ppm, p.max_days, p.active ? 1 : 0, file.loan_plans.indexOf(p), now)
  return { tiers: file.tiers.length, plans: file.loan_plans.length }
}
