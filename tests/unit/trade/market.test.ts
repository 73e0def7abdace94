import { describe, expect, it } from 'vitest'
import type { PublicTrade } from '../../../contract/trade.ts'
import { changeView, isPublicTrade, isTicker, mergeTrades, rateText } from '../../../src/features/trade/market.ts'

const trade = (id: number, price = '1'): PublicTrade => ({ trade_id: id, inst_id: 'NADI-USDT', price, size: '1', side: 'buy', ts: id })

describe('the ticker header', () => {
  it('the 24 h change reads as a signed percentage, truncated to 2 decimals, in its colour', () => {
    expect(changeView('-0.0125')).toEqual({ text: '-1.25%', tone: 'down' })
    expect(changeView('0.05')).toEqual({ text: '+5.00%', tone: 'up' })
    expect(changeView('0.123456')).toEqual({ text: '+12.34%', tone: 'up' })
    expect(changeView('0')).toEqual({ text: '0.00%', tone: 'flat' })
    expect(changeView(undefined)).toEqual({ text: '0.00%', tone: 'flat' })
  })

  it('fee rates read as percentages', () => {
    expect(rateText('0.001')).toBe('0.1%')
    expect(rateText('0.0025')).toBe('0.25%')
    expect(rateText('0')).toBe('0%')
  })
})

describe('the recent-trades tape', () => {
  it('pushes join the tape newest first, each trade once, capped', () => {
    const tape = mergeTrades([trade(2), trade(1)], [trade(3), trade(2, '9')], 3)
    expect(tape.map((t) => t.trade_id)).toEqual([3, 2, 1])
    expect(tape[1]?.price).toBe('9')
    expect(mergeTrades(undefined, [trade(1), trade(2), trade(3)], 2).map((t) => t.trade_id)).toEqual([3, 2])
  })

  it('a push item that is not a trade or a ticker is kept out of the cache', () => {
    expect(isPublicTrade(trade(1))).toBe(true)
    expect(isPublicTrade({ ...trade(1), price: '1e3' })).toBe(false)
    expect(isPublicTrade({ ...trade(1), side: 'long' })).toBe(false)
    expect(isPublicTrade(null)).toBe(false)
    const ticker = { inst_id: 'NADI-USDT', last: null, open24h: null, high24h: null, low24h: null, vol24h: '0', vol_quote24h: '0', change24h: '0', ts: 1 }
    expect(isTicker(ticker)).toBe(true)
    expect(isTicker({ ...ticker, vol24h: -1 })).toBe(false)
  })
})
