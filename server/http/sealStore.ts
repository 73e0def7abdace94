// Where the envelope keeps what outlives one request (docs/envelope.md): handshakes' keys, wrapped at
// rest and cached per process (a row never changes), and the signs already seen, so that a copy of a
// request is refused. The database is awaited through typed statements (named on PostgreSQL, parsed
// once per connection): a sealed request may ask on every call, and one waiting on the database holds
// up only itself.
import type { KeyObject } from 'node:crypto'
import { SEAL_WINDOW_MS, type HandshakeAnswer } from '../../contract/seal.ts'
import { statement, statements, type Sql } from '../db/query/types.ts'
import { SeenSigns } from './seenSigns.ts'
import { acceptHandshake, unwrapKeys, wrapKeyOf, wrapKeys, type HandshakeKeys } from './sealCrypto.ts'

/** Handshakes held in memory per process; beyond it the oldest are read again from the database. */
const CACHE_MAX = 10_000

const SEAL = statements({
  addHandshake: statement<never, [id: string, keys: string, createdAt: number, expiresAt: number]>(
    'INSERT INTO handshakes (id, keys, created_at, expires_at) VALUES (?, ?, ?, ?)',
  ),
  handshake: statement<{ keys: string; expires_at: bigint }, [id: string]>('SELECT keys, expires_at FROM handshakes WHERE id = ?'),
  addSeen: statement<never, [sign: string, expiresAt: number]>('INSERT INTO seal_seen (sign, expires_at) VALUES (?, ?) ON CONFLICT (sign) DO NOTHING'),
  pruneSeen: statement<never, [now: number]>('DELETE FROM seal_seen WHERE expires_at <= ?'),
})

export interface HandshakeStore {
  /** A new handshake for a client's ephemeral key, stored; null when the key is not a P-256 point. */
  make(clientKey: string, now: number): Promise<HandshakeAnswer | null>
  /** The keys of a handshake this process holds in memory, without a round trip; undefined when it must ask. */
  cached(id: string): HandshakeKeys | undefined
  /** The keys of a stored handshake (expired or not); null when unknown. */
  keysOf(id: string): Promise<HandshakeKeys | null>
}

export function handshakeStore(sql: Sql, signing: KeyObject, ttlMs: number): HandshakeStore {
  const wrapKey = wrapKeyOf(signing)
  const cache = new Map<string, HandshakeKeys>()
  const remember = (keys: HandshakeKeys) => {
    cache.set(keys.handshake, keys)
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!)
  }
  return {
    async make(clientKey, now) {
      const made = acceptHandshake(signing, clientKey, now, ttlMs)
      if (!made) return null
      await sql.run(SEAL.addHandshake, made.keys.handshake, wrapKeys(wrapKey, made.keys), now, made.keys.expiresAt)
      remember(made.keys)
      return made.answer
    },
    cached: (id) => cache.get(id),
    async keysOf(id) {
      const cached = cache.get(id)
      if (cached) return cached
      const row = await sql.get(SEAL.handshake, id)
      // Unknown ids are not remembered: a flood of made-up ones cannot push real ones out.
      if (!row) return null
      const keys = unwrapKeys(wrapKey, id, row.keys, Number(row.expires_at))
      if (keys) remember(keys)
      return keys
    },
  }
}

/** How long a sign is remembered: past any time its request's timestamp is still inside the window. */
export const SEEN_KEEP_MS = 2 * SEAL_WINDOW_MS

export interface ReplayStore {
  /**
   * Records a sign; false when it was seen before. The memory store answers at once — no promise on
   * the path of every request of a server writing alone — the table store after the database.
   */
  fresh(sign: string, now: number): boolean | Promise<boolean>
}

/** For a server writing alone (--role all): every request comes to this process. */
export function memoryReplayStore(): ReplayStore {
  const seen = new SeenSigns(SEEN_KEEP_MS)
  return { fresh: (sign, now) => seen.fresh(sign, now) }
}

/** For role processes: a request copied to another api process behind the balancer is refused there too. */
export function tableReplayStore(sql: Sql): ReplayStore {
  let adds = 0
  return {
    async fresh(sign, now) {
      const added = (await sql.run(SEAL.addSeen, sign, now + SEEN_KEEP_MS)).changes === 1
      // The cleanup job sweeps too; this keeps the table small between its runs under load.
      if (added && ++adds % 1000 === 0) await sql.run(SEAL.pruneSeen, now)
      return added
    },
  }
}
