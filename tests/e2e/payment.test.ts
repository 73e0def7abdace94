// The payment dialog of SPEC §4 in real Chromium, on real local chains with manual mining: an order
// the balance cannot cover is paid from the wallet (connect, check, approve, transfer) and seen to
// its confirmations; another is paid from balance; one is cancelled; and the SPEC §8 errors on the
// way — another wallet than the signed-in one, a rejected approval, no gas — show and can be retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { parseUnits } from 'ethers'
import { balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { createPayOrder } from '../../server/modules/orders/service.ts'
import { launch, phone, ROOT_CODE, startApp, watchErrors, type RunningApp } from './support/app.ts'
import { shows, signInThroughInvite, text, userIdOf } from './support/flows.ts'
import { injectTestWallet, type TestWallet } from './support/wallet.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  app = await startApp({ NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual' })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const UNIT = 100_000_000n
const view = (page: Page) => expect.poll(() => page.getByTestId('payment-dialog').getAttribute('data-view'), { timeout: 15_000, interval: 100 })
const stepStatus = (page: Page, step: string) => page.getByTestId(`payment-step-${step}`).getAttribute('data-status')

describe('the payment dialog in Chromium', () => {
  let page: Page
  let wallet: TestWallet
  let userId: number
  let errors: string[]
  let gasCoin: string

  it('an order the balance cannot cover: insufficient shown, then paid from the wallet and followed to 3 confirmations', async () => {
    const cfg = (await (await fetch(`${app.url}/api/v1/common/config`)).json()).data as { chains: { id: number; key: string; native_symbol: string }[] }
    gasCoin = cfg.chains.find((c) => c.key === 'bsc')!.native_symbol
    const keyOf = (id: number) => cfg.chains.find((c) => c.id === id)?.key ?? String(id)
    const context = await phone(browser)
    // The test wallet signs with an ethers Wallet in Node and reaches the local chains through the demo RPC proxy.
    wallet = await injectTestWallet(context, {
      chainId: cfg.chains[0]!.id,
      chains: cfg.chains.map((c) => c.id),
      rpc: async (chainId, method, params) => {
        const r = await fetch(`${app.url}/api/v1/devchain/rpc/${keyOf(chainId)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
        const b = (await r.json()) as { result?: unknown; error?: { code: number; message: string } }
        if (b.error) throw Object.assign(new Error(b.error.message), { code: b.error.code })
        return b.result
      },
    })
    page = await context.newPage()
    errors = watchErrors(page)
    await page.goto(`${app.url}/?code=${ROOT_CODE}`)
    await page.locator('.sheet .btn.primary').click()
    await page.getByText('Test Wallet', { exact: true }).first().click()
    await page.locator('.sheet .kv .mono').waitFor()
    await page.locator('.sheet .btn.primary').click()
    await page.waitForFunction(() => sessionStorage.getItem('token') !== null)
    userId = Number((await app.ctx.sql.get(statement<{ id: bigint }>('SELECT id FROM users WHERE wallet_address = ?'), wallet.address.toLowerCase()))!.id)

    const id = await createPayOrder(app.ctx, { userId, type: 'device', asset: 'USDT', total: 30n * UNIT })
    // A session whose sign-in wallet is not taken up again (it did not answer without a prompt, or it
    // is another device's): the user picks a wallet in the dialog, and may pick the wrong one.
    await page.evaluate(() => sessionStorage.removeItem('signin_wallet'))
    await page.goto(`${app.url}/orders`)
    await page.locator(`[data-testid="payorder-row"][data-id="${id}"] [data-testid="payorder-pay"]`).click()
    // Step 1: the fund balance (0) does not cover 30 USDT.
    await shows(page.getByTestId('payment-insufficient')).toContain(text('tw', 'payment.insufficient', { asset: 'USDT', current: '0', required: '30' }))
    await page.getByTestId('payment-use-wallet').click()

    // Step 2–3: another wallet than the signed-in account is refused before anything is sent.
    await page.getByTestId('payment-connect').click()
    await page.getByText(text('tw', 'wallet.demoWallet'), { exact: true }).first().click()
    await view(page).toBe('failed')
    expect(await stepStatus(page, 'checkAuthorization')).toBe('failed')

    // Step 4: the right wallet; its approval (the chain switch) rejected once, then given.
    wallet.rejectNext('wallet_switchEthereumChain')
    await page.getByTestId('payment-retry').click()
    await page.getByTestId('payment-connect').click()
    await page.getByText('Test Wallet', { exact: true }).first().click()
    await view(page).toMatch(/^(chooseChain|failed)$/)
    if ((await page.getByTestId('payment-dialog').getAttribute('data-view')) === 'chooseChain') {
      await page.getByTestId('payment-chains').locator('.chip', { hasText: text('tw', 'chains.bsc') }).click()
    }
    await view(page).toBe('failed')
    await shows(page.getByTestId('payment-error')).toBe(text('tw', 'chainErrors.userRejected'))
    await page.getByTestId('payment-retry').click()
    await view(page).toBe('send')

    // Step 5: tokens but no gas → the SPEC §8 gas message; with gas, the transfer goes out.
    await app.gateway.faucet('bsc', wallet.address, { USDT: parseUnits('100', 18) })
    await app.gateway.dev!.mine('bsc', 1)
    await page.getByTestId('payment-send').click()
    await view(page).toBe('failed')
    await shows(page.getByTestId('payment-error')).toBe(text('tw', 'chainErrors.insufficientGas', { coin: gasCoin }))
    await app.gateway.faucet('bsc', wallet.address, { native: parseUnits('1', 18) })
    await app.gateway.dev!.mine('bsc', 1)
    await page.getByTestId('payment-retry').click()
    await view(page).toBe('send')
    await page.getByTestId('payment-send').click()
    await view(page).toBe('confirming')

    // Step 6: the confirmations count up as blocks are mined; the order is paid at 3.
    await app.gateway.dev!.mine('bsc', 1)
    await shows(page.getByTestId('payment-confirmations'), 15_000).toMatch(/^1 \/ 3/)
    await app.gateway.dev!.mine('bsc', 2)
    await shows(page.getByTestId('payment-success'), 20_000).not.toBeNull()
    expect(await page.getByTestId('payment-dialog').getAttribute('data-paid')).toBe('true')
    expect(await app.gateway.tokenBalance('bsc', 'USDT', wallet.address)).toBe(parseUnits('70', 18))
    await page.getByTestId('payment-done').click()
    await expect.poll(() => page.getByTestId('payorder-row').filter({ visible: true }).count(), { timeout: 10_000 }).toBe(0)
  })

  it('an order the balance covers is paid from it in one step; another is cancelled behind a confirm', async () => {
    await transfer(app.ctx.sql, { ref: 'e2e:pay:nadi', reason: 'deposit', from: custody('nadi'), to: fund(userId), asset: 'NADI', amount: 5n * UNIT })
    const paid = await createPayOrder(app.ctx, { userId, type: 'destroy', asset: 'NADI', total: 2n * UNIT })
    const cancelled = await createPayOrder(app.ctx, { userId, type: 'node', asset: 'USDT', total: 12n * UNIT })
    await page.goto(`${app.url}/orders`)
    await expect.poll(() => page.getByTestId('payorder-row').filter({ visible: true }).count(), { timeout: 10_000 }).toBe(2)
    await page.locator(`[data-testid="payorder-row"][data-id="${paid}"] [data-testid="payorder-pay"]`).click()
    // Paying from balance lists the balance check and the payment, not the wallet's six steps.
    const steps = page.locator('[data-testid^="payment-step-"]')
    await page.getByTestId('payment-pay-balance').waitFor()
    expect(await steps.count()).toBe(1)
    await page.getByTestId('payment-pay-balance').click()
    await shows(page.getByTestId('payment-success')).not.toBeNull()
    expect(await steps.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-testid')}:${e.getAttribute('data-status')}`))).toEqual([
      'payment-step-checkBalance:done',
      'payment-step-processPayment:done',
    ])
    expect((await balance(app.ctx.sql, fund(userId), 'NADI')).available).toBe(3n * UNIT)
    await page.getByTestId('payment-done').click()

    await page.locator(`[data-testid="payorder-row"][data-id="${cancelled}"] [data-testid="payorder-cancel"]`).click()
    // "Cancel order" beside "Keep order", never beside a "Cancel" that reads as the same action.
    await shows(page.locator('.sheet .btn.ghost')).toBe(text('tw', 'orders.keep'))
    await shows(page.locator('.sheet .btn.danger')).toBe(text('tw', 'orders.cancel'))
    await page.locator('.sheet .btn.danger').click()
    await expect.poll(() => page.getByTestId('payorder-row').filter({ visible: true }).count(), { timeout: 10_000 }).toBe(0)
    expect((await app.ctx.sql.get(statement<{ state: string }>('SELECT state FROM pay_orders WHERE id = ?'), cancelled))!.state).toBe('cancelled')
    expect(errors.filter((e) => !/eth_getBalance/.test(e))).toEqual([])
  })

  it('the wallet signed in with pays without the picker again, and the steps wait for the network choice rather than show "in progress"', async () => {
    const cfg = (await (await fetch(`${app.url}/api/v1/common/config`)).json()).data as { chains: { id: number }[] }
    const context = await phone(browser)
    const own = await injectTestWallet(context, { chainId: cfg.chains[0]!.id, chains: cfg.chains.map((c) => c.id) })
    const p = await context.newPage()
    const errs = watchErrors(p)
    await signInThroughInvite(context, p, app.url, ROOT_CODE, own)
    const id = await createPayOrder(app.ctx, { userId: await userIdOf(app, own.address), type: 'device', asset: 'USDT', total: 30n * UNIT })
    // A reload: the page has no wallet connected, and the one signed in with is taken up again, no picker.
    await p.goto(`${app.url}/orders`)
    await p.locator(`[data-testid="payorder-row"][data-id="${id}"] [data-testid="payorder-pay"]`).click()
    await p.getByTestId('payment-use-wallet').click()
    // Two chains to pay on: the flow waits for the user's choice, with the wallet already connected.
    await view(p).toBe('chooseChain')
    expect(await stepStatus(p, 'connectWallet')).toBe('done')
    expect(await stepStatus(p, 'checkAuthorization')).toBe('waiting')
    expect(await p.getByTestId('payment-connect').count()).toBe(0)
    await p.getByTestId('payment-chains').locator('.chip', { hasText: text('tw', 'chains.bsc') }).click()
    await view(p).toBe('send')
    expect(await stepStatus(p, 'confirmAuthorization')).toBe('done')
    expect(await stepStatus(p, 'processPayment')).toBe('waiting')
    expect(errs).toEqual([])
    await context.close()
  })
})
