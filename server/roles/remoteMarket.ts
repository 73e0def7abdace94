// The market as an API process trades it (issue 19): reads from the mirror of the engine's pushes
// (./marketMirror.ts), history from the candles the engine saves, orders through the engine leader
// (./tradeCommands.ts). While no engine leads, the market reads as halted — what the app shows as
// "trading is paused" — and orders are refused with those words, while everything else serves.

import type { Bar, Candle, MarketStatus, Ticker } from '../../contract/trade.ts'
import type { Queryable } from '../db/query/types.ts'
import type { Fees, MarketSpec } from '../exchange/engine/index.ts'
import { candleToWire } from '../exchange/marketData/index.ts'
import { TickerWindow } from '../exchange/marketData/ticker.ts'
import { savedCandlesBefore } from '../exchange/exchange.ts'
import type { TradeMarket } from '../modules/trade/service.ts'
import type { MarketMirror } from './marketMirror.ts'
import type { RemoteTrading } from './tradeCommands.ts'

export function remoteMarket(o: { spec: MarketSpec; fees: Fees; sql: Queryable; mirror: MarketMirror; trading: RemoteTrading; now: () => number }): TradeMarket {
  const { spec, mirror, trading } = o
  const noTrades = new TickerWindow()
  // Since when this process has seen no engine lead (the status's `since`).
  let pausedSince: number | null = null
  const status = (): MarketStatus => {
    const leads = trading.engineLeads()
    const seen = mirror.status()
    if (leads && seen) {
      pausedSince = null
      return seen
    }
    pausedSince ??= o.now()
    return { inst_id: spec.instId as MarketStatus['inst_id'], state: 'halted', since: seen?.state === 'halted' ? seen.since : pausedSince, journal_seq: seen?.journal_seq ?? null }
  }
  return {
    spec,
    fees: o.fees,
    sql: o.sql,
    status,
    ticker: (): Ticker => mirror.ticker() ?? noTrades.toWire(o.now()),
    depth: (size) => mirror.depth(size, o.now()),
    recentTrades: (limit) => mirror.trades().slice(0, limit),
    async klines(bar: Bar, before: number | undefined, limit: number): Promise<Candle[]> {
      // The saved candles (the engine saves each as it changes) with the mirror's current one on top.
      const current = mirror.candle(bar)
      const top = current && (before === undefined || current[0] < before) ? current : null
      const edge = top ? top[0] : (before ?? Number.MAX_SAFE_INTEGER)
      const older = (await savedCandlesBefore(o.sql, spec.instId, bar, edge, top ? limit - 1 : limit)).map(candleToWire)
      return top && limit > 0 ? [...older, top] : older
    },
    place: (userId, input) => trading.place(userId, input),
    cancel: (userId, orderId) => trading.cancel(userId, orderId),
  }
}
