import { describe, expect, it } from 'vitest'
import type { Wallet } from 'ethers'
import { ROOT_CODE, freshWallet, localeText, useServers, type TestServer } from './support/server.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers()

/** Nothing a rejected sign-in could leave behind: no account, no session, no nonce that still signs in. */
async function expectNoTrace(s: TestServer, wallet: Wallet, nonce?: string) {
  const address = wallet.address.toLowerCase()
  expect(await s.count('SELECT COUNT(*) FROM users WHERE wallet_address = ?', address), 'user rows').toBe(0)
  expect(await s.count('SELECT COUNT(*) FROM users WHERE is_root = 0'), 'members').toBe(0)
  expect(await s.count('SELECT COUNT(*) FROM sessions'), 'sessions').toBe(0)
  expect(await s.count('SELECT COUNT(*) FROM login_nonces WHERE address = ? AND expires_at > ?', address, s.clock.now()), 'usable nonces').toBe(0)
  if (nonce) expect(await s.count('SELECT COUNT(*) FROM login_nonces WHERE nonce = ?', nonce), 'the named nonce').toBe(0)
  expect(await s.count('SELECT zhi_num FROM users WHERE is_root = 1'), 'root referrals').toBe(0)
}

/** A message issued for `wallet` under the root code, ready to sign. */
async function issue(s: TestServer, wallet: Wallet, code: string | undefined = ROOT_CODE) {
  const res = await s.loginMessage(wallet, code)
  expect(res.statusCode).toBe(200)
  return res.body_.data
}

/** A well-formed login body whose nonce the server never issued. */
function unissuedMessage(wallet: Wallet) {
  return [
    'localhost:80 wants you to sign in with your Ethereum account:',
    wallet.address,
    '',
    'Welcome to NADI!',
    '',
    'URI: http://localhost:80',
    'Version: 1',
    'Chain ID: 92025',
    'Nonce: 0123456789abcdef0123456789abcdef',
  ].join('\n')
}

describe('rejected sign-ins leave no account and no usable nonce', () => {
  it('a signature by another wallet is refused (400 invalid signature) and spends the nonce', async () => {
    const s = await start()
    const wallet = freshWallet()
    const { message, nonce } = await issue(s, wallet)
    const res = await s.login({ address: wallet.address, message, sign_message: await freshWallet().signMessage(message) }, { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_).toEqual({ code: 400, msg: localeText('en', 'errors.invalidSignature'), data: null })
    await expectNoTrace(s, wallet, nonce)
    // The genuine signature cannot use the nonce afterwards either.
    const retry = await s.login({ address: wallet.address, message, sign_message: await wallet.signMessage(message) })
    expect(retry.statusCode).toBe(400)
    await expectNoTrace(s, wallet, nonce)
  })

  it('a signature that does not recover at all is refused as an invalid signature', async () => {
    const s = await start()
    const wallet = freshWallet()
    const { message, nonce } = await issue(s, wallet)
    const res = await s.login({ address: wallet.address, message, sign_message: `0x${'00'.repeat(65)}` }, { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_.msg).toBe(localeText('en', 'errors.invalidSignature'))
    await expectNoTrace(s, wallet, nonce)
  })

  it('a message is single-use: the same signed message a second time is refused', async () => {
    const s = await start()
    const wallet = freshWallet()
    const { message, nonce } = await issue(s, wallet)
    const body = { address: wallet.address, message, sign_message: await wallet.signMessage(message) }
    expect((await s.login(body)).statusCode).toBe(200)
    const again = await s.login(body, { lang: 'EN' })
    expect(again.statusCode).toBe(400)
    expect(again.body_).toEqual({ code: 400, msg: localeText('en', 'errors.loginMessageInvalid'), data: null })
    expect(await s.count('SELECT COUNT(*) FROM sessions')).toBe(1)
    expect(await s.count('SELECT COUNT(*) FROM users WHERE is_root = 0')).toBe(1)
    expect(await s.count('SELECT COUNT(*) FROM login_nonces WHERE nonce = ?', nonce)).toBe(0)
  })

  it('a message older than 5 minutes is refused as expired and its nonce is gone', async () => {
    const s = await start()
    const wallet = freshWallet()
    const { message, nonce } = await issue(s, wallet)
    const sign_message = await wallet.signMessage(message)
    s.clock.advance(5 * 60_000 + 1)
    const res = await s.login({ address: wallet.address, message, sign_message }, { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_).toEqual({ code: 400, msg: localeText('en', 'errors.loginMessageExpired'), data: null })
    await expectNoTrace(s, wallet, nonce)
  })

  it('a message signed just before it expires is still accepted', async () => {
    const s = await start()
    const wallet = freshWallet()
    const { message } = await issue(s, wallet)
    s.clock.advance(5 * 60_000 - 1)
    expect((await s.login({ address: wallet.address, message, sign_message: await wallet.signMessage(message) })).statusCode).toBe(200)
  })

  it('an edited message (the invite code in Resources swapped, nonce kept) is refused even when signed as edited', async () => {
    const s = await start()
    const other = await s.signIn(ROOT_CODE)
    const otherCode = (await s.ctx.sql.get(statement<{ code: string }>('SELECT code FROM users WHERE id = ?'), other.userId))!.code
    const wallet = freshWallet()
    const { message, nonce } = await issue(s, wallet)
    const edited = message.replace(`urn:nadi:invite:${ROOT_CODE}`, `urn:nadi:invite:${otherCode}`)
    expect(edited).not.toBe(message)
    const res = await s.login({ address: wallet.address, message: edited, sign_message: await wallet.signMessage(edited), code: otherCode }, { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_.msg).toBe(localeText('en', 'errors.loginMessageInvalid'))
    expect(await s.count('SELECT COUNT(*) FROM users WHERE wallet_address = ?', wallet.address.toLowerCase())).toBe(0)
    expect(await s.count('SELECT zhi_num FROM users WHERE id = ?', other.userId)).toBe(0)
    expect(await s.count('SELECT COUNT(*) FROM login_nonces WHERE nonce = ?', nonce)).toBe(0)
    expect(await s.count('SELECT COUNT(*) FROM sessions WHERE user_id != ?', other.userId)).toBe(0)
  })

  it('an edit of a single character anywhere in the message is refused', async () => {
    const s = await start()
    const wallet = freshWallet()
    const { message, nonce } = await issue(s, wallet)
    const edited = message.replace('Version: 1', 'Version: 2')
    const res = await s.login({ address: wallet.address, message: edited, sign_message: await wallet.signMessage(edited) })
    expect(res.statusCode).toBe(400)
    await expectNoTrace(s, wallet, nonce)
  })

  it('a message issued to one address cannot be used by another address', async () => {
    const s = await start()
    const victim = freshWallet()
    const attacker = freshWallet()
    const { message, nonce } = await issue(s, victim)
    const res = await s.login({ address: attacker.address, message, sign_message: await attacker.signMessage(message) })
    expect(res.statusCode).toBe(400)
    await expectNoTrace(s, victim, nonce)
    await expectNoTrace(s, attacker)
  })

  it('a body invite code that differs from the one bound in the message is refused', async () => {
    const s = await start()
    const wallet = freshWallet()
    const { message, nonce } = await issue(s, wallet)
    const res = await s.login({ address: wallet.address, message, sign_message: await wallet.signMessage(message), code: 'OTHER001' })
    expect(res.statusCode).toBe(400)
    await expectNoTrace(s, wallet, nonce)
  })

  it('an unknown invite code is refused at loginMessage with 400 and nothing is issued', async () => {
    const s = await start()
    const wallet = freshWallet()
    const res = await s.loginMessage(wallet, 'ZZZZ9999', { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_.msg).toBe(localeText('en', 'errors.inviteUnknown'))
    await expectNoTrace(s, wallet)
  })

  it('an invite code that is not 4–16 capital letters or digits is refused with 400 naming the invite code', async () => {
    const s = await start()
    const wallet = freshWallet()
    const res = await s.loginMessage(wallet, 'root0001', { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_.msg).toBe(localeText('en', 'errors.invalidField').replace('{{field}}', localeText('en', 'fields.code')))
    await expectNoTrace(s, wallet)
  })

  it('a missing invite code for a new address answers 401 with body code 200 and nothing is issued', async () => {
    const s = await start()
    const wallet = freshWallet()
    const res = await s.loginMessage(wallet)
    expect(res.statusCode).toBe(401)
    expect(res.body_.code).toBe(200)
    await expectNoTrace(s, wallet)
    // An empty code is not a code: refused as an invalid one (the app leaves the parameter out instead).
    const empty = await s.get(`/api/v1/auth/loginMessage?address=${wallet.address}&chainId=1&code=`, { lang: 'EN' })
    expect(empty.statusCode).toBe(400)
    expect(empty.body_.msg).toBe(localeText('en', 'errors.invalidField').replace('{{field}}', localeText('en', 'fields.code')))
    await expectNoTrace(s, wallet)
  })

  it('a malformed JSON body is refused with 400 and the malformed-body message', async () => {
    const s = await start()
    const wallet = freshWallet()
    const res = await s.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json', lang: 'EN' },
      payload: `{"address":"${wallet.address}","message":`,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ code: 400, msg: localeText('en', 'errors.malformedBody'), data: null })
    await expectNoTrace(s, wallet)
  })

  it('a body over 16 KiB is refused with 413 before it is read', async () => {
    const s = await start()
    const wallet = freshWallet()
    const message = unissuedMessage(wallet) + '\n' + 'x'.repeat(17 * 1024)
    const res = await s.login({ address: wallet.address, message, sign_message: await wallet.signMessage('x') }, { lang: 'EN' })
    expect(res.statusCode).toBe(413)
    expect(res.body_).toEqual({ code: 413, msg: localeText('en', 'errors.bodyTooLarge'), data: null })
    await expectNoTrace(s, wallet)
  })

  it('a body that is not JSON is refused with 415', async () => {
    const s = await start()
    const res = await s.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/xml' }, payload: '<login/>' })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({ code: 415, data: null })
  })

  const invalid = (field: string) => localeText('en', 'errors.invalidField').replace('{{field}}', localeText('en', `fields.${field}`))

  it('an address sent as a number is refused with 400 whose message names the wallet address', async () => {
    const s = await start()
    const wallet = freshWallet()
    const message = unissuedMessage(wallet)
    const res = await s.login({ address: 1234, message, sign_message: await wallet.signMessage(message) }, { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_).toEqual({ code: 400, msg: invalid('address'), data: null })
    await expectNoTrace(s, wallet)
  })

  it('a signature that is not 65 bytes of hex is refused with 400 whose message names the signature', async () => {
    const s = await start()
    const wallet = freshWallet()
    const res = await s.login({ address: wallet.address, message: unissuedMessage(wallet), sign_message: 'not-a-signature' }, { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_.msg).toBe(invalid('sign_message'))
    await expectNoTrace(s, wallet)
  })

  it('a missing login message is refused with 400 whose message names the login message', async () => {
    const s = await start()
    const wallet = freshWallet()
    const res = await s.login({ address: wallet.address, sign_message: await wallet.signMessage('x') }, { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_.msg).toBe(invalid('message'))
    await expectNoTrace(s, wallet)
  })

  it('a message with no nonce line is refused as invalid', async () => {
    const s = await start()
    const wallet = freshWallet()
    const message = 'hello'
    const res = await s.login({ address: wallet.address, message, sign_message: await wallet.signMessage(message) }, { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_.msg).toBe(localeText('en', 'errors.loginMessageInvalid'))
    await expectNoTrace(s, wallet)
  })

  it('loginMessage query errors name the field: a bad address, a missing chain id', async () => {
    const s = await start()
    const bad = await s.get(`/api/v1/auth/loginMessage?address=0x1234&chainId=56&code=${ROOT_CODE}`, { lang: 'EN' })
    expect(bad.statusCode).toBe(400)
    expect(bad.body_.msg).toBe(invalid('address'))
    const noChain = await s.get(`/api/v1/auth/loginMessage?address=${freshWallet().address}&code=${ROOT_CODE}`, { lang: 'EN' })
    expect(noChain.statusCode).toBe(400)
    expect(noChain.body_.msg).toBe(invalid('chainId'))
    expect(await s.count('SELECT COUNT(*) FROM login_nonces')).toBe(0)
  })
})

describe('error messages follow the LANG header', () => {
  const keyCases = [
    ['EN', 'en'],
    ['JP', 'jp'],
    ['TW', 'tw'],
  ] as const

  it('the invite-required message is the text of the request language’s locale file', async () => {
    const s = await start()
    const wallet = freshWallet()
    for (const [lang, file] of keyCases) {
      const res = await s.loginMessage(wallet, undefined, { lang })
      expect(res.statusCode).toBe(401)
      expect(res.body_.msg, lang).toBe(localeText(file, 'errors.inviteRequired'))
    }
  })

  it('a validation message is built from the request language’s template and field label', async () => {
    const s = await start()
    for (const [lang, file] of keyCases) {
      const res = await s.login({ address: 1, message: 'm', sign_message: `0x${'11'.repeat(65)}` }, { lang })
      expect(res.statusCode).toBe(400)
      expect(res.body_.msg, lang).toBe(localeText(file, 'errors.invalidField').replace('{{field}}', localeText(file, 'fields.address')))
    }
  })

  it('without a LANG header, or with an unknown one, messages are in the default language (TW)', async () => {
    const s = await start()
    const wallet = freshWallet()
    expect((await s.loginMessage(wallet)).body_.msg).toBe(localeText('tw', 'errors.inviteRequired'))
    expect((await s.loginMessage(wallet, undefined, { lang: 'XX' })).body_.msg).toBe(localeText('tw', 'errors.inviteRequired'))
    // The header is read case-insensitively.
    expect((await s.loginMessage(wallet, undefined, { lang: 'jp' })).body_.msg).toBe(localeText('jp', 'errors.inviteRequired'))
  })

  // The locale files other than en.json are still English copies awaiting translation; once jp.json is
  // translated this proves the two answers really differ.
  const untranslated = localeText('jp', 'errors.inviteRequired') === localeText('en', 'errors.inviteRequired')
  it.skipIf(untranslated)('LANG: EN and LANG: JP get different messages for the same error', async () => {
    const s = await start()
    const wallet = freshWallet()
    const en = await s.loginMessage(wallet, undefined, { lang: 'EN' })
    const jp = await s.loginMessage(wallet, undefined, { lang: 'JP' })
    expect(en.body_.msg).not.toBe(jp.body_.msg)
  })
})
