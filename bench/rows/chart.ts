import path from 'node:path'
import { MOBILE } from '../support/browser.ts'
import { openBenchPage } from '../support/page.ts'
import { millis, summarize } from '../support/stats.ts'
import { atMost, info, type BenchContext, type Row } from '../support/types.ts'

export const id = 'chart'

const COUNT = 10_000
const RENDER_MAX_MS = 16
const TICK_MAX_MS = 2
const TICKS = 100
const PAGE = 'bench/pages/chart.html'

interface RenderResult {
  ms: number
  createMs: number
  zoomMs: number | null
  length: number
  barsInView: number
  canvas: [number, number]
}

function check(r: RenderResult, which: string): void {
  if (r.length !== COUNT) throw new Error(`${which}: the chart holds ${r.length} candles instead of ${COUNT}`)
  if (!(r.canvas[0] > 0 && r.canvas[1] > 0)) throw new Error(`${which}: the canvas is ${r.canvas.join('×')}`)
}

/**
 * The candle chart in Chromium on the phone viewport of the other rows (412 px wide, DPR 1.75),
 * no CPU throttling: (1) a first render of 10,000 candles — a new uPlot chart, the series set and
 * drawn, timed in the page around the synchronous calls; one warm-up, then `runs` renders, each on
 * a fresh chart two frames after the previous one was removed; (2) live ticks of the last candle on that chart, one per animation frame, each
 * timed around chart.live(), which redraws synchronously. Info rows: the same with all 10,000
 * candles in view (merged per pixel column) and ticks that append a candle.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const outDir = path.join(ctx.outDir, 'pages-chart')
  const { page, errors, close } = await openBenchPage(ctx, { page: PAGE, outDir, context: { ...MOBILE } })
  try {
    await page.evaluate(`window.nadiChartBench.seed(${COUNT})`)
    const render = async (all: boolean) => (await page.evaluate(`window.nadiChartBench.render(${all})`)) as RenderResult
    const tick = async (append: boolean) => (await page.evaluate(`window.nadiChartBench.tick(${TICKS}, ${append})`)) as number[]

    const cold = await render(false)
    check(cold, 'cold render')
    const renders: number[] = []
    const creates: number[] = []
    let last = cold
    for (let i = 0; i < ctx.runs; i++) {
      last = await render(false)
      check(last, `render ${i + 1}`)
      renders.push(last.ms)
      creates.push(last.createMs)
    }
    const ticks = await tick(false)
    await render(false)
    const appends = await tick(true)

    const allView = await render(true)
    check(allView, 'render, all in view')
    const allRenders: number[] = []
    for (let i = 0; i < ctx.runs; i++) allRenders.push((await render(true)).zoomMs ?? NaN)
    const allTicks = await tick(false)
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`)

    const r = summarize(renders)
    const tk = summarize(ticks)
    const ap = summarize(appends)
    const ar = summarize(allRenders)
    const at = summarize(allTicks)
    const p95 = (s: number[]) => [...s].sort((a, b) => a - b)[Math.floor(s.length * 0.95)] ?? NaN
    ctx.log(`chart: cold render ${millis(cold.ms)}, renders ${renders.map((v) => millis(v)).join(', ')} (of which the empty chart ${creates.map((v) => millis(v)).join(', ')}); ${last.barsInView} bars in view, canvas ${last.canvas.join('×')}`)
    ctx.log(`chart: tick median ${millis(tk.median)} (p95 ${millis(p95(ticks))}, max ${millis(tk.max)}); append median ${millis(ap.median)}`)
    ctx.log(`chart: all ${COUNT} in view: redraw median ${millis(ar.median)}, tick median ${millis(at.median)}`)
    const common = { count: COUNT, viewport: `${MOBILE.viewport?.width}×260 CSS px at DPR ${MOBILE.deviceScaleFactor}`, canvas: last.canvas }
    return [
      atMost({
        name: `chart: first render of 10,000 candles (Chromium, no CPU throttling)`,
        value: r.median,
        unit: 'ms',
        max: RENDER_MAX_MS,
        format: millis,
        details: {
          ...r,
          ...common,
          coldMs: cold.ms,
          emptyChartMs: creates,
          barsInView: last.barsInView,
          method: 'bench/pages/chart.ts: createCandleChart() + set(10,000 candles), drawn synchronously (uPlot batch), timed with performance.now() in the page; fresh chart per run after one warm-up',
        },
      }),
      atMost({
        name: `chart: live tick of the last candle at 10,000 candles`,
        value: tk.median,
        unit: 'ms',
        max: TICK_MAX_MS,
        format: millis,
        details: {
          ...tk,
          samples: undefined,
          p95: p95(ticks),
          ticks: TICKS,
          ...common,
          method: 'chart.live(candle of the same ts) on the existing uPlot instance (setData + setScale in a batch), one per animation frame, timed in the page',
        },
      }),
      info({
        name: `chart: cold first render (first chart in the page, JIT cold)`,
        value: cold.ms,
        unit: 'ms',
        format: millis,
        details: { ...common, barsInView: cold.barsInView },
      }),
      info({
        name: `chart: live tick that appends a candle`,
        value: ap.median,
        unit: 'ms',
        format: millis,
        details: { ...ap, samples: undefined, p95: p95(appends), ticks: TICKS },
      }),
      info({
        name: `chart: redraw zoomed out to all 10,000 candles`,
        value: ar.median,
        unit: 'ms',
        format: millis,
        details: { ...ar, barsInView: allView.barsInView, method: 'after a render, one setScale to the whole series in a batch (candles merged per pixel column), timed in the page' },
      }),
      info({
        name: `chart: live tick with all 10,000 candles in view`,
        value: at.median,
        unit: 'ms',
        format: millis,
        details: { ...at, samples: undefined, p95: p95(allTicks), ticks: TICKS },
      }),
    ]
  } finally {
    await close()
  }
}
