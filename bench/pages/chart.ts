// Bench page: the trade screen's candle chart (src/features/trade/chart/controller.ts, uPlot) in
// Chromium, driven by bench/rows/chart.ts through window.nadiChartBench. Built on the fly by that
// row with Vite. The chart is the one CandleChart.tsx makes; React and the data feed are left out,
// so the figures are the chart's own.

import { createCandleChart, type CandleChartHandle } from '../../src/features/trade/chart/controller.ts'
import type { Candle } from '../../src/features/trade/chart/series.ts'

const MINUTE = 60_000

/** `count` one-minute candles ending at the last whole minute (a random walk, so values differ). */
function candles(count: number): Candle[] {
  const end = Math.floor(Date.now() / MINUTE) * MINUTE
  const out: Candle[] = []
  let price = 0.25
  for (let i = 0; i < count; i++) {
    const o = price
    price = Math.max(0.01, price + (Math.random() - 0.5) * 0.002)
    const c = price
    out.push({ ts: end - (count - 1 - i) * MINUTE, o, h: Math.max(o, c) + Math.random() * 0.001, l: Math.min(o, c) - Math.random() * 0.001, c, v: Math.round(Math.random() * 10_000) })
  }
  return out
}

export interface RenderResult {
  ms: number
  /** Of ms: making the empty chart (uPlot, DOM, first empty draw); the rest is setting the series. */
  createMs: number
  /** With `all`: the redraw that zooms out to every candle, timed on its own. */
  zoomMs: number | null
  /** Candles in the chart and the window shown (in bars), to check the render did what it says. */
  length: number
  barsInView: number
  canvas: [number, number]
}

const host = document.getElementById('host') as HTMLElement
let chart: CandleChartHandle | null = null
let series: Candle[] = []

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()))

const bench = {
  seed(count: number): number {
    series = candles(count)
    return series.length
  },
  /**
   * Timed: a new chart on an empty host, then the whole series set, drawn synchronously — what
   * CandleChart does when the cached candles arrive. `all`: then zoom out to every candle (timed
   * apart, as zoomMs), so later ticks redraw the whole series.
   */
  async render(all = false): Promise<RenderResult> {
    chart?.destroy()
    chart = null
    host.replaceChildren()
    // The old chart's teardown (layout, paint) settles before the clock starts.
    await frame()
    await frame()
    const width = host.clientWidth
    const height = host.clientHeight
    const t0 = performance.now()
    chart = createCandleChart(host, { bar: '1m', width, height })
    const t1 = performance.now()
    chart.set(series)
    const ms = performance.now() - t0
    const createMs = t1 - t0
    const u = chart.uplot
    let zoomMs: number | null = null
    if (all) {
      const z0 = performance.now()
      u.batch(() => u.setScale('x', { min: u.data[0][0]! - 60, max: u.data[0][u.data[0].length - 1]! + 60 }))
      zoomMs = performance.now() - z0
    }
    const x = u.scales.x!
    return { ms, createMs, zoomMs, length: u.data[0].length, barsInView: Math.round((x.max! - x.min!) / 60), canvas: [u.ctx.canvas.width, u.ctx.canvas.height] }
  },
  /**
   * `count` live updates of the last candle (or, with `append`, a new candle each), each timed on
   * its own, one per animation frame as a stream delivers them. Returns the samples in ms.
   */
  async tick(count: number, append = false): Promise<number[]> {
    if (!chart) throw new Error('render first')
    const last = series[series.length - 1]!
    const samples: number[] = []
    let ts = last.ts
    let price = last.c
    for (let i = 0; i < count; i++) {
      await frame()
      if (append) ts += MINUTE
      price = Math.max(0.01, price + (Math.random() - 0.5) * 0.001)
      const k: Candle = { ts, o: last.c, h: Math.max(last.c, price) + 0.0002, l: Math.min(last.c, price) - 0.0002, c: price, v: 100 + i }
      const t0 = performance.now()
      chart.live(k)
      samples.push(performance.now() - t0)
    }
    const u = chart.uplot
    if (u.data[0].length !== series.length + (append ? count : 0)) throw new Error(`after ${count} ticks the chart holds ${u.data[0].length} candles`)
    const closes = u.data[4]!
    if (closes[closes.length - 1] !== price) throw new Error('the last tick is not what the chart shows')
    return samples
  },
}

declare global {
  interface Window {
    nadiChartBench?: typeof bench
  }
}

window.nadiChartBench = bench
document.documentElement.dataset.ready = '1'
