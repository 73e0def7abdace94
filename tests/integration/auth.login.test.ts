import { describe, expect, it } from 'vitest'
import { getAddress } from 'ethers'
import { ROOT_CODE, T0, freshWallet, localeText, useServers } from './support/server.ts'
import { statement } from '../../server/db/query/types.ts'
import { numbers } from '../support/rows.ts'

const start = useServers()

describe('GET /api/v1/auth/loginMessage', () => {
  it('an unregistered address without an invite code gets HTTP 401 with body code 200 and the invite message', async () => {
    const s = await start()
    const res = await s.loginMessage(freshWallet(), undefined, { lang: 'EN' })
    expect(res.statusCode).toBe(401)
    expect(res.body_).toEqual({ code: 200, msg: localeText('en', 'errors.inviteRequired'), data: null })
    expect(await s.count('SELECT COUNT(*) FROM login_nonces')).toBe(0)
  })

  it('an unknown invite code is refused with 400 and issues no nonce', async () => {
    const s = await start()
    const res = await s.loginMessage(freshWallet(), 'NOSUCH01', { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_).toEqual({ code: 400, msg: localeText('en', 'errors.inviteUnknown'), data: null })
    expect(await s.count('SELECT COUNT(*) FROM login_nonces')).toBe(0)
  })

  it('a valid request returns an EIP-4361 message binding domain, checksummed address, chain, nonce, times and the invite code', async () => {
    const s = await start({ env: { NADI_PUBLIC_URL: 'https://app.nadi.test' } })
    const wallet = freshWallet()
    // Asked in lowercase, answered checksummed.
    const res = await s.loginMessage(wallet.address.toLowerCase(), ROOT_CODE)
    expect(res.statusCode).toBe(200)
    const { message, nonce, expires_at, registered } = res.body_.data
    expect(registered).toBe(false)
    expect(nonce).toMatch(/^[0-9a-f]{32}$/)
    expect(expires_at).toBe(T0 + 5 * 60_000)
    expect(message).toBe(
      [
        'app.nadi.test wants you to sign in with your Ethereum account:',
        getAddress(wallet.address),
        '',
        s.config.login.statement,
        '',
        'URI: https://app.nadi.test',
        'Version: 1',
        `Chain ID: ${s.config.login.chainId}`,
        `Nonce: ${nonce}`,
        'Issued At: 2026-03-10T12:00:00.000Z',
        'Expiration Time: 2026-03-10T12:05:00.000Z',
        'Resources:',
        `- urn:nadi:invite:${ROOT_CODE}`,
      ].join('\n'),
    )
    expect(s.config.login.statement).toMatch(/^Welcome to NADI!/)
    const row = await s.ctx.sql.get(statement<{ address: unknown; message: unknown; invite_code: unknown }>('SELECT address, message, invite_code FROM login_nonces WHERE nonce = ?'), nonce)
    expect(row).toEqual({ address: wallet.address.toLowerCase(), message, invite_code: ROOT_CODE })
  })

  it('without a public URL the message names the host the request came to', async () => {
    const s = await start()
    const wallet = freshWallet()
    const res = await s.get<{ message: string }>(`/api/v1/auth/loginMessage?address=${wallet.address}&chainId=56&code=${ROOT_CODE}`, {
      headers: { host: 'nadi.example:8443' },
    })
    expect(res.statusCode).toBe(200)
    const lines = res.body_.data.message.split('\n')
    expect(lines[0]).toBe('nadi.example:8443 wants you to sign in with your Ethereum account:')
    expect(lines).toContain('URI: http://nadi.example:8443')
    expect(lines).toContain('Chain ID: 56')
  })

  it('a Host header that is not a plain host[:port] is not written into the message', async () => {
    const s = await start()
    const wallet = freshWallet()
    const res = await s.get<{ message: string }>(`/api/v1/auth/loginMessage?address=${wallet.address}&chainId=56&code=${ROOT_CODE}`, {
      headers: { host: 'evil.example/path?x=y' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body_.data.message.split('\n')[0]).toBe(`localhost:${s.config.port} wants you to sign in with your Ethereum account:`)
  })

  it('with a public URL a message names it whatever the Host header says; production refuses any other host', async () => {
    const wallet = freshWallet()
    const url = `/api/v1/auth/loginMessage?address=${wallet.address}&chainId=56&code=${ROOT_CODE}`
    // Outside production a request may come to another host (tests, a LAN address), the message still names the public origin.
    const dev = await start({ env: { NADI_PUBLIC_URL: 'https://app.nadi.test' } })
    const res = await dev.get<{ message: string }>(url, { headers: { host: 'phish.example' } })
    expect(res.body_.data.message.split('\n')[0]).toBe('app.nadi.test wants you to sign in with your Ethereum account:')

    const prod = await start({ env: { NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.test', NADI_DEMO: '0', NADI_ENVELOPE: 'off' } })
    const before = await prod.count('SELECT COUNT(*) FROM login_nonces')
    for (const path of [url, '/api/v1/common/mainInfo', '/']) {
      const refused = await prod.get(path, { headers: { host: 'phish.example' }, lang: 'EN' })
      expect(refused.statusCode, path).toBe(403)
      expect(refused.body_).toEqual({ code: 403, msg: localeText('en', 'errors.wrongHost').replace('{{origin}}', 'https://app.nadi.test'), data: null })
    }
    expect(await prod.count('SELECT COUNT(*) FROM login_nonces')).toBe(before)
    // Health checks (a balancer's, an orchestrator's) ask each process by its own address.
    expect((await prod.get('/api/v1/common/health', { headers: { host: '10.0.0.5:8081' } })).statusCode).toBe(200)
    const served = await prod.get<{ message: string }>(url, { headers: { host: 'app.nadi.test' } })
    expect(served.statusCode).toBe(200)
    expect(served.body_.data.message.split('\n')).toContain('URI: https://app.nadi.test')
  })

  it('a message for a chain the platform does not run on is refused with the field’s message and stores nothing', async () => {
    const s = await start()
    const wallet = freshWallet()
    for (const chainId of [1, 137, 97]) {
      const res = await s.get(`/api/v1/auth/loginMessage?address=${wallet.address}&chainId=${chainId}&code=${ROOT_CODE}`, { lang: 'EN' })
      expect(res.statusCode).toBe(400)
      expect(res.body_.msg).toBe(localeText('en', 'errors.invalidField').replace('{{field}}', localeText('en', 'fields.chainId')))
    }
    expect(await s.count('SELECT COUNT(*) FROM login_nonces')).toBe(0)
    // Both platform chains sign in.
    for (const chainId of [56, s.config.login.chainId]) {
      expect((await s.get(`/api/v1/auth/loginMessage?address=${wallet.address}&chainId=${chainId}&code=${ROOT_CODE}`)).statusCode).toBe(200)
    }
  })

  it('each message carries a fresh nonce', async () => {
    const s = await start()
    const wallet = freshWallet()
    const a = await s.loginMessage(wallet, ROOT_CODE)
    const b = await s.loginMessage(wallet, ROOT_CODE)
    expect(a.body_.data.nonce).not.toBe(b.body_.data.nonce)
    expect(await s.count('SELECT COUNT(*) FROM login_nonces WHERE address = ?', wallet.address.toLowerCase())).toBe(2)
  })

  it('issuing a message sweeps nonces that have expired', async () => {
    const s = await start()
    await s.loginMessage(freshWallet(), ROOT_CODE)
    s.clock.advance(5 * 60_000 + 1)
    await s.loginMessage(freshWallet(), ROOT_CODE)
    expect(await s.count('SELECT COUNT(*) FROM login_nonces')).toBe(1)
  })
})

describe('POST /api/v1/auth/login', () => {
  it('a correctly signed message returns an opaque token and the idle time', async () => {
    const s = await start()
    const wallet = freshWallet()
    const { message } = (await s.loginMessage(wallet, ROOT_CODE)).body_.data
    const res = await s.login({ address: wallet.address, message, sign_message: await wallet.signMessage(message), code: ROOT_CODE })
    expect(res.statusCode).toBe(200)
    expect(res.body_.code).toBe(200)
    expect(res.body_.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(res.body_.data.idle_ms).toBe(360_000)
  })

  it('a new address is registered under the inviter whose code is bound in the message, with its own invite code', async () => {
    const s = await start()
    const rootId = await s.count('SELECT id FROM users WHERE is_root = 1')
    const { userId, address } = await s.signIn(ROOT_CODE)
    const row = numbers((await s.ctx.sql.get(statement<Record<string, unknown>>('SELECT wallet_address, inviter_id, depth, code, name, is_root FROM users WHERE id = ?'), userId))!)
    expect(row).toMatchObject({ wallet_address: address.toLowerCase(), inviter_id: rootId, depth: 1, is_root: 0 })
    expect(row.code).toMatch(/^[A-Z0-9]{8}$/)
    expect(row.code).not.toBe(ROOT_CODE)
    expect(row.name).toBe(`NADI-${address.slice(-6).toUpperCase()}`)
  })

  it('registration adds one direct referral to the inviter and one team member to every ancestor up to the root', async () => {
    const s = await start()
    const code = async (id: number) => (await s.ctx.sql.get(statement<{ code: string }>('SELECT code FROM users WHERE id = ?'), id))!.code
    const a = await s.signIn(ROOT_CODE)
    const b = await s.signIn(await code(a.userId))
    const c = await s.signIn(await code(b.userId))
    const counts = async (id: number) =>
      numbers(await s.ctx.sql.get(statement<{ zhi_num: unknown; team_num: unknown; depth: unknown }>('SELECT zhi_num, team_num, depth FROM users WHERE id = ?'), id))
    const rootId = await s.count('SELECT id FROM users WHERE is_root = 1')
    expect(await counts(rootId)).toEqual({ zhi_num: 1, team_num: 3, depth: 0 })
    expect(await counts(a.userId)).toEqual({ zhi_num: 1, team_num: 2, depth: 1 })
    expect(await counts(b.userId)).toEqual({ zhi_num: 1, team_num: 1, depth: 2 })
    expect(await counts(c.userId)).toEqual({ zhi_num: 0, team_num: 0, depth: 3 })

    // A second referral of A counts for A and the root but not for B or C.
    await s.signIn(await code(a.userId))
    expect(await counts(rootId)).toEqual({ zhi_num: 1, team_num: 4, depth: 0 })
    expect(await counts(a.userId)).toEqual({ zhi_num: 2, team_num: 3, depth: 1 })
    expect(await counts(b.userId)).toEqual({ zhi_num: 1, team_num: 1, depth: 2 })

    // And the user centre reads the same figures.
    const info = await s.get<{ zhi_num: number; team_num: number }>('/api/v1/user/info', { token: a.token })
    expect(info.body_.data).toMatchObject({ zhi_num: 2, team_num: 3 })
  })

  it('a registered address gets a message without a Resources line, needs no code, and signs in as the same user', async () => {
    const s = await start()
    const first = await s.signIn(ROOT_CODE)
    const users = await s.count('SELECT COUNT(*) FROM users')

    const issued = await s.loginMessage(first.wallet)
    expect(issued.statusCode).toBe(200)
    expect(issued.body_.data.registered).toBe(true)
    expect(issued.body_.data.message).not.toContain('Resources:')
    expect(issued.body_.data.message).not.toContain('urn:nadi:invite:')

    const { message } = issued.body_.data
    const res = await s.login({ address: first.address, message, sign_message: await first.wallet.signMessage(message) })
    expect(res.statusCode).toBe(200)
    expect(res.body_.data.token).not.toBe(first.token)
    expect(await s.count('SELECT COUNT(*) FROM users')).toBe(users)
    expect(await s.count('SELECT COUNT(DISTINCT user_id) FROM sessions')).toBe(1)
    expect(await s.count('SELECT COUNT(*) FROM sessions')).toBe(2)
  })

  it('a registered address that presents an invite code keeps its inviter: the code is ignored', async () => {
    const s = await start()
    const a = await s.signIn(ROOT_CODE)
    const b = await s.signIn(ROOT_CODE)
    const aCode = (await s.ctx.sql.get(statement<{ code: string }>('SELECT code FROM users WHERE id = ?'), a.userId))!.code

    const issued = await s.loginMessage(b.wallet, aCode)
    expect(issued.statusCode).toBe(200)
    expect(issued.body_.data.message).not.toContain('Resources:')
    const { message } = issued.body_.data
    expect((await s.login({ address: b.address, message, sign_message: await b.wallet.signMessage(message), code: aCode })).statusCode).toBe(200)
    expect(await s.count('SELECT inviter_id FROM users WHERE id = ?', b.userId)).toBe(await s.count('SELECT id FROM users WHERE is_root = 1'))
    expect(await s.count('SELECT zhi_num FROM users WHERE id = ?', a.userId)).toBe(0)
  })

  it('two messages issued to one new address register it once: the second signs in to the account the first created', async () => {
    const s = await start()
    const wallet = freshWallet()
    const m1 = (await s.loginMessage(wallet, ROOT_CODE)).body_.data.message
    const m2 = (await s.loginMessage(wallet, ROOT_CODE)).body_.data.message
    expect((await s.login({ address: wallet.address, message: m1, sign_message: await wallet.signMessage(m1) })).statusCode).toBe(200)
    expect((await s.login({ address: wallet.address, message: m2, sign_message: await wallet.signMessage(m2) })).statusCode).toBe(200)
    expect(await s.count('SELECT COUNT(*) FROM users WHERE wallet_address = ?', wallet.address.toLowerCase())).toBe(1)
    expect(await s.count('SELECT zhi_num FROM users WHERE is_root = 1')).toBe(1)
  })

  it('concurrent logins of one new address with two messages both succeed and create one account', async () => {
    const s = await start()
    const wallet = freshWallet()
    const messages = [(await s.loginMessage(wallet, ROOT_CODE)).body_.data.message, (await s.loginMessage(wallet, ROOT_CODE)).body_.data.message]
    const bodies = await Promise.all(messages.map(async (message) => ({ address: wallet.address, message, sign_message: await wallet.signMessage(message) })))
    const results = await Promise.all(bodies.map((b) => s.login(b)))
    expect(results.map((r) => r.statusCode)).toEqual([200, 200])
    expect(await s.count('SELECT COUNT(*) FROM users WHERE wallet_address = ?', wallet.address.toLowerCase())).toBe(1)
    expect(await s.count('SELECT team_num FROM users WHERE is_root = 1')).toBe(1)
  })

  it('concurrent registrations under one inviter are all counted', async () => {
    const s = await start()
    await Promise.all(Array.from({ length: 8 }, () => s.signIn(ROOT_CODE)))
    expect(await s.count('SELECT zhi_num FROM users WHERE is_root = 1')).toBe(8)
    expect(await s.count('SELECT team_num FROM users WHERE is_root = 1')).toBe(8)
  })

  it('the address may be sent in any letter case', async () => {
    const s = await start()
    const wallet = freshWallet()
    const { message } = (await s.loginMessage(wallet, ROOT_CODE)).body_.data
    const res = await s.login({ address: wallet.address.toLowerCase(), message, sign_message: await wallet.signMessage(message) })
    expect(res.statusCode).toBe(200)
  })

  it('isRegister tells a registered address from a new one', async () => {
    const s = await start()
    const a = await s.signIn(ROOT_CODE)
    const yes = await s.post<{ registered: boolean }>('/api/v1/auth/isRegister', { address: a.address.toLowerCase() })
    const no = await s.post<{ registered: boolean }>('/api/v1/auth/isRegister', { address: freshWallet().address })
    expect(yes.body_.data).toEqual({ registered: true })
    expect(no.body_.data).toEqual({ registered: false })
  })
})
