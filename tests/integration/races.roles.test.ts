// Money races across two api processes on one PostgreSQL database (issue 34 §2): requests alternate
// between them, so nothing one process's event loop orders can hold the line — only the database's
// conditional updates, row locks and unique keys. Never double spent, the audit clean, and a race the
// database refuses answered like any refusal (a 4xx in the user's language), never a 500.

import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import { formatMoney } from '../../contract/money.ts'
import { openDatabase } from '../../server/db/index.ts'
import { LOANS, audit, balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { translate } from '../../server/i18n.ts'
import { createPayOrder } from '../../server/modules/orders/service.ts'
import { returnStakes } from '../../server/modules/node/service.ts'
import { pgBinDir } from '../../server/db/pg/cluster.ts'
import type { Ctx } from '../../server/context.ts'
import '../../server/ledger/holders.ts'
import { localeText } from './support/server.ts'
import { rolesOnPostgres, signInHttp, type Child, type RolesOnPostgres } from './support/child.ts'
import { testBackend, type TestDatabase } from '../support/pg.ts'
import { statement, type Sql } from '../../server/db/query/types.ts'

const CODE = 'RACE0001'
const UNIT = 100_000_000n
const on = testBackend() === 'postgres'
let roles: RolesOnPostgres | undefined
let db: TestDatabase
let apis: Child[] = []

beforeAll(async () => {
  if (!on) return
  roles = await rolesOnPostgres('races', CODE, 2)
  ;({ db, apis } = roles)
}, 120_000)

afterAll(() => roles?.stop())

/** One user, signed in through the first api process, with `amount` in the fund account. */
async function funded(asset: 'USDT' | 'NADI', amount: bigint): Promise<{ token: string; userId: number }> {
  const wallet = Wallet.createRandom()
  const token = await signInHttp(apis[0]!.base, wallet, CODE)
  const conn = openDatabase(db.url)
  try {
    const userId = Number((await conn.sql.get(statement<{ id: bigint }>('SELECT id FROM users WHERE wallet_address = ?'), wallet.address.toLowerCase()))?.id)
    await transfer(conn.sql, { ref: `race:${userId}:${asset}`, reason: 'deposit', from: custody(asset === 'USDT' ? 'bsc' : 'nadi'), to: fund(userId), asset, amount })
    return { token, userId }
  } finally {
    await conn.close()
  }
}

/** One keyed POST, in English, to api process `i % 2`: its HTTP status and envelope. */
async function post<T = unknown>(i: number, pathName: string, token: string, body: unknown) {
  const res = await fetch(`${apis[i % 2]!.base}/api/v1/${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID(), lang: 'EN' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as ApiEnvelope<T> }
}

/** `n` keyed POSTs at once, alternating between the two api processes: each answer's HTTP status and envelope. */
async function burst(n: number, pathName: string, token: string, body: unknown) {
  return Promise.all(Array.from({ length: n }, (_, i) => post(i, pathName, token, body)))
}

/** Writes catalogue rows (test set-up only: there is no user route for them) on a connection of its own. */
async function catalogue<T>(write: (sql: Sql) => Promise<T>): Promise<T> {
  const conn = openDatabase(db.url)
  try {
    return await write(conn.sql)
  } finally {
    await conn.close()
  }
}

async function books(check: (sql: Sql) => Promise<void>) {
  const conn = openDatabase(db.url)
  try {
    expect((await audit(conn.sql)).violations).toEqual([])
    await check(conn.sql)
  } finally {
    await conn.close()
  }
}

/** The values of the first row of `text`, in the order of its columns (several figures checked at once). */
async function values(sql: Sql, text: string, ...params: unknown[]): Promise<unknown[] | undefined> {
  const row = await sql.get(statement<Record<string, unknown>>(text), ...params)
  return row && Object.values(row)
}

/**
 * A node tier of `stake` with 10 seats (a type has one tier: a test after another of the same type
 * sets it anew, as the node file's load does), a 30-day plan at 50 % LTV, and the loans account funded with `loansFund` USDT.
 */
async function lendingCatalogue(sql: Sql, o: { type: 'core' | 'elite'; stake: bigint; plan: string; loansFund: bigint }) {
  await transfer(sql, { ref: `race:loans:${o.plan}`, reason: 'loan_fund', from: custody('bsc'), to: LOANS, asset: 'USDT', amount: o.loansFund })
  const tier = await sql.get(
    statement<{ id: bigint }>(
      `INSERT INTO node_tiers (type, seats_total, seats_left, limit_num, amount, days, power, level_id, withdraw_rate_ppm, machine_rate_ppm, created_at, updated_at)
       VALUES (?, 10, 10, 1, ?, 30, 0, 1, 0, 0, 0, 0)
       ON CONFLICT (type) DO UPDATE SET seats_left = excluded.seats_left, amount = excluded.amount RETURNING id`,
    ),
    o.type,
    o.stake,
  )
  const plan = await sql.get(statement<{ id: bigint }>(`INSERT INTO loan_plans (slug, ltv_ppm, daily_rate_ppm, max_days, created_at) VALUES (?, 500000, 500, 30, 0) RETURNING id`), o.plan)
  return { tierId: Number(tier!.id), planId: Number(plan!.id) }
}

/** A user who bought a node of the tier through one api process and paid its stake through the other. */
async function nodeHolder(tierId: number, stake: bigint) {
  const me = await funded('USDT', stake)
  const order = await post<{ id: number }>(0, 'node/buy', me.token, { node_id: tierId })
  expect((await post(1, 'orders/payByBalance', me.token, { id: order.body.data.id })).status).toBe(200)
  const node = (await post<{ list: { id: number }[] }>(0, 'node/getOrder', me.token, {})).body.data.list[0]!
  return { me, node }
}

/** Waits (10 s at most) until `sql`, a count, is above 0. */
async function until(sql: Sql, count: string) {
  for (const deadline = Date.now() + 10_000; Number((await sql.get(statement<{ n: bigint }>(count)))?.n) === 0; ) {
    if (Date.now() > deadline) throw new Error(`still none: ${count}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

it.runIf(on)('one order paid 50 times at once across two api processes: debited once, every answer the paid order or a 409 in the user’s language, none a 500', { timeout: 60_000 }, async () => {
  const me = await funded('NADI', 5n * UNIT)
  const conn = openDatabase(db.url)
  let orderId: number
  try {
    // Test set-up only: an order as a shop's route makes one (its ctx needs only these).
    orderId = await createPayOrder({ sql: conn.sql, now: Date.now, config: { orders: { payWithinMs: 15 * 60_000 } } } as unknown as Ctx, { userId: me.userId, type: 'destroy', asset: 'NADI', total: 2n * UNIT })
  } finally {
    await conn.close()
  }
  const answers = await burst(50, 'orders/payByBalance', me.token, { id: orderId })
  expect(answers.filter((a) => a.status >= 500)).toEqual([])
  // A payment of a paid order answers the order as paid. One that waited for the order's row while the
  // first committed is told it was paid; one the database refused at the same moment, "changed at the same moment".
  const refusals = [localeText('en', 'errors.concurrentChange'), localeText('en', 'errors.orderAlreadyPaid')]
  for (const a of answers) {
    if (a.status === 200) expect((a.body.data as { status: string }).status).toBe('completed')
    else {
      expect(a.status).toBe(409)
      expect(refusals).toContain(a.body.msg)
    }
  }
  await books(async (sql) => {
    expect((await balance(sql, fund(me.userId), 'NADI')).available).toBe(3n * UNIT)
    expect(Number((await sql.get(statement<{ n: bigint }>("SELECT COUNT(*) AS n FROM payments WHERE order_ref = ? AND status = 'paid'"), `order:${orderId}`))?.n)).toBe(1)
  })
})

it.runIf(on)('50 transfers of 1 USDT at once across two api processes from a balance of 10: exactly 10 go through, the rest refused, the balance never below 0', { timeout: 60_000 }, async () => {
  const me = await funded('USDT', 10n * UNIT)
  const answers = await burst(50, 'wallet/transfer', me.token, { asset: 'USDT', amount: '1', from: 'fund', to: 'trade' })
  expect(answers.filter((a) => a.status >= 500)).toEqual([])
  expect(answers.filter((a) => a.status === 200)).toHaveLength(10)
  await books(async (sql) => expect((await balance(sql, fund(me.userId), 'USDT')).available).toBe(0n))
})

it.runIf(on)('the last 3 seats of a tier, 12 buyers with the stake at once across two api processes: 3 seats taken and paid, the rest refused, none a 500', { timeout: 90_000 }, async () => {
  const conn = openDatabase(db.url)
  let tierId: number
  let stake: bigint
  try {
    // Test set-up only: a tier as the node catalogue's load writes one, three of its 50 seats left.
    stake = 1_000n * UNIT
    tierId = 7
    await conn.sql.run(statement(
        `INSERT INTO node_tiers (id, type, seats_total, seats_left, limit_num, amount, days, power, level_id, withdraw_rate_ppm, machine_rate_ppm, created_at, updated_at)
         VALUES (?, 'genesis', 50, 3, 1, ?, 30, 0, 1, 0, 0, 0, 0)`,
      ), tierId, stake)
  } finally {
    await conn.close()
  }
  const buyers = await Promise.all(Array.from({ length: 12 }, () => funded('USDT', stake)))
  const tries = await Promise.all(buyers.map(async (b, i) => ({ b, ...(await post<{ id: number }>(i, 'node/buy', b.token, { node_id: tierId })) })))
  expect(tries.filter((t) => t.status >= 500)).toEqual([])
  const held = tries.filter((t) => t.status === 200)
  expect(held).toHaveLength(3)
  for (const t of tries.filter((x) => x.status !== 200)) expect(t.status, t.body.msg).toBe(409)
  for (const [i, t] of held.entries()) expect((await post(i, 'orders/payByBalance', t.b.token, { id: t.body.data.id })).status).toBe(200)
  await books(async (sql) => {
    expect(Number((await sql.get(statement<{ seats_left: bigint }>('SELECT seats_left FROM node_tiers WHERE id = ?'), tierId))?.seats_left)).toBe(0)
    for (const t of held) expect((await balance(sql, fund(t.b.userId), 'USDT')).available).toBe(0n)
  })
})

it.runIf(on)('the last 3 units of a mall item, 12 buyers ordering and paying at once across two api processes: 3 sold and paid, the rest told none is left, stock never below 0', { timeout: 90_000 }, async () => {
  const price = 100n * UNIT
  // Test set-up only: a gold bar as the catalogue's load writes one, three left; one that does not ship, so no address is needed.
  const specId = await catalogue(async (sql) => {
    const product = await sql.get(
      statement<{ id: bigint }>(`INSERT INTO products (area, slug, name, summary, body, cover, ships, created_at) VALUES ('gold', 'race-bar', '{"en":"Race bar"}', '{}', '{}', '/bar.png', 0, 0) RETURNING id`),
    )
    return Number((await sql.get(statement<{ id: bigint }>(`INSERT INTO product_specs (product_id, slug, name, price, stock) VALUES (?, 'one', '{"en":"1 g"}', ?, 3) RETURNING id`), product!.id, price))!.id)
  })
  const productId = await catalogue(async (sql) => Number((await sql.get(statement<{ product_id: bigint }>('SELECT product_id FROM product_specs WHERE id = ?'), specId))?.product_id))
  const buyers = await Promise.all(Array.from({ length: 12 }, () => funded('USDT', price)))
  // Each buyer orders through one process and pays through the other, all at once.
  const tries = await Promise.all(
    buyers.map(async (b, i) => {
      const order = await post<{ order: { id: number } }>(i, 'preOrder/preOrder', b.token, { area: 'gold', goods_id: productId, spec_id: specId, quantity: 1 })
      const paid = order.status === 200 ? await post<{ status: string }>(i + 1, 'orders/payByBalance', b.token, { id: order.body.data.order.id }) : null
      return { b, order, paid }
    }),
  )
  expect(tries.flatMap((t) => [t.order, t.paid ?? t.order]).filter((a) => a.status >= 500)).toEqual([])
  const sold = tries.filter((t) => t.order.status === 200)
  expect(sold).toHaveLength(3)
  for (const t of sold) expect([t.paid?.status, t.paid?.body.data.status]).toEqual([200, 'completed'])
  // Told the truth: none left, whatever the stock was when the request read it.
  for (const t of tries.filter((x) => x.order.status !== 200)) expect([t.order.status, t.order.body.msg]).toEqual([409, translate('EN', 'errors.outOfStock', { stock: 0 })])
  await books(async (sql) => {
    expect(await values(sql, 'SELECT stock, sold FROM product_specs WHERE id = ?', specId)).toEqual([0n, 3n])
    expect(Number((await sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM order_lines l JOIN pay_orders o ON o.id = l.order_id WHERE l.spec_id = ? AND o.paid_at IS NOT NULL'), specId))?.n)).toBe(3)
    for (const t of tries) expect((await balance(sql, fund(t.b.userId), 'USDT')).available).toBe(t.order.status === 200 ? 0n : price)
  })
})

/** Test set-up only: a savings product as the product file's load writes one, `pledged` of its `total` taken already. */
const savingsProduct = (slug: string, name: string, total: bigint, pledged: bigint) =>
  catalogue(async (sql) =>
    Number(
      (await sql.get(
        statement<{ id: bigint }>(
          `INSERT INTO pledge_products (slug, name, day, min_pledge, day_rate_ppm, month_rate_ppm, total_pledge, pledged, created_at, updated_at)
           VALUES (?, ?, 30, ?, 1000, 0, ?, ?, 0, 0) RETURNING id`,
        ),
        slug,
        JSON.stringify({ en: name }),
        UNIT,
        total,
        pledged,
      ))!.id,
    ),
  )

it.runIf(on)('30 NADI left of a savings product, 12 users pledging 10 at once across two api processes: 3 pledged, the rest told none is left, the capacity never passed', { timeout: 90_000 }, async () => {
  const amount = 10n * UNIT
  // 70 of its 100 NADI pledged already.
  const productId = await savingsProduct('race', 'Race savings', 100n * UNIT, 70n * UNIT)
  const savers = await Promise.all(Array.from({ length: 12 }, () => funded('NADI', amount)))
  const tries = await Promise.all(savers.map(async (u, i) => ({ u, ...(await post(i, 'pledge/pledge', u.token, { product_id: productId, amount: '10', mode: 'day' })) })))
  expect(tries.filter((t) => t.status >= 500)).toEqual([])
  const pledged = tries.filter((t) => t.status === 200)
  expect(pledged).toHaveLength(3)
  for (const t of tries.filter((x) => x.status !== 200)) expect([t.status, t.body.msg]).toEqual([409, translate('EN', 'errors.pledgeCapacity', { left: '0' })])
  await books(async (sql) => {
    expect(await values(sql, 'SELECT pledged, total_pledge FROM pledge_products WHERE id = ?', productId)).toEqual([100n * UNIT, 100n * UNIT])
    expect(await values(sql, 'SELECT count(*) AS n, sum(amount) AS s FROM pledges WHERE product_id = ?', productId)).toEqual([3n, 30n * UNIT])
    for (const t of tries) expect(await balance(sql, fund(t.u.userId), 'NADI')).toEqual(t.status === 200 ? { available: 0n, frozen: amount } : { available: amount, frozen: 0n })
  })
})

it.runIf(on)('10 NADI in the fund account, 8 pledges of 10 at once across two api processes: one pledged, the rest told the balance now, never frozen twice', { timeout: 90_000 }, async () => {
  const amount = 10n * UNIT
  // Room for every pledge, so only the balance can refuse.
  const productId = await savingsProduct('race-balance', 'Race balance', 1_000n * UNIT, 0n)
  const me = await funded('NADI', amount)
  const answers = await burst(8, 'pledge/pledge', me.token, { product_id: productId, amount: '10', mode: 'day' })
  expect(answers.filter((a) => a.status >= 500)).toEqual([])
  expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
  const refused = translate('EN', 'errors.paymentInsufficient', { asset: 'NADI', current: formatMoney(0n), required: formatMoney(amount) })
  for (const a of answers.filter((x) => x.status !== 200)) expect([a.status, a.body.msg]).toEqual([400, refused])
  await books(async (sql) => {
    expect(await values(sql, 'SELECT count(*) AS n, sum(amount) AS s FROM pledges WHERE product_id = ?', productId)).toEqual([1n, amount])
    expect((await sql.get(statement<{ pledged: bigint }>('SELECT pledged FROM pledge_products WHERE id = ?'), productId))?.pledged).toBe(amount)
    expect(await balance(sql, fund(me.userId), 'NADI')).toEqual({ available: 0n, frozen: amount })
  })
})

it.runIf(on)('50 borrows of 100 USDT at once across two api processes against a stake of 5000 at 50 % LTV: exactly 25 lent, the rest refused, the debt never past the limit', { timeout: 90_000 }, async () => {
  const stake = 5_000n * UNIT
  // Test set-up only: a tier and a plan as the node file's load writes them, and the loans account funded.
  const { tierId, planId } = await catalogue((sql) => lendingCatalogue(sql, { type: 'core', stake, plan: 'race', loansFund: 100_000n * UNIT }))
  const { me, node } = await nodeHolder(tierId, stake)
  const answers = await burst(50, 'lending/borrow', me.token, { plan_id: planId, node_order_id: node.id, amount: '100' })
  expect(answers.filter((a) => a.status >= 500)).toEqual([])
  expect(answers.filter((a) => a.status === 200)).toHaveLength(25)
  // Told the truth: nothing left to borrow, whatever the debt was when the request read it.
  for (const a of answers.filter((x) => x.status !== 200)) expect([a.status, a.body.msg]).toEqual([400, translate('EN', 'errors.loanBeyondLimit', { amount: '0' })])
  await books(async (sql) => {
    expect(await values(sql, "SELECT count(*) AS n, sum(debt) AS s FROM loans WHERE node_id = ? AND status = 'open'", node.id)).toEqual([25n, 2_500n * UNIT])
    expect(await balance(sql, fund(me.userId), 'USDT')).toEqual({ available: 2_500n * UNIT, frozen: stake })
  })
})

it.runIf(on)('20 repayments of 10 USDT at once across two api processes on a debt of 100: the debt falls by exactly what moved, none a 500', { timeout: 90_000 }, async () => {
  const stake = 1_000n * UNIT
  // Test set-up only: a tier and a plan as the node file's load writes them, and the loans account funded.
  const { tierId, planId } = await catalogue((sql) => lendingCatalogue(sql, { type: 'core', stake, plan: 'repay-race', loansFund: 1_000n * UNIT }))
  const { me, node } = await nodeHolder(tierId, stake)
  const loan = await post<{ id: number }>(0, 'lending/borrow', me.token, { plan_id: planId, node_order_id: node.id, amount: '100' })
  expect(loan.status).toBe(200)
  const answers = await burst(20, 'lending/repay', me.token, { loan_id: loan.body.data.id, amount: '10' })
  expect(answers.filter((a) => a.status >= 500)).toEqual([])
  const paid = answers.filter((a) => a.status === 200).length
  expect(paid).toBeGreaterThan(0)
  // A repayment that read the figure another had just changed is told so; one that came later, that the
  // loan is repaid, or what is owed or held now: each a refusal in English, never a 500.
  const refusals = [localeText('en', 'errors.concurrentChange'), localeText('en', 'errors.loanRepaid')]
  for (const a of answers.filter((x) => x.status !== 200)) {
    if (a.status === 409) expect(refusals).toContain(a.body.msg)
    else expect([a.status, a.body.msg.length > 0]).toEqual([400, true])
  }
  await books(async (sql) => {
    const repaid = BigInt(paid) * 10n * UNIT
    expect(await values(sql, 'SELECT debt, repaid FROM loans WHERE id = ?', loan.body.data.id)).toEqual([100n * UNIT - repaid, repaid])
    // The money that moved is what the debt fell by: no repayment lowered it without its posting.
    expect(await values(sql, "SELECT COALESCE(SUM(-e.delta), 0) AS moved FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id WHERE p.reason = 'loan_repay' AND e.user_id = ?", me.userId)).toEqual([repaid])
    expect((await balance(sql, fund(me.userId), 'USDT')).available).toBe(100n * UNIT - repaid)
  })
})

it.runIf(on)('a stake falling due while a borrow against it commits on an api process stays frozen: the settlement does not return a stake whose loan it has not seen yet', { timeout: 90_000 }, async () => {
  const stake = 1_000n * UNIT
  // Test set-up only: a tier and a plan as the node file's load writes them, and the loans account funded.
  const { tierId, planId } = await catalogue((sql) => lendingCatalogue(sql, { type: 'elite', stake, plan: 'race-return', loansFund: 100n * UNIT }))
  const { me, node } = await nodeHolder(tierId, stake)
  // Another session holds the loans account for a moment (an operator's query), so the borrow below has
  // written its loan but not committed it when the settlement of the term's last day reads the loans.
  const holder = spawn(path.join(pgBinDir()!, 'psql'), [db.url, '-c', "BEGIN; SELECT id FROM ledger_accounts WHERE kind = 'loans' FOR UPDATE; SELECT pg_sleep(3); COMMIT;"], { stdio: 'ignore' })
  const held = new Promise((resolve) => holder.on('exit', resolve))
  const conn = openDatabase(db.url)
  try {
    await until(conn.sql, "SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(3)%' AND wait_event = 'PgSleep'")
    const borrow = post<{ status: string }>(0, 'lending/borrow', me.token, { plan_id: planId, node_order_id: node.id, amount: '100' })
    await until(conn.sql, "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
    const endDay = Number((await conn.sql.get(statement<{ end_day: bigint }>('SELECT end_day FROM node_orders WHERE id = ?'), node.id))?.end_day)
    await conn.sql.transaction((tx) => returnStakes(tx, endDay - 1, Date.now()))
    await held
    const lent = await borrow
    expect([lent.status, lent.body.data?.status], lent.body.msg).toEqual([200, 'open'])
  } finally {
    await conn.close()
  }
  await books(async (sql) => {
    expect((await sql.get(statement<{ status: string }>('SELECT status FROM node_orders WHERE id = ?'), node.id))?.status).toBe('active')
    expect(await balance(sql, fund(me.userId), 'USDT')).toEqual({ available: 100n * UNIT, frozen: stake })
  })
})
