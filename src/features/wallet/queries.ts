import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { PagedList } from '../../../contract/envelope.ts'
import type { Asset, Balances, DayEarnings, Holdings, ExchangeQuote, MoneyRecord, TransferRecord } from '../../../contract/wallet.ts'
import { get } from '../../api/client.ts'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { serverNow } from '../../api/serverClock.ts'

/** SPEC §9: lists page by 10. */
export const PAGE_SIZE = PAGE_SIZE_DEFAULT

/** How long data counts as fresh, named once per kind of data. */
export const STALE = { balances: 10_000, records: 30_000, settledDay: 3_600_000 } as const

/** Balances on screen refresh this often (only while a screen showing them is mounted and visible). */
export const BALANCES_POLL_MS = 30_000

/** A quote that has just expired is asked for again no sooner than this (a phone's clock may be off). */
export const QUOTE_MIN_REFRESH_MS = 3_000

const nextPage = <T>(last: PagedList<T>, pages: PagedList<T>[]) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined)

export const walletQueries = {
  /** Refreshed now and then while shown: a deposit is credited from outside the app. */
  balances: () =>
    queryOptions({
      queryKey: ['wallet', 'balances'],
      queryFn: ({ signal }) => get<Balances>('wallet/balances', {}, signal),
      staleTime: STALE.balances,
      // A balance restored from the saved cache is shown at once but always checked on arrival:
      // money a user just received must not wait for the cache to go stale.
      refetchOnMount: 'always',
      refetchInterval: BALANCES_POLL_MS,
    }),
  /** What the frozen balances are for and what open loans owe; refreshed with the balances. */
  holdings: () =>
    queryOptions({
      queryKey: ['wallet', 'holdings'],
      queryFn: ({ signal }) => get<Holdings>('wallet/holdings', {}, signal),
      staleTime: STALE.balances,
      refetchOnMount: 'always',
      refetchInterval: BALANCES_POLL_MS,
    }),
  /** Money records, newest first; `type` '' is all of them. */
  moneyLog: (type: string) =>
    infiniteQueryOptions({
      queryKey: ['wallet', 'moneyLog', type],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<MoneyRecord>>('wallet/moneyLog', { page: pageParam, page_size: PAGE_SIZE, type: type || undefined }, signal),
      getNextPageParam: nextPage,
      staleTime: STALE.records,
    }),
  /**
   * A settled day's earnings per position; the day as the route has it (the server refuses one that
   * is not a day, in the user's words). A settled day does not change, so it stays fresh long;
   * saved with the wallet's data (root 'wallet'), it opens offline once seen.
   */
  earnings: (day: string) =>
    queryOptions({
      queryKey: ['wallet', 'earnings', day],
      queryFn: ({ signal }) => get<DayEarnings>('wallet/earnings', { day }, signal),
      staleTime: STALE.settledDay,
    }),
  transferList: () =>
    infiniteQueryOptions({
      queryKey: ['wallet', 'transferList'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<TransferRecord>>('wallet/transferList', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: nextPage,
      staleTime: STALE.records,
    }),
  /**
   * A price the user can confirm until it expires; asked for again when it does. Its key root is not
   * 'wallet' on purpose: a quote is never persisted, and a wallet refresh does not re-quote.
   */
  exchangeQuote: (from: Asset, to: Asset, amount: string) =>
    queryOptions({
      queryKey: ['exchangeQuote', from, to, amount],
      queryFn: ({ signal }) => get<ExchangeQuote>('wallet/exchangeQuote', { from, to, amount }, signal),
      staleTime: 0,
      gcTime: 0,
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: (q) => (q.state.data ? Math.max(QUOTE_MIN_REFRESH_MS, q.state.data.expires_at - serverNow()) : false),
    }),
}
