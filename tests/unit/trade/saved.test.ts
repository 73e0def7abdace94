import { describe, expect, it } from 'vitest'
import type { BookLevel, Ticker } from '../../../contract/trade.ts'
import { BOOK_LEVELS } from '../../../src/features/trade/book.ts'
import { nextSnapshot, SAVE_EVERY_MS, type SavedMarket } from '../../../src/features/trade/saved.ts'

const ticker: Ticker = { inst_id: 'NADI-USDT', last: '0.25', open24h: '0.24', high24h: '0.3', low24h: '0.2', vol24h: '100', vol_quote24h: '25', change24h: '0.01', ts: 1 }
const levels = (n: number, from: number): BookLevel[] => Array.from({ length: n }, (_, i) => [(from + i / 100).toFixed(2), '1'])
const book = { asks: levels(20, 0.3), bids: levels(20, 0.1) }
const T = 1_800_000_000_000

describe('the market saved for offline', () => {
  it('keeps the levels the screen draws with the ticker and when they were seen', () => {
    const s = nextSnapshot(book, ticker, undefined, T)
    expect(s).toEqual({ asks: book.asks.slice(0, BOOK_LEVELS), bids: book.bids.slice(0, BOOK_LEVELS), ticker, savedAt: T })
  })

  it('saves nothing before both the book and the ticker are known', () => {
    expect(nextSnapshot(null, ticker, undefined, T)).toBeNull()
    expect(nextSnapshot(book, undefined, undefined, T)).toBeNull()
  })

  it(`is saved again only ${SAVE_EVERY_MS / 1000} s after the last save`, () => {
    const last = nextSnapshot(book, ticker, undefined, T) as SavedMarket
    expect(nextSnapshot(book, ticker, last, T + SAVE_EVERY_MS - 1)).toBeNull()
    expect(nextSnapshot(book, ticker, last, T + SAVE_EVERY_MS)?.savedAt).toBe(T + SAVE_EVERY_MS)
  })

  it('a saved empty book gives way at once to one with levels, not the other way round', () => {
    const empty = nextSnapshot({ asks: [], bids: [] }, ticker, undefined, T) as SavedMarket
    expect(nextSnapshot(book, ticker, empty, T + 1)?.asks).toHaveLength(BOOK_LEVELS)
    const full = nextSnapshot(book, ticker, undefined, T) as SavedMarket
    expect(nextSnapshot({ asks: [], bids: [] }, ticker, full, T + 1)).toBeNull()
  })
})
