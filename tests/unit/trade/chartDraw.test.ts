import { describe, expect, it } from 'vitest'
import { drawCandles, priceFloor, priceRange, volumeRange, VOLUME_BAND, type Frame, type Layers } from '../../../src/features/trade/chart/candlesPlugin.ts'
import { toColumns, type Candle } from '../../../src/features/trade/chart/series.ts'

type Rect = [x: number, y: number, w: number, h: number]

function recorder() {
  const rects = { upCandles: [] as Rect[], upVolume: [] as Rect[], downCandles: [] as Rect[], downVolume: [] as Rect[] }
  const up: Layers = { candles: { rect: (...r) => rects.upCandles.push(r) }, volume: { rect: (...r) => rects.upVolume.push(r) } }
  const down: Layers = { candles: { rect: (...r) => rects.downCandles.push(r) }, volume: { rect: (...r) => rects.downVolume.push(r) } }
  return { rects, up, down }
}

const BAR = 60
const T0 = 1_700_000_040 // seconds
const k = (i: number, o: number, c: number, v = 10): Candle => ({ ts: (T0 + i * BAR) * 1000, o, h: Math.max(o, c) + 1, l: Math.min(o, c) - 1, c, v })

/** A frame over candles [from, to] at 400×200 canvas px, prices 0…200, volume 0…100. */
const frame = (from: number, to: number, over: Partial<Frame> = {}): Frame => ({
  left: 0,
  top: 0,
  width: 400,
  height: 200,
  xMin: T0 + from * BAR - BAR / 2,
  xMax: T0 + to * BAR + BAR / 2,
  yMin: 0,
  yMax: 200,
  volMax: 100,
  barSec: BAR,
  pxRatio: 1,
  ...over,
})

describe('price and volume scales', () => {
  it('candles keep clear of the volume band and the top edge', () => {
    const [min, max] = priceRange(90, 110)
    const share = (p: number) => (p - min) / (max - min)
    expect(share(90)).toBeGreaterThan(VOLUME_BAND)
    expect(share(110)).toBeLessThan(1)
    expect(priceFloor(min, max)).toBeGreaterThan(min + (max - min) * VOLUME_BAND)
    expect(priceFloor(min, max)).toBeLessThanOrEqual(90)
  })

  it('a flat series gets a range around its one price', () => {
    const [min, max] = priceRange(5, 5)
    expect(max).toBeGreaterThan(5)
    expect(priceFloor(min, max)).toBeLessThan(5)
  })

  it('no data gives a usable range, not NaN', () => {
    expect(priceRange(null, null)).toEqual([0, 1])
    expect(volumeRange(null)).toEqual([0, 1])
    expect(volumeRange(0)).toEqual([0, 1])
  })

  it('the largest volume reaches the top of the volume band', () => {
    const [, top] = volumeRange(50)
    expect(50 / top).toBeCloseTo(VOLUME_BAND)
  })
})

describe('drawCandles', () => {
  it('a candle that closes at or above its open is up, below is down', () => {
    const cols = toColumns([k(0, 100, 110), k(1, 110, 100), k(2, 100, 100)])
    const { rects, up, down } = recorder()
    expect(drawCandles(cols, frame(0, 2), up, down)).toBe(3)
    expect(rects.upCandles).toHaveLength(4) // wick + body, twice
    expect(rects.downCandles).toHaveLength(2)
    expect(rects.upVolume).toHaveLength(2)
    expect(rects.downVolume).toHaveLength(1)
  })

  it('the wick spans high to low and the body open to close, in canvas pixels', () => {
    const cols = toColumns([k(0, 100, 150)]) // h 151, l 99
    const { rects, up, down } = recorder()
    drawCandles(cols, frame(0, 0, { width: 100 }), up, down)
    const [wick, body] = rects.upCandles
    expect(wick![1]).toBe(200 - 151)
    expect(wick![1] + wick![3]).toBe(200 - 99)
    expect(body![1]).toBe(200 - 150)
    expect(body![1] + body![3]).toBe(200 - 100)
    expect(body![2]).toBeGreaterThan(wick![2])
    // Wick centred in the body.
    expect(wick![0] - body![0]).toBe(body![0] + body![2] - (wick![0] + wick![2]))
  })

  it('volume bars stand on the plot bottom, scaled on the volume scale', () => {
    const cols = toColumns([k(0, 1, 2, 50)])
    const { rects, up, down } = recorder()
    drawCandles(cols, frame(0, 0, { yMax: 3, volMax: 100 }), up, down)
    const [bar] = rects.upVolume
    expect(bar![1] + bar![3]).toBe(200)
    expect(bar![3]).toBe(100)
  })

  it('only the candles in view (and one either side) are drawn out of 10,000', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => k(i, 100, 100 + (i % 2 ? 1 : -1)))
    const cols = toColumns(many)
    const { up, down } = recorder()
    expect(drawCandles(cols, frame(9_900, 9_949), up, down)).toBe(52)
  })

  it('candles narrower than a wick merge per pixel column: the column spans the group from first open to last close', () => {
    // 10,000 candles over 400 px: 25 per column.
    const many = Array.from({ length: 10_000 }, (_, i) => ({ ...k(i, 100, 100), h: 100 + (i % 25), l: 100 - (i % 25), o: 100 + (i % 25) / 10, c: 100 - (i % 25) / 10 }))
    const cols = toColumns(many)
    const { rects, up, down } = recorder()
    const drawn = drawCandles(cols, frame(0, 9_999, { yMin: 50, yMax: 150, height: 100 }), up, down)
    expect(drawn).toBeLessThanOrEqual(401)
    expect(drawn).toBeGreaterThan(390)
    // One rect per column (the wick; no body at this width), all down: each group opens high, closes low.
    expect(rects.upCandles).toHaveLength(0)
    expect(rects.downCandles).toHaveLength(drawn)
    const tallest = Math.max(...rects.downCandles.map((r) => r[3]))
    expect(tallest).toBe(48) // high 124 to low 76 of one group: 48 px at 1 px per price unit
  })

  it('no candles, or a collapsed scale, draw nothing', () => {
    const { up, down } = recorder()
    expect(drawCandles(toColumns([]), frame(0, 10), up, down)).toBe(0)
    expect(drawCandles(toColumns([k(0, 1, 2)]), frame(0, 0, { yMin: 5, yMax: 5 }), up, down)).toBe(0)
  })
})
