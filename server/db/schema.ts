import type { Generated } from 'kysely'

// Integers come back as bigint: the driver runs with safe integers so no amount is ever rounded.
type Int = bigint

export interface UsersTable {
  id: Generated<Int>
  wallet_address: string | null
  code: string
  name: string
  inviter_id: Int | null
  depth: Int
  zhi_num: Generated<Int>
  team_num: Generated<Int>
  me_performance: Generated<Int>
  zhi_performance: Generated<Int>
  team_performance: Generated<Int>
  level: Generated<Int>
  is_root: Generated<Int>
  created_at: Int
}

export interface LoginNoncesTable {
  nonce: string
  address: string
  message: string
  invite_code: string | null
  chain_id: Int
  issued_at: Int
  expires_at: Int
}

export interface SessionsTable {
  id: Generated<Int>
  token_hash: string
  user_id: Int
  created_at: Int
  last_seen_at: Int
  expires_at: Int
  revoked_at: Int | null
  ip: string | null
  user_agent: string | null
}

export interface IdempotencyKeysTable {
  scope: string
  key: string
  request_hash: string
  status: Int | null
  body: string | null
  created_at: Int
}

export interface BannersTable {
  id: Generated<Int>
  image: string
  link: string | null
  sort: Int
  active: Generated<Int>
}

export interface BannerTextsTable {
  banner_id: Int
  lang: string
  title: string
}

export interface NoticesTable {
  id: Generated<Int>
  pinned: Int
  published_at: Int
  active: Generated<Int>
}

export interface NoticeTextsTable {
  notice_id: Int
  lang: string
  title: string
  content: string
}

export interface AddressesTable {
  id: Generated<Int>
  user_id: Int
  name: string
  /** Normalized: an optional + and digits only. */
  phone: string
  area: string
  /** The detailed address. */
  address: string
  /** 0 or 1; exactly one 1 per user who has addresses. */
  is_default: Generated<Int>
  created_at: Int
  updated_at: Int
}

export interface SettingsTable {
  key: string
  value: string
}

export interface DB {
  users: UsersTable
  login_nonces: LoginNoncesTable
  sessions: SessionsTable
  idempotency_keys: IdempotencyKeysTable
  banners: BannersTable
  banner_texts: BannerTextsTable
  notices: NoticesTable
  notice_texts: NoticeTextsTable
  addresses: AddressesTable
  settings: SettingsTable
}
