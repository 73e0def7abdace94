import type { Generated } from 'kysely'

// Integers come back as bigint: the driver runs with safe integers so no amount is ever rounded.
type Int = bigint

/** A notice's or banner's stored state (migration 032; server/modules/notice/rules.ts derives "scheduled"). */
export type StoredState = 'draft' | 'published' | 'unpublished'

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
  /** Nodes held by members below the user, by tier (017_team.sql). */
  team_elite: Generated<Int>
  team_core: Generated<Int>
  team_genesis: Generated<Int>
  /** When team_performance last grew, unix ms: the total ranking's tie-break (021_team_reached_at.sql). */
  team_reached_at: Generated<Int>
}

export interface LoginNoncesTable {
  nonce: string
  address: string
  message: string
  invite_code: string | null
  chain_id: Int
  issued_at: Int
  expires_at: Int
  /** The envelope's handshake the message was asked under (issue 20); null with the envelope off. */
  handshake_id: string | null
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
  /** The envelope's handshake the token works with, and the one it was last renewed from (issue 20). */
  handshake_id: string | null
  previous_handshake_id: string | null
}

export interface HandshakesTable {
  id: string
  /** enc ‖ mac, wrapped (server/http/sealCrypto.ts wrapKeys). */
  keys: string
  created_at: Int
  expires_at: Int
}

export interface SealSeenTable {
  sign: string
  expires_at: Int
}

export interface IdempotencyKeysTable {
  scope: string
  key: string
  request_hash: string
  status: Int | null
  body: string | null
  created_at: Int
  /** The request that wrote the row with its effect (null: a row of the reservations before migration 031). */
  holder: string | null
}

export interface BannersTable {
  id: Generated<Int>
  image: string
  link: string | null
  sort: Int
  /** Migration 010: the home carousel or the mall's. */
  place: Generated<'home' | 'mall'>
  /** Migration 031: the content file's key (home banners an operator loads); NULL for the catalog's mall banners. */
  key: string | null
  state: Generated<StoredState>
  /** Shown from this moment (0: since always). */
  published_at: Generated<Int>
  updated_at: Generated<Int>
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
  /** Migration 031: the content file's key; NULL for notices written before it. */
  key: string | null
  state: Generated<StoredState>
  updated_at: Generated<Int>
}

export interface NoticeTextsTable {
  notice_id: Int
  lang: string
  title: string
  content: string
}

export interface NoticeReadsTable {
  user_id: Int
  notice_id: Int
  read_at: Int
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

/** server/ledger: one row per (owner, kind, asset); balances in units of 1e-8. */
export interface LedgerAccountsTable {
  id: Generated<Int>
  /** NULL for platform accounts. */
  user_id: Int | null
  /** 'fund' | 'trade' (user); 'custody:<chainKey>' | 'fees' | 'burned' | 'treasury' (platform). */
  kind: string
  asset: string
  available: Generated<Int>
  frozen: Generated<Int>
  created_at: Int
}

/** Append-only. */
export interface LedgerPostingsTable {
  id: Generated<Int>
  ref: string
  reason: string
  user_id: Int | null
  /** JSON text, keys sorted. */
  meta: string | null
  created_at: Int
}

/** Append-only; one row per (posting, account, bucket). */
export interface LedgerEntriesTable {
  id: Generated<Int>
  posting_id: Int
  account_id: Int
  /** The account's owner (NULL for platform accounts). */
  user_id: Int | null
  bucket: 'available' | 'frozen'
  delta: Int
}

/** server/modules/wallet: fund ↔ trade transfers; ledger ref 'transfer:<id>'. */
export interface WalletTransfersTable {
  id: Generated<Int>
  user_id: Int
  asset: string
  amount: Int
  from_account: 'fund' | 'trade'
  to_account: 'fund' | 'trade'
  created_at: Int
}

/** server/modules/wallet: an exchange price shown to a user, confirmable once before expires_at. */
export interface ExchangeQuotesTable {
  id: string
  user_id: Int
  from_asset: string
  to_asset: string
  amount: Int
  receive: Int
  fee: Int
  /** USDT per NADI, units of 1e-8. */
  price: Int
  created_at: Int
  expires_at: Int
  used_at: Int | null
}

/** server/modules/wallet: confirmed exchanges; ledger ref 'exchange:<id>'. */
export interface WalletExchangesTable {
  id: Generated<Int>
  user_id: Int
  quote_id: string
  from_asset: string
  to_asset: string
  amount: Int
  receive: Int
  fee: Int
  price: Int
  created_at: Int
}

/** server/modules/recharge: deposit addresses handed out, watched by server/chain/depositWatcher.ts. */
export interface DepositAddressesTable {
  user_id: Int
  chain: string
  /** Checksummed. */
  address: string
  created_at: Int
}

/** server/chain/depositWatcher.ts: one row per Transfer log to a deposit address. */
export interface DepositsTable {
  id: Generated<Int>
  user_id: Int
  chain: string
  coin: string
  tx_hash: string
  log_index: Int
  block_number: Int
  block_hash: string
  from_address: string
  to_address: string
  /** Credited units of 1e-8 (the token amount floored). */
  amount: Int
  /** The token amount as sent (18 decimals), decimal text. */
  amount_wei: string
  confirmations: Generated<Int>
  required: Int
  status: 'confirming' | 'credited' | 'dropped'
  created_at: Int
  updated_at: Int
  credited_at: Int | null
}

/** server/chain/depositWatcher.ts: the last block read per chain. */
export interface DepositCursorsTable {
  chain: string
  block: Int
  block_hash: string
  updated_at: Int
}

/** server/modules/withdraw (migration 005): amounts in units of 1e-8. */
export interface WithdrawalsTable {
  id: Generated<Int>
  user_id: Int
  coin: 'NADI'
  /** A chain key ('bsc', 'nadi'). */
  chain: string
  /** What the address receives. */
  amount: Int
  /** Taken on top of amount. */
  fee: Int
  /** EIP-55 checksummed. */
  address: string
  status: 'requested' | 'approved' | 'broadcast' | 'confirmed' | 'failed'
  approved_by: 'auto' | 'operator' | null
  /** The hot wallet that signed. */
  from_address: string | null
  tx_hash: string | null
  /** The signed transaction, stored before it is broadcast so it can be broadcast again after a crash. */
  raw_tx: string | null
  nonce: Int | null
  block_number: Int | null
  confirmations: Generated<Int>
  attempts: Generated<Int>
  last_error: string | null
  fail_reason: 'rejected' | 'send_failed' | 'reverted' | 'dropped' | null
  fail_detail: string | null
  created_at: Int
  updated_at: Int
  approved_at: Int | null
  broadcast_at: Int | null
  finished_at: Int | null
}

/** server/payment (migration 006): amounts in units of 1e-8. */
export interface PaymentsTable {
  id: Generated<Int>
  order_ref: string
  user_id: Int
  method: 'balance' | 'chain'
  asset: string
  amount: Int
  /** 'treasury', 'fees', 'u:<id>:fund'… (server/payment encodePayee). */
  payee: string
  status: 'pending' | 'confirming' | 'paid' | 'failed'
  chain: string | null
  /** Lowercase. */
  tx_hash: string | null
  /** The user's wallet, lowercase: the sender the transfer must come from. */
  from_address: string | null
  /** The receiving address, checksummed. */
  to_address: string | null
  amount_wei: string | null
  block_number: Int | null
  block_hash: string | null
  confirmations: Generated<Int>
  required: Generated<Int>
  fail_reason: 'reverted' | 'not_found' | 'wrong_recipient' | 'wrong_token' | 'wrong_sender' | 'amount_too_low' | 'order_expired' | 'order_cancelled' | null
  fail_detail: string | null
  created_at: Int
  updated_at: Int
  paid_at: Int | null
}

/** Migration 010 (DESIGN §10): catalogs. Texts are JSON objects keyed by LANG code. */
export type Area = 'machine' | 'gold' | 'car'

export interface ProductCategoriesTable {
  id: Generated<Int>
  area: Area
  slug: string
  name: string
  sort: Generated<Int>
  active: Generated<Int>
}

export interface ProductsTable {
  id: Generated<Int>
  area: Area
  slug: string
  category_id: Int | null
  kind: string | null
  name: string
  summary: string
  body: string
  cover: string
  images: Generated<string>
  ships: Int
  release_days: Generated<Int>
  release_ppm: Generated<Int>
  tags: Generated<string>
  sort: Generated<Int>
  active: Generated<Int>
  created_at: Int
}

export interface ProductSpecsTable {
  id: Generated<Int>
  product_id: Int
  slug: string
  name: string
  price: Int | null
  weight_mg: Int | null
  craft_fee: Int | null
  power: Generated<Int>
  stock: Int
  sold: Generated<Int>
  sort: Generated<Int>
  active: Generated<Int>
}

export interface GoldPricesTable {
  at: Int
  price: Int
}

export type Fulfilment = 'pending_shipment' | 'pending_receipt' | 'completed'

export interface PayOrdersTable {
  id: Generated<Int>
  order_no: string
  user_id: Int
  type: 'device' | 'gold' | 'car' | 'node' | 'destroy' | 'joint'
  asset: 'USDT' | 'NADI'
  total: Int
  state: Generated<'open' | 'cancelled' | 'completed'>
  created_at: Int
  expires_at: Int
  ended_at: Int | null
  ships: Generated<Int>
  ship_to: string | null
  remark: string | null
  fulfilment: Fulfilment | null
  paid_at: Int | null
  express_company: string | null
  express_no: string | null
  shipped_at: Int | null
  received_at: Int | null
  received_by: 'user' | 'auto' | null
}

export interface OrderLinesTable {
  id: Generated<Int>
  order_id: Int
  product_id: Int
  spec_id: Int
  quantity: Int
  unit_price: Int
  power: Generated<Int>
  name: string
  spec_name: string
  cover: string
}

export interface ReleasePlansTable {
  id: Generated<Int>
  user_id: Int
  order_id: Int
  area: Area
  asset: string
  total: Int
  days: Int
  start_day: Int
  released: Generated<Int>
  released_days: Generated<Int>
  status: Generated<'releasing' | 'completed'>
  price: string
  value: Int
  created_at: Int
}

export interface ReleaseLinesTable {
  plan_id: Int
  day: Int
  amount: Int
}

export interface ReleaseDaysTable {
  day: Int
  plans: Int
  users: Int
  total: Int
  posted_at: Int
}

export interface UploadsTable {
  key: string
  user_id: Int
  purpose: string
  content_type: string
  size: Int
  store: 'local' | 's3'
  created_at: Int
  expires_at: Int
  uploaded_at: Int | null
  etag: string | null
  used_by: Int | null
  used_at: Int | null
}

export interface CarApplicationsTable {
  id: Generated<Int>
  user_id: Int
  goods_id: Int
  goods_name: string
  cover: string
  name: string
  phone: string
  id_number: string
  city: string
  remark: Generated<string>
  id_front: string
  id_back: string | null
  driver_licence: string
  status: Generated<'submitted' | 'reviewing' | 'approved' | 'rejected'>
  reason: string | null
  created_at: Int
  updated_at: Int
  reviewed_at: Int | null
  decided_at: Int | null
}

/** Migration 012 (DESIGN §11): positions and the daily settlement. */
export interface PositionsTable {
  id: Generated<Int>
  user_id: Int
  kind: 'device' | 'destroy' | 'joint' | 'trial' | 'node' | 'pledge'
  status: Generated<'active' | 'paused' | 'ended'>
  asset: string
  base: Int
  rate_ppm: Int
  period_days: Generated<Int>
  remaining: Int | null
  paid: Generated<Int>
  gift: Generated<Int>
  start_day: Int
  end_day: Int | null
  settled_day: Int | null
  source: string
  created_at: Int
  ended_at: Int | null
}

export interface SettlementLinesTable {
  position_id: Int
  day: Int
  amount: Int
  frac: Int
}

export interface SettlementTotalsTable {
  day: Int
  kind: string
  asset: string
  lines: Int
  computed: Int
  paid: Int
  dust: Int
}

export interface SettlementDaysTable {
  day: Int
  positions: Int
  users: Int
  started_at: Int
  finished_at: Int
}

/** Migration 016: what was paid for destroy, joint and trial power. */
export interface MiningBuysTable {
  id: Generated<Int>
  user_id: Int
  kind: 'destroy' | 'joint' | 'trial'
  order_id: Int | null
  position_id: Int
  asset: string
  amount: Int
  price: Int
  usdt_value: Int
  power: Int
  gift: Int
  created_at: Int
}

/** The NADI price a joint-mining order was placed at, which its power is bought at once paid. */
export interface JointOrderPricesTable {
  order_id: Int
  price: Int
}

/** Migration 033: a joint-mining NADI price locked for the user until expires_at, confirmable once. */
export interface JointQuotesTable {
  id: string
  user_id: Int
  /** USDT per NADI, units of 1e-8. */
  price: Int
  created_at: Int
  expires_at: Int
  used_at: Int | null
}

/** Migration 015: savings (pledge) products, pledges and their releases. */
export interface PledgeProductsTable {
  id: Generated<Int>
  slug: string
  name: string
  day: Int
  min_pledge: Int
  day_rate_ppm: Int
  month_rate_ppm: Int
  total_pledge: Int
  pledged: Generated<Int>
  power_pool: Generated<Int>
  sort: Generated<Int>
  active: Generated<Int>
  created_at: Int
  updated_at: Int
}

export interface PledgesTable {
  id: Generated<Int>
  user_id: Int
  product_id: Int
  position_id: Int | null
  mode: 'day' | 'month'
  amount: Int
  rate_ppm: Int
  days: Int
  start_day: Int
  end_day: Int
  status: Generated<'waiting' | 'redeemed'>
  created_at: Int
  released_at: Int | null
}

export interface PledgeReleasesTable {
  id: Generated<Int>
  pledge_id: Int
  day: Int
  amount: Int
  created_at: Int
}

/** 013_devices.sql: one device per unit of a paid device order. */
export interface DevicesTable {
  id: Generated<Int>
  user_id: Int
  order_id: Int
  line_id: Int
  unit: Int
  product_id: Int
  spec_id: Int
  power: Int
  status: 'pending' | 'success'
  position_id: Int | null
  activated_at: Int | null
  created_at: Int
}

/** A device's activation code, hashed (SHA-256 of the normalized code). */
export interface DeviceCodesTable {
  device_id: Int
  code_hash: string
  issued_at: Int
  used_at: Int | null
}

/** Activation attempts: the wrong-code rate limit and a device's "failed" state. */
export interface DeviceAttemptsTable {
  id: Generated<Int>
  user_id: Int
  device_id: Int | null
  ok: Int
  at: Int
}

/** Migration 014: Super Miner node tiers, nodes bought, their fee shares, loan plans and loans. */
export interface NodeTiersTable {
  id: Generated<Int>
  type: 'elite' | 'core' | 'genesis'
  seats_total: Int
  seats_left: Int
  limit_num: Int
  amount: Int
  days: Int
  power: Int
  level_id: Int
  withdraw_rate_ppm: Int
  machine_rate_ppm: Int
  airdrop_multiplier: Generated<Int>
  advanced_agent: Generated<Int>
  active: Generated<Int>
  sort: Generated<Int>
  created_at: Int
  updated_at: Int
}

export interface NodeOrdersTable {
  id: Generated<Int>
  user_id: Int
  tier_id: Int
  order_id: Int
  status: Generated<'pending' | 'active' | 'returned' | 'cancelled'>
  amount: Int
  days: Int
  power: Int
  level_id: Int
  withdraw_rate_ppm: Int
  machine_rate_ppm: Int
  airdrop_multiplier: Int
  advanced_agent: Int
  position_id: Int | null
  start_day: Int | null
  end_day: Int | null
  created_at: Int
  paid_at: Int | null
  returned_at: Int | null
}

export interface NodeFeeSharesTable {
  node_id: Int
  day: Int
  asset: string
  amount: Int
}

export interface NodeFeeDaysTable {
  day: Int
  asset: string
  fees: Int
  pool: Int
  paid: Int
  dust: Int
}

export interface LoanPlansTable {
  id: Generated<Int>
  slug: string
  ltv_ppm: Int
  daily_rate_ppm: Int
  max_days: Int
  active: Generated<Int>
  sort: Generated<Int>
  created_at: Int
}

export interface LoansTable {
  id: Generated<Int>
  user_id: Int
  plan_id: Int
  node_id: Int
  status: Generated<'open' | 'repaid'>
  principal: Int
  interest: Generated<Int>
  repaid: Generated<Int>
  debt: Int
  daily_rate_ppm: Int
  start_day: Int
  due_day: Int
  created_at: Int
  repaid_at: Int | null
}

export interface LoanInterestTable {
  loan_id: Int
  day: Int
  amount: Int
}

/** The console's operators (migration 036, server/modules/operator). */
export interface OperatorsTable {
  id: Generated<Int>
  address: string
  role: 'viewer' | 'support' | 'finance' | 'admin'
  added_at: Int
  added_by: string
  removed_at: Int | null
  removed_by: string | null
}

export interface OperatorNoncesTable {
  nonce: string
  address: string
  message: string
  issued_at: Int
  expires_at: Int
  handshake_id: string | null
}

export interface OperatorSessionsTable {
  id: Generated<Int>
  token_hash: string
  operator_id: Int
  created_at: Int
  last_seen_at: Int
  expires_at: Int
  revoked_at: Int | null
  ip: string | null
  user_agent: string | null
  handshake_id: string | null
}

/** The operator log: append-only (its triggers refuse UPDATE and DELETE). */
export interface OplogTable {
  id: Generated<Int>
  at: Int
  actor: string
  role: 'viewer' | 'support' | 'finance' | 'admin' | null
  action: string
  object_type: string
  object_id: string
  before: string | null
  after: string | null
  reason: string | null
}

export interface DB {
  users: UsersTable
  login_nonces: LoginNoncesTable
  sessions: SessionsTable
  operators: OperatorsTable
  operator_nonces: OperatorNoncesTable
  operator_sessions: OperatorSessionsTable
  oplog: OplogTable
  handshakes: HandshakesTable
  seal_seen: SealSeenTable
  idempotency_keys: IdempotencyKeysTable
  banners: BannersTable
  banner_texts: BannerTextsTable
  notices: NoticesTable
  notice_texts: NoticeTextsTable
  notice_reads: NoticeReadsTable
  addresses: AddressesTable
  settings: SettingsTable
  ledger_accounts: LedgerAccountsTable
  ledger_postings: LedgerPostingsTable
  ledger_entries: LedgerEntriesTable
  wallet_transfers: WalletTransfersTable
  exchange_quotes: ExchangeQuotesTable
  wallet_exchanges: WalletExchangesTable
  deposit_addresses: DepositAddressesTable
  deposits: DepositsTable
  deposit_cursors: DepositCursorsTable
  withdrawals: WithdrawalsTable
  payments: PaymentsTable
  product_categories: ProductCategoriesTable
  products: ProductsTable
  product_specs: ProductSpecsTable
  gold_prices: GoldPricesTable
  pay_orders: PayOrdersTable
  order_lines: OrderLinesTable
  release_plans: ReleasePlansTable
  release_lines: ReleaseLinesTable
  release_days: ReleaseDaysTable
  positions: PositionsTable
  settlement_lines: SettlementLinesTable
  settlement_totals: SettlementTotalsTable
  settlement_days: SettlementDaysTable
  pledge_products: PledgeProductsTable
  pledges: PledgesTable
  pledge_releases: PledgeReleasesTable
  mining_buys: MiningBuysTable
  joint_order_prices: JointOrderPricesTable
  joint_quotes: JointQuotesTable
  uploads: UploadsTable
  car_applications: CarApplicationsTable
  node_tiers: NodeTiersTable
  node_orders: NodeOrdersTable
  node_fee_shares: NodeFeeSharesTable
  node_fee_days: NodeFeeDaysTable
  node_dividends: NodeFeeSharesTable
  node_dividend_days: NodeFeeDaysTable
  loan_plans: LoanPlansTable
  loans: LoansTable
  loan_interest: LoanInterestTable
  devices: DevicesTable
  device_codes: DeviceCodesTable
  device_attempts: DeviceAttemptsTable
}
