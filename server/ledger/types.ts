// The ledger's vocabulary: assets, accounts, buckets, moves. Pure, no I/O.

/**
 * The assets the ledger knows. Add one here to make it postable. MEME is the airdrop token: credited by
 * `cli airdrop`, held in fund accounts, never traded, exchanged, moved to trade, deposited nor withdrawn
 * (COINS below; the services refuse it by name).
 */
export const ASSETS = ['USDT', 'NADI', 'MEME'] as const
export type KnownAsset = (typeof ASSETS)[number]
/** An asset code. Typed as a string so a new asset is one line in ASSETS; unknown codes are refused at runtime. */
export type Asset = KnownAsset | (string & {})

export const isAsset = (a: unknown): a is Asset => typeof a === 'string' && (ASSETS as readonly string[]).includes(a)
/** The coins: what moves between a user's fund and trade accounts, trades, exchanges and pays earnings — not MEME. */
export const COINS: readonly KnownAsset[] = ['USDT', 'NADI']

/** Every account has two buckets: what the owner can use, and what an open order or withdrawal holds. */
export type Bucket = 'available' | 'frozen'
export const BUCKETS: readonly Bucket[] = ['available', 'frozen']

export type UserAccountKind = 'fund' | 'trade'
/** The platform's own accounts besides the chain custody ones (DESIGN §11); the audit lists each. */
export const PLATFORM_KINDS = ['fees', 'burned', 'treasury', 'releases', 'mining', 'savings', 'dust', 'fee_pool', 'loans', 'prize_daily', 'prize_total', 'activity_prizes'] as const
export type PlatformAccountKind = (typeof PLATFORM_KINDS)[number] | `custody:${string}`

/**
 * Names an account without its asset (a move carries the asset). Build them with the helpers below:
 * `fund(userId)`, `trade(userId)`, `custody('bsc')`, `FEES`, `BURNED`, `TREASURY`.
 */
export type AccountRef = { user: bigint; kind: UserAccountKind } | { platform: PlatformAccountKind }

export type UserId = bigint | number

export const fund = (userId: UserId): AccountRef => ({ user: BigInt(userId), kind: 'fund' })
export const trade = (userId: UserId): AccountRef => ({ user: BigInt(userId), kind: 'trade' })
/** The chain's mirror: the only kind of account allowed to go negative. */
export const custody = (chainKey: string): AccountRef => ({ platform: `custody:${chainKey}` })
export const FEES: AccountRef = Object.freeze({ platform: 'fees' })
export const BURNED: AccountRef = Object.freeze({ platform: 'burned' })
export const TREASURY: AccountRef = Object.freeze({ platform: 'treasury' })
/** Funds the release plans of product orders (DESIGN §10): the operator (or the demo) keeps it topped up. */
export const RELEASES: AccountRef = Object.freeze({ platform: 'releases' })
/** Pays mining: devices, destroy and joint power, nodes (DESIGN §11). */
export const MINING: AccountRef = Object.freeze({ platform: 'mining' })
/** Pays savings (pledge) interest. */
export const SAVINGS: AccountRef = Object.freeze({ platform: 'savings' })
/** What the settlement's floors leave (DESIGN §11 rounding): every unit accounted for. */
export const DUST: AccountRef = Object.freeze({ platform: 'dust' })
/** Lends USDT against node stakes and receives the repayments (issue 11 part 6). */
export const LOANS: AccountRef = Object.freeze({ platform: 'loans' })
/** The ranking's prize pools (SPEC §1, issue 12): fed by a share of platform income, paid to each day's top and to the all-time top. */
export const PRIZE_DAILY: AccountRef = Object.freeze({ platform: 'prize_daily' })
export const PRIZE_TOTAL: AccountRef = Object.freeze({ platform: 'prize_total' })
/** Holds what activities (campaigns) will pay their winners when their windows close. */
export const ACTIVITY_PRIZES: AccountRef = Object.freeze({ platform: 'activity_prizes' })

export const isCustodyKind = (kind: string): boolean => kind.startsWith('custody:')

/** A stable text key for an account and asset, e.g. "u:42:fund:USDT" or "p:custody:bsc:NADI". */
export function accountKey(account: AccountRef, asset: Asset): string {
  return 'user' in account ? `u:${account.user}:${account.kind}:${asset}` : `p:${account.platform}:${asset}`
}

/** "user 42 fund" / "custody:bsc", for messages. */
export function describeAccount(account: AccountRef): string {
  return 'user' in account ? `user ${account.user} ${account.kind}` : account.platform
}

/** Both buckets of one account, units of 1e-8. */
export interface Balance {
  available: bigint
  frozen: bigint
}

/** What a user sees: both accounts per asset. */
export type UserBalances = Record<Asset, { fund: Balance; trade: Balance }>

/** Value leaving `from` and arriving at `to`, both in `asset`. Buckets default to 'available'. */
export interface Move {
  from: AccountRef
  to: AccountRef
  asset: Asset
  /** Units of 1e-8; a positive bigint. */
  amount: bigint
  fromBucket?: Bucket
  toBucket?: Bucket
}

/** The raw form: a signed change to one bucket. A posting's entries must sum to zero per asset. */
export interface EntryInput {
  account: AccountRef
  asset: Asset
  bucket: Bucket
  /** Units of 1e-8; a non-zero bigint. */
  delta: bigint
}

export type Json = null | boolean | number | string | bigint | Json[] | { [key: string]: Json | undefined }

export interface PostingHeader {
  /** The action's own unique key: a retried action with the same ref posts once. ≤ 200 characters. */
  ref: string
  /** A short code for money records, e.g. 'deposit', 'transfer', 'withdraw.freeze'. */
  reason: string
  /**
   * Whose money record this is. Left out: the one user whose accounts the posting touches, if there is
   * exactly one, else none. null: explicitly the platform's own.
   */
  userId?: UserId | null
  /** Anything the money record should show later (tx hash, order id…). Stored as JSON with sorted keys. */
  meta?: Json
  /** Unix ms; defaults to Date.now(). Services pass ctx.now(). Not part of a replay's comparison. */
  at?: number
}

export interface PostingInput extends PostingHeader {
  moves?: Move[]
  entries?: EntryInput[]
}

export interface PostResult {
  id: bigint
  ref: string
  /** true when the ref was already posted with the same content and nothing new was written. */
  replayed: boolean
}
