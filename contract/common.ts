import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'

export const Banner = Type.Object({
  id: Type.Integer(),
  image: Type.String(),
  title: Type.String(),
  link: Type.Union([Type.String(), Type.Null()]),
})
export type Banner = Static<typeof Banner>

export const MainInfo = Type.Object({
  member_count: Type.Integer(),
  new_members_today: Type.Integer(),
  /** NADI price in USDT: the market's last trade, or the reference price until the market has one. */
  nadi_price: Money,
  /** Where nadi_price comes from: the NADI/USDT market's last trade, or the configured reference (no trade yet). */
  nadi_price_source: Type.Union([Type.Literal('market'), Type.Literal('reference')]),
  notice_count: Type.Integer(),
  server_time: Millis,
})
export type MainInfo = Static<typeof MainInfo>

export const ChainInfo = Type.Object({
  id: Type.Integer(),
  key: Type.String(),
  name: Type.String(),
  native_symbol: Type.String(),
})
export type ChainInfo = Static<typeof ChainInfo>

export const PublicConfig = Type.Object({
  languages: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
  default_lang: Type.String(),
  chains: Type.Array(ChainInfo),
  /** The chain the app asks a wallet to sign in on. */
  login_chain_id: Type.Integer(),
  limits: Type.Object({
    page_size: Type.Integer(),
    withdraw_min: Money,
    withdraw_confirmations: Type.Integer(),
    display_decimals: Type.Integer(),
    session_idle_ms: Type.Integer(),
  }),
  /** A chain upgrade the home screen warns about; the warning can be closed after the countdown. */
  chain_notice: Type.Union([
    Type.Object({ id: Type.String(), countdown_seconds: Type.Integer({ minimum: 0 }), starts_at: Millis, ends_at: Millis }),
    Type.Null(),
  ]),
  demo: Type.Boolean(),
  /** Every other API request must come sealed (issue 20, contract/seal.ts). */
  envelope: Type.Boolean(),
})
export type PublicConfig = Static<typeof PublicConfig>
