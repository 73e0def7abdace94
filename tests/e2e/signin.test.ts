import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launch, phone, ROOT_CODE, startApp, watchErrors, type RunningApp } from './support/app.ts'
import { connectTestWallet, shows, signInThroughInvite, text, valueOf } from './support/flows.ts'
import { injectTestWallet } from './support/wallet.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  app = await startApp()
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

async function userCount(): Promise<number> {
  const row = (await app.ctx.sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM users WHERE is_root = 0')))!
  return Number(row.n)
}

describe('sign-in in real Chromium', () => {
  it('a visitor sees home but is sent back from protected routes', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    const errors = watchErrors(page)
    for (const path of ['/user', '/notice', '/notice/detail/1']) {
      await page.goto(`${app.url}${path}`)
      await page.waitForURL(`${app.url}/index`)
    }
    await page.locator('.banner-title').first().waitFor()
    expect(errors).toEqual([])
    await context.close()
  })

  it('an invite link fills the code, the wallet signs, and the user centre shows the new account under its inviter', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    const errors = watchErrors(page)
    const before = await userCount()
    const wallet = await injectTestWallet(context)
    await page.goto(`${app.url}/?code=${ROOT_CODE}`)
    await page.waitForURL(`${app.url}/index`)
    await connectTestWallet(page)
    await valueOf(page.locator('.sheet input[name="invite"]')).toBe(ROOT_CODE)
    await page.locator('.sheet .btn.primary').click()
    await page.waitForFunction(() => sessionStorage.getItem('token') !== null)

    const signed = wallet.calls.find((c) => c.method === 'personal_sign')
    expect(signed, 'the wallet was asked to sign').toBeTruthy()
    const signedHex = String((signed!.params as unknown[])[0])
    expect(Buffer.from(signedHex.slice(2), 'hex').toString('utf8')).toContain(`urn:nadi:invite:${ROOT_CODE}`)
    expect(await userCount()).toBe(before + 1)
    const user = (await app.ctx.sql.get(statement<{ code: string; inviter: string }>('SELECT u.code, i.code AS inviter FROM users u JOIN users i ON i.id = u.inviter_id WHERE u.wallet_address = ?'), wallet.address.toLowerCase()))!
    expect(user.inviter).toBe(ROOT_CODE)

    await page.locator('.tabbar a[href="/user"]').click()
    await shows(page.getByTestId('invite-code')).toBe(user.code)
    await shows(page.getByTestId('invite-link')).toBe(`${app.url}/?code=${user.code}`)
    await shows(page.getByTestId('wallet-address')).toBe(`${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`)

    // Reloading within the token's lifetime keeps the user signed in.
    await page.reload()
    await shows(page.getByTestId('invite-code')).toBe(user.code)
    expect(page.url()).toBe(`${app.url}/user`)
    expect(errors).toEqual([])
    await context.close()
  })

  it('a referral shows in the inviter’s direct list and counts', async () => {
    const inviterCtx = await phone(browser)
    const inviterPage = await inviterCtx.newPage()
    const inviter = await signInThroughInvite(inviterCtx, inviterPage, app.url, ROOT_CODE)
    const { code } = (await app.ctx.sql.get(statement<{ code: string }>('SELECT code FROM users WHERE wallet_address = ?'), inviter.address.toLowerCase()))!

    const friendCtx = await phone(browser)
    const friendPage = await friendCtx.newPage()
    const friend = await signInThroughInvite(friendCtx, friendPage, app.url, code)

    await inviterPage.goto(`${app.url}/user`)
    await shows(inviterPage.getByTestId('zhi-num')).toBe('1')
    await shows(inviterPage.getByTestId('team-num')).toBe('1')
    await shows(inviterPage.getByTestId('direct-list')).toContain(friend.address.slice(0, 6))
    await inviterCtx.close()
    await friendCtx.close()
  })

  it('cancelling the signature in the wallet shows “signature cancelled” and creates nothing', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    const before = await userCount()
    const wallet = await injectTestWallet(context)
    await page.goto(`${app.url}/?code=${ROOT_CODE}`)
    await connectTestWallet(page)
    wallet.rejectNext('personal_sign')
    await page.locator('.sheet .btn.primary').click()
    await shows(page.locator('.sheet .form-error')).toBe(text('tw', 'wallet.signCancelled'))
    expect(await userCount()).toBe(before)
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull()
    await context.close()
  })

  it('a 401 signs the user out and returns them to the root after the expiry notice', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await signInThroughInvite(context, page, app.url, ROOT_CODE)
    await page.locator('.tabbar a[href="/user"]').click()
    await page.getByTestId('invite-code').waitFor()
    // The server forgets every session, as when a token is revoked elsewhere.
    await app.ctx.sql.run(statement('UPDATE sessions SET revoked_at = ?'), Date.now())
    await page.reload()
    await shows(page.locator('.toast')).toContain(text('tw', 'errors.loginExpired'))
    await page.waitForURL(`${app.url}/index`, { timeout: 5000 })
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull()
    await context.close()
  })

  it('on a phone without a wallet, the sheet explains how to open the page in a wallet app', async () => {
    const context = await browser.newContext({
      viewport: { width: 360, height: 760 },
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    })
    const page = await context.newPage()
    await page.goto(`${app.url}/?code=${ROOT_CODE}`)
    await shows(page.locator('.sheet .callout strong')).toBe(text('tw', 'wallet.noWalletTitle'))
    const metamask = await page.locator('.sheet .link-grid a', { hasText: 'MetaMask' }).getAttribute('href')
    expect(metamask).toBe(`https://metamask.app.link/dapp/${app.url.replace('http://', '')}/index`)
    await context.close()
  })
})
