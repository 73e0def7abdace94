import { statement, statements, type Queryable } from './query/types.ts'
import type { KeyedEffect, KeyAnswer } from './keyedEffect.ts'

// The rows of idempotency_keys an effect writes beside itself (server/http/idempotency.ts says why),
// one request at a time or, for the market's batch, every request of the batch in one statement each:
// on PostgreSQL a statement per keyed order was two round trips per order inside the batch's
// transaction, which every other order of the batch waited for.

/** A claim: a row no other request holds, or this request's own row (its holder), whose answer it rewrites. */
const UPSERT_HEAD = 'INSERT INTO idempotency_keys (scope, key, request_hash, status, body, created_at, holder)'
const UPSERT_TAIL = ' ON CONFLICT (scope, key) DO UPDATE SET status = excluded.status, body = excluded.body WHERE idempotency_keys.holder = excluded.holder'
const KEY_ROW = '(?, ?, ?, ?, ?, ?, ?)'

export const KEYS = statements({
  record: statement<never, [scope: string, key: string, hash: string, status: number | null, body: string | null, at: number, holder: string]>(`${UPSERT_HEAD} VALUES ${KEY_ROW}${UPSERT_TAIL}`),
  release: statement<never, [scope: string, key: string, holder: string]>('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND holder = ?'),
})

/** Rows per statement: 7 parameters a row keeps a full chunk far below both databases' limits. */
const ROWS = 1_000

const values = (row: string, n: number) => new Array<string>(n).fill(row).join(', ')

function chunks<T>(all: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < all.length; i += ROWS) out.push(all.slice(i, i + ROWS))
  return out
}

const idOf = (k: { scope: string; key: string }) => `${k.scope}\n${k.key}`

/** Writes each keyed request's row with `answer` (null, null: a claim), one statement per ROWS rows; answers the ids written. */
async function upsert(tx: Queryable, rows: { k: KeyedEffect; status: number | null; body: string | null }[]): Promise<Set<string>> {
  const written = new Set<string>()
  for (const part of chunks(rows)) {
    const params = part.flatMap(({ k, status, body }) => [k.scope, k.key, k.hash, status, body, k.at, k.holder])
    const got = await tx.all(statement<{ scope: string; key: string }, unknown[]>(`${UPSERT_HEAD} VALUES ${values(KEY_ROW, part.length)}${UPSERT_TAIL} RETURNING scope, key`), ...params)
    for (const r of got) written.add(idOf(r))
  }
  return written
}

/**
 * Claims every request's key in the batch's transaction: true where it is now this request's, false
 * where another request holds it (it applied the same action first: the command is refused). Two
 * requests of one batch with the same key: the first claims it, the second finds it held.
 */
export async function claimKeysIn(tx: Queryable, keyed: readonly KeyedEffect[]): Promise<boolean[]> {
  const first = new Map<string, KeyedEffect>()
  for (const k of keyed) if (!first.has(idOf(k))) first.set(idOf(k), k)
  const written = await upsert(
    tx,
    [...first.values()].map((k) => ({ k, status: null, body: null })),
  )
  return keyed.map((k) => {
    const mine = first.get(idOf(k)) === k && written.has(idOf(k))
    if (mine) k.wrote()
    return mine
  })
}

/** Frees claimed keys whose command was refused: the retry may run it again. */
export async function releaseKeysIn(tx: Queryable, keyed: readonly KeyedEffect[]): Promise<void> {
  for (const part of chunks(keyed)) {
    const params = part.flatMap((k) => [k.scope, k.key, k.holder])
    await tx.run(statement<never, unknown[]>(`DELETE FROM idempotency_keys WHERE (scope, key, holder) IN (VALUES ${values('(?, ?, ?)', part.length)})`), ...params)
  }
}

/**
 * Writes each claimed key's answer, the one its effect's value makes, beside the effect; a value that
 * makes no answer to keep (a 409 or 429: try again) frees its key instead. Throws when a key is no
 * longer this request's: the batch must not commit effects whose answers cannot be kept.
 */
export async function recordKeysIn(tx: Queryable, done: readonly { keyed: KeyedEffect; value: unknown }[]): Promise<void> {
  const keep: { k: KeyedEffect; status: number; body: string }[] = []
  const free: KeyedEffect[] = []
  for (const { keyed, value } of done) {
    const answer: KeyAnswer | null = await keyed.answerFor(value, tx)
    if (answer) keep.push({ k: keyed, ...answer })
    else free.push(keyed)
  }
  if (free.length) await releaseKeysIn(tx, free)
  const written = await upsert(tx, keep)
  const lost = keep.find(({ k }) => !written.has(idOf(k)))
  if (lost) throw new Error(`idempotency: the key ${lost.k.key} of ${lost.k.scope} was claimed by this batch and is held by another request now`)
}
