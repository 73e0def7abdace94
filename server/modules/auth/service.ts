import crypto from 'node:crypto'
import { getAddress } from 'ethers'
import { sql, type Transaction } from 'kysely'
import { statement, statements } from '../../db/query/types.ts'
import type { DB } from '../../db/schema.ts'
import { constraintOf } from '../../db/errors.ts'
import type { Ctx } from '../../context.ts'
import { grantTrial } from '../mining/service.ts'
import { scoreRegistration } from '../activity/scores.ts'
import type { LoginBody, LoginMessage, LoginMessageQuery, LoginResult } from '../../../contract/auth.ts'
import { ApiError, badRequest, inviteRequired, tooMany } from '../../http/errors.ts'
import { StoredLimiter } from '../../http/rateLimit.ts'
import type { AuthUser } from '../../http/types.ts'
import { buildSiweMessage, checkSignedBy, nonceOf, safeDomain } from './siwe.ts'

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

export function randomInviteCode(length = 8): string {
  const bytes = crypto.randomBytes(length)
  let out = ''
  for (const b of bytes) out += CODE_ALPHABET[b % CODE_ALPHABET.length]
  return out
}

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

export interface RequestMeta {
  ip: string
  userAgent?: string | undefined
  /** host[:port] and origin the request came to, used when no public URL is configured. */
  host?: string | undefined
  protocol?: string | undefined
  /** The envelope's handshake the request came sealed under (issue 20); null when plain. */
  handshake?: string | null
}

export type AuthService = ReturnType<typeof createAuthService>

interface SessionRow {
  sid: bigint
  created_at: bigint
  last_seen_at: bigint
  handshake_id: string | null
  previous_handshake_id: string | null
  uid: bigint
  wallet_address: string | null
}

// Every authenticated request runs byHash: a named statement, parsed once per connection.
const SESSION = statements({
  byHash: statement<SessionRow, [tokenHash: string, now: number]>(
    `SELECT s.id AS sid, s.created_at, s.last_seen_at, s.handshake_id, s.previous_handshake_id, u.id AS uid, u.wallet_address
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ?`,
  ),
  // One statement, so two renewals racing from the same handshake cannot both bind: a renewal from the
  // current handshake keeps it as previous (its answer may be lost and asked again); one from the
  // previous leaves previous as it is. Ordinary requests accept the current one only.
  rebind: statement<never, [{ sid: number; old: string; fresh: string }]>(
    `UPDATE sessions SET handshake_id = @fresh,
       previous_handshake_id = CASE WHEN handshake_id = @old THEN @old ELSE previous_handshake_id END
     WHERE id = @sid AND revoked_at IS NULL AND (handshake_id = @old OR previous_handshake_id = @old)`,
  ),
})

export function createAuthService(ctx: Ctx) {
  const sessionEnded = new Set<(sessionId: number) => void>()
  const { db, config } = ctx
  // In the database: every api process behind a balancer counts against the same limits.
  const perAddress = new StoredLimiter(ctx.sql, 'login-address', config.rateLimit.loginPerAddress, config.rateLimit.windowMs)
  const perIp = new StoredLimiter(ctx.sql, 'login-ip', config.rateLimit.loginPerIp, config.rateLimit.windowMs)

  async function limit(ip: string, address: string) {
    const now = ctx.now()
    // Both counters advance, so a flood from one IP cannot hide behind many addresses or vice versa.
    const ipOk = await perIp.take(ip, now)
    const addressOk = await perAddress.take(address, now)
    if (!ipOk || !addressOk) throw tooMany()
  }

  function origin(meta: RequestMeta): { domain: string; uri: string } {
    if (config.publicUrl) {
      const u = new URL(config.publicUrl)
      return { domain: u.host, uri: u.origin }
    }
    const domain = safeDomain(meta.host) ?? `localhost:${config.port}`
    const protocol = meta.protocol === 'https' ? 'https' : 'http'
    return { domain, uri: `${protocol}://${domain}` }
  }

  async function findUserByAddress(address: string) {
    return db.selectFrom('users').select(['id']).where('wallet_address', '=', address.toLowerCase()).executeTakeFirst()
  }

  async function findInviter(code: string) {
    return db.selectFrom('users').select(['id', 'depth']).where('code', '=', code).executeTakeFirst()
  }

  const chainIds = new Set(config.chain.networks.map((n) => n.id))

  return {
    /** Whether a sign-in message may name this chain: only the chains the platform runs on. */
    signsOn(chainId: number): boolean {
      return chainIds.has(chainId)
    },

    async isRegistered(address: string, meta: RequestMeta): Promise<boolean> {
      await limit(meta.ip, address.toLowerCase())
      return (await findUserByAddress(address)) !== undefined
    },

    async loginMessage(q: LoginMessageQuery, meta: RequestMeta): Promise<LoginMessage> {
      const address = q.address.toLowerCase()
      await limit(meta.ip, address)
      const registered = (await findUserByAddress(address)) !== undefined
      let inviteCode: string | null = null
      if (!registered) {
        if (!q.code) throw inviteRequired()
        if (!(await findInviter(q.code))) throw badRequest('errors.inviteUnknown')
        inviteCode = q.code
      }
      const now = ctx.now()
      const nonce = crypto.randomBytes(16).toString('hex')
      const expiresAt = now + config.login.nonceTtlMs
      const message = buildSiweMessage({
        ...origin(meta),
        address: getAddress(address),
        statement: config.login.statement,
        chainId: q.chainId,
        nonce,
        issuedAt: now,
        expiresAt,
        inviteCode,
      })
      await db.deleteFrom('login_nonces').where('expires_at', '<', BigInt(now)).execute()
      await db
        .insertInto('login_nonces')
        .values({
          nonce,
          address,
          message,
          invite_code: inviteCode,
          chain_id: BigInt(q.chainId),
          issued_at: BigInt(now),
          expires_at: BigInt(expiresAt),
          handshake_id: meta.handshake ?? null,
        })
        .execute()
      return { message, nonce, expires_at: expiresAt, registered }
    },

    async login(body: LoginBody, meta: RequestMeta): Promise<LoginResult> {
      const address = body.address.toLowerCase()
      await limit(meta.ip, address)
      const nonce = nonceOf(body.message)
      if (!nonce) throw badRequest('errors.loginMessageInvalid')
      // The nonce is spent by any attempt that names it, successful or not: a message is tried once.
      const issued = await db.deleteFrom('login_nonces').where('nonce', '=', nonce).returningAll().executeTakeFirst()
      if (!issued) throw badRequest('errors.loginMessageInvalid')
      if (issued.message !== body.message || issued.address !== address) throw badRequest('errors.loginMessageInvalid')
      if (Number(issued.expires_at) <= ctx.now()) throw badRequest('errors.loginMessageExpired')
      if (body.code && issued.invite_code && body.code !== issued.invite_code) throw badRequest('errors.loginMessageInvalid')
      // With the envelope on, the sign-in comes under the handshake its message was asked under: the
      // token it gets works with that handshake only, so a message carried to another channel is dead.
      if (config.envelope.on && (issued.handshake_id === null || issued.handshake_id !== meta.handshake)) throw badRequest('errors.loginMessageInvalid')
      checkSignedBy(body.message, body.sign_message, address)

      const token = crypto.randomBytes(32).toString('base64url')
      const now = ctx.now()
      const signInOnce = (markCreating: () => void) =>
        db.transaction().execute(async (trx) => {
          let user = await trx.selectFrom('users').select(['id']).where('wallet_address', '=', address).executeTakeFirst()
          if (!user) {
            markCreating()
            if (!issued.invite_code) throw inviteRequired()
            const inviter = await trx
              .selectFrom('users')
              .select(['id', 'depth'])
              .where('code', '=', issued.invite_code)
              .executeTakeFirst()
            if (!inviter) throw badRequest('errors.inviteUnknown')
            user = await insertUser(trx, address, inviter, now)
            await grantTrial(trx, config, user.id, now)
            await scoreRegistration(trx, user.id, now)
          }
          await trx
            .insertInto('sessions')
            .values({
              token_hash: hashToken(token),
              user_id: user.id,
              created_at: BigInt(now),
              last_seen_at: BigInt(now),
              expires_at: BigInt(now + config.session.idleMs),
              revoked_at: null,
              ip: meta.ip,
              user_agent: meta.userAgent?.slice(0, 300) ?? null,
              handshake_id: meta.handshake ?? null,
              previous_handshake_id: null,
            })
            .execute()
        })
      // Two sign-ins of one new address at once (two messages, two taps) both find no account; the
      // unique wallet address lets only one create it, and the other, tried again, finds it and signs in.
      for (let attempt = 0; ; attempt++) {
        let creating = false
        try {
          await signInOnce(() => (creating = true))
          break
        } catch (e) {
          if (!creating || attempt > 0 || constraintOf(e) !== 'unique') throw e
        }
      }
      return { token, idle_ms: config.session.idleMs }
    },

    /** The user behind a bearer token, renewing its idle expiry; null when unknown, revoked or expired. */
    async authenticate(token: string): Promise<AuthUser | null> {
      if (token.length < 20 || token.length > 100) return null
      const now = ctx.now()
      const row = await ctx.sql.get(SESSION.byHash, hashToken(token), now)
      if (!row) return null
      // Renew at most every 10 s: the expiry slides without a write on every request.
      if (now - Number(row.last_seen_at) > 10_000) {
        const expires = Math.min(now + config.session.idleMs, Number(row.created_at) + config.session.maxAgeMs)
        await db
          .updateTable('sessions')
          .set({ last_seen_at: BigInt(now), expires_at: BigInt(expires) })
          .where('id', '=', row.sid)
          .execute()
      }
      return { id: Number(row.uid), address: row.wallet_address ?? '', sessionId: Number(row.sid), handshakeId: row.handshake_id, previousHandshakeId: row.previous_handshake_id }
    },

    /** Binds a session to a renewed handshake; false when the session is bound to neither `old` as current nor as previous. */
    async renewHandshake(sessionId: number, old: string, fresh: string): Promise<boolean> {
      return (await ctx.sql.run(SESSION.rebind, { sid: sessionId, old, fresh })).changes === 1
    },

    async logout(sessionId: number): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ revoked_at: BigInt(ctx.now()) })
        .where('id', '=', BigInt(sessionId))
        .where('revoked_at', 'is', null)
        .execute()
      for (const fn of sessionEnded) fn(sessionId)
    },

    /** Told when a session is revoked (the socket hub closes that session's connections). */
    onSessionEnd(fn: (sessionId: number) => void): void {
      sessionEnded.add(fn)
    },

    /** Which of these sessions are still valid (not revoked, not expired); renews none of them. */
    async liveSessions(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set()
      const rows = await db
        .selectFrom('sessions')
        .select('id')
        .where('id', 'in', ids.map((i) => BigInt(i)))
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', BigInt(ctx.now()))
        .execute()
      return new Set(rows.map((r) => Number(r.id)))
    },

    /** The root account everybody's referral tree starts from; its code is printed at start. */
    async ensureRoot(): Promise<string> {
      const root = await db.selectFrom('users').select(['id', 'code']).where('is_root', '=', 1n).executeTakeFirst()
      const wanted = config.rootInviteCode
      if (root) {
        if (wanted && root.code !== wanted) {
          const taken = await db.selectFrom('users').select('id').where('code', '=', wanted).executeTakeFirst()
          if (taken) throw new Error(`NADI_ROOT_INVITE_CODE ${wanted} is already another user's code`)
          await db.updateTable('users').set({ code: wanted }).where('id', '=', root.id).execute()
          return wanted
        }
        return root.code
      }
      const code = wanted ?? randomInviteCode()
      await db
        .insertInto('users')
        .values({ wallet_address: null, code, name: 'NADI', inviter_id: null, depth: 0n, is_root: 1n, created_at: BigInt(ctx.now()) })
        .execute()
      return code
    },
  }
}

async function insertUser(trx: Transaction<DB>, address: string, inviter: { id: bigint; depth: bigint }, now: number) {
  let inserted: { id: bigint } | undefined
  for (let attempt = 0; !inserted; attempt++) {
    const code = randomInviteCode()
    const clash = await trx.selectFrom('users').select('id').where('code', '=', code).executeTakeFirst()
    if (clash) {
      if (attempt > 20) throw new ApiError(500, 500, 'errors.server')
      continue
    }
    inserted = await trx
      .insertInto('users')
      .values({
        wallet_address: address,
        code,
        name: `NADI-${address.slice(-6).toUpperCase()}`,
        inviter_id: inviter.id,
        depth: inviter.depth + 1n,
        created_at: BigInt(now),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  }
  await trx.updateTable('users').set((eb) => ({ zhi_num: eb('zhi_num', '+', 1n) })).where('id', '=', inviter.id).execute()
  // Everyone from the inviter up to the root gains one team member.
  await sql`
    WITH RECURSIVE up(id, inviter_id) AS (
      SELECT id, inviter_id FROM users WHERE id = ${inviter.id}
      UNION ALL
      SELECT u.id, u.inviter_id FROM users u JOIN up ON u.id = up.inviter_id
    )
    UPDATE users SET team_num = team_num + 1 WHERE id IN (SELECT id FROM up)`.execute(trx)
  return inserted
}
