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
    const c = loadConfig({ NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example' }, '/srv/nadi')
    expect(c.demo).toBe(false)
    expect(c.chainNotice).toBeNull()
    expect(loadConfig({ NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example', NADI_CHAIN_NOTICE: '1' }, '/srv').chainNotice).not.toBeNull()
  })

  it('the envelope is on by default in production only, its key beside the data unless named; anything but on or off is refused', () => {
    const prod = loadConfig({ NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example' }, '/srv/nadi')
    expect(prod.envelope).toEqual({ on: true, keyFile: path.join(prod.dataDir, 'envelope-key.pem'), handshakeTtlMs: 600_000, handshakePerIp: 120 })
    expect(loadConfig({ NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example', NADI_ENVELOPE: 'off' }, '/srv').envelope.on).toBe(false)
    expect(loadConfig({ NADI_ENV: 'development' }, '/srv').envelope.on).toBe(false)
    const on = loadConfig({ NADI_ENV: 'development', NADI_ENVELOPE: 'on', NADI_ENVELOPE_KEY_FILE: '/keys/e.pem', NADI_HANDSHAKE_TTL_MS: '60000' }, '/srv')
    expect(on.envelope).toMatchObject({ on: true, keyFile: '/keys/e.pem', handshakeTtlMs: 60_000 })
    expect(() => loadConfig({ NADI_ENVELOPE: '1' }, '/srv')).toThrow('NADI_ENVELOPE must be on or off, got "1"')
  })

  it('production needs its public origin; NADI_PUBLIC_URL must be an origin', () => {
    expect(() => loadConfig({ NADI_ENV: 'production' }, '/srv')).toThrow(/NADI_PUBLIC_URL is required in production/)
    expect(loadConfig({ NADI_PUBLIC_URL: 'https://App.Nadi.example/' }).publicUrl).toBe('https://app.nadi.example')
    expect(loadConfig({ NADI_PUBLIC_URL: 'http://localhost:8080' }).publicUrl).toBe('http://localhost:8080')
    for (const bad of ['app.nadi.example', 'ftp://app.nadi.example', 'https://app.nadi.example/path', 'https://u:p@app.nadi.example', 'https://app.nadi.example/?x=1']) {
      expect(() => loadConfig({ NADI_PUBLIC_URL: bad }), bad).toThrow(/NADI_PUBLIC_URL/)
    }
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

  it('listens on this machine only unless HOST names an address or a host name', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1')
    expect(loadConfig({ HOST: '' }).host).toBe('127.0.0.1')
    for (const ok of ['0.0.0.0', '::', '::1', '192.168.1.20', 'localhost', 'nadi-api.internal']) expect(loadConfig({ HOST: ok }).host, ok).toBe(ok)
    for (const bad of ['http://0.0.0.0', '0.0.0.0:8080', '999.1.1.1', 'two words', '-lead.example', '[::]']) {
      expect(() => loadConfig({ HOST: bad }), bad).toThrow(`HOST must be an IP address or a host name to listen on (127.0.0.1, 0.0.0.0 for every interface, ::), got "${bad}"`)
    }
  })

  it('an empty variable means the default', () => {
    expect(loadConfig({ PORT: '', NADI_LOGIN_PER_ADDRESS: '' }).port).toBe(8080)
  })

  it('money, payment, order and trade settings come from the environment with their defaults, and bad values stop the start', () => {
    const c = loadConfig({})
    expect(c.withdraw).toMatchObject({ fee: 10_000_000n, autoApproveBelow: 100_000_000_000n, failpoint: null })
    expect(c.walletExchange).toMatchObject({ feeBps: 20, quoteTtlMs: 30_000 })
    expect(c.payment).toMatchObject({ pendingTimeoutMs: 600_000, receivingAddress: null })
    expect(c.orders.payWithinMs).toBe(30 * 60_000)
    expect(c.orders.holds).toEqual({ holdMs: 15 * 60_000, maxOpen: 3, maxPerItem: 1, sharePpm: 200_000, cooldownAfter: 3, cooldownWindowMs: 6 * 3_600_000 })
    expect(loadConfig({ NADI_ORDER_HOLD_MS: '600000', NADI_HOLD_SHARE_PPM: '1000000', NADI_HOLD_COOLDOWN_AFTER: '0' }).orders.holds).toMatchObject({ holdMs: 600_000, sharePpm: 1_000_000, cooldownAfter: 0 })
    expect(c.trade).toMatchObject({ makerFeePpm: 1000, takerFeePpm: 1000, maxBatch: 500, snapshotEvery: 10_000 })
    expect(loadConfig({ NADI_WITHDRAW_FEE: '0.25', NADI_TRADE_TAKER_FEE_PPM: '2500' })).toMatchObject({ withdraw: { fee: 25_000_000n }, trade: { takerFeePpm: 2500 } })
    expect(() => loadConfig({ NADI_WITHDRAW_FEE: '0.123456789' })).toThrow(/NADI_WITHDRAW_FEE/)
    expect(() => loadConfig({ NADI_DEMO_TREASURY: 'lots' })).toThrow(/NADI_DEMO_TREASURY/)
    expect(() => loadConfig({ NADI_PAYMENT_RECEIVING_ADDRESS: '0x1234' })).toThrow(/NADI_PAYMENT_RECEIVING_ADDRESS/)
    expect(() => loadConfig({ NADI_ORDER_PAY_MS: '10' })).toThrow(/NADI_ORDER_PAY_MS/)
    expect(() => loadConfig({ NADI_HOLD_SHARE_PPM: '1000001' })).toThrow(/NADI_HOLD_SHARE_PPM/)
    expect(() => loadConfig({ NADI_HOLD_MAX_OPEN: '0' })).toThrow(/NADI_HOLD_MAX_OPEN/)
    expect(() => loadConfig({ NADI_TRADE_MAKER_FEE_PPM: '2000000' })).toThrow(/NADI_TRADE_MAKER_FEE_PPM/)
    expect(() => loadConfig({ NADI_WITHDRAW_FAILPOINT: 'sometimes' })).toThrow(/NADI_WITHDRAW_FAILPOINT/)
  })

  it('the node grants each claim their own fees, and no source is promised past 100 % with the prize pools', () => {
    expect(loadConfig({}).node).toMatchObject({ feePoolPpm: 500_000n, dividendPoolPpm: 200_000n })
    // Withdraw fees: 850,000 + 150,000; trading fees: 850,000 + 150,000 — each source exactly whole.
    expect(loadConfig({ NADI_NODE_FEE_POOL_PPM: '850000', NADI_NODE_DIVIDEND_POOL_PPM: '850000' }).node).toMatchObject({ feePoolPpm: 850_000n, dividendPoolPpm: 850_000n })
    expect(() => loadConfig({ NADI_NODE_DIVIDEND_POOL_PPM: '850001' })).toThrow(/NADI_NODE_DIVIDEND_POOL_PPM \(850001\) \+ NADI_RANKING_DAILY_POOL_PPM \(100000\) \+ NADI_RANKING_TOTAL_POOL_PPM \(50000\) exceed 1000000/)
    expect(() => loadConfig({ NADI_NODE_FEE_POOL_PPM: '900000' })).toThrow(/NADI_NODE_FEE_POOL_PPM \(900000\)/)
  })

  it('each chain takes a MEME token address beside USDT and NADI', () => {
    const meme = '0x00000000000000000000000000000000000000aa'
    const c = loadConfig({ NADI_CHAIN_BSC_MEME_ADDRESS: meme })
    expect(c.chain.networks.find((n) => n.key === 'bsc')!.tokens).toEqual({ USDT: null, NADI: null, MEME: expect.stringMatching(/^0x0{38}aa$/i) })
    expect(() => loadConfig({ NADI_CHAIN_NADI_MEME_ADDRESS: '0x12' })).toThrow(/NADI_CHAIN_NADI_MEME_ADDRESS/)
  })
})
