import path from 'node:path'
import { openBenchPage } from '../support/page.ts'
import { millis, summarize } from '../support/stats.ts'
import { atMost, type BenchContext, type Row } from '../support/types.ts'

export const id = 'klines'

const INST_ID = 'NADI-USDT'
const BAR = '1m'
const COUNT = 10_000
const READ_MAX_MS = 50
const PAGE = 'bench/pages/klines.html'

interface ReadResult {
  ms: number
  length: number
  unsorted: number
  firstTs: number | null
  lastTs: number | null
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
  const { page, errors, close } = await openBenchPage(ctx, { page: PAGE, outDir })
  try {
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
    await close()
  }
}
