// The whole journey with the production envelope on (issue 20) in real Chromium: a newcomer signs in,
// a deposit is credited, a phone is bought and paid, a limit order rests, a document is uploaded and
// shown back, and an address added offline lands once when the network is back. Watched on the wire throughout: every API request but the
// exempt ones leaves sealed, every answer to one comes back sealed, and the socket's token carries its
// proof. The server signs with the key the build put into the app (startApp's `envelope`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page, Request, Response } from 'playwright-core'
import { CONFIG_PATH, HANDSHAKE_PATH, SEAL_CODE, sealedNever } from '../../contract/constants.ts'
import { audit } from '../../server/ledger/index.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { buyPhoneFromBalance, depositUsdt, fillAddress, goOffline, goOnline, newcomerOnPhone, placeRestingOrder, png, swControlled } from './support/flows.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  app = await startApp({ NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual' }, { envelope: true })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const ENVELOPE_KEYS = ['data', 'handshake', 'sign', 'timestamp']

/** Taken plain with the envelope on (docs/envelope.md); a handshake with a token is a renewal, which is sealed. */
function exempt(method: string, p: string, hasToken: boolean): boolean {
  return sealedNever(method, p) || (method === 'GET' && p === CONFIG_PATH) || (method === 'POST' && p === HANDSHAKE_PATH && !hasToken)
}

const isEnvelope = (v: unknown, keys = ENVELOPE_KEYS) => v !== null && typeof v === 'object' && JSON.stringify(Object.keys(v).sort()) === JSON.stringify(keys)

/** What the page sends to /api/ and hears back, checked as it passes. */
function watchWire(page: Page) {
  const plain: string[] = []
  const checks: Promise<void>[] = []
  const sockets: string[] = []
  let sealed = 0
  const apiPath = (r: Request) => {
    const url = new URL(r.url())
    return url.pathname.startsWith('/api/') && !exempt(r.method(), url.pathname, r.headers().authorization !== undefined) ? url : null
  }
  page.on('request', (r) => {
    const url = apiPath(r)
    if (!url) return
    let carried: unknown = null
    try {
      carried = r.method() === 'GET' ? Object.fromEntries(url.searchParams) : JSON.parse(r.postData() ?? 'null')
    } catch {
      /* not JSON: plain */
    }
    if (isEnvelope(carried)) sealed++
    else plain.push(`request ${r.method()} ${url.pathname}`)
  })
  page.on('response', (res: Response) => {
    const url = apiPath(res.request())
    // Refusals before a request is opened come plain (nothing to seal them under), so only 200s must be sealed.
    if (!url || res.status() !== 200) return
    checks.push(
      res.json().then(
        (body: unknown) => {
          if (!isEnvelope(body, [...ENVELOPE_KEYS, 'type'].sort())) plain.push(`answer ${url.pathname}`)
        },
        () => {}, // a page gone before its answer was read
      ),
    )
  })
  page.on('websocket', (ws) => sockets.push(ws.url()))
  return {
    sealed: () => sealed,
    sockets,
    /** Every request or 200 answer that crossed unsealed. */
    async plain() {
      await Promise.all(checks)
      return plain
    },
  }
}

describe('the journey with the envelope on', () => {
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let userId: number
  let wire: ReturnType<typeof watchWire>

  it('a newcomer signs in under a handshake, and the session is bound to it', async () => {
    expect(app.ctx.config.envelope.on).toBe(true)
    ;({ context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true, onPage: (p) => (wire = watchWire(p)) }))
    const session = (await app.ctx.sql.get(statement<{ handshake_id: string | null }>('SELECT handshake_id FROM sessions WHERE user_id = ? ORDER BY id DESC'), userId))!
    const stored = JSON.parse((await page.evaluate(() => sessionStorage.getItem('handshake'))) ?? '{}') as { handshake?: string }
    expect(session.handshake_id).toBe(stored.handshake)
  })

  it('USDT paid into the deposit address is credited after 3 confirmations and shows in the wallet', async () => {
    await depositUsdt(app, page, userId, 5000n)
  })

  it('buys a phone and pays it from the balance', async () => {
    await buyPhoneFromBalance(app, page, userId)
  })

  it('places a limit order that rests on the book, and the socket carries its token with a proof', async () => {
    await placeRestingOrder(app, page, userId, 'e2e:envelope:to-trade')
    const withToken = wire.sockets.map((u) => new URL(u).searchParams).filter((q) => q.has('token'))
    expect(withToken.length).toBeGreaterThan(0)
    for (const q of withToken) expect([...q.keys()].sort()).toEqual(['handshake', 'sign', 'timestamp', 'token'])
  })

  it('a document uploads (presign sealed, the PUT signed by its URL) and its thumbnail is the stored file, opened from a sealed answer', async () => {
    const car = Number((await app.ctx.sql.get(statement<{ id: bigint }>("SELECT id FROM products WHERE area = 'car' AND active = 1 ORDER BY sort, id LIMIT 1")))!.id)
    await page.goto(`${app.url}/apply?goods=${car}`)
    await page.locator('input[type="file"][name="id_front"]').setInputFiles({ name: 'id-front.png', mimeType: 'image/png', buffer: png() })
    await expect.poll(() => page.getByTestId('doc-id_front').getAttribute('data-state'), { timeout: 15_000 }).toBe('uploaded')
    const thumb = page.getByTestId('thumb-id_front')
    await thumb.waitFor()
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(16)
  })

  it('an address added offline is sent sealed when the network is back, and a copy of it on the way is refused as a replay', async () => {
    await swControlled(page)
    await page.goto(`${app.url}/address`)
    await expect.poll(() => page.locator('.address-item').count(), { timeout: 10_000 }).toBe(1)
    await page.waitForTimeout(1500) // the persister writes at most once a second

    await goOffline(context, page)
    await page.goto(`${app.url}/address/add`)
    await fillAddress(page, { name: '王小明', phone: '0912-345-678', area: '台北市信義區', address: '松仁路 200 號' })
    await page.locator('form button[type="submit"]:visible').click()
    await page.waitForURL(`${app.url}/address`)
    await expect.poll(() => page.locator('.address-item[data-pending="true"]').count()).toBe(1)

    let sends = 0
    let copy: { status: number; code: unknown } | null = null
    await page.route('**/api/v1/address/addAddress', async (route) => {
      sends++
      const first = await route.fetch()
      const again = await route.fetch() // the same bytes again, as a flaky network or a thief might send them
      copy = { status: again.status(), code: ((await again.json()) as { code: unknown }).code }
      await route.fulfill({ response: first })
    })
    await goOnline(context, page)
    await expect.poll(() => page.locator('.address-item[data-pending="true"]').count(), { timeout: 20_000 }).toBe(0)
    expect(sends).toBe(1)
    expect(copy).toEqual({ status: 400, code: SEAL_CODE.REPLAY })
    const rows = await app.ctx.sql.all(statement<{ address: string }>('SELECT address FROM addresses WHERE user_id = ? ORDER BY id'), userId)
    expect(rows.map((r) => r.address)).toEqual(['松仁路 100 號 8 樓', '松仁路 200 號'])
  })

  it("a phone whose clock runs ten minutes fast signs in and works sealed: the handshake told it the server's time, so no request was refused for its clock", async () => {
    const clockRefusals: string[] = []
    const skewed = await newcomerOnPhone(browser, app, {
      seenChainNotice: true,
      onPage: (p) => {
        void p.addInitScript(() => {
          const real = Date.now.bind(Date)
          Date.now = () => real() + 10 * 60_000
        })
        p.on('response', (res) => {
          if (res.status() !== 400) return
          void res.json().then(
            (b: { code?: unknown }) => (b.code === SEAL_CODE.CLOCK ? clockRefusals.push(new URL(res.url()).pathname) : undefined),
            () => {},
          )
        })
      },
    })
    expect(await skewed.page.evaluate(() => Date.now() - performance.timeOrigin - performance.now())).toBeGreaterThan(9 * 60_000)
    const session = (await app.ctx.sql.get(statement<{ handshake_id: string | null }>('SELECT handshake_id FROM sessions WHERE user_id = ?'), skewed.userId))!
    expect(session.handshake_id).not.toBeNull()
    expect(clockRefusals).toEqual([])
    expect(skewed.errors).toEqual([])
    await skewed.context.close()
  })

  it('nothing crossed the wire plain, the books are clean and the page saw no error', async () => {
    expect(wire.sealed()).toBeGreaterThan(20)
    expect(await wire.plain()).toEqual([])
    expect((await audit(app.ctx.sql)).violations).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})
