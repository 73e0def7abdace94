// Super Miner nodes (SPEC §1, §3 Node; issue 11 part 4; DESIGN §10, §11).
//
//   buy       an order to pay (type 'node', USDT, the stake) and a pending node_orders row, with the
//             tier's seat taken by one guarded decrement in the same transaction (never oversold; an
//             unpaid order cancelled or expired gives it back: seats.ts, called by the orders service).
//             The per-user limit counts the caller's pending (open) and active (paid) nodes of the tier.
//   paid      (fulfilNode, in the payment's transaction) the payment went to the treasury; the stake
//             moves from there into the buyer's own fund USDT account, frozen (the audit's holder is
//             frozen.ts), and the grants take effect: users.level = max(level, level_id); a position of
//             kind 'node' mining NADI at machine_rate of the node's power a day for `days` days from
//             tomorrow; the airdrop multiplier and advanced-agent flag recorded on the node (the airdrop
//             job reads the largest multiplier among a user's active nodes); the fee share below.
//   settle    three settlement steps a day: the two fee grants SPEC §1 lists apart — the fee share
//             (NADI_NODE_FEE_POOL_PPM of the day's withdraw fees, split by withdraw_rate) and node
//             dividends (NADI_NODE_DIVIDEND_POOL_PPM of the day's spot trading fees, split by the USDT
//             stake), each floored with the remainder to dust — and the stake of every node whose term
//             ended unfrozen, skipped while a loan against it is open.
//
// The level stays after the stake is returned (SPEC names no loss of it).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { LangCode } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { MyNode, NodeConfig, NodeTier, NodeType } from '../../../contract/node.ts'
import type { PayOrder } from '../../../contract/orders.ts'
import { daysLeft, lastDayOf, termOf, type Term } from '../../../contract/term.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements, type Sql, type Tx } from '../../db/query/types.ts'
import { inSnapshot } from '../../db/steps.ts'
import { conflict, notFound } from '../../http/errors.ts'
import * as ledger from '../../ledger/index.ts'
import { ENTRY_ID_SPAN } from '../../ledger/statements.ts'
import { createPayOrderIn, type OrdersService } from '../orders/service.ts'
import { checkHoldIn } from '../orders/holds.ts'
import { dayOf, dayStart } from '../release/schedule.ts'
import { onSettle } from '../settlement/service.ts'
import { addPerformanceIn, addTeamNodeIn } from '../user/performance.ts'
import { checkNodeFile, loadNodeFile } from './nodeFile.ts'
import { feePool, ppmPercent, splitFees } from './rules.ts'
import { answerKeyedIn } from '../../db/keyedEffect.ts'

export interface TierRow {
  id: bigint
  type: NodeType
  seats_total: bigint
  seats_left: bigint
  limit_num: bigint
  amount: bigint
  days: bigint
  power: bigint
  level_id: bigint
  withdraw_rate_ppm: bigint
  machine_rate_ppm: bigint
  airdrop_multiplier: bigint
  advanced_agent: bigint
  active: bigint
}

export interface NodeRow {
  id: bigint
  user_id: bigint
  tier_id: bigint
  order_id: bigint
  status: MyNode['status']
  amount: bigint
  days: bigint
  power: bigint
  level_id: bigint
  withdraw_rate_ppm: bigint
  machine_rate_ppm: bigint
  airdrop_multiplier: bigint
  advanced_agent: bigint
  position_id: bigint | null
  start_day: bigint | null
  end_day: bigint | null
  created_at: bigint
  paid_at: bigint | null
  returned_at: bigint | null
}

const SQL = {
  tier: 'SELECT * FROM node_tiers WHERE id = ?',
  heldOf: "SELECT count(*) AS n FROM node_orders WHERE user_id = ? AND tier_id = ? AND status IN ('pending', 'active')",
  // One intent, one order: the caller's order of this tier still waiting for payment, if any.
  waiting: `SELECT o.id FROM node_orders n JOIN pay_orders o ON o.id = n.order_id
              WHERE n.user_id = ? AND n.tier_id = ? AND n.status = 'pending' AND o.state = 'open' AND o.paid_at IS NULL AND o.expires_at > ?
              ORDER BY o.id DESC LIMIT 1`,
  takeSeat: 'UPDATE node_tiers SET seats_left = seats_left - 1 WHERE id = ? AND active = 1 AND seats_left > 0',
  insert: `INSERT INTO node_orders (user_id, tier_id, order_id, amount, days, power, level_id, withdraw_rate_ppm, machine_rate_ppm, airdrop_multiplier, advanced_agent, created_at)
           VALUES (@user, @tier, @order, @amount, @days, @power, @level, @wr, @mr, @air, @agent, @at)`,
  byOrder: 'SELECT * FROM node_orders WHERE order_id = ?',
  tierType: 'SELECT type FROM node_tiers WHERE id = @tier',
  order: 'SELECT id, user_id, type, state, total FROM pay_orders WHERE id = ?',
  position: `INSERT INTO positions (user_id, kind, asset, base, rate_ppm, period_days, remaining, start_day, end_day, source, created_at)
             VALUES (?, 'node', 'NADI', ?, ?, 1, NULL, ?, ?, ?, ?)`,
  activate: "UPDATE node_orders SET status = 'active', position_id = ?, start_day = ?, end_day = ?, paid_at = ? WHERE id = ? AND status = 'pending'",
  // Raised, never lowered: the row is left alone when its level is already as high.
  level: 'UPDATE users SET level = @level WHERE id = @user AND level < @level',
  done: "UPDATE pay_orders SET state = 'completed', fulfilment = 'completed', paid_at = ?, ended_at = ? WHERE id = ? AND state = 'open'",
} as const

type NewNode = { user: number; tier: number; order: number; amount: bigint; days: bigint; power: bigint; level: bigint; wr: bigint; mr: bigint; air: bigint; agent: bigint; at: number }
/** What buy runs, in its group-commit action. */
const BUY = statements({
  tier: statement<TierRow, [id: number]>(SQL.tier),
  heldOf: statement<{ n: bigint }, [userId: number, tierId: number]>(SQL.heldOf),
  waiting: statement<{ id: bigint }, [userId: number, tierId: number, now: number]>(SQL.waiting),
  takeSeat: statement<never, [tierId: number]>(SQL.takeSeat),
  insert: statement<never, [NewNode]>(SQL.insert),
})

/** What fulfilNode runs, in the paying transaction of the asynchronous way. */
const FULFIL = statements({
  order: statement<{ id: bigint; user_id: bigint; type: string; state: string; total: bigint }, [id: number]>(SQL.order),
  byOrder: statement<NodeRow, [orderId: number]>(SQL.byOrder),
  tierType: statement<{ type: NodeType }, [{ tier: bigint }]>(SQL.tierType),
  position: statement<{ id: bigint }, [user: bigint, power: bigint, ratePpm: bigint, startDay: number, endDay: number, source: string, at: number]>(`${SQL.position} RETURNING id`),
  activate: statement<never, [position: bigint, startDay: number, endDay: number, paidAt: number, id: bigint]>(SQL.activate),
  level: statement<never, [{ level: bigint; user: bigint }]>(SQL.level),
  done: statement<never, [paidAt: number, endedAt: number, id: bigint]>(SQL.done),
})

type Holder = { id: bigint; user_id: bigint; withdraw_rate_ppm: bigint; amount: bigint }
type Window = [from: number, to: number]
type Share = [nodeId: bigint, day: number, asset: string, amount: bigint]
type DayRecord = [day: number, asset: string, fees: bigint, pool: bigint, paid: bigint, dust: bigint]

/** What the settlement's node steps run, in the day's transaction. */
const STEPS = statements({
  // The fee share's source: the day's confirmed withdrawals' fees (the fees account received them that day).
  withdrawFees: statement<{ asset: string; fees: bigint }, Window>(
    "SELECT coin AS asset, coalesce(sum(fee), 0) AS fees FROM withdrawals WHERE status = 'confirmed' AND finished_at >= ? AND finished_at < ? GROUP BY coin",
  ),
  // The dividends' source: the day's spot trading fees, maker and taker (the fees account received them as they filled).
  tradeFees: statement<{ asset: string; fees: bigint }, Window>('SELECT fee_asset AS asset, sum(fee) AS fees FROM trade_deals WHERE created_at >= ? AND created_at < ? AND fee > 0 GROUP BY fee_asset'),
  holders: statement<Holder, [{ day: number }]>("SELECT id, user_id, withdraw_rate_ppm, amount FROM node_orders WHERE status = 'active' AND start_day <= @day AND @day < end_day ORDER BY id"),
  feeShareNode: statement<never, Share>('INSERT INTO node_fee_shares (node_id, day, asset, amount) VALUES (?, ?, ?, ?)'),
  feeShareDay: statement<never, DayRecord>('INSERT INTO node_fee_days (day, asset, fees, pool, paid, dust) VALUES (?, ?, ?, ?, ?, ?)'),
  dividendNode: statement<never, Share>('INSERT INTO node_dividends (node_id, day, asset, amount) VALUES (?, ?, ?, ?)'),
  dividendDay: statement<never, DayRecord>('INSERT INTO node_dividend_days (day, asset, fees, pool, paid, dust) VALUES (?, ?, ?, ?, ?, ?)'),
  // The stake back: terms ended (the day settled is the last of the term) and no loan open against it.
  due: statement<{ id: bigint; user_id: bigint; amount: bigint; type: NodeType }, [{ day: number }]>(
    `SELECT id, user_id, amount, (SELECT type FROM node_tiers t WHERE t.id = n.tier_id) AS type FROM node_orders n WHERE status = 'active' AND end_day <= @day + 1
       AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.node_id = n.id AND l.status = 'open') ORDER BY id`,
  ),
  returned: statement<never, [at: number, id: bigint]>("UPDATE node_orders SET status = 'returned', returned_at = ? WHERE id = ? AND status = 'active'"),
  // The node's row lock (PostgreSQL; on SQLite one writer anyway), taken while it is active: see holdActiveNode.
  hold: statement<never, [id: bigint | number]>("UPDATE node_orders SET status = status WHERE id = ? AND status = 'active'"),
  loanOpen: statement<{ one: bigint }, [nodeId: bigint]>("SELECT 1 AS one FROM loans WHERE node_id = ? AND status = 'open' LIMIT 1"),
})

type Mine = { user: number; tier: number | null }

/** What the node screens read, outside any transaction. */
const READS = statements({
  tiers: statement<TierRow, []>('SELECT * FROM node_tiers WHERE active = 1 ORDER BY sort, id'),
  held: statement<{ tier_id: bigint; n: bigint }, [userId: number]>(
    "SELECT tier_id, count(*) AS n FROM node_orders WHERE user_id = ? AND status IN ('pending', 'active') GROUP BY tier_id",
  ),
  mine: statement<MineRow, [Mine & { limit: number; offset: number }]>(`SELECT n.*, o.order_no, t.type, coalesce(p.paid, 0) AS mined,
                (SELECT coalesce(sum(amount), 0) FROM node_fee_shares f WHERE f.node_id = n.id) AS fee_share,
                (SELECT coalesce(sum(amount), 0) FROM node_dividends d WHERE d.node_id = n.id AND d.asset = 'USDT') AS dividend_usdt,
                (SELECT coalesce(sum(amount), 0) FROM node_dividends d WHERE d.node_id = n.id AND d.asset = 'NADI') AS dividend_nadi,
                (SELECT coalesce(sum(debt), 0) FROM loans l WHERE l.node_id = n.id AND l.status = 'open') AS loan_debt
         FROM node_orders n JOIN pay_orders o ON o.id = n.order_id JOIN node_tiers t ON t.id = n.tier_id
         LEFT JOIN positions p ON p.id = n.position_id
         WHERE n.user_id = @user AND (CAST(@tier AS BIGINT) IS NULL OR n.tier_id = @tier) AND n.status <> 'cancelled'
         ORDER BY n.id DESC LIMIT @limit OFFSET @offset`),
  mineCount: statement<{ n: bigint }, [Mine]>(
    "SELECT count(*) AS n FROM node_orders WHERE user_id = @user AND (CAST(@tier AS BIGINT) IS NULL OR tier_id = @tier) AND status <> 'cancelled'",
  ),
})

const tierWire = (t: TierRow, held: number): NodeTier => ({
  id: Number(t.id),
  type: t.type,
  total: Number(t.seats_total),
  seats_left: Number(t.seats_left),
  limit_num: Number(t.limit_num),
  held,
  amount: formatMoney(t.amount),
  days: Number(t.days),
  power: formatMoney(t.power),
  level_id: Number(t.level_id),
  withdraw_rate: ppmPercent(t.withdraw_rate_ppm),
  machine_rate: ppmPercent(t.machine_rate_ppm),
  airdrop_multiplier: Number(t.airdrop_multiplier),
  advanced_agent: t.advanced_agent === 1n,
})

type MineRow = NodeRow & { order_no: string; type: NodeType; mined: bigint; fee_share: bigint; dividend_usdt: bigint; dividend_nadi: bigint; loan_debt: bigint }

export function nodeWire(r: MineRow, today: number): MyNode {
  const paid = r.status === 'active' || r.status === 'returned'
  const term: Term | null = r.start_day !== null && r.end_day !== null ? { startDay: Number(r.start_day), endDay: Number(r.end_day) } : null
  return {
    id: Number(r.id),
    tier_id: Number(r.tier_id),
    type: r.type,
    order_id: Number(r.order_id),
    order_no: r.order_no,
    status: r.status,
    amount: formatMoney(r.amount),
    days: Number(r.days),
    days_left: r.status === 'pending' ? Number(r.days) : r.status === 'active' && term ? daysLeft(term, today) : 0,
    power: formatMoney(r.power),
    level_id: Number(r.level_id),
    withdraw_rate: ppmPercent(r.withdraw_rate_ppm),
    machine_rate: ppmPercent(r.machine_rate_ppm),
    airdrop_multiplier: Number(r.airdrop_multiplier),
    advanced_agent: r.advanced_agent === 1n,
    mined: formatMoney(r.mined),
    fee_share: formatMoney(r.fee_share),
    dividends: { USDT: formatMoney(r.dividend_usdt), NADI: formatMoney(r.dividend_nadi) },
    loan_debt: formatMoney(r.loan_debt),
    start_at: paid && term ? dayStart(term.startDay) : null,
    end_at: paid && term ? dayStart(lastDayOf(term)) : null,
    created_at: Number(r.created_at),
    paid_at: r.paid_at === null ? null : Number(r.paid_at),
    returned_at: r.returned_at === null ? null : Number(r.returned_at),
  }
}

export type NodeService = ReturnType<typeof createNodeService>

export function createNodeService(ctx: Ctx, orders: OrdersService) {
  return {
    async config(userId: number): Promise<NodeConfig> {
      const held = new Map((await ctx.sql.all(READS.held, userId)).map((r) => [r.tier_id, Number(r.n)]))
      const tiers = (await ctx.sql.all(READS.tiers)).map((t) => tierWire(t, held.get(t.id) ?? 0))
      return { tiers, fee_pool_share: ppmPercent(ctx.config.node.feePoolPpm), dividend_pool_share: ppmPercent(ctx.config.node.dividendPoolPpm) }
    },

    /**
     * An order to pay for one node of a tier; refused beyond the seats or the caller's limit. The
     * caller's order of the tier still waiting for payment is answered again instead of a new one.
     */
    async buy(userId: number, lang: LangCode, tierId: number): Promise<PayOrder> {
      answerKeyedIn((orderId: number, tx) => orders.detailIn(tx, userId, lang, orderId))
      const id = await ctx.commits.write(async (tx) => {
        const t = await tx.get(BUY.tier, tierId)
        if (!t || t.active !== 1n) throw notFound('errors.nodeNotFound')
        // Buying again what waits for payment resumes that order: no second seat, no second order.
        const waiting = await tx.get(BUY.waiting, userId, tierId, ctx.now())
        if (waiting) return Number(waiting.id)
        const held = Number((await tx.get(BUY.heldOf, userId, tierId))!.n)
        if (held >= Number(t.limit_num)) throw conflict('errors.nodeLimit', { limit: Number(t.limit_num) })
        if (t.seats_left <= 0n) throw conflict('errors.nodeSoldOut')
        await checkHoldIn(ctx, tx, { userId, item: { kind: 'tier', tierId: t.id }, quantity: 1n, left: t.seats_left, asset: 'USDT', total: t.amount })
        // The guard is the statement: two buyers of the last seat (another process's among them) cannot both take it.
        if ((await tx.run(BUY.takeSeat, tierId)).changes !== 1) throw conflict('errors.nodeSoldOut')
        const orderId = await createPayOrderIn(ctx, tx, { userId, type: 'node', asset: 'USDT', total: t.amount, payWithinMs: ctx.config.orders.holds.holdMs })
        await tx.run(BUY.insert, {
          user: userId,
          tier: tierId,
          order: orderId,
          amount: t.amount,
          days: t.days,
          power: t.power,
          level: t.level_id,
          wr: t.withdraw_rate_ppm,
          mr: t.machine_rate_ppm,
          air: t.airdrop_multiplier,
          agent: t.advanced_agent,
          at: ctx.now(),
        })
        return orderId
      })
      return orders.detail(userId, lang, id)
    },

    async getOrder(userId: number, page: number, pageSize: number, tierId: number | undefined): Promise<PagedList<MyNode>> {
      const tier = tierId ?? null
      const total = Number((await ctx.sql.get(READS.mineCount, { user: userId, tier }))!.n)
      const rows = await ctx.sql.all(READS.mine, { user: userId, tier, limit: pageSize, offset: (page - 1) * pageSize })
      const today = dayOf(ctx.now())
      return { total, list: rows.map((r) => nodeWire(r, today)) }
    },
  }
}

/**
 * Runs inside the payment's transaction when an order is paid; acts only on a node's order. The
 * stake the payment put in the treasury moves to the buyer's fund account, frozen, and the grants
 * take effect.
 */
export async function fulfilNode(ctx: Pick<Ctx, 'sql'>, tx: Tx, orderId: number, paidAt: number): Promise<void> {
  const o = await tx.get(FULFIL.order, orderId)
  if (!o || o.type !== 'node' || o.state !== 'open') return
  const n = await tx.get(FULFIL.byOrder, orderId)
  if (!n || n.status !== 'pending') return
  await ledger.post(tx, {
    ref: `node:${n.id}:stake`,
    reason: 'node_stake',
    userId: n.user_id,
    moves: [{ from: ledger.TREASURY, to: ledger.fund(n.user_id), asset: 'USDT', amount: n.amount, toBucket: 'frozen' }],
    at: paidAt,
    meta: { node: n.id, order: o.id },
  })
  const { startDay, endDay } = termOf(dayOf(paidAt), Number(n.days))
  const position = (await tx.get(FULFIL.position, n.user_id, n.power, n.machine_rate_ppm, startDay, endDay, `node:${n.id}`, paidAt))!
  await tx.run(FULFIL.activate, position.id, startDay, endDay, paidAt, n.id)
  await tx.run(FULFIL.level, { level: n.level_id, user: n.user_id })
  await tx.run(FULFIL.done, paidAt, paidAt, o.id)
  // The node is held from now: it counts in every ancestor's team nodes until its stake comes back
  // (one walk up the tree with the performance).
  await addPerformanceIn(tx, ctx.sql, n.user_id, n.amount, (await tx.get(FULFIL.tierType, { tier: n.tier_id }))!.type)
}

/**
 * The two grants a node holds on the platform's fees (SPEC §1 "a share of withdraw fees" and "node
 * dividends"): each its own source, weight, records and money-record reason.
 */
export const NODE_GRANTS = {
  fee_share: {
    income: 'withdrawFees',
    weight: (h: Holder) => h.withdraw_rate_ppm,
    reason: 'node_fee_share',
    ref: 'node:fees',
    rows: { node: 'feeShareNode', day: 'feeShareDay', nodeTable: 'node_fee_shares', dayTable: 'node_fee_days' },
  },
  dividend: {
    income: 'tradeFees',
    weight: (h: Holder) => h.amount,
    reason: 'node_dividend',
    ref: 'node:dividend',
    rows: { node: 'dividendNode', day: 'dividendDay', nodeTable: 'node_dividends', dayTable: 'node_dividend_days' },
  },
} as const
export type NodeGrant = keyof typeof NODE_GRANTS
/**
 * A grant's pool of one day: poolPpm of the day's fees of its source, from the fees account, split
 * among the nodes held that day by the grant's weight, one posting per user and asset; the floors'
 * remainder to dust. Runs once per day (the settlement's day; the rows' keys and the refs back it).
 */
export async function splitNodeGrant(tx: Tx, grant: NodeGrant, poolPpm: bigint, day: number, at: number): Promise<void> {
  const g = NODE_GRANTS[grant]
  const holders = await tx.all(STEPS.holders, { day })
  if (holders.length === 0) return
  for (const { asset, fees } of await tx.all(STEPS[g.income], dayStart(day), dayStart(day + 1))) {
    // Never more than the fees account holds (an operator may have moved fees out meanwhile).
    const held = (await ledger.balance(tx, ledger.FEES, asset)).available
    const pool = feePool(fees < held ? fees : held, poolPpm)
    if (pool <= 0n) continue
    const { shares, dust } = splitFees(pool, holders.map(g.weight))
    const perUser = new Map<bigint, bigint>()
    for (const [i, h] of holders.entries()) {
      await tx.run(STEPS[g.rows.node], h.id, day, asset, shares[i]!)
      if (shares[i]! > 0n) perUser.set(h.user_id, (perUser.get(h.user_id) ?? 0n) + shares[i]!)
    }
    for (const [user, amount] of perUser) {
      await ledger.transfer(tx, { ref: `${g.ref}:${day}:${asset}:${user}`, reason: g.reason, userId: user, from: ledger.FEES, to: ledger.fund(user), asset, amount, at, meta: { day: new Date(dayStart(day)).toISOString().slice(0, 10) } })
    }
    if (dust > 0n) await ledger.transfer(tx, { ref: `${g.ref}:${day}:${asset}:dust`, reason: 'settlement_dust', userId: null, from: ledger.FEES, to: ledger.DUST, asset, amount: dust, at })
    await tx.run(STEPS[g.rows.day], day, asset, fees, pool, pool - dust, dust)
  }
}

export interface NodeGrantCheck {
  grant: NodeGrant
  day: number
  asset: string
  message: string
}

/** The grant postings' moves, a page of postings (refs in (after, last]) at a time: one per holder and day. */
const GRANT_PAGES = statements({
  last: statement<{ hi: string | null }, [{ after: string; to: string; size: number }]>(
    'SELECT MAX(ref) AS hi FROM (SELECT ref FROM ledger_postings WHERE ref > @after AND ref < @to ORDER BY ref LIMIT @size) page',
  ),
  // A posting's entries by their id range (003_ledger.sql: posting_id * 1024 + n), never by posting_id:
  // that has no index, and SQLite would scan every entry for each page.
  moves: statement<{ ref: string; holder: bigint; dust: bigint; delta: bigint }, [{ after: string; last: string; span: bigint }]>(
    `SELECT p.ref AS ref, a.user_id IS NOT NULL AS holder, a.user_id IS NULL AND a.kind = 'dust' AS dust, sum(e.delta) AS delta
     FROM ledger_postings p
     JOIN ledger_entries e ON e.id >= p.id * @span AND e.id < (p.id + 1) * @span
     JOIN ledger_accounts a ON a.id = e.account_id
     WHERE p.ref > @after AND p.ref <= @last GROUP BY p.id, p.ref, holder, dust`,
  ),
})

const GRANT_PAGE = 5_000

/**
 * The grants' own audit, per day and asset: paid + dust = pool, the nodes' rows sum to paid, and the
 * ledger moved exactly that to the holders and to dust. In one snapshot (q's own transaction when it is one).
 */
export function auditNodeGrants(q: Sql | Tx): Promise<NodeGrantCheck[]> {
  return inSnapshot(q, async (tx) => {
    const out: NodeGrantCheck[] = []
    for (const grant of Object.keys(NODE_GRANTS) as NodeGrant[]) {
      const { ref, rows: { dayTable: days, nodeTable: rows } } = NODE_GRANTS[grant]
      // Each source is read once and summed per day and asset here: a sum per day over the whole table
      // (and over the ledger's entries) grew with days² × nodes — 4.2 s for a year of 500 nodes, 0.1 s now.
      const key = (day: bigint | string, asset: string) => `${day}:${asset}`
      const rowsPaid = new Map(
        (await tx.all(statement<{ day: bigint; asset: string; paid: bigint }, []>(`SELECT day, asset, sum(amount) AS paid FROM ${rows} GROUP BY day, asset`))).map((r) => [key(r.day, r.asset), r.paid]),
      )
      const credited = new Map<string, bigint>()
      const dusted = new Map<string, bigint>()
      for (let after = `${ref}:`; ; ) {
        const last = (await tx.get(GRANT_PAGES.last, { after, to: `${ref};`, size: GRANT_PAGE }))?.hi ?? null
        if (last === null) break
        for (const m of await tx.all(GRANT_PAGES.moves, { after, last, span: ENTRY_ID_SPAN })) {
          // <ref>:<day>:<asset>:<user id | dust>
          const [day = '', asset = '', who] = m.ref.slice(ref.length + 1).split(':')
          const k = key(day, asset)
          if (m.holder === 1n) credited.set(k, (credited.get(k) ?? 0n) + m.delta)
          else if (m.dust === 1n && who === 'dust') dusted.set(k, (dusted.get(k) ?? 0n) + m.delta)
        }
        after = last
      }
      for (const d of await tx.all(statement<{ day: bigint; asset: string; pool: bigint; paid: bigint; dust: bigint }, []>(`SELECT day, asset, pool, paid, dust FROM ${days} ORDER BY day, asset`))) {
        const at = { grant, day: Number(d.day), asset: d.asset }
        const k = key(d.day, d.asset)
        const [rowsSum, creditedSum, dustedSum] = [rowsPaid.get(k) ?? 0n, credited.get(k) ?? 0n, dusted.get(k) ?? 0n]
        if (d.paid + d.dust !== d.pool) out.push({ ...at, message: `paid ${formatMoney(d.paid)} + dust ${formatMoney(d.dust)} ≠ pool ${formatMoney(d.pool)}` })
        if (rowsSum !== d.paid) out.push({ ...at, message: `the nodes' rows sum to ${formatMoney(rowsSum)}, the day recorded ${formatMoney(d.paid)} paid` })
        if (creditedSum !== d.paid) out.push({ ...at, message: `the ledger credited the holders ${formatMoney(creditedSum)}, the day recorded ${formatMoney(d.paid)} paid` })
        if (dustedSum !== d.dust) out.push({ ...at, message: `the ledger moved ${formatMoney(dustedSum)} to dust, the day recorded ${formatMoney(d.dust)}` })
      }
    }
    return out
  })
}

/**
 * Takes an active node's row until the caller's transaction ends; false when it is no longer active.
 * Whatever depends on the node's loans — a borrow's limit, the stake's return — takes it first and
 * reads the loans after, so each sees the loans of the other committed: on PostgreSQL a read of
 * another table made before the wait would not see them, even once the wait is over.
 */
export async function holdActiveNode(tx: Tx, nodeId: bigint | number): Promise<boolean> {
  return (await tx.run(STEPS.hold, nodeId)).changes === 1
}

/** Stakes whose term ended come back (unfrozen), unless a loan against the node is open. */
export async function returnStakes(tx: Tx, day: number, at: number): Promise<number> {
  let n = 0
  for (const r of await tx.all(STEPS.due, { day })) {
    // A borrow on an api process may have lent against it since `due` read the loans.
    if (!(await holdActiveNode(tx, r.id)) || (await tx.get(STEPS.loanOpen, r.id))) continue
    if ((await tx.run(STEPS.returned, at, r.id)).changes !== 1) continue
    await addTeamNodeIn(tx, r.user_id, r.type, -1)
    await ledger.unfreeze(tx, { ref: `node:${r.id}:return`, reason: 'node_stake_return', userId: r.user_id, account: ledger.fund(r.user_id), asset: 'USDT', amount: r.amount, at, meta: { node: r.id } })
    n++
  }
  return n
}

/** The node steps of every settled day: the fee grants first (the term's last day still shares), then the stakes. */
export function registerNodeSteps(ctx: Pick<Ctx, 'sql' | 'config'>): void {
  onSettle(ctx, { name: 'node-fees', run: (tx, day, at) => splitNodeGrant(tx, 'fee_share', ctx.config.node.feePoolPpm, day, at) })
  onSettle(ctx, { name: 'node-dividends', run: (tx, day, at) => splitNodeGrant(tx, 'dividend', ctx.config.node.dividendPoolPpm, day, at) })
  onSettle(ctx, {
    name: 'node-stakes',
    run: async (tx, day, at) => {
      await returnStakes(tx, day, at)
    },
  })
}

const ANY_TIER = statement<{ one: bigint }, []>('SELECT 1 AS one FROM node_tiers LIMIT 1')
const DEMO_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demoNodes.json')

/**
 * Demo mode only: the demo tiers and loan plans into empty tables, and the loans account funded with
 * USDT from chain custody (NADI_DEMO_LOAN_FUND) so demo users can borrow.
 */
export async function seedDemoNodes(ctx: Ctx): Promise<void> {
  const now = ctx.now()
  await ctx.sql.transaction(async (tx) => {
    if (!(await tx.get(ANY_TIER))) {
      await loadNodeFile(tx, checkNodeFile(JSON.parse(fs.readFileSync(DEMO_FILE, 'utf8'))), now)
    }
    const amount = ctx.config.node.demoLoanFund
    if (amount > 0n && !(await ledger.findPosting(tx, 'demo:loans:USDT'))) {
      await ledger.transfer(tx, { ref: 'demo:loans:USDT', reason: 'loan_fund', userId: null, from: ledger.custody('bsc'), to: ledger.LOANS, asset: 'USDT', amount, at: now })
    }
  })
}
