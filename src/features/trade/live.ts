// The trade screens' doors to the socket (DESIGN §5): pushes go into the query cache, so a screen reads
// one source whether the data came from a GET or a push. Every hook stops listening on unmount (a
// screen kept alive but hidden unmounts its effects too).
import { useEffect, useRef, useState } from 'react'
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { streams, type PublicTrade } from '../../../contract/trade.ts'
import { getSocket } from '../../api/socket.ts'
import { subscribeBook, type LocalBook } from '../../api/socketBook.ts'
import { tradeQueries } from './queries.ts'
import { refreshOrders } from './mutations.ts'
import { refreshBalances } from '../wallet/mutations.ts'
import { useT } from '../../i18n/index.ts'
import { toast } from '../../ui/toast.ts'
import { fillToTell, pushedOrders } from './fills.ts'
import { isMarketStatus, isPublicTrade, isTicker, mergeTrades } from './market.ts'

/** A burst of pushes (a sweep fills many orders) refreshes the lists once. */
const COALESCE_MS = 250

function coalesced(fn: () => void, ms = COALESCE_MS): { run(): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined
  return {
    run() {
      if (timer === undefined) timer = setTimeout(() => ((timer = undefined), fn()), ms)
    },
    cancel() {
      clearTimeout(timer)
      timer = undefined
    },
  }
}

/** After the socket was down, what it would have pushed meanwhile is fetched again. */
function onReconnect(fn: () => void): () => void {
  const socket = getSocket()
  let wasDown = socket.state.peek() !== 'connected'
  return socket.onState((s) => {
    if (s === 'connected' && wasDown) fn()
    wasDown = s !== 'connected'
  })
}

/** status:<instId>, tickers:<instId> and trades:<instId> into the status, ticker and tape queries. */
export function useLiveMarket(instId: string): void {
  const qc = useQueryClient()
  useEffect(() => {
    const socket = getSocket()
    const tickerKey = tradeQueries.ticker(instId).queryKey
    const tapeKey = tradeQueries.recentTrades(instId).queryKey
    const statusKey = tradeQueries.status(instId).queryKey
    const offStatus = socket.subscribe(streams.status(instId), (push) => {
      const last = push.data.filter(isMarketStatus).at(-1)
      if (last) qc.setQueryData(statusKey, last)
    })
    const offTicker = socket.subscribe(streams.tickers(instId), (push) => {
      const last = push.data.filter(isTicker).at(-1)
      if (last) qc.setQueryData(tickerKey, last)
    })
    const offTrades = socket.subscribe(streams.trades(instId), (push) => {
      const fresh: PublicTrade[] = push.data.filter(isPublicTrade)
      if (fresh.length) qc.setQueryData(tapeKey, (prev) => mergeTrades(prev, fresh))
    })
    const offState = onReconnect(() => void qc.invalidateQueries({ queryKey: ['tradeLive'] }))
    return () => {
      offStatus()
      offTicker()
      offTrades()
      offState()
    }
  }, [qc, instId])
}

/**
 * The verified local book of instId (socketBook.ts), null until the first snapshot. Redrawn at most
 * once a frame however fast the updates come.
 */
export function useLiveBook(instId: string): LocalBook | null {
  const [book, setBook] = useState<LocalBook | null>(null)
  const latest = useRef<LocalBook | null>(null)
  useEffect(() => {
    let frame = 0
    const off = subscribeBook(getSocket(), instId, (b) => {
      latest.current = b
      if (!frame) frame = requestAnimationFrame(() => ((frame = 0), setBook(latest.current)))
    })
    // A book that was right before the socket went down is not after it; the next snapshot replaces it.
    const offState = getSocket().onState((s) => {
      if (s !== 'connected') setBook(null)
    })
    return () => {
      off()
      offState()
      cancelAnimationFrame(frame)
      setBook(null)
    }
  }, [instId])
  return book
}

function privateRefresh(qc: QueryClient) {
  const orders = coalesced(() => void refreshOrders(qc))
  const balances = coalesced(() => void refreshBalances(qc))
  return { orders, balances }
}

/**
 * The user's own streams: user@update_order reloads both order lists and the deals (SPEC §7),
 * user@balance the balances. An order of the user's that fills says so in a toast, once.
 */
export function useOrderPushes(): void {
  const qc = useQueryClient()
  const t = useT()
  const filled = useRef(t('trade.placed.filled'))
  filled.current = t('trade.placed.filled')
  useEffect(() => {
    const socket = getSocket()
    const r = privateRefresh(qc)
    // A snapshot on subscribe is what the screen has just loaded (and a reconnect refreshes anyway).
    const offOrder = socket.subscribe(streams.order, (push) => {
      if (push.action !== 'update') return
      r.orders.run()
      for (const o of pushedOrders(push.data)) if (fillToTell(o)) toast.success(filled.current)
    })
    const offBalance = socket.subscribe(streams.balance, (push) => push.action === 'update' && r.balances.run())
    const offState = onReconnect(() => {
      r.orders.run()
      r.balances.run()
    })
    return () => {
      offOrder()
      offBalance()
      offState()
      r.orders.cancel()
      r.balances.cancel()
    }
  }, [qc])
}
