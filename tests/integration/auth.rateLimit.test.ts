import { describe, expect, it } from 'vitest'
import { ROOT_CODE, freshWallet, localeText, useServers } from './support/server.ts'

const start = useServers()

describe('sign-in rate limits', () => {
  it('one address gets 429 after NADI_LOGIN_PER_ADDRESS attempts in the window, across loginMessage and login', async () => {
    const s = await start({ env: { NADI_LOGIN_PER_ADDRESS: '3' } })
    const wallet = freshWallet()
    const first = await s.loginMessage(wallet, ROOT_CODE)
    expect(first.statusCode).toBe(200)
    expect((await s.loginMessage(wallet, ROOT_CODE)).statusCode).toBe(200)
    expect((await s.loginMessage(wallet, ROOT_CODE)).statusCode).toBe(200)

    const limited = await s.loginMessage(wallet, ROOT_CODE, { lang: 'EN' })
    expect(limited.statusCode).toBe(429)
    expect(limited.body_).toEqual({ code: 429, msg: localeText('en', 'errors.tooFrequent'), data: null })

    const { message } = first.body_.data
    const login = await s.login({ address: wallet.address, message, sign_message: await wallet.signMessage(message) })
    expect(login.statusCode).toBe(429)
    expect(await s.count('SELECT COUNT(*) FROM sessions')).toBe(0)
  })

  it('the per-address limit counts the address in any letter case', async () => {
    const s = await start({ env: { NADI_LOGIN_PER_ADDRESS: '2' } })
    const wallet = freshWallet()
    expect((await s.loginMessage(wallet.address.toLowerCase(), ROOT_CODE)).statusCode).toBe(200)
    expect((await s.loginMessage(wallet.address, ROOT_CODE)).statusCode).toBe(200)
    expect((await s.loginMessage(`0x${wallet.address.slice(2).toUpperCase()}`, ROOT_CODE)).statusCode).toBe(429)
  })

  it('a limited address does not hold back another address', async () => {
    const s = await start({ env: { NADI_LOGIN_PER_ADDRESS: '2' } })
    const busy = freshWallet()
    for (let i = 0; i < 3; i++) await s.loginMessage(busy, ROOT_CODE)
    expect((await s.loginMessage(busy, ROOT_CODE)).statusCode).toBe(429)
    expect((await s.loginMessage(freshWallet(), ROOT_CODE)).statusCode).toBe(200)
  })

  it('the limit lifts when the window has passed, and a rate-limited login did not spend its nonce', async () => {
    const s = await start({ env: { NADI_LOGIN_PER_ADDRESS: '2', NADI_LOGIN_WINDOW_MS: '60000' } })
    const wallet = freshWallet()
    const { message } = (await s.loginMessage(wallet, ROOT_CODE)).body_.data
    const body = { address: wallet.address, message, sign_message: await wallet.signMessage(message) }
    await s.loginMessage(wallet, ROOT_CODE)
    expect((await s.login(body)).statusCode).toBe(429)

    s.clock.advance(60_000)
    const res = await s.login(body)
    expect(res.statusCode).toBe(200)
    expect(await s.count('SELECT COUNT(*) FROM users WHERE wallet_address = ?', wallet.address.toLowerCase())).toBe(1)
  })

  it('one IP gets 429 after NADI_LOGIN_PER_IP attempts even with a new address each time; another IP is unaffected', async () => {
    const s = await start({ env: { NADI_LOGIN_PER_IP: '4' } })
    const ip = '203.0.113.7'
    for (let i = 0; i < 4; i++) expect((await s.loginMessage(freshWallet(), ROOT_CODE, { ip })).statusCode).toBe(200)
    const limited = await s.loginMessage(freshWallet(), ROOT_CODE, { ip })
    expect(limited.statusCode).toBe(429)
    expect(limited.body_.code).toBe(429)

    const wallet = freshWallet()
    const issued = await s.loginMessage(wallet, ROOT_CODE, { ip: '198.51.100.9' })
    expect(issued.statusCode).toBe(200)
    const { message } = issued.body_.data
    const sign_message = await wallet.signMessage(message)
    // The login itself from the limited IP is refused, from the other one accepted.
    expect((await s.login({ address: wallet.address, message, sign_message }, { ip })).statusCode).toBe(429)
    expect((await s.login({ address: wallet.address, message, sign_message }, { ip: '198.51.100.9' })).statusCode).toBe(200)
  })

  it('isRegister counts towards the same limits', async () => {
    const s = await start({ env: { NADI_LOGIN_PER_ADDRESS: '2' } })
    const wallet = freshWallet()
    expect((await s.post('/api/v1/auth/isRegister', { address: wallet.address })).statusCode).toBe(200)
    expect((await s.post('/api/v1/auth/isRegister', { address: wallet.address })).statusCode).toBe(200)
    expect((await s.post('/api/v1/auth/isRegister', { address: wallet.address })).statusCode).toBe(429)
    expect((await s.loginMessage(wallet, ROOT_CODE)).statusCode).toBe(429)
  })
})
