import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../server/config.ts'

describe('loadConfig', () => {
  it('has the SPEC defaults: 6-minute sliding token, 5-minute nonce, 16 KiB bodies, BSC and the NADI chain', () => {
    const c = loadConfig({ NADI_ENV: 'test' }, '/srv/nadi')
    expect(c.env).toBe('test')
    expect(c.session.idleMs).toBe(360_000)
    expect(c.login.nonceTtlMs).toBe(300_000)
    expect(c.bodyLimit).toBe(16 * 1024)
    expect(c.chains.map((x) => x.id)).toEqual([56, 92025])
    expect(c.limits).toEqual({ withdrawMin: '1', withdrawConfirmations: 3, displayDecimals: 6, pageSize: 10 })
    expect(c.dataDir).toBe(path.resolve('/srv/nadi', 'data'))
    expect(c.dbFile).toBe(path.join(c.dataDir, 'nadi.sqlite'))
    expect(c.logLevel).toBe('silent')
    expect(c.demo).toBe(true)
  })

  it('production turns demo content and the chain notice off unless asked for', () => {
    const c = loadConfig({ NADI_ENV: 'production' }, '/srv/nadi')
    expect(c.demo).toBe(false)
    expect(c.chainNotice).toBeNull()
    expect(loadConfig({ NADI_ENV: 'production', NADI_CHAIN_NOTICE: '1' }, '/srv').chainNotice).not.toBeNull()
  })

  it('upper-cases the root invite code and refuses one that is not 4–16 letters or digits', () => {
    expect(loadConfig({ NADI_ROOT_INVITE_CODE: ' root0001 ' }).rootInviteCode).toBe('ROOT0001')
    expect(() => loadConfig({ NADI_ROOT_INVITE_CODE: 'AB' })).toThrow(/NADI_ROOT_INVITE_CODE/)
    expect(() => loadConfig({ NADI_ROOT_INVITE_CODE: 'has space' })).toThrow(/NADI_ROOT_INVITE_CODE/)
  })

  it('refuses a bad environment name and numbers that are not integers in range', () => {
    expect(() => loadConfig({ NADI_ENV: 'staging' })).toThrow(/NADI_ENV/)
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/)
    expect(() => loadConfig({ NADI_LOGIN_PER_ADDRESS: '0' })).toThrow(/NADI_LOGIN_PER_ADDRESS/)
    expect(() => loadConfig({ NADI_BODY_LIMIT: '10' })).toThrow(/NADI_BODY_LIMIT/)
    expect(() => loadConfig({ NADI_SESSION_IDLE_MS: '1.5' })).toThrow(/NADI_SESSION_IDLE_MS/)
  })

  it('an empty variable means the default', () => {
    expect(loadConfig({ PORT: '', NADI_LOGIN_PER_ADDRESS: '' }).port).toBe(8080)
  })
})
