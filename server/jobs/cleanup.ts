import type { Ctx } from '../context.ts'

const DAY_MS = 86_400_000
/** Ended sessions are kept a month for support questions ("was I signed in from elsewhere?"). */
const SESSION_KEEP_MS = 30 * DAY_MS

/**
 * Drops what can never be used again: spent login windows, old idempotency answers, long-dead sessions,
 * the envelope's signs past their window and expired handshakes no live session could still renew from.
 */
export async function cleanup(ctx: Ctx): Promise<{ nonces: number; keys: number; sessions: number; handshakes: number; signs: number }> {
  const now = ctx.now()
  const { db } = ctx
  const nonces = await db.deleteFrom('login_nonces').where('expires_at', '<=', BigInt(now)).executeTakeFirst()
  const keys = await db.deleteFrom('idempotency_keys').where('created_at', '<', BigInt(now - ctx.config.idempotencyTtlMs)).executeTakeFirst()
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', BigInt(now - SESSION_KEEP_MS)), eb('revoked_at', '<', BigInt(now - SESSION_KEEP_MS))]))
    .executeTakeFirst()
  // An expired handshake serves only a live session renewing from it (as current or previous). Anyone
  // may make handshakes without signing in, so the unbound ones go as soon as they expire, not after a
  // session's lifetime.
  const renewable = (column: 'handshake_id' | 'previous_handshake_id') =>
    db.selectFrom('sessions').select(column).where(column, 'is not', null).where('revoked_at', 'is', null).where('expires_at', '>', BigInt(now))
  const handshakes = await db
    .deleteFrom('handshakes')
    .where('expires_at', '<=', BigInt(now))
    .where('id', 'not in', renewable('handshake_id'))
    .where('id', 'not in', renewable('previous_handshake_id'))
    .executeTakeFirst()
  const signs = await db.deleteFrom('seal_seen').where('expires_at', '<=', BigInt(now)).executeTakeFirst()
  return {
    nonces: Number(nonces.numDeletedRows),
    keys: Number(keys.numDeletedRows),
    sessions: Number(sessions.numDeletedRows),
    handshakes: Number(handshakes.numDeletedRows),
    signs: Number(signs.numDeletedRows),
  }
}
