// The mall's gold price figures: the tiny 24 h sparkline drawn as one SVG path (no chart library),
// and the 24 h change as it is read. Pure: tested in tests/unit/mall/goldChart.test.ts.

export interface PricePoint {
  at: number
  price: string
}

export interface Sparkline {
  /** The line, "M x y L x y …", in a width × height box. */
  line: string
  /** The same line closed along the bottom, for a soft fill under it. */
  area: string
  /** Where the newest point is drawn. */
  last: { x: number; y: number } | null
}

/**
 * Places the points by time along x and by price along y (highest at the top), inside `pad` of the
 * edges; a flat series is drawn across the middle. Fewer than two points draw nothing.
 */
export function sparkline(points: readonly PricePoint[], width: number, height: number, pad = 2): Sparkline {
  const pts = points.map((p) => ({ at: p.at, v: Number(p.price) })).filter((p) => Number.isFinite(p.v) && Number.isFinite(p.at))
  if (pts.length < 2) return { line: '', area: '', last: null }
  const t0 = Math.min(...pts.map((p) => p.at))
  const t1 = Math.max(...pts.map((p) => p.at))
  const lo = Math.min(...pts.map((p) => p.v))
  const hi = Math.max(...pts.map((p) => p.v))
  const w = width - 2 * pad
  const h = height - 2 * pad
  const x = (at: number) => pad + (t1 === t0 ? 0 : ((at - t0) / (t1 - t0)) * w)
  const y = (v: number) => pad + (hi === lo ? h / 2 : ((hi - v) / (hi - lo)) * h)
  const r = (n: number) => Math.round(n * 10) / 10
  const xy = pts.map((p) => `${r(x(p.at))} ${r(y(p.v))}`)
  const line = `M${xy.join(' L')}`
  const first = pts[0]!
  const lastPt = pts[pts.length - 1]!
  const area = `${line} L${r(x(lastPt.at))} ${height} L${r(x(first.at))} ${height} Z`
  return { line, area, last: { x: r(x(lastPt.at)), y: r(y(lastPt.v)) } }
}

export type Tone = 'up' | 'down' | 'flat'

/** "-0.35" → down, "0.00" → flat, "1.2" → up. */
export function toneOf(change: string): Tone {
  const n = Number(change)
  return !Number.isFinite(n) || n === 0 ? 'flat' : n > 0 ? 'up' : 'down'
}

/** "-0.35" → "-0.35%", "1.20" → "+1.20%", "0" → "0.00%". */
export function signedPercent(change: string): string {
  const n = Number(change)
  if (!Number.isFinite(n) || n === 0) return '0.00%'
  const text = change.trim().replace(/^[+-]/, '')
  return `${n > 0 ? '+' : '-'}${text}%`
}
