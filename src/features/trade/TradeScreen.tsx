import { lazy, Suspense, useState } from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { BARS, INST_ID, type Bar } from '../../../contract/trade.ts'
import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { LoadFailed, Pending, Skeleton } from '../../ui/States.tsx'
import { walletQueries } from '../wallet/queries.ts'
import { availableOf } from '../wallet/balances.ts'
import { LIVE_FALLBACK_POLL_MS, tradeQueries } from './queries.ts'
import { useLiveBook, useLiveMarket, useOrderPushes } from './live.ts'
import { bestPrices } from './book.ts'
import { SocketNote, useSocketLive } from './SocketNote.tsx'
import { TickerHeader } from './TickerHeader.tsx'
import { OrderBook } from './OrderBook.tsx'
import { RecentTrades } from './RecentTrades.tsx'
import { OrderForm } from './OrderForm.tsx'
import { useOrderForm } from './useOrderForm.ts'
import { HaltedNote } from './HaltedNote.tsx'
import { useSavedMarket } from './saved.ts'
import { online } from '../../api/online.ts'

// uPlot comes with the chart, not with the screen's first paint (DESIGN §6).
const CandleChart = lazy(() => import('./chart/CandleChart.tsx'))

function Chart() {
  const t = useT()
  const [bar, setBar] = useState<Bar>('15m')
  return (
    <section className="card chart-card" aria-label={t('trade.chart.title')}>
      <div className="bar-tabs" role="tablist" aria-label={t('trade.chart.interval')}>
        {BARS.map((b) => (
          <button key={b} type="button" role="tab" className={`bar-tab ${b === bar ? 'active' : ''}`} aria-selected={b === bar} onClick={() => setBar(b)}>
            {b}
          </button>
        ))}
      </div>
      <Suspense fallback={<Skeleton lines={6} />}>
        <CandleChart instId={INST_ID} bar={bar} />
      </Suspense>
    </section>
  )
}

/** /trade: the NADI/USDT market — ticker, chart, book, tape and the order form (SPEC §2, DESIGN §5). */
export default function TradeScreen() {
  useSignals()
  const t = useT()
  const live = useSocketLive()
  const poll = live ? false : LIVE_FALLBACK_POLL_MS
  useLiveMarket(INST_ID)
  useOrderPushes()
  const liveBook = useLiveBook(INST_ID)
  const market = useQuery(tradeQueries.market())
  const status = useQuery({ ...tradeQueries.status(INST_ID), refetchInterval: poll })
  const halted = status.data?.state === 'halted'
  const ticker = useQuery({ ...tradeQueries.ticker(INST_ID), refetchInterval: poll })
  const depth = useQuery({ ...tradeQueries.depth(INST_ID), refetchInterval: poll, enabled: liveBook === null })
  const tape = useQuery({ ...tradeQueries.recentTrades(INST_ID), refetchInterval: poll })
  const balances = useQuery(walletQueries.balances())
  const open = useInfiniteQuery(tradeQueries.orders('current'))
  const form = useOrderForm()

  // Offline, the book and ticker last seen (saved.ts), with their age.
  const saved = useSavedMarket(INST_ID, liveBook ?? depth.data ?? null, ticker.data)
  const book = liveBook ?? depth.data ?? saved ?? { asks: [], bids: [] }
  const shownTicker = ticker.data ?? saved?.ticker
  const notSaved = !online.value && !liveBook && !depth.data && !saved
  const openCount = open.data?.pages[0]?.total
  const available = { USDT: availableOf(balances.data, 'USDT', 'trade'), NADI: availableOf(balances.data, 'NADI', 'trade') }

  return (
    <main className="page with-tabbar trade">
      <TopBar title={t('trade.title')} records={{ href: '/trade/orderList', label: t('trade.orders.title') }} />
      <SocketNote />
      <Freshness updatedAt={ticker.data ? ticker.dataUpdatedAt : saved?.savedAt} />
      {status.data && halted && <HaltedNote status={status.data} />}
      <TickerHeader ticker={shownTicker} />
      <Chart />
      <section className="card trade-grid">
        {market.isPending ? (
          <Pending query={market} lines={8} />
        ) : market.isError || !market.data ? (
          <LoadFailed onRetry={() => market.refetch()} />
        ) : (
          <OrderForm market={market.data} form={form} available={available} best={bestPrices(book.asks, book.bids)} paused={halted} />
        )}
        <OrderBook asks={book.asks} bids={book.bids} last={shownTicker?.last} onPick={form.pickPrice} notSaved={notSaved} />
      </section>
      <nav className="card trade-links" aria-label={t('trade.orders.title')}>
        <Link href="/trade/orderList" className="menu-item" data-testid="open-orders-link">
          <Icon name="list" />
          <span className="grow">{t('trade.orders.open')}</span>
          {openCount !== undefined && (
            <span className="badge gold" data-testid="open-orders-count">
              {openCount}
            </span>
          )}
          <Icon name="chevron" size={18} />
        </Link>
        <Link href="/trade/close" className="menu-item">
          <Icon name="exchange" />
          <span className="grow">{t('trade.deals.title')}</span>
          <Icon name="chevron" size={18} />
        </Link>
      </nav>
      <RecentTrades trades={tape.data} />
    </main>
  )
}
