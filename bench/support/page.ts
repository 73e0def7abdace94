// A bench page (bench/pages/<name>.html and the app code it imports) built with Vite's JS API — the
// app's code as it ships, minus the app's plugins (no PWA, no React, no precompression) — then served
// and opened in Chromium, ready when the page sets document.documentElement.dataset.ready = "1".

import fs from 'node:fs/promises'
import path from 'node:path'
import type { BrowserContextOptions, Page } from 'playwright-core'
import { build } from 'vite'
import { serveStatic } from './static.ts'
import type { BenchContext } from './types.ts'

const TIMEOUT_MS = 30_000

export interface OpenedPage {
  page: Page
  /** Errors the page threw so far; a row checks it is empty before trusting its figures. */
  errors: string[]
  close(): Promise<void>
}

/**
 * Builds `page` (e.g. 'bench/pages/chart.html') into `outDir` (a folder of its own per row, so rows
 * leave each other's pages alone), serves that folder (with `headers` on every file) and opens the
 * page in a fresh browser context.
 */
export async function openBenchPage(
  ctx: BenchContext,
  o: { page: string; outDir: string; context?: BrowserContextOptions; headers?: Record<string, string> },
): Promise<OpenedPage> {
  const t0 = Date.now()
  await build({
    configFile: false,
    root: ctx.root,
    base: '/',
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir: o.outDir,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      rolldownOptions: { input: path.join(ctx.root, o.page) },
    },
  })
  ctx.log(`${path.basename(o.page, '.html')}: bench page built in ${Date.now() - t0} ms`)
  const html = path.join(o.outDir, o.page)
  await fs.access(html).catch(() => {
    throw new Error(`Vite did not write ${path.relative(ctx.root, html)}`)
  })

  const server = await serveStatic(o.outDir, o.headers)
  const browser = await ctx.browser()
  const context = await browser.newContext(o.context)
  const close = async () => {
    await context.close()
    await server.close()
  }
  try {
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(`${server.origin}/${o.page}`, { timeout: TIMEOUT_MS })
    await page.waitForFunction('document.documentElement.dataset.ready === "1"', undefined, { timeout: TIMEOUT_MS }).catch((e: unknown) => {
      throw new Error(`bench page did not start${errors.length ? `: ${errors.join('; ')}` : ''} (${String(e)})`)
    })
    return { page, errors, close }
  } catch (err) {
    await close()
    throw err
  }
}
