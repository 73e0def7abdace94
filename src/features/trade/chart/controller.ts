// One uPlot candle chart, driven imperatively: the series is set whole (cache, history pages) or a
// live candle at a time, always on the same uPlot instance. A live tick writes the last slot of the
// columns in place and redraws synchronously (uPlot's batch), so its cost is one frame of the
// visible candles, whatever the series length.

import uPlot from 'uplot'
import { BAR_MS, type Bar } from '../../../../contract/trade.ts'
import { candlesPlugin, priceFloor, priceRange, readChartColors, volumeRange, type ChartColors } from './candlesPlugin.ts'
import { aligned, applyLive, candleAt, readoutParts, timeLabels, toColumns, type Candle, type Columns } from './series.ts'

/** Where the hook delivers candles. */
export interface CandleSink {
  /** The whole series (oldest first) replaces what is shown; the view stays where it is. */
  set(candles: readonly Candle[]): void
  /** One live candle: the last one updated, or the next one. */
  live(candle: Candle): void
}

export interface CandleChartHandle extends CandleSink {
  setSize(size: { width: number; height: number }): void
  /** The market's price decimals (its price step's), for the OHLC line; null until the market is known. */
  setPriceDecimals(decimals: number | null): void
  destroy(): void
  readonly uplot: uPlot
}

export interface CandleChartOptions {
  bar: Bar
  width: number
  height: number
  /** Called when the user pans to the oldest candle shown (to load older history). */
  onReachStart?: () => void
  /** Defaults to the app's CSS variables as seen from the host element. */
  colors?: ChartColors
}

const PRICE = 'price'
const VOL = 'vol'
/** A new chart shows candles about this wide (CSS px), newest at the right. */
const BAR_CSS_PX = 8
/** Empty bars right of the newest candle, so the live one is not on the edge. */
const RIGHT_PAD_BARS = 3
/** Zooming in stops at this many bars across the plot. */
const MIN_BARS = 10
const Y_AXIS_PX = 56
/** Half the width of a time label: one centred nearer an edge than this would be clipped. */
const EDGE_LABEL_PX = 24
const FONT = '11px system-ui, sans-serif'

const noPaths = () => null

/** Decimals that tell axis labels `incr` apart, no more. */
function stepDecimals(incr: number): number {
  return incr > 0 && Number.isFinite(incr) ? Math.min(8, Math.max(0, Math.ceil(-Math.log10(incr) - 1e-9))) : 2
}


export function createCandleChart(host: HTMLElement, opts: CandleChartOptions): CandleChartHandle {
  const barSec = BAR_MS[opts.bar] / 1000
  const colors = opts.colors ?? readChartColors(host)
  let cols: Columns = toColumns([], 0)
  let destroyed = false

  const first = () => (cols.length ? cols.ts[0]! : NaN)
  const last = () => (cols.length ? cols.ts[cols.length - 1]! : NaN)
  const plotCssWidth = (width: number) => Math.max(1, width - Y_AXIS_PX)

  const homeBars = (width: number) => Math.max(MIN_BARS, Math.round(plotCssWidth(width) / BAR_CSS_PX))

  /** The right edge a view may reach: the newest candle (or the current bar) and its padding, no later. */
  const rightEdge = () => Math.max(cols.length ? last() : -Infinity, Math.floor(Date.now() / 1000 / barSec) * barSec) + (RIGHT_PAD_BARS + 0.5) * barSec

  /**
   * The window of a fresh view: the present at the right, BAR_CSS_PX per bar. A market that has not
   * traded for hours shows its last candles and the empty time since, never a past moment as "now".
   */
  function homeWindow(width: number): { min: number; max: number } {
    const max = rightEdge()
    return { min: max - homeBars(width) * barSec, max }
  }

  /** A window kept within reach of the data: no zooming past MIN_BARS or far beyond the series. */
  function clampWindow(min: number, max: number): { min: number; max: number } {
    if (!cols.length) return { min, max }
    const lo = first()
    const hi = last()
    // Zooming out stops at the whole series, or at a fresh view's width when the series is shorter.
    const maxSpan = Math.max(homeBars(u.width) * barSec, hi - lo + 2 * (RIGHT_PAD_BARS + 1) * barSec)
    const span = Math.min(maxSpan, Math.max(MIN_BARS * barSec, max - min))
    // A quarter of a view may be pulled past the oldest candle: that pull is what loads older history.
    let from = Math.min(Math.max(min, lo - span / 4), Math.max(hi + span / 2, rightEdge()) - span)
    from = Math.max(from, lo - span / 4)
    // Never past the present: a short series leaves room on the left, not hours of future on the right.
    from = Math.min(from, rightEdge() - span)
    return { min: from, max: from + span }
  }

  const readout = document.createElement('div')
  // Wraps between its parts rather than running under the price axis and out of the chart (360 px).
  readout.style.cssText = `position:absolute;left:6px;right:${Y_AXIS_PX}px;top:2px;z-index:1;pointer-events:none;font:${FONT};color:${colors.axis};display:flex;flex-wrap:wrap;column-gap:8px;font-variant-numeric:tabular-nums`
  readout.dataset.testid = 'candle-readout'
  let readoutIdx = -1
  let marketDecimals: number | null = null
  function showReadout(idx: number | null | undefined) {
    const i = idx ?? cols.length - 1
    const k = candleAt(cols, i)
    readoutIdx = idx ?? -1
    if (!k) {
      readout.textContent = ''
      return
    }
    readout.style.color = k.c >= k.o ? colors.up : colors.down
    readout.replaceChildren(
      ...readoutParts(k, marketDecimals).map((part) => {
        const s = document.createElement('span')
        s.style.whiteSpace = 'nowrap'
        s.textContent = part
        return s
      }),
    )
  }

  const priceSeries = (label: string, auto: boolean): uPlot.Series => ({ label, scale: PRICE, auto, paths: noPaths, points: { show: false } })
  const axisBase = { stroke: colors.axis, font: FONT, ticks: { show: false }, grid: { stroke: colors.grid, width: 1 } }
  const home = homeWindow(opts.width)
  const uopts: uPlot.Options = {
    width: opts.width,
    height: opts.height,
    padding: [18, 0, 0, 0],
    legend: { show: false },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    cursor: { drag: { x: false, y: false }, points: { show: false }, y: false },
    scales: {
      // Fixed min/max: the chart, not the data, decides the window (pan, zoom, follow the live candle).
      x: { time: true, auto: false, min: home.min, max: home.max, range: (_u, min, max) => [min, max] },
      [PRICE]: { auto: true, range: (_u, min, max) => priceRange(min, max) },
      [VOL]: { auto: true, range: (_u, _min, max) => volumeRange(max) },
    },
    series: [
      {},
      // Only highs and lows range the price scale; open and close lie between them.
      priceSeries('O', false),
      priceSeries('H', true),
      priceSeries('L', true),
      priceSeries('C', false),
      { label: 'V', scale: VOL, paths: noPaths, points: { show: false } },
    ],
    axes: [
      {
        ...axisBase,
        // Two lines (time, then the date where it changes) fit: nothing is clipped at the bottom.
        size: 36,
        space: 64,
        // The padding right of the newest candle is room, not time: no label names a moment still to
        // come. A label centred too near either edge would be cut off: it is left out instead.
        filter: (u, splits) => {
          const now = Date.now() / 1000
          const right = u.bbox.width / uPlot.pxRatio
          return splits.map((v) => {
            const x = u.valToPos(v, 'x')
            return v <= now && x >= EDGE_LABEL_PX && x <= right - EDGE_LABEL_PX ? v : null
          })
        },
        values: (_u, splits, _axis, _space, incr) => timeLabels(splits, incr),
      },
      {
        ...axisBase,
        scale: PRICE,
        side: 1,
        size: Y_AXIS_PX,
        // No price labels over the volume band.
        filter: (u, splits) => {
          const sc = u.scales[PRICE]
          const floor = sc?.min != null && sc.max != null ? priceFloor(sc.min, sc.max) : -Infinity
          return splits.map((v) => (v >= floor ? v : null))
        },
        values: (_u, splits, _axis, _space, incr) => {
          const d = stepDecimals(incr)
          return splits.map((v) => (v == null ? '' : v.toFixed(d)))
        },
      },
    ],
    plugins: [candlesPlugin({ columns: () => cols, barSec, colors, priceScale: PRICE, volumeScale: VOL, pxRatio: () => uPlot.pxRatio })],
    hooks: {
      setCursor: [
        (u) => {
          showReadout(u.cursor.left != null && u.cursor.left >= 0 ? u.cursor.idx : null)
        },
      ],
    },
  }

  // The first draw happens inside batch(), synchronously, instead of on a microtask.
  const u = new uPlot(uopts, aligned(cols), (self, init) => {
    host.appendChild(self.root)
    self.batch(() => init())
  })
  u.root.style.position = 'relative'
  u.root.appendChild(readout)

  /** Redraws with the current columns and window, at once. `sameArrays`: only values changed. */
  function commit(win: { min: number; max: number }, sameArrays: boolean) {
    u.batch(() => {
      u.setData(sameArrays ? u.data : aligned(cols), false)
      u.setScale('x', win)
    })
    host.dataset.viewMax = String(win.max)
    if (readoutIdx < 0) showReadout(null)
  }

  const following = () => cols.length > 0 && (u.scales.x?.max ?? -Infinity) >= last()

  /** What the chart holds, on the host element: for tests and for anyone inspecting the page. */
  function mark() {
    host.dataset.candles = String(cols.length)
    if (cols.length) {
      const k = cols.length - 1
      host.dataset.lastClose = String(cols.c[k])
      host.dataset.lastVolume = String(cols.v[k])
    }
  }

  function set(candles: readonly Candle[]) {
    if (destroyed) return
    const wasEmpty = cols.length === 0
    const follow = following()
    const prevLast = last()
    cols = toColumns(candles)
    const x = u.scales.x!
    let win = { min: x.min!, max: x.max! }
    if (wasEmpty) win = homeWindow(u.width)
    else if (follow && cols.length) {
      const shift = last() - prevLast
      win = { min: win.min + shift, max: win.max + shift }
    }
    commit(cols.length ? clampWindow(win.min, win.max) : win, false)
    mark()
  }

  function live(k: Candle) {
    if (destroyed) return
    const wasEmpty = cols.length === 0
    const follow = following()
    const prevLast = last()
    const effect = applyLive(cols, k)
    if (effect === 'ignored') return
    const x = u.scales.x!
    let win = { min: x.min!, max: x.max! }
    if (wasEmpty) win = homeWindow(u.width)
    else if (effect === 'appended' && follow) {
      const shift = last() - prevLast
      win = { min: win.min + shift, max: win.max + shift }
    }
    commit(win, effect === 'replaced')
    mark()
  }

  // ── pan and zoom: one pointer pans, two pinch, the wheel zooms around the pointer ──
  const over = u.over
  over.style.touchAction = 'pan-y' // vertical swipes still scroll the page
  const pointers = new Map<number, number>()
  let gesture: { min: number; max: number; x0: number; dist0: number; mid0: number } | null = null
  let pending: { min: number; max: number } | null = null
  let frame = 0

  function baseline() {
    const xs = [...pointers.values()]
    const x = u.scales.x!
    if (!xs.length || x.min == null || x.max == null) {
      gesture = null
      return
    }
    const a = xs[0]!
    const b = xs[1] ?? a
    gesture = { min: x.min, max: x.max, x0: a, dist0: Math.abs(b - a), mid0: (a + b) / 2 }
  }

  function request(min: number, max: number) {
    pending = clampWindow(min, max)
    if (!frame) frame = requestAnimationFrame(applyPending)
  }

  function applyPending() {
    frame = 0
    if (!pending || destroyed) return
    const win = pending
    pending = null
    u.setScale('x', win)
    if (cols.length && win.min <= first()) opts.onReachStart?.()
  }

  /** The x value under a client x, for a window [min, max]. */
  function valueAt(clientX: number, min: number, max: number): number {
    const r = over.getBoundingClientRect()
    return min + ((clientX - r.left) / Math.max(1, r.width)) * (max - min)
  }

  const onDown = (e: PointerEvent) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return
    over.setPointerCapture?.(e.pointerId)
    pointers.set(e.pointerId, e.clientX)
    baseline()
  }
  const onMove = (e: PointerEvent) => {
    if (!pointers.has(e.pointerId) || !gesture) return
    pointers.set(e.pointerId, e.clientX)
    const g = gesture
    const span = g.max - g.min
    const width = Math.max(1, over.clientWidth)
    const xs = [...pointers.values()]
    if (xs.length === 1) {
      const shift = -((xs[0]! - g.x0) / width) * span
      request(g.min + shift, g.max + shift)
    } else {
      const a = xs[0]!
      const b = xs[1]!
      const dist = Math.max(8, Math.abs(b - a))
      const nextSpan = span * (Math.max(8, g.dist0) / dist)
      const anchor = valueAt(g.mid0, g.min, g.max)
      const r = over.getBoundingClientRect()
      const at = ((a + b) / 2 - r.left) / Math.max(1, r.width)
      request(anchor - at * nextSpan, anchor - at * nextSpan + nextSpan)
    }
  }
  const onUp = (e: PointerEvent) => {
    if (!pointers.delete(e.pointerId)) return
    baseline()
  }
  const onWheel = (e: WheelEvent) => {
    const x = u.scales.x!
    if (x.min == null || x.max == null) return
    e.preventDefault()
    const base = pending ?? { min: x.min, max: x.max }
    const factor = Math.exp(Math.max(-1, Math.min(1, e.deltaY * 0.002)))
    const anchor = valueAt(e.clientX, base.min, base.max)
    request(anchor - (anchor - base.min) * factor, anchor + (base.max - anchor) * factor)
  }
  over.addEventListener('pointerdown', onDown)
  over.addEventListener('pointermove', onMove)
  over.addEventListener('pointerup', onUp)
  over.addEventListener('pointercancel', onUp)
  over.addEventListener('wheel', onWheel, { passive: false })

  return {
    uplot: u,
    set,
    live,
    setPriceDecimals(decimals) {
      if (destroyed || decimals === marketDecimals) return
      marketDecimals = decimals
      showReadout(readoutIdx < 0 ? null : readoutIdx)
    },
    setSize(size) {
      if (destroyed || (size.width === u.width && size.height === u.height)) return
      u.setSize(size)
    },
    destroy() {
      if (destroyed) return
      destroyed = true
      if (frame) cancelAnimationFrame(frame)
      over.removeEventListener('pointerdown', onDown)
      over.removeEventListener('pointermove', onMove)
      over.removeEventListener('pointerup', onUp)
      over.removeEventListener('pointercancel', onUp)
      over.removeEventListener('wheel', onWheel)
      u.destroy()
    },
  }
}
