import fs from 'node:fs/promises'
import path from 'node:path'
import { build } from 'vite'
import { serveStatic } from '../support/static.ts'
import { millis, summarize } from '../support/stats.ts'
import { atMost, type BenchContext, type Row } from '../support/types.ts'

export const id = 'klines'

const INST_ID = 'NADI-USDT'
const BAR = '1m'
const COUNT = 10_000
const READ_MAX_MS = 50
const PAGE = 'bench/pages/klines.html'
const TIMEOUT_MS = 30_000

interface ReadResult {
  ms: number
  length: number
  unsorted: number
  firstTs: number | null
  lastTs: number | null
}

/**
 * Builds bench/pages/klines.html (which imports the app's src/data facade) with Vite's JS API into
 * bench/out/pages: the app's store code as the app ships it, minus the app's plugins (no PWA, no
 * React, no precompression).
 */
async function buildPage(root: string, outDir: string): Promise<void> {
  await build({
    configFile: false,
    root,
    base: '/',
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      rolldownOptions: { input: path.join(root, PAGE) },
    },
  })
}

/** Throws unless a read returned exactly the seeded series, oldest first. */
function check(r: ReadResult, from: number, to: number, which: string): void {
  const problems: string[] = []
  if (r.length !== COUNT) problems.push(`${r.length} candles instead of ${COUNT}`)
  if (r.unsorted !== -1) problems.push(`not sorted by ts (candle ${r.unsorted} is not after the one before)`)
  if (r.firstTs !== from || r.lastTs !== to) problems.push(`spans ${r.firstTs}…${r.lastTs} instead of ${from}…${to}`)
  if (problems.length) throw new Error(`readCandles(${INST_ID}, ${BAR}) ${which}: ${problems.join('; ')}`)
}

/**
 * readCandles of 10,000 stored one-minute candles in Chromium, through the app's own store code
 * (src/data → Dexie → IndexedDB). Seeding is untimed; one warm-up read, then `runs` timed reads,
 * each timed inside the page. No CPU throttling: the target is for the plain machine.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const outDir = path.join(ctx.outDir, 'pages')
  const t0 = Date.now()
  await buildPage(ctx.root, outDir)
  ctx.log(`klines: bench page built in ${Date.now() - t0} ms`)
  const html = path.join(outDir, PAGE)
  await fs.access(html).catch(() => {
    throw new Error(`Vite did not write ${path.relative(ctx.root, html)}`)
  })

  const server = await serveStatic(outDir)
  const browser = await ctx.browser()
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(`${server.origin}/${PAGE}`, { timeout: TIMEOUT_MS })
    await page.waitForFunction('document.documentElement.dataset.ready === "1"', undefined, { timeout: TIMEOUT_MS }).catch((e: unknown) => {
      throw new Error(`bench page did not start${errors.length ? `: ${errors.join('; ')}` : ''} (${String(e)})`)
    })

    const args = (...a: unknown[]) => a.map((v) => JSON.stringify(v)).join(', ')
    const seedStart = Date.now()
    const [from, to] = (await page.evaluate(`window.nadiKlineBench.seed(${args(INST_ID, BAR, COUNT)})`)) as [number, number]
    const seedMs = Date.now() - seedStart
    const read = async () => (await page.evaluate(`window.nadiKlineBench.read(${args(INST_ID, BAR, from, to)})`)) as ReadResult

    const warmUp = await read()
    check(warmUp, from, to, 'warm-up')
    const samples: number[] = []
    for (let i = 0; i < ctx.runs; i++) {
      const r = await read()
      check(r, from, to, `run ${i + 1}`)
      samples.push(r.ms)
    }
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`)
    const s = summarize(samples)
    ctx.log(`klines: seeded ${COUNT} in ${seedMs} ms; warm-up read ${millis(warmUp.ms)}, reads ${samples.map((v) => millis(v)).join(', ')}`)
    return [
      atMost({
        name: `read 10,000 cached candles from the kline store (Chromium, no CPU throttling)`,
        value: s.median,
        unit: 'ms',
        max: READ_MAX_MS,
        format: millis,
        details: {
          ...s,
          instId: INST_ID,
          bar: BAR,
          count: COUNT,
          range: [from, to],
          warmUpMs: warmUp.ms,
          seedMs,
          method: 'bench/pages/klines.ts: readCandles() from src/data/index.ts, timed with performance.now() in the page; length, order and span checked',
        },
      }),
    ]
  } finally {
    await context.close()
    await server.close()
  }
}
