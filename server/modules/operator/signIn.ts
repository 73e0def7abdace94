// Operator sign-in and sessions (issue 35 item 1), beside the app's (server/modules/auth) and apart
// from it: a message of its own naming the console's origin, nonces and sessions in tables of their
// own, tokens that no user route takes, and short sessions (idle 15 min, absolute 8 h) that sign-out
// and the operator's removal end at once. docs/operators.md says how it differs from the app's.
import crypto from 'node:crypto'
import { getAddress } from 'ethers'
import { CODE } from '../../../contract/constants.ts'
import type { OperatorNonce, OperatorRole, OperatorSession, OperatorVerifyBody } from '../../../contract/operator.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements } from '../../db/query/types.ts'
import { ApiError, badRequest, tooMany } from '../../http/errors.ts'
import { StoredLimiter } from '../../http/rateLimit.ts'
import { hashToken } from '../auth/service.ts'
import { checkSignedBy, nonceOf, safeDomain } from '../auth/siwe.ts'
import { buildOperatorMessage, parseOperatorMessage } from './message.ts'
import { currentOperator, normalAddress } from './operators.ts'

/** Operator tokens say what they are: one seen in a log or pasted into the app is known for an operator's at a glance. */
export const OPERATOR_TOKEN_PREFIX = 'nadiop_'

export interface OperatorMeta {
  ip: string
  userAgent?: string | undefined
  host?: string | undefined
  protocol?: string | undefined
  /** The Origin header the browser sent, if any: a page of another origin is refused. */
  origin?: string | undefined
  handshake?: string | null
}

/** The operator behind a request's token. */
export interface OperatorUser {
  sessionId: number
  operatorId: number
  /** Checksummed. */
  address: string
  role: OperatorRole
  handshakeId: string | null
}

interface SessionRow {
  sid: bigint
  created_at: bigint
  last_seen_at: bigint
  handshake_id: string | null
  oid: bigint
  address: string
  role: OperatorRole
}

const SESSIONS = statements({
  // A removed operator's sessions were revoked with the removal; the join on the current row holds it too.
  byHash: statement<SessionRow, [tokenHash: string, now: number]>(
    `SELECT s.id AS sid, s.created_at, s.last_seen_at, s.handshake_id, o.id AS oid, o.address, o.role
     FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
     WHERE s.token_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND o.removed_at IS NULL`,
  ),
  renew: statement<never, [lastSeen: number, expires: number, sid: bigint]>('UPDATE operator_sessions SET last_seen_at = ?, expires_at = ? WHERE id = ? AND revoked_at IS NULL'),
  revoke: statement<never, [at: number, sid: number]>('UPDATE operator_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
  pruneNonces: statement<never, [now: number]>('DELETE FROM operator_nonces WHERE expires_at < ?'),
  addNonce: statement<never, [nonce: string, address: string, message: string, issued: number, expires: number, handshake: string | null]>(
    'INSERT INTO operator_nonces (nonce, address, message, issued_at, expires_at, handshake_id) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  takeNonce: statement<{ address: string; message: string; expires_at: bigint; handshake_id: string | null }, [nonce: string]>(
    'DELETE FROM operator_nonces WHERE nonce = ? RETURNING address, message, expires_at, handshake_id',
  ),
  addSession: statement<never, [hash: string, operatorId: bigint, createdAt: number, lastSeenAt: number, expires: number, ip: string, ua: string | null, handshake: string | null]>(
    `INSERT INTO operator_sessions (token_hash, operator_id, created_at, last_seen_at, expires_at, ip, user_agent, handshake_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
})

const wrongOrigin = (origin: string) => new ApiError(403, CODE.FORBIDDEN, 'operator.errors.wrongOrigin', { origin })
/** Who is an operator is not told to strangers: an address that is none, or no longer one, hears the same. */
const notOperatorSignIn = () => new ApiError(403, CODE.FORBIDDEN, 'operator.errors.notOperatorSignIn')

export type OperatorAuth = ReturnType<typeof createOperatorAuth>

export function createOperatorAuth(ctx: Ctx) {
  const { config } = ctx
  const s = config.operator
  const perAddress = new StoredLimiter(ctx.sql, 'operator-login-address', s.loginPerAddress, s.windowMs)
  const perIp = new StoredLimiter(ctx.sql, 'operator-login-ip', s.loginPerIp, s.windowMs)

  async function limit(ip: string, address: string) {
    const now = ctx.now()
    const ipOk = await perIp.take(ip, now)
    const addressOk = await perAddress.take(address, now)
    if (!ipOk || !addressOk) throw tooMany()
  }

  /** The console's origin: the setting, else (outside production, which requires one) the request's own. */
  function consoleOrigin(meta: OperatorMeta): string {
    if (s.origin) return s.origin
    const domain = safeDomain(meta.host) ?? `localhost:${config.port}`
    // As a URL spells it (a default port left out), which is how the message names it.
    return new URL(`${meta.protocol === 'https' ? 'https' : 'http'}://${domain}`).origin
  }

  /** A browser page of another origin (its Origin header) is refused before anything is issued or spent. */
  function fromConsole(meta: OperatorMeta): string {
    const origin = consoleOrigin(meta)
    if (meta.origin !== undefined && meta.origin !== origin) throw wrongOrigin(origin)
    return origin
  }

  return {
    consoleOrigin,

    async nonce(address: string, meta: OperatorMeta): Promise<OperatorNonce> {
      const a = normalAddress(address)!
      await limit(meta.ip, a)
      const origin = fromConsole(meta)
      const now = ctx.now()
      const nonce = crypto.randomBytes(16).toString('hex')
      const expiresAt = now + s.nonceTtlMs
      const message = buildOperatorMessage({ origin, address: getAddress(a), chainId: config.login.chainId, nonce, issuedAt: now, expiresAt })
      await ctx.sql.run(SESSIONS.pruneNonces, now)
      await ctx.sql.run(SESSIONS.addNonce, nonce, a, message, now, expiresAt, meta.handshake ?? null)
      return { message, nonce, expires_at: expiresAt }
    },

    async verify(body: OperatorVerifyBody, meta: OperatorMeta): Promise<OperatorSession> {
      const address = normalAddress(body.address)!
      await limit(meta.ip, address)
      const origin = fromConsole(meta)
      const nonce = nonceOf(body.message)
      if (!nonce) throw badRequest('errors.loginMessageInvalid')
      // Spent by any attempt that names it, as the app's: a message is tried once, so a replay finds nothing.
      const issued = await ctx.sql.get(SESSIONS.takeNonce, nonce)
      if (!issued || issued.message !== body.message || issued.address !== address) throw badRequest('errors.loginMessageInvalid')
      const fields = parseOperatorMessage(issued.message)
      if (!fields) throw badRequest('errors.loginMessageInvalid')
      // Issued for another origin (a console reached under another name) is not this console's sign-in.
      if (fields.origin !== origin) throw wrongOrigin(origin)
      const now = ctx.now()
      if (Number(issued.expires_at) <= now || fields.expiresAt <= now) throw badRequest('errors.loginMessageExpired')
      if (config.envelope.on && (issued.handshake_id === null || issued.handshake_id !== meta.handshake)) throw badRequest('errors.loginMessageInvalid')
      checkSignedBy(body.message, body.sign_message, address)
      const operator = await currentOperator(ctx.sql, address)
      if (!operator) throw notOperatorSignIn()
      const token = `${OPERATOR_TOKEN_PREFIX}${crypto.randomBytes(32).toString('base64url')}`
      await ctx.sql.run(SESSIONS.addSession, hashToken(token), operator.id, now, now, now + Math.min(s.idleMs, s.maxAgeMs), meta.ip, meta.userAgent?.slice(0, 300) ?? null, meta.handshake ?? null)
      return { token, address: operator.address, role: operator.role, idle_ms: s.idleMs, expires_at: now + s.maxAgeMs }
    },

    /** The operator behind a token, renewing its idle expiry within the absolute one; null when unknown, ended or expired. */
    async authenticate(token: string): Promise<OperatorUser | null> {
      if (!token.startsWith(OPERATOR_TOKEN_PREFIX) || token.length > 100) return null
      const now = ctx.now()
      const row = await ctx.sql.get(SESSIONS.byHash, hashToken(token), now)
      if (!row) return null
      // At most every 10 s, as the app's: the expiry slides without a write on every call.
      if (now - Number(row.last_seen_at) > 10_000) {
        await ctx.sql.run(SESSIONS.renew, now, Math.min(now + s.idleMs, Number(row.created_at) + s.maxAgeMs), row.sid)
      }
      return { sessionId: Number(row.sid), operatorId: Number(row.oid), address: getAddress(row.address), role: row.role, handshakeId: row.handshake_id }
    },

    async signOut(sessionId: number): Promise<void> {
      await ctx.sql.run(SESSIONS.revoke, ctx.now(), sessionId)
    },
  }
}
