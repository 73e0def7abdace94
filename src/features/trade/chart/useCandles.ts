// The candles of one series for the chart, offline first (DESIGN §6): what the kline store holds is
// shown at once, the server's latest page replaces it when it comes (and is stored), the live stream
// updates the newest candle, and older pages come from the server (or, offline, the store) when the
// user pans back to the start.

import { useCallback, useEffect, useRef, useState, type RefObject } from 'react'
import { BAR_MS, streams, type Bar } from '../../../../contract/trade.ts'
import { get } from '../../../api/client.ts'
import { putCandles, readCandles } from '../../../data/index.ts'
import type { CandleSink } from './controller.ts'
import { subscribeStream } from './live.ts'
import { fromWireList, joinLatest, mergeCandles, unionCandles, type Candle } from './series.ts'

/** Candles per history call (the server's default page). */
export const PAGE = 300
/** How far back the first read of the store goes, in bars. */
const CACHE_BARS = 3_000
/** Live candles are written to the store at most this often. */
const PERSIST_MS = 5_000
/** After a gap in the stream (a reconnect), the latest page is fetched again, at most this often. */
const REFETCH_MIN_MS = 10_000
/** After an older page that brought nothing (offline, store empty there), the next try waits this long. */
const OLDER_RETRY_MS = 5_000

export interface CandlesState {
  /** Some candles are on the chart (from the store, the server or the stream). */
  hasData: boolean
  /** The latest page is on its way. */
  loading: boolean
  /** The latest page could not be fetched (offline, server error); the cache may still be shown. */
  failed: boolean
  loadingOlder: boolean
  /** The server has no candles older than those shown. */
  exhausted: boolean
}

export interface UseCandles extends CandlesState {
  /** Loads the page before the oldest candle shown; does nothing while one is loading or none is left. */
  loadOlder(): void
  /** Fetches the latest page again. */
  retry(): void
}

const INITIAL: CandlesState = { hasData: false, loading: true, failed: false, loadingOlder: false, exhausted: false }

interface KlinesData {
  list: unknown[]
}

/** Appends a candle that closed; one of the same ts (from a page) is replaced. */
function closeInto(history: Candle[], k: Candle): void {
  const last = history[history.length - 1]
  if (last && last.ts === k.ts) history[history.length - 1] = k
  else if (!last || k.ts > last.ts) history.push(k)
}

async function fetchPage(instId: string, bar: Bar, before?: number): Promise<Candle[]> {
  const data = await get<KlinesData>('trade/klines', { inst_id: instId, bar, before, limit: PAGE })
  return fromWireList(Array.isArray(data?.list) ? data.list : [])
}

/**
 * Feeds `sink` (the chart) with the series of (instId, bar). The sink is read through a ref so the
 * chart can be made after the hook starts; whatever it receives is the whole series or one live
 * candle, never a React render per tick.
 */
export function useCandles(instId: string, bar: Bar, sink: RefObject<CandleSink | null>): UseCandles {
  const [state, setState] = useState<CandlesState>(INITIAL)
  const actions = useRef<{ loadOlder(): void; retry(): void }>({ loadOlder() {}, retry() {} })

  useEffect(() => {
    let alive = true
    const barMs = BAR_MS[bar]
    // A mirror of the state, so a live tick that changes nothing renders nothing.
    let mirror = INITIAL
    const patch = (p: Partial<CandlesState>) => {
      if (!alive || (Object.keys(p) as (keyof CandlesState)[]).every((k) => mirror[k] === p[k])) return
      mirror = { ...mirror, ...p }
      setState(mirror)
    }
    setState(INITIAL)

    /** Closed candles (store, server pages, live candles since closed), oldest first. */
    let history: Candle[] = []
    /** The newest live candle, still changing. */
    let open: Candle | null = null
    /** Live candles that closed since the hook started (few: one a bar). */
    const closedLive: Candle[] = []
    let cached: Candle[] | null = null
    let latest: Candle[] | null = null
    let latestFull = false
    let loadingOlder = false
    let olderRetryAt = 0
    let exhausted = false
    let lastRefetch = 0

    const publish = () => {
      const newest = history[history.length - 1]
      if (open && newest && open.ts < newest.ts) open = null // history has it, closed
      const all = open ? mergeCandles(history, [open]) : history
      sink.current?.set(all)
      if (all.length) patch({ hasData: true })
    }
    const rebuild = () => {
      history = latest ? joinLatest(cached ?? [], latest, latestFull) : (cached ?? []).slice()
      publish()
    }

    // Written in batches: a live candle changes many times a minute, the store needs it rarely.
    const unsaved = new Map<number, Candle>()
    let saveTimer: ReturnType<typeof setTimeout> | undefined
    const save = () => {
      saveTimer = undefined
      if (!unsaved.size) return
      const batch = [...unsaved.values()]
      unsaved.clear()
      putCandles(instId, bar, batch).catch(() => {}) // the store is a cache: a lost write costs a refetch
    }

    readCandles(instId, bar, Date.now() - CACHE_BARS * barMs, Date.now() + barMs)
      .then((rows) => {
        if (!alive) return
        // Candles that closed live before the read finished are fresher than the store's. Not the
        // server's page, if it came first: joinLatest must see whether the cache itself reaches it.
        cached = unionCandles(rows, closedLive)
        rebuild()
      })
      .catch(() => {}) // no store (private mode, quota): the server's data alone

    const fetchLatest = () => {
      lastRefetch = Date.now()
      patch({ loading: true, failed: false })
      fetchPage(instId, bar)
        .then((page) => {
          if (!alive) return
          if (page.length) putCandles(instId, bar, page).catch(() => {})
          // The page joins everything shown: the cache, live candles closed since, older pages.
          cached = history
          latest = page
          latestFull = page.length >= PAGE
          if (!latestFull) exhausted = true
          patch({ loading: false, exhausted })
          rebuild()
        })
        .catch(() => patch({ loading: false, failed: true }))
    }
    fetchLatest()

    const unsubscribe = subscribeStream(streams.candle(bar, instId), (frame) => {
      if (!alive) return
      for (const k of fromWireList(frame.data)) {
        const prev = open ?? history[history.length - 1]
        if (prev && k.ts < prev.ts) continue // a closed candle: history has it
        if (prev && k.ts > prev.ts + barMs && Date.now() - lastRefetch > REFETCH_MIN_MS) fetchLatest() // bars were missed
        if (open && k.ts > open.ts) {
          closeInto(history, open)
          closeInto(closedLive, open)
        }
        open = k
        sink.current?.live(k)
        unsaved.set(k.ts, k)
      }
      if (open) patch({ hasData: true })
      saveTimer ??= setTimeout(save, PERSIST_MS)
    })

    const loadOlder = () => {
      const oldest = history[0] ?? open
      if (!alive || loadingOlder || exhausted || !oldest || Date.now() < olderRetryAt) return
      loadingOlder = true
      patch({ loadingOlder: true })
      const before = oldest.ts
      fetchPage(instId, bar, before)
        .then((page) => {
          if (page.length) putCandles(instId, bar, page).catch(() => {})
          if (page.length < PAGE) exhausted = true
          return page
        })
        // Offline: whatever the store holds before the oldest candle shown.
        .catch(() => readCandles(instId, bar, before - PAGE * barMs, before - 1).catch((): Candle[] => []))
        .then((page) => {
          if (!alive) return
          loadingOlder = false
          const older = page.filter((k) => k.ts < before)
          if (older.length) {
            history = unionCandles(older, history)
            publish()
          } else if (!exhausted) {
            olderRetryAt = Date.now() + OLDER_RETRY_MS // the pan keeps asking; not on every frame
          }
          patch({ loadingOlder: false, exhausted })
        })
    }

    actions.current = {
      loadOlder,
      retry: () => {
        if (alive) fetchLatest()
      },
    }

    return () => {
      alive = false
      unsubscribe()
      if (saveTimer !== undefined) clearTimeout(saveTimer)
      save()
    }
  }, [instId, bar, sink])

  const loadOlder = useCallback(() => actions.current.loadOlder(), [])
  const retry = useCallback(() => actions.current.retry(), [])
  return { ...state, loadOlder, retry }
}
