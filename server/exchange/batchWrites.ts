// What a batch of the market's commands writes, gathered in memory while the commands run and written
// at the end with a fixed number of statements: one multi-row statement per table (journal, new
// orders, changed orders, fills, deals) for up to ROWS rows, whatever the number of commands. On
// PostgreSQL every statement is a round trip; written command by command, a batch of N commands cost
// O(N) of them (issue 34 §3).
//
// The rows are exactly those the commands would have written one after the other: an order placed and
// then filled or cancelled later in the same batch is inserted once as it ended; an existing order
// changed by several commands is updated once with the last command's state and the sum of their fees.

import type { Queryable } from '../db/query/types.ts'
import { listStatement, type ListType } from '../db/query/list.ts'
import type { OrderRow } from './statements.ts'

const ORDER_COLUMNS = 'id, user_id, client_order_id, inst_id, side, type, price, size, quote_amount, filled, filled_quote, fee, fee_asset, frozen, status, cancel_reason, created_at, updated_at'
const ORDER_TYPES: ListType[] = ['bigint', 'bigint', 'text', 'text', 'text', 'text', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'text', 'bigint', 'text', 'text', 'bigint', 'bigint']

/** Rows per statement: 18 parameters an order row, so 9,000 at most, far below SQLite's 32,766 and PostgreSQL's 65,535. */
export const ROWS = 500

/** How an order stands after the commands so far: what an UPDATE of an order the batch did not place sets. */
interface OrderChange {
  filled: bigint
  filledQuote: bigint
  /** Added to the stored fee (the fills of several commands add up). */
  feeDelta: bigint
  status: string
  cancelReason: string | null
  updatedAt: number
}

type FillRow = [id: number, instId: string, makerOrderId: number, takerOrderId: number, takerSide: string, price: bigint, size: bigint, quote: bigint, at: number]
type DealRow = [fillId: number, orderId: number, userId: number, side: string, role: string, price: bigint, size: bigint, quote: bigint, fee: bigint, feeAsset: string, at: number]

/** The ROWS-long slices of `all`, in order: one statement each. */
export function chunks<T>(all: readonly T[]): (readonly T[])[] {
  const out: (readonly T[])[] = []
  for (let from = 0; from < all.length; from += ROWS) out.push(all.slice(from, from + ROWS))
  return out
}

export class BatchWrites {
  private readonly journal: [instId: string, command: string, at: number][] = []
  /** Orders placed in this batch, as they stand now: inserted at the end. */
  private readonly placed = new Map<number, OrderRow>()
  /** Orders stored before this batch, whose rows were read for it (a cancel's, a repeated client id's): kept current for answers. */
  private readonly known = new Map<number, OrderRow>()
  private readonly changes = new Map<number, OrderChange>()
  private readonly byClientId = new Map<string, number>()
  private readonly fills: FillRow[] = []
  private readonly deals: DealRow[] = []

  /** Rows stored before the batch that its commands may answer with. */
  know(rows: Iterable<OrderRow>): void {
    for (const r of rows) {
      this.known.set(Number(r.id), { ...r })
      this.byClientId.set(clientKey(Number(r.user_id), r.client_order_id), Number(r.id))
    }
  }

  /** The order placed under this client id: in this batch, or stored and read for it. */
  orderByClientId(userId: number, clientOrderId: string): OrderRow | undefined {
    const id = this.byClientId.get(clientKey(userId, clientOrderId))
    return id === undefined ? undefined : this.order(id)
  }

  /** The order as the commands so far left it, when its whole row is known here. */
  order(id: number): OrderRow | undefined {
    const r = this.placed.get(id) ?? this.known.get(id)
    return r && { ...r }
  }

  /**
   * A stored row as this batch left it, for the batch after it that read the row before this one's
   * commit was visible: the whole row where this batch holds it, else its change applied (the fee
   * added to what the row held before this batch).
   */
  leftAs(row: OrderRow): OrderRow {
    const id = Number(row.id)
    const whole = this.order(id)
    if (whole) return whole
    const c = this.changes.get(id)
    return c ? { ...row, filled: c.filled, filled_quote: c.filledQuote, fee: row.fee + c.feeDelta, status: c.status, cancel_reason: c.cancelReason, updated_at: BigInt(c.updatedAt) } : row
  }

  /** The whole rows this batch holds that a later batch's reads name (by id, or by user and client id). */
  rowsNamed(ids: readonly number[], clientIds: readonly (readonly [userId: number, clientOrderId: string])[]): OrderRow[] {
    const out = new Map<number, OrderRow>()
    for (const id of ids) {
      const r = this.order(id)
      if (r) out.set(id, r)
    }
    for (const [userId, cid] of clientIds) {
      const r = this.orderByClientId(userId, cid)
      if (r) out.set(Number(r.id), r)
    }
    return [...out.values()]
  }

  /** An accepted command's journal row; its index among the batch's, which become its seq once written. */
  addJournal(instId: string, command: string, at: number): number {
    return this.journal.push([instId, command, at]) - 1
  }

  get journaled(): number {
    return this.journal.length
  }

  place(row: OrderRow): void {
    const id = Number(row.id)
    this.placed.set(id, row)
    this.byClientId.set(clientKey(Number(row.user_id), row.client_order_id), id)
  }

  /** An order's new state after a command (fees added to what it had). */
  change(id: number, filled: bigint, filledQuote: bigint, fee: bigint, status: string, cancelReason: string | null, at: number): void {
    const row = this.placed.get(id) ?? this.known.get(id)
    if (row) Object.assign(row, { filled, filled_quote: filledQuote, fee: row.fee + fee, status, cancel_reason: cancelReason, updated_at: BigInt(at) })
    if (this.placed.has(id)) return
    const prior = this.changes.get(id)
    this.changes.set(id, { filled, filledQuote, feeDelta: (prior?.feeDelta ?? 0n) + fee, status, cancelReason, updatedAt: at })
  }

  fill(...row: FillRow): void {
    this.fills.push(row)
  }

  deal(...row: DealRow): void {
    this.deals.push(row)
  }

  /**
   * Writes everything through the batch's tx, one statement per table and ROWS rows; the journal's
   * seqs in command order, and every order the batch touched as it now stands (for the pushes after
   * the commit, which then read none). Throws when a row cannot be written (the batch must then be
   * abandoned: nothing here is undone).
   */
  async write(tx: Queryable): Promise<{ seqs: bigint[]; orders: Map<number, OrderRow> }> {
    const orders = new Map(this.placed)
    // Every statement is sent before any answer is awaited: none reads what another writes, and on a
    // pipelined PostgreSQL connection they then cost one round trip together rather than one each.
    const journaled = chunks(this.journal).map((rows) =>
      tx.all(listStatement<{ seq: bigint }>('INSERT INTO exchange_journal (inst_id, command, created_at)', '(?, ?, ?)', ['text', 'text', 'bigint'], rows.length, ' RETURNING seq'), ...rows.flat()),
    )
    const writes: Promise<unknown>[] = []
    for (const rows of chunks([...this.placed.values()])) {
      const params: unknown[] = []
      for (const r of rows) {
        params.push(r.id, r.user_id, r.client_order_id, r.inst_id, r.side, r.type, r.price, r.size, r.quote_amount, r.filled, r.filled_quote, r.fee, r.fee_asset, r.frozen, r.status, r.cancel_reason, r.created_at, r.updated_at)
      }
      writes.push(tx.run(listStatement(`INSERT INTO trade_orders (${ORDER_COLUMNS})`, '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', ORDER_TYPES, rows.length), ...params))
    }
    const changes = chunks([...this.changes]).map(async (rows) => {
      const params: unknown[] = []
      for (const [id, c] of rows) params.push(id, c.filled, c.filledQuote, c.feeDelta, c.status, c.cancelReason, c.updatedAt)
      const changed = await tx.all(
        listStatement<OrderRow>(
          'UPDATE trade_orders SET filled = v.column2, filled_quote = v.column3, fee = fee + v.column4, status = v.column5, cancel_reason = v.column6, updated_at = v.column7 FROM (',
          '(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT))',
          ['bigint', 'bigint', 'bigint', 'bigint', 'text', 'text', 'bigint'],
          rows.length,
          `) AS v WHERE trade_orders.id = v.column1 RETURNING ${ORDER_COLUMNS}`,
        ),
        ...params,
      )
      if (changed.length !== rows.length) throw new Error(`exchange: ${rows.length} orders to update, ${changed.length} found`)
      return changed
    })
    for (const rows of chunks(this.fills)) {
      writes.push(
        tx.run(
          listStatement(
            'INSERT INTO trade_fills (id, inst_id, maker_order_id, taker_order_id, taker_side, price, size, quote, created_at)',
            '(?, ?, ?, ?, ?, ?, ?, ?, ?)',
            ['bigint', 'text', 'bigint', 'bigint', 'text', 'bigint', 'bigint', 'bigint', 'bigint'],
            rows.length,
          ),
          ...rows.flat(),
        ),
      )
    }
    for (const rows of chunks(this.deals)) {
      writes.push(
        tx.run(
          listStatement(
            'INSERT INTO trade_deals (fill_id, order_id, user_id, side, role, price, size, quote, fee, fee_asset, created_at)',
            '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
            ['bigint', 'bigint', 'bigint', 'text', 'text', 'bigint', 'bigint', 'bigint', 'bigint', 'text', 'bigint'],
            rows.length,
          ),
          ...rows.flat(),
        ),
      )
    }
    // allSettled first: a refusal must not leave the others' answers unawaited while the batch is abandoned.
    const [j, c, w] = await Promise.all([Promise.allSettled(journaled), Promise.allSettled(changes), Promise.allSettled(writes)])
    const failed = [...j, ...c, ...w].find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    const seqs: bigint[] = []
    // Both databases number a multi-row insert's rows in the order of its VALUES (SQLite's rowid,
    // PostgreSQL's identity, one after the other); RETURNING's own order is not promised, so sorted.
    for (const r of j) if (r.status === 'fulfilled') seqs.push(...r.value.map((x) => x.seq).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    if (seqs.length !== this.journal.length) throw new Error(`exchange: ${this.journal.length} journal rows written, ${seqs.length} numbered`)
    for (const r of c) if (r.status === 'fulfilled') for (const row of r.value) orders.set(Number(row.id), row)
    return { seqs, orders }
  }
}

const clientKey = (userId: number, clientOrderId: string) => `${userId}\n${clientOrderId}`

/**
 * What a batch's reads need to know of the batch before it when that one may not have committed yet
 * (PostgreSQL, batches overlapping: docs/processes.md): its transaction's id, asked of every read
 * statement against that statement's own snapshot, and what it left behind in memory.
 */
export interface Unseen {
  xid: string
  writes: BatchWrites
  /** Its net moves of trade accounts' available, by `${userId}:${asset}`. */
  availableMoved: ReadonlyMap<string, bigint>
}

/** PostgreSQL: whether the transaction `xid` had ended when this statement's snapshot was taken. */
const SEEN = 'pg_visible_in_snapshot(CAST(CAST(? AS TEXT) AS xid8), pg_current_snapshot())'

/**
 * The stored rows a batch's commands may answer with, read in two statements: the orders its cancels
 * name, and those its places' client ids already name (a repeated request answers its first order).
 * With `unseen`, each row is as the batch before left it: where a statement did not see that batch's
 * commit, its rows and changes are laid over what the statement read.
 */
export async function readKnownOrders(
  tx: Queryable,
  ids: readonly number[],
  clientIds: readonly (readonly [userId: number, clientOrderId: string])[],
  unseen?: Unseen,
): Promise<OrderRow[]> {
  type Seen = OrderRow & { seen?: boolean }
  const x = unseen ? [unseen.xid] : []
  const flag = unseen ? `, ${SEEN}` : ''
  const read: Seen[] = []
  const uniqueIds = [...new Set(ids)]
  for (const rows of chunks(uniqueIds)) {
    read.push(
      ...(await tx.all(
        listStatement<Seen>(`SELECT o.*${unseen ? ', v.column2 AS seen' : ''} FROM (`, `(CAST(? AS BIGINT)${flag})`, unseen ? ['bigint', 'text'] : ['bigint'], rows.length, ') AS v JOIN trade_orders o ON o.id = v.column1'),
        ...rows.flatMap((id) => [id, ...x]),
      )),
    )
  }
  for (const rows of chunks(clientIds)) {
    read.push(
      ...(await tx.all(
        listStatement<Seen>(
          `SELECT o.*${unseen ? ', v.column3 AS seen' : ''} FROM (`,
          `(CAST(? AS BIGINT), CAST(? AS TEXT)${flag})`,
          unseen ? ['bigint', 'text', 'text'] : ['bigint', 'text'],
          rows.length,
          ') AS v JOIN trade_orders o ON o.user_id = v.column1 AND o.client_order_id = v.column2',
        ),
        ...rows.flatMap((r) => [...r, ...x]),
      )),
    )
  }
  if (!unseen) return read
  const out = new Map<number, OrderRow>()
  for (const { seen, ...row } of read) out.set(Number(row.id), seen ? row : unseen.writes.leftAs(row))
  // Rows the batch before placed are not stored for a statement that did not see its commit; one that
  // saw it read them as that batch left them, so laying them over is right either way.
  for (const r of unseen.writes.rowsNamed(uniqueIds, clientIds)) out.set(Number(r.id), r)
  return [...out.values()]
}

/**
 * The available balance of each (user, asset) trade account, read in one statement per ROWS accounts;
 * those without an account hold 0. With `unseen`, what the batch before moved is added where a
 * statement did not see its commit (an account it created is absent then, and holds only its moves).
 */
export async function readTradeAvailable(tx: Queryable, accounts: readonly (readonly [userId: number, asset: string])[], unseen?: Unseen): Promise<Map<string, bigint>> {
  const moved = (key: string) => unseen?.availableMoved.get(key) ?? 0n
  const out = new Map<string, bigint>(accounts.map(([userId, asset]) => [`${userId}:${asset}`, moved(`${userId}:${asset}`)]))
  for (const rows of chunks(accounts)) {
    const got = await tx.all(
      listStatement<{ user_id: bigint; asset: string; available: bigint; seen?: boolean }>(
        `SELECT a.user_id, a.asset, a.available${unseen ? ', v.column3 AS seen' : ''} FROM (`,
        `(CAST(? AS BIGINT), CAST(? AS TEXT)${unseen ? `, ${SEEN}` : ''})`,
        unseen ? ['bigint', 'text', 'text'] : ['bigint', 'text'],
        rows.length,
        ") AS v JOIN ledger_accounts a ON a.user_id = v.column1 AND a.kind = 'trade' AND a.asset = v.column2",
      ),
      ...(unseen ? rows.flatMap((r) => [...r, unseen.xid]) : rows.flat()),
    )
    for (const r of got) {
      const key = `${r.user_id}:${r.asset}`
      out.set(key, r.available + (unseen && !r.seen ? moved(key) : 0n))
    }
  }
  return out
}

export interface TradeBalanceRow {
  user_id: bigint
  asset: string
  available: bigint
  frozen: bigint
}

/** The trade accounts of these users, one statement per ROWS users: what user@balance pushes. */
export async function readTradeBalances(sql: Queryable, userIds: readonly number[]): Promise<TradeBalanceRow[]> {
  const out: TradeBalanceRow[] = []
  for (const rows of chunks(userIds)) {
    out.push(
      ...(await sql.all(
        listStatement<TradeBalanceRow>(
          'SELECT a.user_id, a.asset, a.available, a.frozen FROM (',
          '(CAST(? AS BIGINT))',
          ['bigint'],
          rows.length,
          ") AS v JOIN ledger_accounts a ON a.user_id = v.column1 AND a.kind = 'trade'",
        ),
        ...rows,
      )),
    )
  }
  return out
}
