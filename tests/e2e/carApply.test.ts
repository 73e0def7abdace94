// The car application in real Chromium (issue 10 part 5): a signed-in user opens /apply from a car's
// link, uploads documents through the presigned URL (a PNG made here), sees the stored file back as a
// thumbnail, and submits; the operator approves it with the CLI and the screen says approved. Offline,
// the pickers are disabled with a reason and an application waits in the outbox, shown as pending,
// then is sent once when the network returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { main as cli } from '../../server/cli.ts'
import { launch, phone, ROOT_CODE, startApp, watchErrors, type RunningApp } from './support/app.ts'
import { png, shows, signInThroughInvite, text } from './support/flows.ts'
import { statement } from '../../server/db/query/types.ts'
import { numbers } from '../support/rows.ts'

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

async function operator(...argv: string[]): Promise<{ code: number; out: string }> {
  let out = ''
  const code = await cli(argv, { env: { NADI_ENV: 'test', NADI_DB_FILE: app.ctx.config.dbFile }, io: { out: (t) => void (out += `${t}\n`), err: () => {} } })
  return { code, out }
}

const firstCar = async () => Number((await app.ctx.sql.get(statement<{ id: bigint }>("SELECT id FROM products WHERE area = 'car' AND active = 1 ORDER BY sort, id LIMIT 1")))!.id)
const applicationsOf = async (address: string) =>
  (await app.ctx.sql.all(statement<{ id: bigint; status: string }>('SELECT a.id, a.status FROM car_applications a JOIN users u ON u.id = a.user_id WHERE u.wallet_address = ? ORDER BY a.id'), address.toLowerCase())).map((r) => numbers(r))

/** The form is drawn with the car of the link chosen (the car list arrives after the first paint). */
async function carChosen(page: Page, car: number) {
  const select = page.locator('select[name="goods_id"]').filter({ visible: true })
  await select.waitFor({ timeout: 30_000 }).catch(async (e: unknown) => {
    await page.screenshot({ path: '/tmp/apply-e2e-failure.png' })
    throw e
  })
  await expect.poll(() => select.inputValue(), { timeout: 10_000 }).toBe(String(car))
}

async function fill(page: Page, f: { name: string; phone: string; id: string; city: string }) {
  await page.locator('input[name="name"]:visible').fill(f.name)
  await page.locator('input[name="phone"]:visible').fill(f.phone)
  await page.locator('input[name="id_number"]:visible').fill(f.id)
  await page.locator('input[name="city"]:visible').fill(f.city)
}

async function upload(page: Page, doc: string, name: string, bytes: Buffer) {
  await page.locator(`input[type="file"][name="${doc}"]`).setInputFiles({ name, mimeType: 'image/png', buffer: bytes })
  await expect.poll(() => page.getByTestId(`doc-${doc}`).getAttribute('data-state'), { timeout: 15_000 }).toBe('uploaded')
}

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true)
  await page.evaluate(() => window.dispatchEvent(new Event('offline')))
}

describe('the car application (/apply) in real Chromium', () => {
  it('a user applies for a car with an uploaded document, sees it submitted, and approved once the operator approves it', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    const wallet = await signInThroughInvite(context, page, app.url, ROOT_CODE)
    const car = await firstCar()

    // The car list links here with the car chosen.
    await page.goto(`${app.url}/apply?goods=${car}`)
    await carChosen(page, car)

    // Sending too early says what is missing, in the user's language (TW by default).
    await page.locator('form[data-testid="apply-form"] button[type="submit"]:visible').click()
    await shows(page.locator('[data-field="name"]')).toBe(text('tw', 'errors.applicantNameRequired'))
    await shows(page.locator('[data-field="id_front"]')).toBe(text('tw', 'errors.documentRequired', { document: text('tw', 'fields.id_front') }))

    await fill(page, { name: '林美', phone: '0912-345-678', id: 'A123456789', city: '台北市' })
    const image = png()
    await upload(page, 'id_front', 'id-front.png', image)
    // The thumbnail is the file as the server stored it, read back by its owner.
    const thumb = page.getByTestId('thumb-id_front')
    await thumb.waitFor()
    expect(await thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(16)
    await upload(page, 'driver_licence', 'licence.png', png(20, 10))
    expect((await app.ctx.sql.get(statement<{ v: bigint }>('SELECT count(*) AS v FROM uploads WHERE uploaded_at IS NOT NULL')))?.v).toBe(2n)

    await page.locator('form[data-testid="apply-form"] button[type="submit"]:visible').click()
    await shows(page.locator('[data-testid="apply-row"] [data-testid="apply-status"]')).toBe(text('tw', 'carApply.status.submitted'))
    const [a] = await applicationsOf(wallet.address)
    expect(a).toEqual({ id: a!.id, status: 'submitted' })
    // The form is ready for another one: its documents cleared.
    expect(await page.getByTestId('doc-id_front').getAttribute('data-state')).toBe('empty')

    // The operator approves it (the CLI runs inside the server that holds the data folder).
    expect(await operator('car', 'approve', String(a!.id))).toEqual({ code: 0, out: `car application #${a!.id} approved\n` })
    // A reload at once shows the decision: the saved list is shown, then looked at again — not kept
    // as fresh until the list's next poll (10 s).
    await page.reload()
    await shows(page.locator('[data-testid="apply-row"] [data-testid="apply-status"]'), 5_000).toBe(text('tw', 'carApply.status.approved'))
    expect(errors).toEqual([])
    await context.close()
  })

  it('offline: the pickers say uploading needs the network, and the application waits in the outbox as pending, then is sent once', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    const wallet = await signInThroughInvite(context, page, app.url, ROOT_CODE)
    await page.goto(`${app.url}/apply?goods=${await firstCar()}`)
    await carChosen(page, await firstCar())
    await fill(page, { name: 'Lin Mei', phone: '+886912345678', id: 'E12345678', city: 'Kaohsiung' })
    await upload(page, 'id_front', 'front.png', png())
    await upload(page, 'driver_licence', 'licence.png', png(8, 8))

    await goOffline(context, page)
    await shows(page.getByTestId('upload-offline')).toBe(text('tw', 'upload.offline'))
    expect(await page.locator('input[type="file"][name="id_back"]').isDisabled()).toBe(true)
    await page.locator('form[data-testid="apply-form"] button[type="submit"]:visible').click()
    await shows(page.locator('[data-queued] [data-testid="apply-status"]')).toBe(text('tw', 'carApply.status.pending'))
    expect(await applicationsOf(wallet.address)).toEqual([])

    await context.setOffline(false)
    await page.evaluate(() => window.dispatchEvent(new Event('online')))
    await shows(page.locator('[data-testid="apply-row"]:not([data-queued]) [data-testid="apply-status"]'), 20_000).toBe(text('tw', 'carApply.status.submitted'))
    await expect.poll(() => page.locator('[data-queued]').count(), { timeout: 10_000 }).toBe(0)
    expect((await applicationsOf(wallet.address)).map((x) => x.status)).toEqual(['submitted'])
    expect(errors).toEqual([])
    await context.close()
  })

  it('nothing scrolls sideways at 360 px with every field at its limit and a rejection reason of one long word', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    const wallet = await signInThroughInvite(context, page, app.url, ROOT_CODE)
    const long = (n: number, word: string) => word.repeat(Math.ceil(n / word.length)).slice(0, n)
    await page.goto(`${app.url}/apply?goods=${await firstCar()}`)
    await carChosen(page, await firstCar())
    await fill(page, { name: long(40, 'Wolfeschlegelsteinhausen'), phone: '+86 138 0013 8000', id: 'A'.repeat(20), city: long(60, 'Llanfairpwllgwyngyll') })
    await page.locator('textarea[name="remark"]:visible').fill(long(200, 'Pleasecallbeforeten'))
    await upload(page, 'id_front', 'a-very-long-file-name-for-the-front-of-the-id-card.png', png())
    await upload(page, 'id_back', 'back.png', png(4, 4))
    await upload(page, 'driver_licence', 'licence.png', png(30, 5))
    await page.locator('form[data-testid="apply-form"] button[type="submit"]:visible').click()
    await shows(page.locator('[data-testid="apply-row"] [data-testid="apply-status"]')).toBe(text('tw', 'carApply.status.submitted'))
    const [a] = await applicationsOf(wallet.address)
    expect((await operator('car', 'reject', String(a!.id), long(200, 'Documentunreadable'))).code).toBe(0)
    await page.reload()
    await shows(page.locator('[data-testid="apply-row"] [data-testid="apply-status"]')).toBe(text('tw', 'carApply.status.rejected'))
    const m = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }))
    expect(m.scroll).toBeLessThanOrEqual(m.width)
    await page.screenshot({ path: `${process.env.NADI_SCREENSHOTS ?? '/tmp'}/apply-360.png`, fullPage: true })
    await context.close()
  })
})
