import { Type, type Static } from 'typebox'
import { Millis, Money, SignedMoney } from './envelope.ts'

export const Asset = Type.Union([Type.Literal('USDT'), Type.Literal('NADI')])
export type Asset = Static<typeof Asset>
/** The two accounts every user has per asset (DESIGN §8). */
export const AccountKind = Type.Union([Type.Literal('fund'), Type.Literal('trade')])
export type AccountKind = Static<typeof AccountKind>

const Bucket = Type.Object({ available: Money, frozen: Money })
export const AssetBalance = Type.Object({ asset: Asset, fund: Bucket, trade: Bucket })
export type AssetBalance = Static<typeof AssetBalance>
export const Balances = Type.Object({ assets: Type.Array(AssetBalance) })
export type Balances = Static<typeof Balances>

/** POST /api/v1/wallet/transfer — between the user's own fund and trade accounts (/draw). */
export const TransferBody = Type.Object({ asset: Asset, amount: Money, from: AccountKind, to: AccountKind })
export type TransferBody = Static<typeof TransferBody>
export const TransferRecord = Type.Object({ id: Type.Integer(), asset: Asset, amount: Money, from: AccountKind, to: AccountKind, created_at: Millis })
export type TransferRecord = Static<typeof TransferRecord>

/** GET /api/v1/wallet/exchangeQuote — NADI ↔ USDT at the market's last price, or the reference price before it trades. */
export const ExchangeQuoteQuery = Type.Object({ from: Asset, to: Asset, amount: Money })
export type ExchangeQuoteQuery = Static<typeof ExchangeQuoteQuery>
export const ExchangeQuote = Type.Object({
  quote_id: Type.String(),
  from: Asset,
  to: Asset,
  amount: Money,
  /** What the user receives, after the fee. */
  receive: Money,
  /** USDT per NADI. */
  price: Money,
  fee: Money,
  fee_asset: Asset,
  expires_at: Millis,
})
export type ExchangeQuote = Static<typeof ExchangeQuote>
/** POST /api/v1/wallet/exchange — confirms a quote the user has seen. */
export const ExchangeBody = Type.Object({ quote_id: Type.String({ minLength: 8, maxLength: 64 }) })
export type ExchangeBody = Static<typeof ExchangeBody>
export const ExchangeRecord = Type.Object({ id: Type.Integer(), from: Asset, to: Asset, amount: Money, receive: Money, price: Money, fee: Money, created_at: Millis })
export type ExchangeRecord = Static<typeof ExchangeRecord>

/** GET /api/v1/wallet/moneyLog — every posting the user can see, newest first (/wallet/moneyLog). */
export const MoneyLogQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  /** A money-record type (the posting's reason), e.g. deposit, withdraw, transfer, exchange, fee. */
  type: Type.Optional(Type.String({ pattern: '^[a-z_]{1,32}$' })),
})
export type MoneyLogQuery = Static<typeof MoneyLogQuery>
export const MoneyRecord = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  asset: Asset,
  account: AccountKind,
  /** Signed: "-12.5" left the account. */
  amount: SignedMoney,
  created_at: Millis,
})
export type MoneyRecord = Static<typeof MoneyRecord>
