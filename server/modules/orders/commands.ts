// The operator's view of orders (server/cli.ts): `orders list` shows the holds — open unpaid orders of
// stock or seats, what each holds and until when, and per item how much is held beside what is left —
// or the orders of one status or user; `orders show` one order whole. Read only. An order is named by
// its id or by the order number its user sees (README "Holds").
import { statement, statements, type Queryable } from '../../db/query/types.ts'
import { formatMoney } from '../../../contract/money.ts'
import { PayOrderStatus } from '../../../contract/orders.ts'
import type { Command, CommandEnv } from '../../commands/registry.ts'
import { pickText } from '../goods/rules.ts'
import { HOLD_TYPES } from './holds.ts'
import { STATUS_SQL, orderRef } from './service.ts'

const ID_RE = /^[1-9][0-9]{0,15}$/
/** What an operator may type for an order: its id, or its order number (digits). */
export const ORDER_ARG_RE = /^[0-9]{1,32}$/
const LIMIT_DEFAULT = 100
const PAY_ORDER_STATUSES = PayOrderStatus.anyOf.map((s) => s.const)
const TYPES = HOLD_TYPES.map((t) => `'${t}'`).join(', ')

const FIND = statements({
  byNo: statement<{ id: bigint }, [orderNo: string]>('SELECT id FROM pay_orders WHERE order_no = ?'),
  byId: statement<{ id: bigint }, [id: number]>('SELECT id FROM pay_orders WHERE id = ?'),
})

/** The order named by the order number users see, else by its id; null when there is none. */
export async function findOrderId(q: Queryable, text: string): Promise<number | null> {
  const byNo = await q.get(FIND.byNo, text)
  if (byNo) return Number(byNo.id)
  if (!ID_RE.test(text)) return null
  return (await q.get(FIND.byId, Number(text))) ? Number(text) : null
}

interface OrderRow {
  id: bigint
  order_no: string
  user_id: bigint
  type: string
  asset: string
  total: bigint
  state: string
  status: PayOrderStatus
  created_at: bigint
  expires_at: bigint
  ended_at: bigint | null
  paid_at: bigint | null
  fulfilment: string | null
  ship_to: string | null
  remark: string | null
  express_company: string | null
  express_no: string | null
  shipped_at: bigint | null
  received_at: bigint | null
}

type Filter = { holds: true } | { holds: false; status: PayOrderStatus | null }

interface ListArgs {
  filter: Filter
  user: number | null
  limit: number
  json: boolean
}

/** `[--status holds|all|<status>] [--user <id>] [--limit N] [--json]`; a string says what is wrong. */
export function parseListArgs(args: readonly string[]): ListArgs | string {
  const out: ListArgs = { filter: { holds: true }, user: null, limit: LIMIT_DEFAULT, json: false }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    const v = args[i + 1]
    if (a === '--json') out.json = true
    else if (a === '--status') {
      if (v === 'holds') out.filter = { holds: true }
      else if (v === 'all') out.filter = { holds: false, status: null }
      else if ((PAY_ORDER_STATUSES as readonly string[]).includes(v ?? '')) out.filter = { holds: false, status: v as PayOrderStatus }
      else return `--status takes holds, all or ${PAY_ORDER_STATUSES.join(', ')}`
      i++
    } else if (a === '--user') {
      if (!v || !ID_RE.test(v)) return '--user takes a user id'
      out.user = Number(v)
      i++
    } else if (a === '--limit') {
      if (!v || !/^[1-9][0-9]{0,4}$/.test(v)) return '--limit takes 1…99999'
      out.limit = Number(v)
      i++
    } else return `unexpected ${a}`
  }
  return out
}

const SELECT = `SELECT o.*, ${STATUS_SQL} AS status FROM pay_orders o`
const iso = (ms: bigint | number | null) => (ms === null ? '-' : new Date(Number(ms)).toISOString())

type Held = { held: bigint; users: bigint; left_: bigint }
const READ = statements({
  lines: statement<{ product_id: bigint; spec_id: bigint; quantity: bigint; name: string; spec_name: string }, [orderId: bigint]>(
    'SELECT product_id, spec_id, quantity, name, spec_name FROM order_lines WHERE order_id = ? ORDER BY id',
  ),
  node: statement<{ tier_id: bigint; status: string; type: string }, [orderId: bigint]>(
    'SELECT n.tier_id, n.status, t.type FROM node_orders n JOIN node_tiers t ON t.id = n.tier_id WHERE n.order_id = ?',
  ),
  heldSpecs: statement<Held & { spec_id: bigint; name: string; spec_name: string }, [{ user: number | null }]>(
    `SELECT l.spec_id, min(l.name) AS name, min(l.spec_name) AS spec_name, sum(l.quantity) AS held, count(DISTINCT o.user_id) AS users, s.stock AS left_
     FROM pay_orders o JOIN order_lines l ON l.order_id = o.id JOIN product_specs s ON s.id = l.spec_id
     WHERE o.state = 'open' AND o.paid_at IS NULL AND (CAST(@user AS BIGINT) IS NULL OR o.user_id = @user) GROUP BY l.spec_id, s.stock ORDER BY l.spec_id`,
  ),
  heldTiers: statement<Held & { tier_id: bigint; type: string; total: bigint }, [{ user: number | null }]>(
    `SELECT n.tier_id, t.type, count(*) AS held, count(DISTINCT o.user_id) AS users, t.seats_left AS left_, t.seats_total AS total
     FROM pay_orders o JOIN node_orders n ON n.order_id = o.id JOIN node_tiers t ON t.id = n.tier_id
     WHERE o.state = 'open' AND o.paid_at IS NULL AND (CAST(@user AS BIGINT) IS NULL OR o.user_id = @user) GROUP BY n.tier_id, t.type, t.seats_left, t.seats_total ORDER BY n.tier_id`,
  ),
  order: statement<OrderRow, [id: number]>(`${SELECT} WHERE o.id = ?`),
  wallet: statement<{ wallet_address: string | null }, [userId: bigint]>('SELECT wallet_address FROM users WHERE id = ?'),
  payments: statement<
    { id: bigint; method: string; status: string; chain: string | null; tx_hash: string | null; confirmations: bigint; required: bigint; fail_reason: string | null; created_at: bigint; paid_at: bigint | null },
    [ref: string]
  >('SELECT id, method, status, chain, tx_hash, confirmations, required, fail_reason, created_at, paid_at FROM payments WHERE order_ref = ? ORDER BY id'),
})

/** What an order holds: its lines (units of a specification) or a node seat. */
async function holding(q: Queryable, o: OrderRow): Promise<string> {
  const lines = await q.all(READ.lines, o.id)
  if (lines.length) return lines.map((l) => `${l.quantity} × ${pickText(l.name, 'EN')} ${pickText(l.spec_name, 'EN')} (product ${l.product_id}, spec ${l.spec_id})`).join('; ')
  const node = await q.get(READ.node, o.id)
  return node ? `1 seat of ${node.type} (tier ${node.tier_id}, node ${node.status})` : '-'
}

function expiry(o: OrderRow, now: number): string {
  if (o.state !== 'open' || o.paid_at !== null) return ''
  const left = Number(o.expires_at) - now
  const when = left > 0 ? `in ${Math.ceil(left / 60_000)} min` : o.status === 'processing' ? 'past, a chain payment confirms' : 'past, the expiry job cancels it'
  return `expires ${iso(o.expires_at)} (${when})`
}

async function listOrders(args: string[], env: CommandEnv): Promise<number> {
  const parsed = parseListArgs(args)
  if (typeof parsed === 'string') {
    env.io.err(`orders list: ${parsed}\nusage: orders list [--status holds|all|<status>] [--user <id>] [--limit N] [--json]`)
    return 2
  }
  const { sql } = env.database()
  const { filter, user, limit } = parsed
  const where = filter.holds ? [`o.type IN (${TYPES})`, "o.state = 'open'", 'o.paid_at IS NULL'] : filter.status ? [`${STATUS_SQL} = @status`] : []
  if (user !== null) where.push('o.user_id = @user')
  const order = filter.holds ? 'o.expires_at, o.id' : 'o.id DESC'
  // The filter's shape picks the text; its values are bound.
  const list = statement<OrderRow, [{ status: PayOrderStatus | null; user: number | null; limit: number }]>(`${SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT @limit`)
  const rows = await sql.all(list, { status: filter.holds ? null : filter.status, user, limit })
  const now = Date.now()
  const withHolding: (OrderRow & { holds: string })[] = []
  for (const o of rows) withHolding.push({ ...o, holds: await holding(sql, o) })
  if (parsed.json) {
    env.io.out(JSON.stringify(withHolding, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2))
    return 0
  }
  const what = filter.holds ? 'holds (open unpaid orders of stock or seats)' : `orders${filter.status ? ` ${filter.status}` : ''}`
  if (rows.length === 0) {
    env.io.out(`no ${what}${user !== null ? ` of user ${user}` : ''}`)
    return 0
  }
  env.io.out(`${rows.length} ${what}${user !== null ? ` of user ${user}` : ''}${rows.length === limit ? ` (the first ${limit}; --limit for more)` : ''}`)
  for (const o of withHolding) {
    env.io.out([`#${o.id}`, o.order_no, o.type, `user ${o.user_id}`, `${formatMoney(o.total)} ${o.asset}`, o.status, o.holds, expiry(o, now)].filter(Boolean).join('  '))
  }
  if (filter.holds) for (const line of await heldPerItem(sql, user)) env.io.out(line)
  return 0
}

/** Per specification and tier with holds: units held unpaid beside what is left, so hoarding shows. */
async function heldPerItem(q: Queryable, user: number | null): Promise<string[]> {
  const specs = await q.all(READ.heldSpecs, { user })
  const tiers = await q.all(READ.heldTiers, { user })
  return [
    'held per item:',
    ...specs.map((r) => `  spec ${r.spec_id} ${pickText(r.name, 'EN')} ${pickText(r.spec_name, 'EN')}: ${r.held} held unpaid by ${r.users} users, ${r.left_} left`),
    ...tiers.map((r) => `  tier ${r.tier_id} ${r.type}: ${r.held} seats held unpaid by ${r.users} users, ${r.left_} of ${r.total} left`),
  ]
}

async function showOrder(args: string[], env: CommandEnv): Promise<number> {
  const asJson = args.includes('--json')
  const rest = args.filter((a) => a !== '--json')
  if (rest.length !== 1 || !ORDER_ARG_RE.test(rest[0]!)) {
    env.io.err('usage: orders show <order id | order number> [--json]')
    return 2
  }
  const { sql } = env.database()
  const id = await findOrderId(sql, rest[0]!)
  if (id === null) {
    env.io.err(`orders show: no order ${rest[0]}`)
    return 1
  }
  const o = (await sql.get(READ.order, id))!
  const user = (await sql.get(READ.wallet, o.user_id))!
  const payments = await sql.all(READ.payments, orderRef(o.id))
  const holds = await holding(sql, o)
  if (asJson) {
    env.io.out(JSON.stringify({ ...o, wallet_address: user.wallet_address, holds, payments }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2))
    return 0
  }
  const lines = [
    `order #${o.id}  ${o.order_no}  ${o.type}  ${formatMoney(o.total)} ${o.asset}  ${o.status}`,
    `  user       ${o.user_id} (${user.wallet_address ?? 'no wallet'})`,
    `  for        ${holds}`,
    `  created    ${iso(o.created_at)}`,
    o.state === 'open' && o.paid_at === null ? `  unpaid     ${expiry(o, Date.now())}` : `  ended      ${o.paid_at !== null ? `paid ${iso(o.paid_at)}` : `${o.state} ${iso(o.ended_at)}`}`,
  ]
  for (const p of payments) {
    const chain = p.method === 'chain' ? ` on ${p.chain} tx ${p.tx_hash} (${p.confirmations}/${p.required} confirmations)` : ''
    lines.push(`  payment    #${p.id} ${p.method} ${p.status}${p.fail_reason ? ` (${p.fail_reason})` : ''}${chain} ${iso(p.created_at)}`)
  }
  if (o.fulfilment) lines.push(`  fulfilment ${o.fulfilment}${o.express_no ? `  ${o.express_company} ${o.express_no} shipped ${iso(o.shipped_at)}` : ''}${o.received_at !== null ? `  received ${iso(o.received_at)}` : ''}`)
  if (o.ship_to) {
    const a = JSON.parse(o.ship_to) as { name: string; phone: string; area: string; address: string }
    lines.push(`  ship to    ${a.name}, ${a.phone}, ${a.area} ${a.address}`)
  }
  if (o.remark) lines.push(`  remark     ${o.remark}`)
  env.io.out(lines.join('\n'))
  return 0
}

export const ORDERS_COMMANDS: Command[] = [
  {
    words: ['orders', 'list'],
    args: '[--status holds|all|<s>] [--user <id>] [--limit N] [--json]',
    summary: 'orders: by default the holds (open unpaid orders of stock or seats) — what each holds, until when, and per item how much is held beside what is left; or those of a status or a user',
    run: (args, env) => listOrders(args, env),
  },
  {
    words: ['orders', 'show'],
    args: '<order id | order number> [--json]',
    summary: 'one order whole: its user, what it is for, its payments, its fulfilment and delivery address',
    run: (args, env) => showOrder(args, env),
  },
]
