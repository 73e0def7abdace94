// orders/list pages in the database (issue 17): the total counts what the status filter keeps, pages
// come newest first, and each order's status is the one its detail shows — with a chain payment
// under way, one failed, paid, completed and cancelled orders among them.

import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { PayOrder, PayOrderStatus } from '../../contract/orders.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { createPayOrder, orderRef } from '../../server/modules/orders/service.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers({}, { audited: true })
const O = '/api/v1/orders'
const units = (n: string) => parseUnits(n, 8)
const list = (s: TestServer, who: SignedIn, query: string) => s.get<PagedList<PayOrder>>(`${O}/list?${query}`, { token: who.token, lang: 'EN' })

/** A chain payment row as the payment primitive leaves it after a tx hash was submitted (and, failed, after its check). */
async function chainPayment(s: TestServer, userId: number, orderId: number, status: 'pending' | 'failed', n: number) {
  await s.ctx.sql.run(statement(
      `INSERT INTO payments (order_ref, user_id, method, asset, amount, payee, status, chain, tx_hash, fail_reason, created_at, updated_at)
       VALUES (?, ?, 'chain', 'USDT', ?, 'treasury', ?, 'bsc', ?, ?, ?, ?)`,
    ), orderRef(orderId), userId, units('1'), status, `0x${String(n).padStart(64, '0')}`, status === 'failed' ? 'not_found' : null, s.ctx.now(), s.ctx.now())
}

describe('orders/list', () => {
  it('pages in the database: total and pages follow the status filter, newest first, each with the status its detail shows', async () => {
    const s = await start()
    const [me, other] = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
    await transfer(s.ctx.sql, { ref: 'test:list', reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: units('100') })
    // A joint-mining order completes when paid; an order of a device without lines stays paid.
    const ids: number[] = []
    for (let i = 0; i < 23; i++) ids.push(await createPayOrder(s.ctx, { userId: me.userId, type: i === 0 ? 'joint' : 'device', asset: 'USDT', total: units('1') }))
    await createPayOrder(s.ctx, { userId: other.userId, type: 'device', asset: 'USDT', total: units('1') })
    const post = (path: string, id: number) => s.post<PayOrder>(`${O}/${path}`, { id }, { token: me.token, idempotencyKey: idemKey(), lang: 'EN' })
    expect((await post('payByBalance', ids[0]!)).body_.data.status).toBe('completed')
    for (const id of ids.slice(1, 4)) expect((await post('payByBalance', id)).body_.data.status).toBe('paid')
    for (const id of ids.slice(4, 7)) expect((await post('cancel', id)).body_.data.status).toBe('cancelled')
    await chainPayment(s, me.userId, ids[7]!, 'pending', 1)
    await chainPayment(s, me.userId, ids[8]!, 'failed', 2)
    const expected: Record<PayOrderStatus, number> = { completed: 1, paid: 3, cancelled: 3, processing: 1, pending_payment: 15 }

    const all = (await list(s, me, 'page=1&page_size=10')).body_.data
    expect(all.total).toBe(23)
    expect(all.list.map((o) => o.id)).toEqual(ids.slice(-10).reverse())
    const pages = []
    for (let page = 1; page <= 3; page++) pages.push(...(await list(s, me, `page=${page}&page_size=10`)).body_.data.list)
    expect(pages.map((o) => o.id)).toEqual([...ids].reverse())
    expect((await list(s, me, 'page=4&page_size=10')).body_.data).toEqual({ total: 23, list: [] })

    for (const [status, n] of Object.entries(expected)) {
      const r = (await list(s, me, `status=${status}&page=1&page_size=2`)).body_.data
      expect(r.total, status).toBe(n)
      expect(r.list.length).toBe(Math.min(2, n))
      for (const o of r.list) {
        expect(o.status).toBe(status)
        expect((await s.get<PayOrder>(`${O}/detail?id=${o.id}`, { token: me.token, lang: 'EN' })).body_.data).toEqual(o)
      }
    }
    const second = (await list(s, me, 'status=pending_payment&page=2&page_size=10')).body_.data
    expect(second.total).toBe(15)
    expect(second.list.map((o) => o.id)).toEqual(ids.slice(8, 13).reverse())
  })
})
