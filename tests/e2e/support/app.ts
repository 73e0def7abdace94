import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../../scripts/chromium.ts'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { buildApp, type Built } from '../../../server/app.ts'
import { loadConfig } from '../../../server/config.ts'
import { envelopeKeyFile } from '../../../server/envelopeKey.ts'

export const ROOT_CODE = 'E2EROOT1'

export interface RunningApp extends Built {
  url: string
  close(): Promise<void>
}

/**
 * The real server, in process, on a free port, serving the built app from dist/ over a fresh database
 * (or a copy of `database`); `envelope`: every request and answer sealed (issue 20), with the key file
 * the build put into the app (vite.config.ts reads the same one).
 */
export async function startApp(env: Record<string, string> = {}, opts: { database?: string; now?: () => number; envelope?: boolean; port?: number } = {}): Promise<RunningApp> {
  if (!fs.existsSync('dist/index.html')) throw new Error('dist/index.html is missing: run `npm run build` first')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-e2e-'))
  // A copy of a saved data folder's database (a fixture), instead of a fresh one.
  if (opts.database) fs.copyFileSync(opts.database, path.join(dir, 'nadi.sqlite'))
  const config = loadConfig(
    {
      NADI_ENV: 'test',
      NADI_DEMO: '1',
      NADI_DATA_DIR: dir,
      NADI_ROOT_INVITE_CODE: ROOT_CODE,
      NADI_CHAIN_NOTICE: '0',
      LOG_LEVEL: 'silent',
      ...(opts.envelope ? { NADI_ENVELOPE: 'on', NADI_ENVELOPE_KEY_FILE: envelopeKeyFile(process.env, path.resolve(process.env.NADI_DATA_DIR || 'data')) } : {}),
      ...env,
    },
    process.cwd(),
  )
  // A test clock the server runs on (the browser keeps its own), for days that must have ended.
  const built = await buildApp({ config, ...(opts.now ? { now: opts.now } : {}) })
  // A given port: for a production start, whose NADI_PUBLIC_URL must name it before the server exists.
  await built.app.listen({ port: opts.port ?? 0, host: '127.0.0.1' })
  const address = built.app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return {
    ...built,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await built.app.close()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] })
}

/**
 * Content-Security-Policy violations reported by any page of any phone() context: every e2e file
 * ends by checking there were none (support/setup.ts), so the shell's policy is proven on every run.
 */
export const cspViolations: string[] = []

/** A phone-sized context, as the app is used. */
export async function phone(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 360, height: 760 }, deviceScaleFactor: 2, isMobile: false, hasTouch: true })
  context.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspViolations.push(`${m.location().url}: ${m.text()}`)
  })
  return context
}

/** Fails the test on any uncaught page error. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  return errors
}
