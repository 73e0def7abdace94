import { describe, expect, it } from 'vitest'
import { formatRatio, TickerWindow } from '../../../server/exchange/marketData/ticker.ts'

const U = 100_000_000n
const MIN = 60_000
const DAY = 86_400_000
const t0 = Date.UTC(2024, 8, 1, 10, 0, 0)

/** A trade of `size` whole NADI at a whole-USDT `price`. */
function trade(t: TickerWindow, ts: number, price: bigint, size: bigint) {
  t.onTrade(ts, price * U, size * U, price * size * U)
}

describe('24 h ticker', () => {
  it('before any trade the prices are null, volumes 0 and change 0', () => {
    expect(new TickerWindow().toWire(t0)).toEqual({
      inst_id: 'NADI-USDT',
      last: null,
      open24h: null,
      high24h: null,
      low24h: null,
      vol24h: '0',
      vol_quote24h: '0',
      change24h: '0.0000',
      ts: t0,
    })
  })

  it('open, high, low, last and volumes cover exactly the trades of the window', () => {
    const t = new TickerWindow()
    trade(t, t0, 100n, 1n)
    trade(t, t0 + 10 * MIN, 120n, 2n)
    trade(t, t0 + 20 * MIN, 90n, 3n)
    trade(t, t0 + 30 * MIN, 101n, 1n)
    expect(t.toWire(t0 + 31 * MIN)).toMatchObject({
      last: '101',
      open24h: '100',
      high24h: '120',
      low24h: '90',
      vol24h: '7',
      vol_quote24h: '711',
      change24h: '0.0100',
    })
  })

  it('a trade 24 h + 1 min old no longer counts, one 23 h 59 min old still does', () => {
    const t = new TickerWindow()
    trade(t, t0, 200n, 5n) // the high, and the first trade
    trade(t, t0 + 2 * MIN, 100n, 1n)
    trade(t, t0 + 3 * MIN, 110n, 1n)
    const kept = t.toWire(t0 + DAY - MIN)
    expect(kept).toMatchObject({ open24h: '200', high24h: '200', low24h: '100', vol24h: '7', vol_quote24h: '1210' })
    const slid = t.toWire(t0 + DAY + MIN)
    expect(slid).toMatchObject({ last: '110', open24h: '100', high24h: '110', low24h: '100', vol24h: '2', vol_quote24h: '210', change24h: '0.1000' })
  })

  it('buckets leave the window as new trades arrive, and the sums stay exact', () => {
    const t = new TickerWindow()
    // One trade a minute for two days; at every point the window holds the last 1440 of them.
    for (let i = 0; i < 2 * 1440; i++) {
      const price = 1000n + BigInt((i * 7919) % 97)
      t.onTrade(t0 + i * MIN + 1234, price, BigInt(i + 1), price * BigInt(i + 1))
    }
    const now = t0 + (2 * 1440 - 1) * MIN + 5000
    const w = t.toWire(now)
    let vol = 0n
    let quote = 0n
    let hi = 0n
    let lo = 10n ** 18n
    for (let i = 1440; i < 2 * 1440; i++) {
      const p = 1000n + BigInt((i * 7919) % 97)
      vol += BigInt(i + 1)
      quote += p * BigInt(i + 1)
      if (p > hi) hi = p
      if (p < lo) lo = p
    }
    expect([w.vol24h, w.vol_quote24h, w.high24h, w.low24h]).toEqual([fmt(vol), fmt(quote), fmt(hi), fmt(lo)])
    expect(w.open24h).toBe(fmt(1000n + BigInt((1440 * 7919) % 97)))
  })

  it('when no trade is left in the window the price has stood still: open, high and low are the last price', () => {
    const t = new TickerWindow()
    trade(t, t0, 100n, 1n)
    trade(t, t0 + MIN, 98n, 1n)
    expect(t.toWire(t0 + 3 * DAY)).toMatchObject({ last: '98', open24h: '98', high24h: '98', low24h: '98', vol24h: '0', vol_quote24h: '0', change24h: '0.0000' })
  })

  it('change24h is last / open - 1 with four decimals, half away from zero', () => {
    const t = new TickerWindow()
    t.onTrade(t0, 8000n, U, 8000n)
    t.onTrade(t0 + 1, 7900n, U, 7900n)
    expect(t.toWire(t0 + 2).change24h).toBe('-0.0125')
    expect(formatRatio(1n, 3n)).toBe('0.3333')
    expect(formatRatio(2n, 3n)).toBe('0.6667')
    expect(formatRatio(-1n, 20000n)).toBe('-0.0001')
    expect(formatRatio(-1n, 20001n)).toBe('0.0000')
    expect(formatRatio(5n, 1n)).toBe('5.0000')
    expect(formatRatio(-3n, 2n)).toBe('-1.5000')
  })
})

/** Units → decimal string, independent of formatMoney. */
function fmt(units: bigint): string {
  const whole = units / U
  const frac = (units % U).toString().padStart(8, '0').replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : `${whole}`
}
