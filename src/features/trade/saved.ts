// The last market this phone saw, per instrument: the top of the book and the ticker, kept in the
// persisted query cache (the 'trade' root) so /trade opened offline shows them with their age instead
// of an empty book and a 0.00 % change (DESIGN §6). Live data itself ('tradeLive') is not persisted:
// this is one small snapshot, rewritten at most every SAVE_EVERY_MS while the screen is open.

import { useEffect } from 'react'
import { queryOptions, skipToken, useQuery, useQueryClient } from '@tanstack/react-query'
import type { BookLevel, Ticker } from '../../../contract/trade.ts'
import { BOOK_LEVELS } from './book.ts'

export interface SavedMarket {
  asks: BookLevel[]
  bids: BookLevel[]
  ticker: Ticker
  /** When the phone saw this book and ticker (ms). */
  savedAt: number
}

/** How often a moving market is saved again: often enough to be recent, rare enough to cost nothing. */
export const SAVE_EVERY_MS = 10_000

/** Never fetched: only the trade screen writes it, from what the server sent. */
export const savedMarketQuery = (instId: string) =>
  queryOptions<SavedMarket>({ queryKey: ['trade', 'saved', instId], queryFn: skipToken, staleTime: Infinity })

/**
 * The snapshot to save now, or null when nothing is known yet or the last one is recent enough — but
 * a saved empty book gives way at once to one with levels. Only the levels the screen draws are kept.
 */
export function nextSnapshot(
  book: { asks: readonly BookLevel[]; bids: readonly BookLevel[] } | null,
  ticker: Ticker | undefined,
  last: SavedMarket | undefined,
  now: number,
): SavedMarket | null {
  if (!book || !ticker) return null
  const lastEmpty = !last || (last.asks.length === 0 && last.bids.length === 0)
  const emptyNow = book.asks.length === 0 && book.bids.length === 0
  if (last && now - last.savedAt < SAVE_EVERY_MS && !(lastEmpty && !emptyNow)) return null
  return { asks: book.asks.slice(0, BOOK_LEVELS), bids: book.bids.slice(0, BOOK_LEVELS), ticker, savedAt: now }
}

/**
 * Saves what the server says of instId's market (`book`, `ticker`: null/undefined when it has said
 * nothing yet) and returns the last saved snapshot, for when it says nothing (offline).
 */
export function useSavedMarket(
  instId: string,
  book: { asks: readonly BookLevel[]; bids: readonly BookLevel[] } | null,
  ticker: Ticker | undefined,
): SavedMarket | undefined {
  const qc = useQueryClient()
  const saved = useQuery(savedMarketQuery(instId)).data
  useEffect(() => {
    const { queryKey } = savedMarketQuery(instId)
    const next = nextSnapshot(book, ticker, qc.getQueryData(queryKey), Date.now())
    if (next) qc.setQueryData(queryKey, next)
  }, [qc, instId, book, ticker])
  return saved
}
