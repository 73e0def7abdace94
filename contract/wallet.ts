import { Type, type Static } from 'typebox'
import { Millis, Money, SignedMoney } from './envelope.ts'

/** The coins: deposited, traded, exchanged, moved between accounts (NADI also withdrawn). */
export const Asset = Type.Union([Type.Literal('USDT'), Type.Literal('NADI')])
export type Asset = Static<typeof Asset>
/** What a wallet holds: the coins and MEME, the airdrop token (SPEC §1), which stays in the fund account. */
export const HeldAsset = Type.Union([Type.Literal('USDT'), Type.Literal('NADI'), Type.Literal('MEME')])
export type HeldAsset = Static<typeof HeldAsset>
/** The two accounts every user has per asset (DESIGN §8). */
export const AccountKind = Type.Union([Type.Literal('fund'), Type.Literal('trade')])
export type AccountKind = Static<typeof AccountKind>

const Bucket = Type.Object({ available: Money, frozen: Money })
export const AssetBalance = Type.Object({ asset: HeldAsset, fund: Bucket, trade: Bucket })
export type AssetBalance = Static<typeof AssetBalance>
export const Balances = Type.Object({ assets: Type.Array(AssetBalance) })
export type Balances = Static<typeof Balances>

/**
 * What keeps money frozen, by the ledger audit's holder names (server/ledger/holders.ts): an active
 * node's stake, a pledge waiting for release, an open trade order, a withdrawal not yet confirmed.
 */
export const FrozenReason = Type.Union([Type.Literal('nodes'), Type.Literal('pledges'), Type.Literal('orders'), Type.Literal('withdrawals')])
export type FrozenReason = Static<typeof FrozenReason>
/** One reason's share of one account's frozen balance; the parts of an account sum to its frozen. */
export const FrozenPart = Type.Object({ asset: HeldAsset, account: AccountKind, reason: FrozenReason, amount: Money })
export type FrozenPart = Static<typeof FrozenPart>
/** GET /api/v1/wallet/holdings — what the frozen balances are for, and what the caller owes (open loans' debt). */
export const Holdings = Type.Object({
  frozen: Type.Array(FrozenPart),
  /** Per asset, what open loans owe now (principal and interest, less repayments); empty without one. */
  debts: Type.Array(Type.Object({ asset: Asset, amount: Money })),
})
export type Holdings = Static<typeof Holdings>

/** POST /api/v1/wallet/transfer — between the user's own fund and trade accounts (/draw). MEME is named so it gets its own refusal. */
export const TransferBody = Type.Object({ asset: HeldAsset, amount: Money, from: AccountKind, to: AccountKind })
export type TransferBody = Static<typeof TransferBody>
export const TransferRecord = Type.Object({ id: Type.Integer(), asset: Asset, amount: Money, from: AccountKind, to: AccountKind, created_at: Millis })
export type TransferRecord = Static<typeof TransferRecord>

/** GET /api/v1/wallet/exchangeQuote — NADI ↔ USDT at the market's last price, or the reference price before it trades. MEME is named so it gets its own refusal. */
export const ExchangeQuoteQuery = Type.Object({ from: HeldAsset, to: HeldAsset, amount: Money })
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
  /** A money-record type (the posting's reason), e.g. deposit, withdraw, transfer, exchange, settlement, pledge.release. */
  type: Type.Optional(Type.String({ pattern: '^[a-z_.]{1,32}$' })),
})
export type MoneyLogQuery = Static<typeof MoneyLogQuery>

/**
 * What a money record (or one line of a day's earnings) refers to, named by the server; the app maps
 * it to its own route (src/features/wallet/earnings.ts), so no route is spelled on the server.
 */
export const MoneyTarget = Type.Union([
  /** A settled day's earnings, position by position (/wallet/earnings/{day}); day: days since 1970-01-01 UTC. */
  Type.Object({ screen: Type.Literal('earnings'), day: Type.Integer({ minimum: 0 }) }),
  /** Destroy, joint or trial power, or a device: the power log. */
  Type.Object({ screen: Type.Literal('powerLog'), position_id: Type.Integer() }),
  /** A node: its tier's detail, which lists the caller's nodes of that tier. */
  Type.Object({ screen: Type.Literal('node'), node_id: Type.Integer(), tier_id: Type.Integer() }),
  /** A pledge: its release log (the product's detail is /pledge/detail, where one pledges). */
  Type.Object({ screen: Type.Literal('pledge'), pledge_id: Type.Integer() }),
  Type.Object({ screen: Type.Literal('loan'), loan_id: Type.Integer() }),
  /** Release instalments of product orders: the release records. */
  Type.Object({ screen: Type.Literal('release') }),
])
export type MoneyTarget = Static<typeof MoneyTarget>

export const MoneyRecord = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  asset: HeldAsset,
  account: AccountKind,
  /** Signed: "-12.5" left the account. */
  amount: SignedMoney,
  created_at: Millis,
  /** What produced it, when the app can show that: a settlement's day, a pledge, a node, a loan… */
  link: Type.Optional(MoneyTarget),
})
export type MoneyRecord = Static<typeof MoneyRecord>

/**
 * GET /api/v1/wallet/earnings?day= — what the caller's positions earned on one settled UTC day. The
 * day is a string on the wire so that a malformed one answers its own message, not "invalid day".
 */
export const EarningsQuery = Type.Object({ day: Type.String({ maxLength: 32 }) }, { additionalProperties: false })
export type EarningsQuery = Static<typeof EarningsQuery>

export const PositionKind = Type.Union([
  Type.Literal('device'),
  Type.Literal('destroy'),
  Type.Literal('joint'),
  Type.Literal('trial'),
  Type.Literal('node'),
  Type.Literal('pledge'),
])
export type PositionKind = Static<typeof PositionKind>

/** One position's earning of the day: its settlement line, or a node's fee grant — node_fee_share (withdraw fees) or node_dividend (trading fees). */
export const EarningLine = Type.Object({
  position_id: Type.Integer(),
  kind: PositionKind,
  /** What made the position: 'order:12', 'device:3', 'node:4', 'pledge:7', 'trial:42'. */
  source: Type.String(),
  /** The money record it is part of: settlement, node_fee_share or node_dividend. */
  reason: Type.Union([Type.Literal('settlement'), Type.Literal('node_fee_share'), Type.Literal('node_dividend')]),
  asset: Asset,
  amount: Money,
  target: MoneyTarget,
})
export type EarningLine = Static<typeof EarningLine>

export const DayEarnings = Type.Object({
  day: Type.Integer(),
  /** The day's start, UTC. */
  date: Millis,
  settled_at: Millis,
  /** Per asset, the sum of the lines. */
  totals: Type.Array(Type.Object({ asset: Asset, amount: Money })),
  list: Type.Array(EarningLine),
})
export type DayEarnings = Static<typeof DayEarnings>
