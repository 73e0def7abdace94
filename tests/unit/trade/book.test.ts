import { describe, expect, it } from 'vitest'
import type { BookLevel } from '../../../contract/trade.ts'
import { bestPrices, depthView, shareOf } from '../../../src/features/trade/book.ts'

const asks: BookLevel[] = [
  ['1.01', '2'],
  ['1.02', '3'],
  ['1.03', '5'],
]
const bids: BookLevel[] = [
  ['1', '1'],
  ['0.99', '1'],
  ['0.98', '18'],
]

describe('the order book as drawn', () => {
  it('asks are drawn highest first so the best ask sits next to the spread; bids best first', () => {
    const v = depthView(asks, bids)
    expect(v.asks.map((r) => r.price)).toEqual(['1.03', '1.02', '1.01'])
    expect(v.bids.map((r) => r.price)).toEqual(['1', '0.99', '0.98'])
  })

  it('each level carries the size standing from the best price to it', () => {
    const v = depthView(asks, bids)
    expect(v.asks.map((r) => r.cumulative)).toEqual([1_000_000_000n, 500_000_000n, 200_000_000n])
    expect(v.bids.map((r) => r.cumulative)).toEqual([100_000_000n, 200_000_000n, 2_000_000_000n])
  })

  it('shading is proportional to the cumulative size, both sides on the deeper side’s scale', () => {
    const v = depthView(asks, bids)
    expect(v.bids.map((r) => r.shade)).toEqual([5, 10, 100])
    expect(v.asks.map((r) => r.shade)).toEqual([50, 25, 10])
  })

  it('only the top n levels of each side are drawn, and shaded among themselves', () => {
    const v = depthView(asks, bids, 1)
    expect(v.asks).toEqual([{ price: '1.01', size: '2', cumulative: 200_000_000n, shade: 100 }])
    expect(v.bids).toEqual([{ price: '1', size: '1', cumulative: 100_000_000n, shade: 50 }])
  })

  it('a zero-size level is not drawn', () => {
    const v = depthView([['1.01', '0'], ['1.02', '1']], [])
    expect(v.asks.map((r) => r.price)).toEqual(['1.02'])
  })

  it('the spread is best ask − best bid, and unknown when a side is empty', () => {
    expect(depthView(asks, bids).spread).toBe(1_000_000n)
    expect(depthView([], bids).spread).toBeNull()
    expect(depthView([], [])).toEqual({ asks: [], bids: [], spread: null })
  })

  it('shares never exceed 100 % and never divide by zero', () => {
    expect(shareOf(5n, 0n)).toBe(0)
    expect(shareOf(0n, 5n)).toBe(0)
    expect(shareOf(1n, 3n)).toBe(33.33)
    expect(shareOf(9n, 3n)).toBe(100)
  })

  it('the best prices feed market-order estimates', () => {
    expect(bestPrices(asks, bids)).toEqual({ ask: 101_000_000n, bid: 100_000_000n })
    expect(bestPrices([], [])).toEqual({ ask: undefined, bid: undefined })
  })
})
