// The team view and notices in real Chromium (issue 12 parts 1, 2 and 5): one newcomer invites
// another; after the invitee's node is paid the inviter sees them in the whole-team list with their
// performance, level and agent badge, finds them by ID, is told why a search that is not an ID is
// refused, and shows the invite QR code; a refused clipboard says "copy failed, copy manually" and
// offers the text; a notice opened offline is marked read through the outbox and syncs once online.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { NodeConfig } from '../../contract/node.ts'
import type { PayOrder } from '../../contract/orders.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { launch, phone, ROOT_CODE, startApp, watchErrors, type RunningApp } from './support/app.ts'
import { shows, signInThroughInvite, text } from './support/flows.ts'
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

async function call<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const stored = await page.evaluate(() => sessionStorage.getItem('token'))
  const token = (JSON.parse(stored ?? '{}') as { value?: string }).value
  const res = await fetch(`${app.url}/api/v1/${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, LANG: 'EN', ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const env = (await res.json()) as { code: number; msg: string; data: T }
  if (res.status !== 200 || env.code !== 200) throw new Error(`${path}: HTTP ${res.status} ${env.msg}`)
  return env.data
}

const userOf = async (address: string) => (await app.ctx.sql.get(statement<{ id: bigint; code: string }>('SELECT id, code FROM users WHERE wallet_address = ?'), address.toLowerCase()))!

async function newcomer(code: string): Promise<{ context: BrowserContext; page: Page; id: number; code: string }> {
  const context = await phone(browser)
  const page = await context.newPage()
  const w = await signInThroughInvite(context, page, app.url, code)
  const u = await userOf(w.address)
  return { context, page, id: Number(u.id), code: u.code }
}

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true)
  await page.evaluate(() => window.dispatchEvent(new Event('offline')))
}

describe('the team view in real Chromium', () => {
  it('an inviter sees the invitee in the whole team with performance after the invitee’s node is paid, finds them by ID, and shows the invite QR code', async () => {
    const inviter = await newcomer(ROOT_CODE)
    const errors = watchErrors(inviter.page)
    const invitee = await newcomer(inviter.code)

    // The invitee buys a core node (5,000 USDT: level T2 with advanced-agent rights) and pays it from balance.
    await transfer(app.ctx.sql, { ref: 'e2e:team:credit', reason: 'deposit', from: custody('bsc'), to: fund(invitee.id), asset: 'USDT', amount: 5_000n * 100_000_000n })
    const core = (await call<NodeConfig>(invitee.page, 'GET', 'node/config')).tiers.find((t) => t.type === 'core')!
    const order = await call<PayOrder>(invitee.page, 'POST', 'node/buy', { node_id: core.id })
    await call(invitee.page, 'POST', 'orders/payByBalance', { id: order.id })

    const page = inviter.page
    await page.goto(`${app.url}/user`)
    const row = page.locator(`[data-testid="team-member"][data-id="${invitee.id}"]`)
    await shows(row.getByTestId('member-me-performance')).toBe('5,000')
    await shows(row.getByTestId('level-badge')).toBe('T2')
    await shows(row.getByTestId('agent-badge')).toBe(text('tw', 'team.agent'))
    await shows(page.getByTestId('team-nodes-core')).toBe('1')
    await shows(page.getByTestId('team-num')).toBe('1')

    // Search by the exact ID; a search that is not an ID is refused in the user's language.
    const search = page.locator('input[name="team-search"]:visible')
    await search.fill(String(invitee.id))
    await page.locator('form[role="search"] button[type="submit"]:visible').click()
    await expect.poll(() => page.locator('[data-testid="team-member"]:visible').count()).toBe(1)
    await shows(page.locator('[data-testid="team-member"]:visible')).toContain(`ID ${invitee.id}`)
    await search.fill('abc')
    await page.locator('form[role="search"] button[type="submit"]:visible').click()
    await shows(page.getByTestId('team-search-error')).toBe(text('tw', 'team.errors.searchNotId'))

    // The invite link's QR code, on the phone.
    await page.getByTestId('invite-qr-toggle').click()
    const qr = page.locator('[data-testid="invite-qr"] svg[data-testid="qr"]')
    await qr.waitFor({ state: 'visible' })
    expect(await qr.getAttribute('aria-label')).toBe(text('tw', 'team.qrAlt'))
    expect(await qr.locator('path').getAttribute('d')).toMatch(/^M/)

    // The invitee's own header reads the level and the agent badge, with what the right comes with.
    await invitee.page.goto(`${app.url}/user`)
    await shows(invitee.page.locator('.profile [data-testid="level-badge"]')).toBe('T2')
    await shows(invitee.page.getByTestId('agent-grants')).toContain(text('tw', 'team.agentGrants', { level: 2 }))
    expect(errors).toEqual([])
    await inviter.context.close()
    await invitee.context.close()
  })

  it('when the clipboard is refused, copying says "copy failed, copy manually" and offers the text to copy by hand', async () => {
    const me = await newcomer(ROOT_CODE)
    const page = me.page
    await page.goto(`${app.url}/user`)
    await page.getByTestId('invite-code').waitFor()
    // The browser refuses both ways the app copies.
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } })
      document.execCommand = () => false
    })
    await page.getByTestId('invite-code-copy').click()
    const manual = page.getByTestId('invite-code-manual')
    await shows(manual.locator('.form-error')).toBe(text('tw', 'team.copyManually'))
    expect(await manual.locator('input').inputValue()).toBe(me.code)
    await page.getByTestId('invite-link-copy').click()
    expect(await page.getByTestId('invite-link-manual').locator('input').inputValue()).toBe(`${app.url}/?code=${me.code}`)
    await me.context.close()
  })
})

describe('notices in real Chromium', () => {
  it('unread notices are marked; one opened offline is read through the outbox and syncs when the network returns', async () => {
    const me = await newcomer(ROOT_CODE)
    const page = me.page
    const reads = async () => Number((await app.ctx.sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM notice_reads WHERE user_id = ?'), me.id))!.n)
    await page.locator('.tabbar a[href="/notice"]').click()
    const items = page.locator('[data-testid="notice-item"]:visible')
    await expect.poll(() => items.count(), { timeout: 10_000 }).toBeGreaterThan(1)
    await expect.poll(() => page.locator('[data-testid="notice-item"][data-read="unread"]:visible').count()).toBe(await items.count())

    // Online: opening one marks it at once.
    const first = Number((await items.nth(1).getAttribute('href'))!.split('/').pop())
    await items.nth(1).click()
    await page.waitForURL(`${app.url}/notice/detail/${first}`)
    await expect.poll(reads).toBe(1)
    await page.goBack()
    await expect.poll(() => page.locator(`[data-testid="notice-item"][href="/notice/detail/${first}"]:visible`).getAttribute('data-read')).toBe('read')

    // Offline: opening another queues its mark; the list shows it read and waiting to sync.
    const second = Number((await items.nth(0).getAttribute('href'))!.split('/').pop())
    // The link of that notice itself, not "the first item": the list may re-render between reading and clicking.
    const queued = page.locator(`[data-testid="notice-item"][href="/notice/detail/${second}"]:visible`)
    await goOffline(me.context, page)
    await queued.click()
    await page.waitForURL(`${app.url}/notice/detail/${second}`)
    await page.goBack()
    await page.waitForURL(`${app.url}/notice`)
    await shows(queued.getByTestId('notice-read-pending')).toBe(text('tw', 'notice.readPending'))
    expect(await reads()).toBe(1)

    // Back online: the outbox sends it, once.
    await me.context.setOffline(false)
    await page.evaluate(() => window.dispatchEvent(new Event('online')))
    await expect.poll(reads, { timeout: 20_000 }).toBe(2)
    await expect.poll(() => queued.getAttribute('data-read'), { timeout: 10_000 }).toBe('read')
    expect((await app.ctx.sql.all(statement<{ notice_id: unknown }>('SELECT notice_id FROM notice_reads WHERE user_id = ? ORDER BY notice_id'), me.id)).map((r) => r.notice_id).map(Number)).toEqual([first, second].sort((a, b) => a - b))
    await me.context.close()
  })
})
