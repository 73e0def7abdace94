import { describe, expect, it } from 'vitest'
import { idemKey, localeText, useServers, type TestServer } from './support/server.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { formatMoney, parseMoney } from '../../contract/money.ts'
import { maxQuote, priceUnits, quoteUnits, sizeUnits } from '../../server/exchange/engine/index.ts'
import { statement } from '../../server/db/query/types.ts'

// Issue 17: amounts the wire format lets through (up to 20 digits) but the ledger cannot hold were a
// 500 on mining (a bigint past int64 bound into SQLite) and an unpayable order at the exact int64
// maximum. Every money route now refuses them with its field's message and writes nothing.

const start = useServers({}, { audited: true })

/** Past int64 by one unit, past it in whole tokens, 12 digits, and the exact int64 maximum. */
const TOO_LARGE = ['92233720368.54775808', '92233720369', '999999999999', '92233720368.54775807', '1000000000.00000001']

/** Everything an accepted money request would write: balances, orders, postings, positions and the rest. */
async function books(s: TestServer): Promise<string> {
  const tables = ['ledger_postings', 'pay_orders', 'withdrawals', 'trade_orders', 'pledges', 'loans', 'positions', 'wallet_transfers', 'exchange_quotes']
  const counts = await Promise.all(tables.map(async (t) => `${t}=${await s.count(`SELECT COUNT(*) FROM ${t}`)}`))
  const accounts = await s.ctx.sql.all(statement<{ id: unknown; available: unknown; frozen: unknown }>('SELECT id, available, frozen FROM ledger_accounts ORDER BY id'))
  return JSON.stringify({ counts, accounts }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
}

async function richUser(s: TestServer) {
  const me = await s.signIn()
  for (const asset of ['USDT', 'NADI'] as const) {
    await transfer(s.ctx.sql, { ref: `test:amounts:${asset}`, reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset, amount: parseMoney('1000')! })
  }
  return me
}

const invalidAmount = (lang: string) => localeText(lang, 'errors.invalidField').replace('{{field}}', localeText(lang, 'fields.amount'))

describe('amounts above what the ledger holds', () => {
  it('mining destroy and joint, pledge, borrow and repay answer 400 "Invalid amount" in the request language and write nothing', async () => {
    const s = await start()
    const me = await richUser(s)
    const routes: [string, (amount: string) => Record<string, unknown>][] = [
      ['/api/v1/mining/destroy', (amount) => ({ amount })],
      ['/api/v1/mining/joint', (amount) => ({ amount, price: '0.25' })],
      ['/api/v1/pledge/pledge', (amount) => ({ product_id: 1, amount, mode: 'day' })],
      ['/api/v1/lending/borrow', (amount) => ({ plan_id: 1, node_order_id: 1, amount })],
      ['/api/v1/lending/repay', (amount) => ({ loan_id: 1, amount })],
    ]
    const before = await books(s)
    for (const [url, body] of routes) {
      for (const amount of TOO_LARGE) {
        for (const lang of ['EN', 'TW'] as const) {
          const res = await s.post(url, body(amount), { token: me.token, lang, idempotencyKey: idemKey() })
          expect(res.statusCode, `${url} ${amount}`).toBe(400)
          expect(res.body_.msg, `${url} ${amount}`).toBe(invalidAmount(lang.toLowerCase()))
        }
      }
      // The same message a malformed amount gets from the route's schema.
      const malformed = await s.post(url, body('1x'), { token: me.token, lang: 'EN', idempotencyKey: idemKey() })
      expect(malformed.body_.msg, url).toBe(invalidAmount('en'))
    }
    expect(await books(s)).toBe(before)
  })

  it('transfer, exchange quote and withdraw answer the message they give any invalid amount, and write nothing', async () => {
    const s = await start()
    const me = await richUser(s)
    const before = await books(s)
    for (const amount of TOO_LARGE) {
      const moved = await s.post('/api/v1/wallet/transfer', { asset: 'USDT', amount, from: 'fund', to: 'trade' }, { token: me.token, lang: 'EN', idempotencyKey: idemKey() })
      expect([moved.statusCode, moved.body_.msg], amount).toEqual([400, localeText('en', 'errors.amountInvalid')])
      const quote = await s.get(`/api/v1/wallet/exchangeQuote?from=USDT&to=NADI&amount=${amount}`, { token: me.token, lang: 'EN' })
      expect([quote.statusCode, quote.body_.msg], amount).toEqual([400, localeText('en', 'errors.amountInvalid')])
      const withdrawn = await s.post('/api/v1/withdraw/apply', { coin: 'NADI', chain: 'nadi', amount, address: me.address }, { token: me.token, lang: 'EN', idempotencyKey: idemKey() })
      expect([withdrawn.statusCode, withdrawn.body_.msg], amount).toEqual([400, localeText('en', 'errors.withdrawAmountInvalid')])
    }
    expect(await books(s)).toBe(before)
  })

  it('a trade price, size or USDT amount that large is out of the market range, named with the range', async () => {
    const s = await start()
    const me = await richUser(s)
    const before = await books(s)
    const place = (body: Record<string, unknown>) =>
      s.post('/api/v1/trade/placeOrder', { inst_id: 'NADI-USDT', client_order_id: `c${idemKey().slice(0, 8)}`, ...body }, { token: me.token, lang: 'EN', idempotencyKey: idemKey() })
    const spec = s.exchange!.spec
    const text = (key: string, params: Record<string, bigint>) =>
      Object.entries(params).reduce((msg, [k, v]) => msg.replace(`{{${k}}}`, formatMoney(v)), localeText('en', key))
    for (const amount of TOO_LARGE) {
      const price = await place({ side: 'buy', type: 'limit', price: amount, size: '1' })
      expect([price.statusCode, price.body_.msg], amount).toEqual([400, text('errors.tradePriceRange', { max: priceUnits(spec, spec.maxPriceTicks) })])
      const size = await place({ side: 'sell', type: 'limit', price: '1', size: amount })
      expect([size.statusCode, size.body_.msg], amount).toEqual([400, text('errors.tradeSizeRange', { min: sizeUnits(spec, spec.minLots), max: sizeUnits(spec, spec.maxLots) })])
      const quote = await place({ side: 'buy', type: 'market', quote_amount: amount })
      expect([quote.statusCode, quote.body_.msg], amount).toEqual([400, text('errors.tradeAmountRange', { max: quoteUnits(spec, maxQuote(spec)) })])
    }
    expect(await books(s)).toBe(before)
  })

  it('a joint amount whose power at the current price would pass the largest amount is refused, the largest destroy within it is an order', async () => {
    const s = await start()
    const me = await richUser(s)
    // At the reference price and the default ×2 and 10 % gift, 999,999,999 USDT buys far more than a billion power.
    const joint = await s.post('/api/v1/mining/joint', { amount: '999999999', price: '0.25' }, { token: me.token, lang: 'EN', idempotencyKey: idemKey() })
    expect([joint.statusCode, joint.body_.msg]).toEqual([400, invalidAmount('en')])
    const destroy = await s.post('/api/v1/mining/destroy', { amount: '300000000' }, { token: me.token, lang: 'EN', idempotencyKey: idemKey() })
    expect(destroy.statusCode, destroy.body).toBe(200)
  })
})
