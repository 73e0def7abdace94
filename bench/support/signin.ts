import type { BrowserContext, Page } from 'playwright-core'
import { injectTestWallet, type TestWallet } from '../../tests/e2e/support/wallet.ts'

// The e2e sign-in journey (tests/e2e/support/flows.ts), without its vitest imports: the injected
// test wallet (a real ethers key behind an EIP-1193 binding), the invite link, connect, sign.

const TIMEOUT_MS = 30_000

/**
 * A returning user has already closed the chain-upgrade notice (src/features/home/ChainNotice.tsx):
 * marks the server's current notice as seen in every page of the context, so it neither opens over
 * the screens measured nor stands in for the sign-in sheet.
 */
export async function markChainNoticeSeen(context: BrowserContext, origin: string): Promise<void> {
  const res = await context.request.get(`${origin}/api/v1/common/config`)
  if (!res.ok()) throw new Error(`GET /api/v1/common/config: ${res.status()}`)
  const body = (await res.json()) as { data?: { chain_notice?: { id?: string } | null } }
  const noticeId = body.data?.chain_notice?.id
  if (!noticeId) return
  await context.addInitScript({
    content: `if (location.origin === ${JSON.stringify(origin)}) try { localStorage.setItem('chain_notice_seen', ${JSON.stringify(noticeId)}) } catch {}`,
  })
}

/**
 * Opens `${origin}/?code=…` in `page`, connects the injected test wallet and signs in. Resolves once
 * the token is stored (sessionStorage: it lives as long as this tab) and the sheet has closed.
 */
export async function signIn(context: BrowserContext, page: Page, origin: string, inviteCode: string): Promise<TestWallet> {
  const wallet = await injectTestWallet(context)
  await page.goto(`${origin}/?code=${inviteCode}`, { timeout: TIMEOUT_MS })
  await page.locator('.sheet .btn.primary').click({ timeout: TIMEOUT_MS })
  await page.getByText('Test Wallet', { exact: true }).first().click({ timeout: TIMEOUT_MS })
  await page.locator('.sheet .kv .mono').waitFor({ timeout: TIMEOUT_MS })
  await page.locator('.sheet .btn.primary').click({ timeout: TIMEOUT_MS })
  await page.waitForFunction(() => sessionStorage.getItem('token') !== null, undefined, { timeout: TIMEOUT_MS })
  await page.locator('.sheet').waitFor({ state: 'detached', timeout: TIMEOUT_MS })
  return wallet
}

/** Waits until a service worker controls the page (reloading once if it activated after the load). */
export async function serviceWorkerControls(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: TIMEOUT_MS })
}
