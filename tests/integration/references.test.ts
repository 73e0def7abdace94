// The references of the hot tables (035_hot_references): foreign keys on SQLite, checked once per
// statement on PostgreSQL. Either way a row naming a missing order, fill, account, posting or user is
// refused as a foreign key violation, with nothing of its statement kept; on PostgreSQL the rows
// referenced are also never deleted or renumbered, which a foreign key would have prevented.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openDatabase, type Database_ } from '../../server/db/index.ts'
import { constraintOf } from '../../server/db/errors.ts'
import { migrateDatabase } from '../../server/db/migrate.ts'
import { statement } from '../../server/db/query/types.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'

const onPg = testBackend() === 'postgres'
let dir: string
let pgDb: TestDatabase | null = null
let conn: Database_

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-refs-'))
  pgDb = onPg ? freshDatabase({ empty: true }) : null
  conn = openDatabase(pgDb?.url ?? path.join(dir, 'r.db'))
  await migrateDatabase(conn)
  const run = (text: string) => conn.sql.run(statement(text))
  await run("INSERT INTO users (id, code, name, created_at) VALUES (1, 'U1', 'one', 0)")
  await run("INSERT INTO ledger_accounts (id, user_id, kind, asset, available, frozen, created_at) VALUES (1, 1, 'trade', 'USDT', 0, 0, 0)")
  await run("INSERT INTO ledger_postings (id, ref, reason, user_id, meta, created_at) VALUES (1, 'p1', 'test', NULL, NULL, 0)")
  for (const id of [1, 2]) {
    await run(
      `INSERT INTO trade_orders (id, user_id, client_order_id, inst_id, side, type, price, size, quote_amount, filled, filled_quote, fee, fee_asset, frozen, status, created_at, updated_at)
       VALUES (${id}, 1, 'c${id}', 'NADI-USDT', 'buy', 'limit', 1, 1, NULL, 0, 0, 0, 'NADI', 0, 'pending', 0, 0)`,
    )
  }
  await run("INSERT INTO trade_fills (id, inst_id, maker_order_id, taker_order_id, taker_side, price, size, quote, created_at) VALUES (1, 'NADI-USDT', 1, 2, 'buy', 1, 1, 1, 0)")
})
afterEach(async () => {
  await conn.close()
  pgDb?.drop()
  fs.rmSync(dir, { recursive: true, force: true })
})

const count = async (table: string) => Number((await conn.sql.get(statement<{ n: bigint }>(`SELECT COUNT(*) AS n FROM ${table}`)))!.n)

/** The statement's refusal: what constraintOf makes of it, and its constraint's name where the backend gives one. */
async function refusal(text: string): Promise<{ kind: string | null; constraint?: string }> {
  try {
    await conn.sql.run(statement(text))
  } catch (e) {
    return { kind: constraintOf(e), ...(onPg ? { constraint: (e as { constraint?: string }).constraint } : {}) }
  }
  throw new Error(`not refused: ${text}`)
}

it('a row naming a missing posting, account, order, fill or user is refused as a foreign key violation, and nothing of its statement is kept', async () => {
  const cases: [table: string, text: string, constraint: string][] = [
    ['ledger_entries', "INSERT INTO ledger_entries (id, posting_id, account_id, user_id, bucket, delta) VALUES (1024, 1, 1, 1, 'available', 5), (2048, 2, 1, 1, 'available', 5)", 'ledger_entries_posting_id_fkey'],
    ['ledger_entries', "INSERT INTO ledger_entries (id, posting_id, account_id, user_id, bucket, delta) VALUES (1024, 1, 1, 1, 'available', 5), (1025, 1, 9, 1, 'frozen', 5)", 'ledger_entries_account_id_fkey'],
    ['trade_fills', "INSERT INTO trade_fills (id, inst_id, maker_order_id, taker_order_id, taker_side, price, size, quote, created_at) VALUES (2, 'NADI-USDT', 1, 2, 'buy', 1, 1, 1, 0), (3, 'NADI-USDT', 7, 2, 'buy', 1, 1, 1, 0)", 'trade_fills_maker_order_id_fkey'],
    ['trade_fills', "INSERT INTO trade_fills (id, inst_id, maker_order_id, taker_order_id, taker_side, price, size, quote, created_at) VALUES (2, 'NADI-USDT', 1, 8, 'buy', 1, 1, 1, 0)", 'trade_fills_taker_order_id_fkey'],
    ['trade_deals', "INSERT INTO trade_deals (fill_id, order_id, user_id, side, role, price, size, quote, fee, fee_asset, created_at) VALUES (9, 1, 1, 'buy', 'maker', 1, 1, 1, 0, 'NADI', 0)", 'trade_deals_fill_id_fkey'],
    ['trade_deals', "INSERT INTO trade_deals (fill_id, order_id, user_id, side, role, price, size, quote, fee, fee_asset, created_at) VALUES (1, 9, 1, 'buy', 'maker', 1, 1, 1, 0, 'NADI', 0)", 'trade_deals_order_id_fkey'],
    ['trade_deals', "INSERT INTO trade_deals (fill_id, order_id, user_id, side, role, price, size, quote, fee, fee_asset, created_at) VALUES (1, 1, 5, 'buy', 'maker', 1, 1, 1, 0, 'NADI', 0)", 'trade_deals_user_id_fkey'],
    [
      'trade_orders',
      "INSERT INTO trade_orders (id, user_id, client_order_id, inst_id, side, type, price, size, quote_amount, filled, filled_quote, fee, fee_asset, frozen, status, created_at, updated_at) VALUES (3, 4, 'c3', 'NADI-USDT', 'buy', 'limit', 1, 1, NULL, 0, 0, 0, 'NADI', 0, 'pending', 0, 0)",
      'trade_orders_user_id_fkey',
    ],
  ]
  for (const [table, text, constraint] of cases) {
    const before = await count(table)
    expect(await refusal(text), text).toEqual({ kind: 'foreignKey', ...(onPg ? { constraint } : {}) })
    expect(await count(table), text).toBe(before)
  }
  // What names rows that are there is taken.
  await conn.sql.run(statement("INSERT INTO trade_deals (fill_id, order_id, user_id, side, role, price, size, quote, fee, fee_asset, created_at) VALUES (1, 1, 1, 'buy', 'maker', 1, 1, 1, 0, 'NADI', 0), (1, 2, 1, 'sell', 'taker', 1, 1, 1, 0, 'USDT', 0)"))
  expect(await count('trade_deals')).toBe(2)
})

it.runIf(onPg)('on PostgreSQL the rows referenced are never deleted and their ids and owners never change', async () => {
  for (const text of [
    'DELETE FROM trade_orders WHERE id = 2',
    'DELETE FROM trade_fills',
    'DELETE FROM ledger_accounts WHERE id = 1',
    'TRUNCATE trade_orders, trade_fills, trade_deals',
    'TRUNCATE ledger_accounts, ledger_entries',
    'UPDATE trade_orders SET id = 5 WHERE id = 2',
    'UPDATE trade_orders SET user_id = 2 WHERE id = 2',
    'UPDATE trade_fills SET id = 4 WHERE id = 1',
    'UPDATE ledger_accounts SET id = 4 WHERE id = 1',
  ]) {
    // restrict_violation: what nadi_refuse raises, as for the ledger's append-only tables.
    await expect(conn.sql.run(statement(text)), text).rejects.toMatchObject({ code: '23001' })
  }
  // What the market and the ledger do to these rows is still taken.
  await conn.sql.run(statement("UPDATE trade_orders SET status = 'cancelled', updated_at = 1 WHERE id = 2"))
  await conn.sql.run(statement('UPDATE ledger_accounts SET available = available + 5 WHERE id = 1'))
  expect(await count('trade_orders')).toBe(2)
})
