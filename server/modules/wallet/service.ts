import crypto from 'node:crypto'
import type { Selectable } from 'kysely'
import { CODE } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { formatMoney, parseAmount, parseMoney } from '../../../contract/money.ts'
import type {
  AccountKind,
  Asset,
  AssetBalance,
  Balances,
  DayEarnings,
  HeldAsset,
  Holdings,
  ExchangeQuote,
  ExchangeQuoteQuery,
  ExchangeRecord,
  MoneyLogQuery,
  MoneyRecord,
  TransferBody,
  TransferRecord,
} from '../../../contract/wallet.ts'
import type { Ctx } from '../../context.ts'
import type { ExchangeQuotesTable, WalletExchangesTable, WalletTransfersTable } from '../../db/schema.ts'
import { ApiError, badRequest, notFound } from '../../http/errors.ts'
import * as ledger from '../../ledger/index.ts'
import { aboveAvailable, amountZero } from './amount.ts'
import { holdingsOf } from './holdings.ts'
import { quoteAmounts, quoteRefusal } from './exchange.ts'
import { dayEarnings, nodeTier } from '../settlement/earnings.ts'
import { moneyLink, resolveLink } from '../settlement/links.ts'
import type { WalletExchangeSettings } from '../../config.ts'

/** The assets a wallet shows, in the order it shows them. */
export const WALLET_ASSETS: readonly HeldAsset[] = ['USDT', 'NADI', 'MEME']

/** A coin, not MEME: what trades, exchanges and moves between accounts. */
const isCoin = (a: HeldAsset): a is Asset => (ledger.COINS as readonly string[]).includes(a)

const accountOf = (kind: AccountKind, userId: number): ledger.AccountRef => (kind === 'fund' ? ledger.fund(userId) : ledger.trade(userId))

/** A state the request cannot change (HTTP 409): the app shows the message. */
const conflict = (key: string, params?: Record<string, string | number>) => new ApiError(409, CODE.CONFLICT, key, params)
/** The treasury cannot pay out what the exchange needs. */
const treasuryShort = (asset: string) => conflict('errors.exchangeTreasuryShort', { asset })

function transferToWire(r: Selectable<WalletTransfersTable>): TransferRecord {
  return { id: Number(r.id), asset: r.asset as Asset, amount: formatMoney(r.amount), from: r.from_account, to: r.to_account, created_at: Number(r.created_at) }
}

function exchangeToWire(r: Selectable<WalletExchangesTable>): ExchangeRecord {
  return {
    id: Number(r.id),
    from: r.from_asset as Asset,
    to: r.to_asset as Asset,
    amount: formatMoney(r.amount),
    receive: formatMoney(r.receive),
    price: formatMoney(r.price),
    fee: formatMoney(r.fee),
    created_at: Number(r.created_at),
  }
}

function quoteToWire(q: Selectable<ExchangeQuotesTable>): ExchangeQuote {
  return {
    quote_id: q.id,
    from: q.from_asset as Asset,
    to: q.to_asset as Asset,
    amount: formatMoney(q.amount),
    receive: formatMoney(q.receive),
    price: formatMoney(q.price),
    fee: formatMoney(q.fee),
    fee_asset: q.to_asset as Asset,
    expires_at: Number(q.expires_at),
  }
}

/** A well-formed amount (the route's schema checked the format), not above AMOUNT_MAX, that must not be zero. */
function positive(text: string): bigint {
  const units = parseAmount(text)
  if (units === null) throw badRequest('errors.amountInvalid')
  if (units === 0n) throw amountZero()
  return units
}

/** Unused quotes are kept this long after they expire (a confirm that races the expiry still gets "expired"). */
const QUOTE_KEEP_MS = 3_600_000

export interface WalletOptions {
  settings?: WalletExchangeSettings
  /**
   * USDT per NADI (units of 1e-8) of the market's last trade, or null before the first. The exchange
   * engine plugs in here when it runs; until then every quote uses config.nadiReferencePrice.
   */
  lastPrice?: () => bigint | null
}

export type WalletService = ReturnType<typeof createWalletService>

/**
 * Balances, fund ↔ trade transfers, NADI ↔ USDT exchange and money records. Every action that moves
 * money is one group-commit action (ctx.commits.write) holding its own record and its ledger posting,
 * all through the batch's transaction.
 */
export function createWalletService(ctx: Ctx, opts: WalletOptions = {}) {
  const { db } = ctx
  const settings = opts.settings ?? ctx.config.walletExchange
  const referencePrice = parseMoney(ctx.config.nadiReferencePrice)
  if (referencePrice === null || referencePrice === 0n) throw new Error(`NADI_REFERENCE_PRICE must be a positive amount, got "${ctx.config.nadiReferencePrice}"`)

  /** USDT per NADI: the last trade once the market has one, else the reference price. */
  const price = (): bigint => {
    const last = opts.lastPrice?.() ?? null
    return last !== null && last > 0n ? last : referencePrice
  }

  return {
    async balances(userId: number): Promise<Balances> {
      const b = await ledger.balances(ctx.sql, userId)
      const bucket = (x: ledger.Balance) => ({ available: formatMoney(x.available), frozen: formatMoney(x.frozen) })
      const assets: AssetBalance[] = WALLET_ASSETS.map((asset) => {
        const a = b[asset] ?? { fund: { available: 0n, frozen: 0n }, trade: { available: 0n, frozen: 0n } }
        return { asset, fund: bucket(a.fund), trade: bucket(a.trade) }
      })
      return { assets }
    },

    async holdings(userId: number): Promise<Holdings> {
      return holdingsOf(ctx.sql, userId)
    },

    /** Between the user's own fund and trade accounts; the ledger ref is the record's id, `transfer:<id>`. */
    async transfer(userId: number, body: TransferBody): Promise<TransferRecord> {
      // MEME is credited to the fund account and has no market: in the trade account it could do nothing.
      if (!isCoin(body.asset)) throw badRequest('errors.transferAssetNotMovable', { asset: body.asset })
      const amount = positive(body.amount)
      if (body.from === body.to) throw badRequest('errors.transferSameAccount')
      const from = accountOf(body.from, userId)
      const to = accountOf(body.to, userId)
      const now = ctx.now()
      return ctx.commits.write(async (tx) => {
        const available = (await ledger.balance(tx, from, body.asset)).available
        if (available < amount) throw aboveAvailable(body.asset, available)
        const rec = (await tx.row(
          db
            .insertInto('wallet_transfers')
            .values({ user_id: BigInt(userId), asset: body.asset, amount, from_account: body.from, to_account: body.to, created_at: BigInt(now) })
            .returningAll(),
        ))!
        try {
          await ledger.transfer(tx, { ref: `transfer:${rec.id}`, reason: 'transfer', userId, from, to, asset: body.asset, amount, at: now, meta: { transfer_id: rec.id } })
        } catch (err) {
          if (err instanceof ledger.InsufficientFunds) throw aboveAvailable(body.asset, err.current)
          throw err
        }
        return transferToWire(rec)
      })
    },

    async transferList(userId: number, page: number, pageSize: number): Promise<PagedList<TransferRecord>> {
      const base = db.selectFrom('wallet_transfers').where('user_id', '=', BigInt(userId))
      const { n } = await base.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirstOrThrow()
      const list = await base.selectAll().orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute()
      return { total: Number(n), list: list.map(transferToWire) }
    },

    /**
     * The changes to the available balance of the user's accounts, newest first. A hold (an order or a
     * withdrawal freezing funds) shows as the amount leaving available; its release as it coming back.
     */
    async moneyLog(userId: number, q: MoneyLogQuery): Promise<PagedList<MoneyRecord>> {
      const { list, total } = await ledger.entriesFor(ctx.sql, userId, { page: q.page ?? 1, pageSize: q.page_size ?? 10, bucket: 'available', ...(q.type ? { reason: q.type } : {}) })
      const refs = list.map((e) => moneyLink(e.reason, e.ref, e.meta))
      // A node's link names its tier: read once per node on the page, after the ledger's read.
      const tiers = new Map<number, number | null>()
      for (const ref of refs) if (ref?.screen === 'node' && !tiers.has(ref.node_id)) tiers.set(ref.node_id, await nodeTier(ctx, ref.node_id))
      return {
        total,
        list: list.map((e, i) => {
          const ref = refs[i]
          const link = ref && resolveLink(ref, (node) => tiers.get(node) ?? null)
          return {
            id: Number(e.entryId),
            type: e.reason,
            asset: e.asset as HeldAsset,
            account: e.account,
            amount: formatMoney(e.delta),
            created_at: e.createdAt,
            ...(link ? { link } : {}),
          }
        }),
      }
    },

    /** What the caller's positions earned on one settled day (the detail of its settlement record). */
    async earnings(userId: number, day: string): Promise<DayEarnings> {
      return dayEarnings(ctx, userId, day)
    },

    /**
     * A price for exchanging `amount` of `from` out of the fund account, stored for the user to confirm
     * within the quote's lifetime. Refused up front when the user or the treasury could not cover it.
     */
    async quote(userId: number, q: ExchangeQuoteQuery): Promise<ExchangeQuote> {
      // MEME has no market, so no price to exchange it at.
      if (!isCoin(q.from)) throw badRequest('errors.exchangeAssetUnsupported', { asset: q.from })
      if (!isCoin(q.to)) throw badRequest('errors.exchangeAssetUnsupported', { asset: q.to })
      const amount = positive(q.amount)
      if (q.from === q.to) throw badRequest('errors.exchangeSameAsset')
      const p = price()
      const { gross, receive, fee } = quoteAmounts(q.from, q.to, amount, p, settings.feeBps)
      if (receive <= 0n) throw badRequest('errors.exchangeAmountTooSmall')
      const now = ctx.now()
      const id = crypto.randomBytes(18).toString('base64url')
      return ctx.commits.write(async (tx) => {
        const available = (await ledger.balance(tx, ledger.fund(userId), q.from)).available
        if (available < amount) throw aboveAvailable(q.from, available)
        if ((await ledger.balance(tx, ledger.TREASURY, q.to)).available < gross) throw treasuryShort(q.to)
        await tx.exec(
          db
            .deleteFrom('exchange_quotes')
            .where('user_id', '=', BigInt(userId))
            .where('used_at', 'is', null)
            .where('expires_at', '<', BigInt(now - QUOTE_KEEP_MS)),
        )
        const stored = (await tx.row(
          db
            .insertInto('exchange_quotes')
            .values({
              id,
              user_id: BigInt(userId),
              from_asset: q.from,
              to_asset: q.to,
              amount,
              receive,
              fee,
              price: p,
              created_at: BigInt(now),
              expires_at: BigInt(now + settings.quoteTtlMs),
              used_at: null,
            })
            .returningAll(),
        ))!
        return quoteToWire(stored)
      })
    },

    /**
     * Confirms a quote: it must exist, be the caller's, unused and unexpired. One posting moves the
     * user's `from` to the treasury, the treasury's `to` to the user (receive) and to FEES (fee).
     */
    async exchange(userId: number, quoteId: string): Promise<ExchangeRecord> {
      const now = ctx.now()
      return ctx.commits.write(async (tx) => {
        const q = await tx.row(db.selectFrom('exchange_quotes').selectAll().where('id', '=', quoteId))
        const refusal = quoteRefusal(q, userId, now)
        if (!q || refusal === 'missing') throw notFound('errors.quoteNotFound')
        if (refusal === 'used') throw conflict('errors.quoteUsed')
        if (refusal === 'expired') throw conflict('errors.quoteExpired')
        if ((await tx.exec(db.updateTable('exchange_quotes').set({ used_at: BigInt(now) }).where('id', '=', q.id).where('used_at', 'is', null))) !== 1) {
          throw conflict('errors.quoteUsed')
        }
        const from = q.from_asset as Asset
        const to = q.to_asset as Asset
        const rec = (await tx.row(
          db
            .insertInto('wallet_exchanges')
            .values({
              user_id: q.user_id,
              quote_id: q.id,
              from_asset: from,
              to_asset: to,
              amount: q.amount,
              receive: q.receive,
              fee: q.fee,
              price: q.price,
              created_at: BigInt(now),
            })
            .returningAll(),
        ))!
        const me = ledger.fund(userId)
        const moves: ledger.Move[] = [
          { from: me, to: ledger.TREASURY, asset: from, amount: q.amount },
          { from: ledger.TREASURY, to: me, asset: to, amount: q.receive },
        ]
        if (q.fee > 0n) moves.push({ from: ledger.TREASURY, to: ledger.FEES, asset: to, amount: q.fee })
        try {
          await ledger.post(tx, {
            ref: `exchange:${rec.id}`,
            reason: 'exchange',
            userId,
            at: now,
            meta: { exchange_id: rec.id, quote_id: q.id, price: formatMoney(q.price), fee: formatMoney(q.fee), fee_asset: to },
            moves,
          })
        } catch (err) {
          // Thrown before anything is written; the throw rolls back the record and the quote's use too.
          if (err instanceof ledger.InsufficientFunds) {
            if ('platform' in err.account) throw treasuryShort(to)
            throw aboveAvailable(from, err.current)
          }
          throw err
        }
        return exchangeToWire(rec)
      })
    },

    async exchangeList(userId: number, page: number, pageSize: number): Promise<PagedList<ExchangeRecord>> {
      const base = db.selectFrom('wallet_exchanges').where('user_id', '=', BigInt(userId))
      const { n } = await base.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirstOrThrow()
      const list = await base.selectAll().orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute()
      return { total: Number(n), list: list.map(exchangeToWire) }
    },
  }
}

/** The chain whose custody account stands for the demo treasury's funds of each asset. */
const DEMO_TREASURY_CHAIN: Record<HeldAsset, string> = { USDT: 'bsc', NADI: 'nadi', MEME: 'nadi' }

/**
 * Demo mode: gives the treasury its float from chain custody once (the dev chains' hot wallet holds
 * the tokens), so exchanges work from the first minute. In production an operator funds it; an
 * exchange the treasury cannot cover is refused with errors.exchangeTreasuryShort.
 */
export async function fundDemoTreasury(ctx: Ctx, amount = ctx.config.walletExchange.demoTreasury): Promise<void> {
  if (amount <= 0n) return
  const now = ctx.now()
  await ctx.sql.transaction(async (tx) => {
    for (const asset of WALLET_ASSETS) {
      const ref = `demo:treasury:${asset}`
      if (await ledger.findPosting(tx, ref)) continue
      await ledger.transfer(tx, { ref, reason: 'treasury_fund', userId: null, from: ledger.custody(DEMO_TREASURY_CHAIN[asset]), to: ledger.TREASURY, asset, amount, at: now })
    }
  })
}
