import { describe, expect, it } from 'vitest'
import { cleanup } from '../../server/jobs/cleanup.ts'
import { useServers } from './support/server.ts'

describe('cleanup job', () => {
  const start = useServers()

  it('drops expired login nonces, idempotency answers older than 24 h and sessions dead for a month, keeping live ones', async () => {
    const s = await start()
    const live = await s.signIn()
    const stale = await s.signIn()
    await s.post('/api/v1/auth/logout', {}, { token: stale.token })
    await s.loginMessage(live.wallet)
    expect(await s.count('SELECT count(*) AS n FROM login_nonces')).toBe(1)

    // Six minutes on: the unused nonce has expired; both sessions still exist.
    s.clock.advance(6 * 60_000)
    expect((await cleanup(s.ctx)).nonces).toBe(1)
    expect(await s.count('SELECT count(*) AS n FROM sessions')).toBe(2)

    // Thirty-one days on: the revoked and the idle-expired sessions are both gone.
    s.clock.advance(31 * 86_400_000)
    const r = await cleanup(s.ctx)
    expect(r.sessions).toBe(2)
    expect(await s.count('SELECT count(*) AS n FROM sessions')).toBe(0)
    expect(await s.count('SELECT count(*) AS n FROM idempotency_keys')).toBe(0)
  })
})
