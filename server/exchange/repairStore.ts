// The database side of a market repair (./repair.ts decides): what the operator's `market check`
// reports, and the writes of `market repair`. Run inside the caller's transaction (`tx`): the
// market's writer's own, so no batch of its commits between the reads or among the writes.

import { formatMoney } from '../../contract/money.ts'
import { statement, statements, type Queryable, type Tx } from '../db/query/types.ts'
import * as ledger from '../ledger/index.ts'
import type { MarketSpec } from './engine/index.ts'
import { MarketFault, replayJournal } from './journal.ts'
import { accountKey, holdOf, planRepair, type Asset, type OpenOrder, type RepairPlan } from './repair.ts'

export interface Diagnosis {
  instId: string
  journal: { rows: number; head: number | null; snapshotSeq: number | null }
  /** Whether the journal replays from the newest snapshot, and if not, where it stops. */
  replay: { ok: true; lastSeq: number; open: number } | { ok: false; seq: number | null; command: string | null; message: string }
  /** Open orders as the database holds them. */
  openOrders: number
  /** Orders the replayed book and the database disagree on (open in one, not the other, or filled differently). */
  ordersOff: number[]
  /** Trade accounts whose ledger frozen differs from what their open orders hold. */
  accountsOff: { userId: number; asset: Asset; frozen: bigint; held: bigint }[]
  /** What `market repair` would do now. */
  plan: RepairPlan
  /** Nothing to repair: the journal replays into exactly the open orders, and the ledger agrees. */
  healthy: boolean
}

interface OrderDbRow {
  id: bigint
  user_id: bigint
  side: 'buy' | 'sell'
  type: 'limit' | 'market'
  price: bigint | null
  size: bigint | null
  filled: bigint
  filled_quote: bigint
  frozen: bigint
  created_at: bigint
}

const REPAIR = statements({
  openOrders: statement<OrderDbRow, [instId: string]>(
    "SELECT id, user_id, side, type, price, size, filled, filled_quote, frozen, created_at FROM trade_orders WHERE inst_id = ? AND status IN ('pending', 'partially_filled') ORDER BY id",
  ),
  frozenTrade: statement<{ user_id: bigint; asset: string; frozen: bigint }, []>("SELECT user_id, asset, frozen FROM ledger_accounts WHERE kind = 'trade' AND frozen <> 0"),
  maxOrderId: statement<{ id: bigint | null }, []>('SELECT MAX(id) AS id FROM trade_orders'),
  journalHead: statement<{ n: bigint; head: bigint | null }, [instId: string]>('SELECT COUNT(*) AS n, MAX(seq) AS head FROM exchange_journal WHERE inst_id = ?'),
  snapshotSeq: statement<{ seq: bigint | null }, [instId: string]>('SELECT MAX(seq) AS seq FROM exchange_snapshots WHERE inst_id = ?'),
  head: statement<{ seq: bigint | null }, []>('SELECT MAX(seq) AS seq FROM exchange_journal'),
  insertRepair: statement<{ id: bigint }, [instId: string, journalSeq: bigint, fault: string | null, report: string, at: number]>(
    'INSERT INTO exchange_repairs (inst_id, journal_seq, fault, report, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
  ),
  cancel: statement<never, [at: number, id: number]>("UPDATE trade_orders SET status = 'cancelled', cancel_reason = 'repair', updated_at = ? WHERE id = ? AND status IN ('pending', 'partially_filled')"),
  snapshot: statement<never, [seq: bigint, instId: string, body: string, at: number]>(
    'INSERT INTO exchange_snapshots (seq, inst_id, body, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (seq) DO UPDATE SET inst_id = excluded.inst_id, body = excluded.body, created_at = excluded.created_at',
  ),
})

/** The open orders of the market, the ledger's frozen per trade account, and the largest order id. */
export async function readRepairInputs(q: Queryable, spec: MarketSpec): Promise<{ orders: OpenOrder[]; frozen: Map<string, bigint>; lastOrderId: number }> {
  const rows = await q.all(REPAIR.openOrders, spec.instId)
  const orders = rows.map((r) => ({
    id: Number(r.id),
    userId: Number(r.user_id),
    side: r.side,
    type: r.type,
    price: r.price,
    size: r.size,
    filled: r.filled,
    filledQuote: r.filled_quote,
    frozen: r.frozen,
    createdAt: Number(r.created_at),
  }))
  const frozen = new Map<string, bigint>()
  for (const a of await q.all(REPAIR.frozenTrade)) if (a.asset === 'USDT' || a.asset === 'NADI') frozen.set(accountKey(Number(a.user_id), a.asset), a.frozen)
  const maxId = (await q.get(REPAIR.maxOrderId))?.id
  return { orders, frozen, lastOrderId: Number(maxId ?? 0n) }
}

/** `q`: a transaction, so that no commit lands between its reads. */
export async function diagnose(q: Tx, spec: MarketSpec): Promise<Diagnosis> {
  const j = (await q.get(REPAIR.journalHead, spec.instId)) ?? { n: 0n, head: null }
  const snap = (await q.get(REPAIR.snapshotSeq, spec.instId)) ?? { seq: null }
  const inputs = await readRepairInputs(q, spec)
  let replay: Diagnosis['replay']
  const ordersOff: number[] = []
  try {
    const r = await replayJournal(q, spec)
    const db = new Map(inputs.orders.map((o) => [o.id, o]))
    for (const o of r.engine.openOrders()) {
      const row = db.get(o.id)
      if (!row || row.filled !== BigInt(o.filledLots) * spec.sizeStep) ordersOff.push(o.id)
      db.delete(o.id)
    }
    ordersOff.push(...db.keys())
    replay = { ok: true, lastSeq: Number(r.lastSeq), open: r.engine.openCount }
  } catch (e) {
    if (!(e instanceof MarketFault)) throw e
    replay = { ok: false, seq: e.journalSeq === null ? null : Number(e.journalSeq), command: e.command, message: e.message }
  }
  const held = new Map<string, bigint>()
  for (const o of inputs.orders) {
    const h = holdOf(o)
    const k = accountKey(o.userId, h.asset)
    held.set(k, (held.get(k) ?? 0n) + h.amount)
  }
  const accountsOff: Diagnosis['accountsOff'] = []
  for (const k of new Set([...held.keys(), ...inputs.frozen.keys()])) {
    const f = inputs.frozen.get(k) ?? 0n
    const h = held.get(k) ?? 0n
    if (f !== h) {
      const [user, asset] = k.split(':') as [string, Asset]
      accountsOff.push({ userId: Number(user), asset, frozen: f, held: h })
    }
  }
  accountsOff.sort((a, b) => a.userId - b.userId || a.asset.localeCompare(b.asset))
  const plan = planRepair(spec, inputs.orders, inputs.frozen, inputs.lastOrderId)
  const healthy = replay.ok && ordersOff.length === 0 && accountsOff.length === 0 && plan.cancel.length === 0 && plan.release.length === 0
  return {
    instId: spec.instId,
    journal: { rows: Number(j.n), head: j.head === null ? null : Number(j.head), snapshotSeq: snap.seq === null ? null : Number(snap.seq) },
    replay,
    openOrders: inputs.orders.length,
    ordersOff: ordersOff.sort((a, b) => a - b),
    accountsOff,
    plan,
    healthy,
  }
}

export interface RepairRecord {
  repairId: number
  /** The journal row the repaired book stands at. */
  journalSeq: number
  plan: RepairPlan
}

/**
 * Writes a planned repair, inside the caller's transaction: the orders it cancels, each release as a
 * ledger posting (frozen → available of the user's own trade account), the repaired book as the
 * newest snapshot at the journal's head (a start replays only what comes after it), and the record.
 */
export async function applyRepair(tx: Tx, spec: MarketSpec, plan: RepairPlan, fault: string | null, now: number): Promise<RepairRecord> {
  const head = (await tx.get(REPAIR.head))?.seq ?? 0n
  const report = {
    kept: plan.keep.map((o) => o.id),
    cancelled: plan.cancel.map((c) => ({ id: c.order.id, user: c.order.userId, why: c.why, released: formatMoney(holdOf(c.order).amount), asset: holdOf(c.order).asset })),
    released: plan.release.map((r) => ({ user: r.userId, asset: r.asset, amount: formatMoney(r.amount) })),
  }
  const inserted = await tx.get(REPAIR.insertRepair, spec.instId, head, fault, JSON.stringify(report), now)
  if (!inserted) throw new Error('market repair: the repair record was not written')
  const repairId = Number(inserted.id)
  for (const c of plan.cancel) {
    if ((await tx.run(REPAIR.cancel, now, c.order.id)).changes !== 1) throw new Error(`market repair: order ${c.order.id} is no longer open`)
  }
  for (const r of plan.release) {
    await ledger.unfreeze(tx, {
      ref: `trade-repair:${repairId}:${r.userId}:${r.asset}`,
      reason: 'trade_repair',
      account: ledger.trade(r.userId),
      asset: r.asset,
      amount: r.amount,
      at: now,
      meta: { repair: String(repairId) },
    })
  }
  await tx.run(REPAIR.snapshot, head, spec.instId, JSON.stringify(plan.snapshot), now)
  return { repairId, journalSeq: Number(head), plan }
}

const WHY: Record<string, string> = {
  not_restable: 'cannot rest in a book',
  crossed: 'crosses an older resting order',
  underfunded: 'the ledger has not frozen what it holds',
}

/** The operator's report of a diagnosis. */
export function formatDiagnosis(d: Diagnosis): string {
  const lines = [`market ${d.instId}: ${d.healthy ? 'healthy' : 'NEEDS REPAIR'}`]
  lines.push(`  journal: ${d.journal.rows} rows, head ${d.journal.head ?? '-'}, newest snapshot at ${d.journal.snapshotSeq ?? '- (none)'}`)
  if (d.replay.ok) lines.push(`  replay: ok up to row ${d.replay.lastSeq}, ${d.replay.open} open orders in the replayed book`)
  else lines.push(`  replay: FAILS at journal row ${d.replay.seq ?? '-'}: ${d.replay.message}`)
  lines.push(`  open orders in the database: ${d.openOrders}`)
  if (d.ordersOff.length) lines.push(`  orders the replayed book and the database disagree on: ${d.ordersOff.join(', ')}`)
  for (const a of d.accountsOff) lines.push(`  user ${a.userId} trade ${a.asset}: ledger frozen ${formatMoney(a.frozen)}, open orders hold ${formatMoney(a.held)}`)
  lines.push(...formatPlan(d.plan, d.healthy ? 'a repair would change nothing' : 'a repair would'))
  return lines.join('\n')
}

export function formatPlan(plan: RepairPlan, heading: string): string[] {
  const lines = [`  ${heading}:`]
  lines.push(`    keep ${plan.keep.length} open orders as the book (time priority by order id)`)
  for (const c of plan.cancel) {
    const h = holdOf(c.order)
    lines.push(`    cancel order ${c.order.id} of user ${c.order.userId} (${c.order.side} ${c.order.type}, holds ${formatMoney(h.amount)} ${h.asset}): ${WHY[c.why]}`)
  }
  for (const r of plan.release) lines.push(`    release ${formatMoney(r.amount)} ${r.asset} of user ${r.userId}: frozen in the ledger, held by no remaining order`)
  return lines
}
