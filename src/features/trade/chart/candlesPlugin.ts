// Candles and volume for uPlot, drawn in its `draw` hook. uPlot itself draws no series here (its
// series only range the scales); this plugin walks the visible candles once and fills four paths,
// one per colour and layer, so a frame is four fills whatever the candle count. When candles are
// narrower than a wick, candles sharing a pixel column are merged into one (OHLC of the group),
// so a 10,000-candle view costs one rectangle per column, not per candle.

import type uPlot from 'uplot'
import { lowerBound, type Columns } from './series.ts'

export interface ChartColors {
  up: string
  down: string
  axis: string
  grid: string
}

/** Colours from the app's CSS variables (src/ui/styles.css), with its values where one is unset. */
export function readChartColors(el: Element): ChartColors {
  const css = getComputedStyle(el)
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback
  return { up: v('--teal', '#22d3a6'), down: v('--red', '#ff5d6c'), axis: v('--muted', '#8a94a8'), grid: v('--line', '#25304a') }
}

/** Share of the plot height the volume bars may use, at its bottom. */
export const VOLUME_BAND = 0.2
/** Gap between the volume band and the lowest low. */
const PRICE_GAP = 0.04
/** Headroom above the highest high. */
const PRICE_HEADROOM = 0.06
/** Volume bars are drawn this opaque, so the candles stay the figure. */
const VOLUME_ALPHA = 0.35
/** Body width as a share of a bar's width. */
const BODY_SHARE = 0.7

/**
 * The price scale for candles whose lows and highs span [low, high]: the candles take the plot's
 * upper part, leaving the lowest VOLUME_BAND (+ a gap) to the volume bars on their own scale.
 */
export function priceRange(low: number | null, high: number | null): [number, number] {
  if (low == null || high == null || !Number.isFinite(low) || !Number.isFinite(high)) return [0, 1]
  let lo = low
  let span = high - low
  if (!(span > 0)) {
    // One price: centre it in a band of ±1 %.
    span = Math.abs(high) * 0.02 || 1
    lo = low - span / 2
  }
  const total = span / (1 - VOLUME_BAND - PRICE_GAP - PRICE_HEADROOM)
  const min = lo - total * (VOLUME_BAND + PRICE_GAP)
  return [min, min + total]
}

/** The lowest price of a priceRange scale that lies above the volume band (axis labels stop there). */
export function priceFloor(min: number, max: number): number {
  return min + (max - min) * (VOLUME_BAND + PRICE_GAP)
}

/** The volume scale: the largest visible volume reaches the top of the volume band. */
export function volumeRange(maxVol: number | null): [number, number] {
  return [0, maxVol != null && maxVol > 0 && Number.isFinite(maxVol) ? maxVol / VOLUME_BAND : 1]
}

/** Anything rectangles can be added to: a Path2D, or a recorder in tests. */
export interface RectSink {
  rect(x: number, y: number, w: number, h: number): void
}

/** One colour's layers. */
export interface Layers {
  candles: RectSink
  volume: RectSink
}

/** What a frame draws into, all in canvas pixels, and the scales it maps through. */
export interface Frame {
  left: number
  top: number
  width: number
  height: number
  /** x scale, seconds. */
  xMin: number
  xMax: number
  yMin: number
  yMax: number
  /** Top of the volume scale (its bottom is 0). */
  volMax: number
  barSec: number
  pxRatio: number
}

/**
 * Adds the rectangles of the candles in view to the sinks: wick and body to `candles`, the volume
 * bar to `volume`, up (close ≥ open) or down. Returns how many candles or merged columns it drew.
 */
export function drawCandles(cols: Columns, f: Frame, up: Layers, down: Layers): number {
  const n = cols.length
  if (n === 0 || !(f.xMax > f.xMin) || !(f.yMax > f.yMin) || !(f.width > 0) || !(f.height > 0)) return 0
  const { ts, o: O, h: H, l: L, c: C, v: V } = cols
  const kx = f.width / (f.xMax - f.xMin)
  const ky = f.height / (f.yMax - f.yMin)
  const kv = f.volMax > 0 ? f.height / f.volMax : 0
  const bottom = f.top + f.height
  const barPx = f.barSec * kx
  const wick = Math.max(1, Math.round(f.pxRatio))
  const dense = barPx < 3 * wick
  let body = dense ? wick : Math.max(wick, Math.round(barPx * BODY_SHARE))
  if ((body - wick) & 1) body -= 1 // an even difference keeps the wick centred on the body
  const halfBody = body >> 1
  const halfWick = wick >> 1

  // One candle either side of the scale's edges, so a half-visible candle is drawn (and clipped).
  const i0 = lowerBound(ts, n, f.xMin - f.barSec)
  const i1 = lowerBound(ts, n, f.xMax + f.barSec)

  let drawn = 0
  let col = NaN
  let cx = 0
  let o = 0
  let h = 0
  let l = 0
  let c = 0
  let v = 0
  const flush = () => {
    const s = c >= o ? up : down
    const yH = Math.round(f.top + (f.yMax - h) * ky)
    const yL = Math.round(f.top + (f.yMax - l) * ky)
    s.candles.rect(cx - halfWick, yH, wick, Math.max(1, yL - yH))
    if (!dense) {
      const yO = Math.round(f.top + (f.yMax - o) * ky)
      const yC = Math.round(f.top + (f.yMax - c) * ky)
      s.candles.rect(cx - halfBody, Math.min(yO, yC), body, Math.max(1, Math.abs(yC - yO)))
    }
    if (kv > 0 && v > 0) {
      const yV = Math.round(bottom - v * kv)
      s.volume.rect(cx - halfBody, yV, body, Math.max(1, bottom - yV))
    }
    drawn++
  }
  for (let i = i0; i < i1; i++) {
    const x = Math.round(f.left + (ts[i]! - f.xMin) * kx)
    const key = dense ? Math.floor(x / wick) : i
    if (key !== col) {
      if (col === col) flush() // NaN only before the first candle
      col = key
      cx = dense ? key * wick + halfWick : x
      o = O[i]!
      h = H[i]!
      l = L[i]!
      c = C[i]!
      v = V[i]!
    } else {
      if (H[i]! > h) h = H[i]!
      if (L[i]! < l) l = L[i]!
      c = C[i]!
      // The tallest volume of the column, not the sum: the scale is ranged on single candles.
      if (V[i]! > v) v = V[i]!
    }
  }
  if (col === col) flush()
  return drawn
}

export interface CandlesPluginOptions {
  /** The columns as they are now (the chart swaps them when the series is replaced). */
  columns: () => Columns
  barSec: number
  colors: ChartColors
  /** Scale keys of the prices and the volume. */
  priceScale: string
  volumeScale: string
  /** Canvas pixels per CSS pixel now (uPlot.pxRatio; it follows zoom and screen changes). */
  pxRatio: () => number
}

export function candlesPlugin(opts: CandlesPluginOptions): uPlot.Plugin {
  const { colors } = opts
  return {
    hooks: {
      draw: (u: uPlot) => {
        const x = u.scales.x
        const p = u.scales[opts.priceScale]
        const vol = u.scales[opts.volumeScale]
        if (x?.min == null || x.max == null || p?.min == null || p.max == null) return
        const { left, top, width, height } = u.bbox
        const upCandles = new Path2D()
        const upVolume = new Path2D()
        const downCandles = new Path2D()
        const downVolume = new Path2D()
        const frame: Frame = {
          left,
          top,
          width,
          height,
          xMin: x.min,
          xMax: x.max,
          yMin: p.min,
          yMax: p.max,
          volMax: vol?.max ?? 0,
          barSec: opts.barSec,
          pxRatio: opts.pxRatio(),
        }
        const drawn = drawCandles(opts.columns(), frame, { candles: upCandles, volume: upVolume }, { candles: downCandles, volume: downVolume })
        if (drawn === 0) return
        const ctx = u.ctx
        ctx.save()
        ctx.beginPath()
        ctx.rect(left, top, width, height)
        ctx.clip()
        ctx.globalAlpha = VOLUME_ALPHA
        ctx.fillStyle = colors.up
        ctx.fill(upVolume)
        ctx.fillStyle = colors.down
        ctx.fill(downVolume)
        ctx.globalAlpha = 1
        ctx.fillStyle = colors.up
        ctx.fill(upCandles)
        ctx.fillStyle = colors.down
        ctx.fill(downCandles)
        ctx.restore()
      },
    },
  }
}
