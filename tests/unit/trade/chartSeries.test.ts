import { describe, expect, it } from 'vitest'
import {
  timeLabels,
  aligned,
  applyLive,
  candleAt,
  fromWire,
  fromWireList,
  joinLatest,
  lowerBound,
  mergeCandles,
  toColumns,
  unionCandles,
  type Candle,
  type WireCandle,
} from '../../../src/features/trade/chart/series.ts'
import { readoutParts } from '../../../src/features/trade/chart/series.ts'

const MIN = 60_000
const T0 = 1_700_000_040_000 // a UTC minute boundary
const k = (i: number, c = 100 + i, v = i + 1): Candle => ({ ts: T0 + i * MIN, o: c - 1, h: c + 2, l: c - 3, c, v })
const run = (from: number, to: number, c?: number) => Array.from({ length: to - from + 1 }, (_, j) => k(from + j, c))
const tsOf = (list: readonly Candle[]) => list.map((x) => (x.ts - T0) / MIN)

describe('wire candles', () => {
  it('a wire candle becomes numbers: ts in ms, o h l c, volume in NADI (not USDT)', () => {
    const w: WireCandle = [T0, '0.25', '0.2612', '0.2401', '0.255', '1234.5', '308.6']
    expect(fromWire(w)).toEqual({ ts: T0, o: 0.25, h: 0.2612, l: 0.2401, c: 0.255, v: 1234.5 })
  })

  it('a malformed candle is dropped, not drawn as zero', () => {
    expect(fromWire([T0, '1', '2', '0.5', 'x', '3', '3'])).toBeNull()
    expect(fromWire(['1700000040000', '1', '2', '0.5', '1', '3', '3'])).toBeNull()
    expect(fromWire([T0, '1', '2', '0.5'])).toBeNull()
    expect(fromWire({ ts: T0 })).toBeNull()
    expect(fromWireList([[T0, '1', '2', '0.5', '1', '3', '3'], null, 'candle', [T0 + MIN, '1', '2', '0.5', '', '3', '3']])).toHaveLength(1)
  })

  it('a wire list out of order comes out oldest first', () => {
    const list: WireCandle[] = [2, 0, 1].map((i) => [T0 + i * MIN, '1', '2', '0.5', '1', '3', '3'])
    expect(tsOf(fromWireList(list))).toEqual([0, 1, 2])
  })
})

describe('mergeCandles', () => {
  const history = run(0, 4)

  it('a live candle with the ts of the last one replaces it', () => {
    const live = { ...k(4), c: 999 }
    const out = mergeCandles(history, [live])
    expect(out).toHaveLength(5)
    expect(out[4]).toBe(live)
  })

  it('a newer live candle appends', () => {
    expect(tsOf(mergeCandles(history, [k(5), k(6)]))).toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  it('an older live candle is ignored: history keeps its closed candle', () => {
    const out = mergeCandles(history, [{ ...k(2), c: 999 }])
    expect(out).toEqual(history)
  })

  it('live candles apply in order: an update after an append replaces the appended one', () => {
    const later = { ...k(5), c: 7 }
    const out = mergeCandles(history, [k(5), later, { ...k(3), c: 1 }])
    expect(tsOf(out)).toEqual([0, 1, 2, 3, 4, 5])
    expect(out[5]).toBe(later)
    expect(out[3]).toEqual(k(3))
  })

  it('history is not modified', () => {
    const before = history.slice()
    mergeCandles(history, [k(4, 1), k(5)])
    expect(history).toEqual(before)
  })
})

describe('unionCandles', () => {
  it('each ts once, ascending, the second series winning a tie', () => {
    const a = run(0, 5, 1)
    const b = [k(3, 2), k(7, 2), k(8, 2)]
    const out = unionCandles(a, b)
    expect(tsOf(out)).toEqual([0, 1, 2, 3, 4, 5, 7, 8])
    expect(out[3]!.c).toBe(2)
    expect(out[2]!.c).toBe(1)
  })

  it('an older page goes before, a newer one after', () => {
    expect(tsOf(unionCandles(run(5, 6), run(0, 2)))).toEqual([0, 1, 2, 5, 6])
    expect(tsOf(unionCandles(run(0, 2), run(5, 6)))).toEqual([0, 1, 2, 5, 6])
  })
})

describe('joinLatest', () => {
  it('a full page that overlaps the cache keeps the older cached candles and replaces the rest', () => {
    const cache = run(0, 10, 1)
    const page = run(8, 20, 2)
    const out = joinLatest(cache, page, true)
    expect(tsOf(out)).toEqual(run(0, 20).map((_, i) => i))
    expect(out.slice(8).every((x) => x.c === 2)).toBe(true)
  })

  it('a full page that does not reach the cache drops the cache from view: there may be a gap', () => {
    expect(tsOf(joinLatest(run(0, 5), run(100, 110), true))).toEqual(run(100, 110).map((_, i) => 100 + i))
  })

  it('a page that is not full is the whole series: older cached candles are from another server state', () => {
    expect(tsOf(joinLatest(run(0, 10), run(5, 12), false))).toEqual([5, 6, 7, 8, 9, 10, 11, 12])
  })

  it('candles newer than the page (closed live while it travelled) stay', () => {
    expect(tsOf(joinLatest([...run(0, 5), k(13), k(14)], run(3, 12), true))).toEqual(run(0, 14).map((_, i) => i))
  })

  it('an empty page means the server has no candles', () => {
    expect(joinLatest(run(0, 5), [], false)).toEqual([])
  })
})

describe('columns', () => {
  it('ts is in seconds for uPlot, and every column holds the candles in order', () => {
    const cols = toColumns(run(0, 2))
    const [ts, o, h, l, c, v] = aligned(cols)
    expect(Array.from(ts)).toEqual([0, 1, 2].map((i) => (T0 + i * MIN) / 1000))
    expect(Array.from(o)).toEqual([99, 100, 101])
    expect(Array.from(h)).toEqual([102, 103, 104])
    expect(Array.from(l)).toEqual([97, 98, 99])
    expect(Array.from(c)).toEqual([100, 101, 102])
    expect(Array.from(v)).toEqual([1, 2, 3])
    expect(candleAt(cols, 1)).toEqual(k(1))
    expect(candleAt(cols, 3)).toBeUndefined()
  })

  it('a live update of the last candle is written in place: uPlot data already handed out sees it', () => {
    const cols = toColumns(run(0, 9))
    const data = aligned(cols)
    expect(applyLive(cols, { ...k(9), h: 500, c: 450, v: 77 })).toBe('replaced')
    expect(cols.length).toBe(10)
    expect(data[2][9]).toBe(500)
    expect(data[4][9]).toBe(450)
    expect(data[5][9]).toBe(77)
  })

  it('a newer live candle appends in the spare slots, without moving the buffers', () => {
    const cols = toColumns(run(0, 9), 4)
    const buffer = cols.c.buffer
    expect(applyLive(cols, k(10))).toBe('appended')
    expect(cols.length).toBe(11)
    expect(cols.c.buffer).toBe(buffer)
    expect(aligned(cols)[4]).toHaveLength(11)
    expect(candleAt(cols, 10)).toEqual(k(10))
  })

  it('appending past the capacity grows the buffers and keeps every candle', () => {
    const cols = toColumns(run(0, 2), 0)
    for (let i = 3; i < 40; i++) expect(applyLive(cols, k(i))).toBe('appended')
    expect(cols.length).toBe(40)
    for (let i = 0; i < 40; i++) expect(candleAt(cols, i)).toEqual(k(i))
  })

  it('an older live candle changes nothing', () => {
    const cols = toColumns(run(0, 4))
    expect(applyLive(cols, { ...k(2), c: 1 })).toBe('ignored')
    expect(candleAt(cols, 2)).toEqual(k(2))
    expect(cols.length).toBe(5)
  })

  it('the first live candle of an empty series appends', () => {
    const cols = toColumns([], 0)
    expect(applyLive(cols, k(0))).toBe('appended')
    expect(candleAt(cols, 0)).toEqual(k(0))
  })

  it('lowerBound finds the first candle at or after a time', () => {
    const cols = toColumns(run(0, 9))
    const s = (i: number) => (T0 + i * MIN) / 1000
    expect(lowerBound(cols.ts, cols.length, s(3))).toBe(3)
    expect(lowerBound(cols.ts, cols.length, s(3) + 1)).toBe(4)
    expect(lowerBound(cols.ts, cols.length, s(-5))).toBe(0)
    expect(lowerBound(cols.ts, cols.length, s(50))).toBe(10)
  })
})

describe('timeLabels', () => {
  // Local wall-clock times, whatever the machine's time zone.
  const at = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo - 1, d, h, mi).getTime() / 1000

  it('times of day, with the date under the first label of each day', () => {
    const splits = [at(2026, 11, 24, 22, 0), at(2026, 11, 24, 23, 0), at(2026, 11, 25, 0, 0), at(2026, 11, 25, 1, 0)]
    expect(timeLabels(splits, 3600)).toEqual(['22:00\n11/24', '23:00', '00:00\n11/25', '01:00'])
  })

  it('dates alone once a step is a day or more', () => {
    expect(timeLabels([at(2026, 11, 20, 0, 0), at(2026, 11, 22, 0, 0)], 2 * 86_400)).toEqual(['11/20', '11/22'])
  })

  it('a left-out split has no label (never a 1970 date), and does not count as the day’s first', () => {
    expect(timeLabels([null, at(2026, 11, 24, 12, 30), null], 1800)).toEqual(['', '12:30\n11/24', ''])
  })
})

describe('the OHLC line', () => {
  const k = { o: 0.1234, h: 0.1301, l: 0.12, c: 0.1299, v: 12_345 }
  it('shows prices in the market’s decimals: four for a 0.0001 step, never six', () => {
    expect(readoutParts(k, 4)).toEqual(['O 0.1234', 'H 0.1301', 'L 0.1200', 'C 0.1299', 'V 12.35K'])
  })
  it('guesses from the price only before the market is known', () => {
    expect(readoutParts(k, null)[0]).toBe('O 0.123400')
  })
})
