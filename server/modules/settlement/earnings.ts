// A user's earnings of one settled day, position by position (GET /api/v1/wallet/earnings): the
// settlement lines of their positions and their nodes' two fee grants (the withdraw-fee share and the
// dividends from trading fees) — the detail of the day's `settlement`, `node_fee_share` and
// `node_dividend` money records. Only the caller's own positions are read.
import { formatMoney } from '../../../contract/money.ts'
import type { Asset, DayEarnings, EarningLine, PositionKind } from '../../../contract/wallet.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements } from '../../db/query/types.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { dayOf, dayStart } from '../release/schedule.ts'
import { isoDay } from './service.ts'
import { checkDay, positionTarget, resolveLink } from './links.ts'

type LineRow = { id: bigint; kind: PositionKind; source: string; asset: Asset; amount: bigint; tier_id: bigint | null }
type ShareRow = { node_id: bigint; position_id: bigint | null; tier_id: bigint; asset: Asset; amount: bigint; reason: 'node_fee_share' | 'node_dividend' }
type OfDay = [{ day: number; user: number }]

const EARNINGS = statements({
  settled: statement<{ finished_at: bigint }, [{ day: number }]>('SELECT finished_at FROM settlement_days WHERE day = @day'),
  // The user's positions first (positions_user), each one's line of the day by its primary key. The
  // CASE casts only a node's source (node:<id>): PostgreSQL may evaluate an AND's sides in any order.
  lines: statement<LineRow, OfDay>(`SELECT p.id AS id, p.kind AS kind, p.source AS source, p.asset AS asset, l.amount AS amount, n.tier_id AS tier_id
          FROM positions p
          JOIN settlement_lines l ON l.position_id = p.id AND l.day = @day
          LEFT JOIN node_orders n ON n.id = CASE WHEN p.kind = 'node' THEN CAST(substr(p.source, 6) AS INTEGER) END
          WHERE p.user_id = @user
          ORDER BY p.kind, p.id`),
  shares: statement<ShareRow, OfDay>(`SELECT n.id AS node_id, n.position_id AS position_id, n.tier_id AS tier_id, f.asset AS asset, f.amount AS amount, f.reason AS reason
           FROM node_orders n JOIN (
             SELECT node_id, asset, amount, 'node_fee_share' AS reason FROM node_fee_shares WHERE day = @day
             UNION ALL SELECT node_id, asset, amount, 'node_dividend' FROM node_dividends WHERE day = @day
           ) f ON f.node_id = n.id
           WHERE n.user_id = @user
           ORDER BY n.id, f.reason DESC, f.asset`),
  tier: statement<{ tier_id: bigint }, [nodeId: number]>('SELECT tier_id FROM node_orders WHERE id = ?'),
})

/** The tier of a node, for links to its screen. */
export async function nodeTier(ctx: Pick<Ctx, 'sql'>, nodeId: number): Promise<number | null> {
  const r = await ctx.sql.get(EARNINGS.tier, nodeId)
  return r ? Number(r.tier_id) : null
}

/**
 * The day's earnings of a user. Refuses (localized) a day that is not an integer, before 1970 or
 * after today, or not settled (yet).
 */
export async function dayEarnings(ctx: Pick<Ctx, 'sql' | 'now'>, userId: number, dayText: string): Promise<DayEarnings> {
  const checked = checkDay(dayText, dayOf(ctx.now()))
  if (!('day' in checked)) throw badRequest(checked.key, checked.params)
  const { day } = checked
  const settled = await ctx.sql.get(EARNINGS.settled, { day })
  if (!settled) throw notFound('errors.earningsDayNotSettled', { date: isoDay(day) })

  const list: EarningLine[] = []
  const totals = new Map<Asset, bigint>()
  const add = (line: Omit<EarningLine, 'amount'>, amount: bigint) => {
    list.push({ ...line, amount: formatMoney(amount) })
    totals.set(line.asset, (totals.get(line.asset) ?? 0n) + amount)
  }
  const rows = await ctx.sql.all(EARNINGS.lines, { day, user: userId })
  for (const r of rows) {
    const id = Number(r.id)
    const tier = r.tier_id === null ? null : Number(r.tier_id)
    const target = resolveLink(positionTarget({ id, kind: r.kind, source: r.source }), () => tier) ?? { screen: 'powerLog' as const, position_id: id }
    add({ position_id: id, kind: r.kind, source: r.source, reason: 'settlement', asset: r.asset, target }, r.amount)
  }
  const shares = await ctx.sql.all(EARNINGS.shares, { day, user: userId })
  for (const f of shares) {
    const node = Number(f.node_id)
    add(
      {
        position_id: f.position_id === null ? 0 : Number(f.position_id),
        kind: 'node',
        source: `node:${node}`,
        reason: f.reason,
        asset: f.asset,
        target: { screen: 'node', node_id: node, tier_id: Number(f.tier_id) },
      },
      f.amount,
    )
  }
  return {
    day,
    date: dayStart(day),
    settled_at: Number(settled.finished_at),
    totals: [...totals].map(([asset, amount]) => ({ asset, amount: formatMoney(amount) })),
    list,
  }
}
