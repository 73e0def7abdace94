// The trade screen's candlestick chart. Loaded lazily with uPlot and its CSS (DESIGN §6):
// `lazy(() => import('./chart/CandleChart.tsx'))`.

import 'uplot/dist/uPlot.min.css'
import { useEffect, useLayoutEffect, useRef } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { Bar } from '../../../../contract/trade.ts'
import { useT } from '../../../i18n/index.ts'
import { online } from '../../../api/online.ts'
import { useSignals } from '@preact/signals-react/runtime'
import { createCandleChart, type CandleChartHandle } from './controller.ts'
import { useCandles } from './useCandles.ts'
import { tradeQueries } from '../queries.ts'
import { decimalsOfStep } from '../../../lib/precision.ts'

export interface CandleChartProps {
  instId: string
  bar: Bar
}

/** ~260 px on a phone, a little more on a wide screen. */
const HEIGHT_CSS = 'clamp(260px, 42vw, 360px)'

const overlay = {
  position: 'absolute',
  inset: 0,
  display: 'grid',
  placeItems: 'center',
  pointerEvents: 'none',
} as const

export default function CandleChart({ instId, bar }: CandleChartProps) {
  // A new series is a new chart and a new feed: no candle of the old one can reach the new chart.
  return <ChartView key={`${instId} ${bar}`} instId={instId} bar={bar} />
}

function ChartView({ instId, bar }: CandleChartProps) {
  useSignals()
  const t = useT()
  const host = useRef<HTMLDivElement>(null)
  const chart = useRef<CandleChartHandle | null>(null)
  const candles = useCandles(instId, bar, chart)
  const { loadOlder } = candles
  // The market's rules are the order form's query: read from the same cache, not fetched again.
  const decimals = decimalsOfStep(useQuery(tradeQueries.market()).data?.price_step)

  // A layout effect: the chart exists before useCandles' effect can deliver the first candles.
  useLayoutEffect(() => {
    const el = host.current
    if (!el) return
    const size = () => ({ width: Math.max(1, Math.floor(el.clientWidth)), height: Math.max(1, Math.floor(el.clientHeight)) })
    const c = createCandleChart(el, { bar, ...size(), onReachStart: loadOlder })
    chart.current = c
    const ro = new ResizeObserver(() => c.setSize(size()))
    ro.observe(el)
    return () => {
      ro.disconnect()
      chart.current = null
      c.destroy()
    }
  }, [bar, loadOlder])

  useEffect(() => {
    chart.current?.setPriceDecimals(decimals)
  }, [decimals, bar, loadOlder])

  return (
    <div className="candle-chart" style={{ position: 'relative' }}>
      <div ref={host} data-testid="candle-chart" style={{ width: '100%', height: HEIGHT_CSS, overflow: 'hidden' }} />
      {!candles.hasData && (
        <div style={overlay} className="muted">
          {candles.failed && !online.value ? (
            t('net.notSaved')
          ) : candles.failed ? (
            <button type="button" className="btn ghost small" style={{ pointerEvents: 'auto' }} onClick={candles.retry}>
              {t('errors.loadFailedRetry')}
            </button>
          ) : candles.loading ? (
            t('common.loading')
          ) : (
            t('common.empty')
          )}
        </div>
      )}
      {candles.loadingOlder && (
        <small className="muted" style={{ position: 'absolute', left: 6, bottom: 30, pointerEvents: 'none' }}>
          {t('common.loading')}
        </small>
      )}
    </div>
  )
}
