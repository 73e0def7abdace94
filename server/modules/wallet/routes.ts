import type { FastifyRequest } from 'fastify'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { Envelope, PageQuery, Paged } from '../../../contract/envelope.ts'
import {
  Balances,
  DayEarnings,
  EarningsQuery,
  ExchangeBody,
  ExchangeQuote,
  ExchangeQuoteQuery,
  ExchangeRecord,
  Holdings,
  MoneyLogQuery,
  MoneyRecord,
  TransferBody,
  TransferRecord,
} from '../../../contract/wallet.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import { amountErrors } from './amount.ts'
import type { WalletService } from './service.ts'

/** requireAuth guarantees a user. */
const uid = (req: FastifyRequest) => req.user!.id

export function walletRoutes(app: App, wallet: WalletService) {
  const tags = ['wallet']

  app.get(
    '/api/v1/wallet/balances',
    { preHandler: requireAuth, schema: { tags, summary: 'Fund and trade account of every asset, available and frozen', response: { 200: Envelope(Balances) } } },
    async (req) => ok(req, await wallet.balances(uid(req))),
  )

  app.get(
    '/api/v1/wallet/holdings',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'What each frozen balance is for (node stakes, pledges, open orders, withdrawals in flight), and what open loans owe', response: { 200: Envelope(Holdings) } },
    },
    async (req) => ok(req, await wallet.holdings(uid(req))),
  )

  app.post(
    '/api/v1/wallet/transfer',
    {
      preHandler: requireAuth,
      errorHandler: amountErrors,
      schema: {
        tags,
        summary: 'Move an amount between the caller’s own fund and trade accounts (/draw); not empty, above 0, at most the available balance',
        body: TransferBody,
        response: { 200: Envelope(TransferRecord) },
      },
    },
    async (req) => ok(req, await wallet.transfer(uid(req), req.body)),
  )

  app.get(
    '/api/v1/wallet/transferList',
    { preHandler: requireAuth, schema: { tags, summary: 'The caller’s transfers, newest first (/draw/list)', querystring: PageQuery, response: { 200: Envelope(Paged(TransferRecord)) } } },
    async (req) => ok(req, await wallet.transferList(uid(req), req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )

  app.get(
    '/api/v1/wallet/moneyLog',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Every change to the available balance of the caller’s accounts, newest first; `type` is the posting reason (deposit, transfer, exchange…)',
        querystring: MoneyLogQuery,
        response: { 200: Envelope(Paged(MoneyRecord)) },
      },
    },
    async (req) => ok(req, await wallet.moneyLog(uid(req), req.query)),
  )

  app.get(
    '/api/v1/wallet/earnings',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'What the caller’s positions earned on one settled UTC day (days since 1970-01-01), line by line, each with the position it came from and where the app shows it; a day not an integer, out of range or not settled is refused',
        querystring: EarningsQuery,
        response: { 200: Envelope(DayEarnings) },
      },
    },
    async (req) => ok(req, await wallet.earnings(uid(req), req.query.day)),
  )

  app.get(
    '/api/v1/wallet/exchangeQuote',
    {
      preHandler: requireAuth,
      errorHandler: amountErrors,
      schema: {
        tags,
        summary: 'A NADI ↔ USDT price for an amount out of the fund account, with the fee; confirmable once before expires_at',
        querystring: ExchangeQuoteQuery,
        response: { 200: Envelope(ExchangeQuote) },
      },
    },
    async (req) => ok(req, await wallet.quote(uid(req), req.query)),
  )

  app.post(
    '/api/v1/wallet/exchange',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'Confirm one of the caller’s unexpired, unused quotes', body: ExchangeBody, response: { 200: Envelope(ExchangeRecord) } },
    },
    async (req) => ok(req, await wallet.exchange(uid(req), req.body.quote_id)),
  )

  app.get(
    '/api/v1/wallet/exchangeList',
    { preHandler: requireAuth, schema: { tags, summary: 'The caller’s exchanges, newest first', querystring: PageQuery, response: { 200: Envelope(Paged(ExchangeRecord)) } } },
    async (req) => ok(req, await wallet.exchangeList(uid(req), req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
}
