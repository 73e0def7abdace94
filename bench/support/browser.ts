import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { CHROMIUM_FLAGS as FLAGS, CHROMIUM_PATH as CHROMIUM } from '../../scripts/chromium.ts'
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core'


/** Lighthouse's mobile device: Moto G Power class, 412×823 at DPR 1.75. */
export const MOBILE: BrowserContextOptions = {
  viewport: { width: 412, height: 823 },
  screen: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
  locale: 'zh-TW',
}

/** Lighthouse's "Slow 4G" devtools throttling and 4× CPU slowdown. */
export const THROTTLING = {
  network: { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
  cpuRate: 4,
} as const

export interface LaunchedBrowser {
  browser: Browser
  close(): Promise<void>
}

/** Debian's Chromium, never a downloaded one. Playwright's default switches are dropped (FLAGS only). */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'nadi-bench-chromium-'))
  try {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      ignoreDefaultArgs: true,
      // Only the plumbing Playwright itself would add: its profile dir, its pipe, and no stray window.
      args: [...FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-pipe', '--no-startup-window'],
    })
    return {
      browser,
      async close() {
        await browser.close()
        await fs.rm(profile, { recursive: true, force: true })
      },
    }
  } catch (err) {
    await fs.rm(profile, { recursive: true, force: true })
    throw err
  }
}

/** Applies THROTTLING to one page through its own CDP session; call before the page navigates. */
export async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', { ...THROTTLING.network })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuRate })
}
