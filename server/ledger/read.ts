import { statement, type Queryable } from '../db/query/types.ts'
import { all, get, isSync, runOn, runSync, type Answer, type ReadOn, type Steps } from '../db/steps.ts'
import { ENTRY_ID_SPAN, LEDGER, type AccountRow } from './statements.ts'
import { ASSETS, type AccountRef, type Asset, type Balance, type Bucket, type UserAccountKind, type UserBalances, type UserId } from './types.ts'

const userIdOf = (id: UserId): bigint => {
  const n = BigInt(id)
  if (n <= 0n) throw new RangeError(`bad user id: ${id}`)
  return n
}

function row(account: AccountRef, asset: Asset): Steps<AccountRow | undefined> {
  return 'user' in account ? get(LEDGER.userAccount, account.user, account.kind, asset) : get(LEDGER.platformAccount, account.platform, asset)
}

/** Steps on the synchronous connection at once, or awaited on the asynchronous way. */
function on<C extends ReadOn, T>(c: C, steps: Steps<T>): Answer<C, T> {
  return (isSync(c) ? runSync(c, steps) : runOn(c, steps)) as Answer<C, T> // the branch taken is the one C names
}

function* idOf(account: AccountRef, asset: Asset): Steps<bigint | null> {
  return (yield* row(account, asset))?.id ?? null
}

/** The database id of an account, or null while it has never been used. For frozen holders. */
export function accountId<C extends ReadOn>(c: C, account: AccountRef, asset: Asset): Answer<C, bigint | null> {
  return on(c, idOf(account, asset))
}

function* balanceOf(account: AccountRef, asset: Asset): Steps<Balance> {
  const r = yield* row(account, asset)
  return { available: r?.available ?? 0n, frozen: r?.frozen ?? 0n }
}

/** One account's buckets; zero for an account never used. */
export function balance<C extends ReadOn>(c: C, account: AccountRef, asset: Asset): Answer<C, Balance> {
  return on(c, balanceOf(account, asset))
}

function* balancesOf(userId: UserId): Steps<UserBalances> {
  const out = {} as UserBalances
  for (const a of ASSETS) out[a] = { fund: { available: 0n, frozen: 0n }, trade: { available: 0n, frozen: 0n } }
  for (const r of yield* all(LEDGER.userBalances, userIdOf(userId))) {
    const slot = (out[r.asset] ??= { fund: { available: 0n, frozen: 0n }, trade: { available: 0n, frozen: 0n } })
    slot[r.kind] = { available: r.available, frozen: r.frozen }
  }
  return out
}

/** Both accounts of every known asset for a user, zeros included. One indexed read. */
export function balances<C extends ReadOn>(c: C, userId: UserId): Answer<C, UserBalances> {
  return on(c, balancesOf(userId))
}

export interface PostingRecord {
  id: bigint
  ref: string
  reason: string
  userId: bigint | null
  meta: unknown
  createdAt: number
  entries: { accountId: bigint; userId: bigint | null; kind: string; asset: Asset; bucket: Bucket; delta: bigint }[]
}

function* postingOf(ref: string): Steps<PostingRecord | null> {
  const p = yield* get(LEDGER.postingByRef, ref)
  if (!p) return null
  const first = p.id * ENTRY_ID_SPAN
  const entries = (yield* all(LEDGER.entriesOfPosting, first, first + ENTRY_ID_SPAN - 1n)).map((e) => ({
    accountId: e.account_id,
    userId: e.user_id,
    kind: e.kind,
    asset: e.asset,
    bucket: e.bucket,
    delta: e.delta,
  }))
  return { id: p.id, ref: p.ref, reason: p.reason, userId: p.user_id, meta: p.meta === null ? null : JSON.parse(p.meta), createdAt: Number(p.created_at), entries }
}

/** A posting by its ref, with its entries; null if none. */
export function findPosting<C extends ReadOn>(c: C, ref: string): Answer<C, PostingRecord | null> {
  return on(c, postingOf(ref))
}

/** One change to one of the user's account buckets, as money records show it. */
export interface MoneyEntry {
  entryId: bigint
  postingId: bigint
  ref: string
  reason: string
  meta: unknown
  createdAt: number
  asset: Asset
  account: UserAccountKind
  bucket: Bucket
  /** Signed, units of 1e-8. */
  delta: bigint
}

type EntryRow = {
  entry_id: bigint
  posting_id: bigint
  ref: string
  reason: string
  meta: string | null
  created_at: bigint
  asset: Asset
  kind: UserAccountKind
  bucket: Bucket
  delta: bigint
}

export interface EntriesQuery {
  /** From 1. */
  page?: number
  pageSize?: number
  reason?: string
  asset?: Asset
  account?: UserAccountKind
  bucket?: Bucket
}

/**
 * The changes to a user's own accounts (whoever posted them: an incoming transfer shows for the
 * recipient too), newest first, paged — `{ list, total }` as DESIGN §3 pages.
 */
export async function entriesFor(on: Queryable, userId: UserId, q: EntriesQuery = {}): Promise<{ list: MoneyEntry[]; total: number }> {
  const page = q.page ?? 1
  const pageSize = q.pageSize ?? 10
  if (!Number.isSafeInteger(page) || page < 1) throw new RangeError(`page must be an integer ≥ 1, got ${page}`)
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw new RangeError(`pageSize must be 1–1000, got ${pageSize}`)

  const where = ['e.user_id = ?']
  const params: unknown[] = [userIdOf(userId)]
  const filter = (sql: string, value: unknown) => {
    if (value === undefined) return
    where.push(sql)
    params.push(value)
  }
  filter('p.reason = ?', q.reason)
  filter('a.asset = ?', q.asset)
  filter('a.kind = ?', q.account)
  filter('e.bucket = ?', q.bucket)
  const from = `FROM ledger_entries e
    JOIN ledger_postings p ON p.id = e.posting_id
    JOIN ledger_accounts a ON a.id = e.account_id
    WHERE ${where.join(' AND ')}`

  const total = await on.get(statement<{ n: bigint }, unknown[]>(`SELECT COUNT(*) AS n ${from}`), ...params)
  const rows = await on.all(
    statement<EntryRow, unknown[]>(
      `SELECT e.id AS entry_id, e.posting_id, p.ref, p.reason, p.meta, p.created_at, a.asset, a.kind, e.bucket, e.delta ${from}
       ORDER BY e.id DESC LIMIT ? OFFSET ?`,
    ),
    ...params,
    BigInt(pageSize),
    BigInt((page - 1) * pageSize),
  )
  return {
    total: Number(total?.n ?? 0n),
    list: rows.map((r) => ({
      entryId: r.entry_id,
      postingId: r.posting_id,
      ref: r.ref,
      reason: r.reason,
      meta: r.meta === null ? null : JSON.parse(r.meta),
      createdAt: Number(r.created_at),
      asset: r.asset,
      account: r.kind,
      bucket: r.bucket,
      delta: r.delta,
    })),
  }
}
