// Demo history (server/exchange/demoHistory.ts): made-up candles a chart can draw, on the market's
// steps, ending at the live market's starting price, folded into the longer bars like trades are.
import { describe, expect, it } from 'vitest'
import { BAR_MS, BARS } from '../../../contract/trade.ts'
import { defaultSpec } from '../../../server/exchange/engine/index.ts'
import { demoMinutes, foldBars } from '../../../server/exchange/demoHistory.ts'

const end = Date.UTC(2026, 10, 24, 21, 37, 42)
const endPrice = 25_000_000n // 0.25 USDT
const minutes = demoMinutes({ spec: defaultSpec, end, endPrice, days: 5, seed: 7 })

describe('demo history', () => {
  it('covers the days before the current minute, one candle a minute, and ends at the starting price', () => {
    expect(minutes).toHaveLength(5 * 1440)
    const minuteStart = end - (end % 60_000)
    expect(minutes.at(-1)!.ts).toBe(minuteStart - 60_000)
    expect(minutes[0]!.ts).toBe(minuteStart - 5 * 1440 * 60_000)
    for (let i = 1; i < minutes.length; i++) expect(minutes[i]!.ts - minutes[i - 1]!.ts).toBe(60_000)
    expect(minutes.at(-1)!.close).toBe(endPrice)
  })

  it('every candle is consistent and on the market’s steps; each opens where the one before closed', () => {
    minutes.forEach((c, i) => {
      expect(c.low).toBeGreaterThan(0n)
      expect(c.low <= c.open && c.low <= c.close && c.high >= c.open && c.high >= c.close, `candle ${i}`).toBe(true)
      for (const p of [c.open, c.high, c.low, c.close]) expect(p % defaultSpec.priceStep).toBe(0n)
      expect(c.vol % defaultSpec.sizeStep).toBe(0n)
      expect(c.vol).toBeGreaterThan(0n)
      expect(c.volQuote).toBeGreaterThan(0n)
      if (i > 0) expect(c.open).toBe(minutes[i - 1]!.close)
    })
  })

  it('has shape: the price moves by more than a few ticks over the days and stays within a third and three times the end', () => {
    const closes = minutes.map((c) => Number(c.close))
    const span = (Math.max(...closes) - Math.min(...closes)) / Number(endPrice)
    expect(span).toBeGreaterThan(0.03)
    expect(Math.min(...closes)).toBeGreaterThanOrEqual(Number(endPrice) / 3 - Number(defaultSpec.priceStep))
    expect(Math.max(...closes)).toBeLessThanOrEqual(Number(endPrice) * 3 + Number(defaultSpec.priceStep))
  })

  it('the same seed draws the same history, another seed another', () => {
    expect(demoMinutes({ spec: defaultSpec, end, endPrice, days: 1, seed: 7 })).toEqual(demoMinutes({ spec: defaultSpec, end, endPrice, days: 1, seed: 7 }))
    expect(demoMinutes({ spec: defaultSpec, end, endPrice, days: 1, seed: 8 })).not.toEqual(demoMinutes({ spec: defaultSpec, end, endPrice, days: 1, seed: 7 }))
  })

  it('folds into every bar: aligned to UTC, each longer candle the sum of the minutes it holds', () => {
    const bars = foldBars(minutes)
    for (const bar of BARS) {
      const list = bars.get(bar)!
      for (const c of list) expect(c.ts % BAR_MS[bar], bar).toBe(0)
      const inside = (c: { ts: number }) => minutes.filter((m) => m.ts >= c.ts && m.ts < c.ts + BAR_MS[bar])
      for (const c of [list[0]!, list[Math.floor(list.length / 2)]!, list.at(-1)!]) {
        const ms = inside(c)
        expect(c.open).toBe(ms[0]!.open)
        expect(c.close).toBe(ms.at(-1)!.close)
        expect(c.high).toBe(ms.reduce((a, m) => (m.high > a ? m.high : a), 0n))
        expect(c.low).toBe(ms.reduce((a, m) => (m.low < a ? m.low : a), ms[0]!.low))
        expect(c.vol).toBe(ms.reduce((a, m) => a + m.vol, 0n))
      }
    }
    expect(bars.get('1m')).toHaveLength(minutes.length)
    // Five days reach into six UTC days: the daily chart has candles to draw.
    expect(bars.get('1d')!.length).toBeGreaterThanOrEqual(5)
    expect(bars.get('4h')!.length).toBeGreaterThanOrEqual(30)
  })
})
