// Market data as the trade screen shows it: the 24 h change, fee rates, the recent-trades tape, and
// the checks a socket push must pass before it reaches the cache. Pure.
import { parseMoney } from '../../../contract/money.ts'
import type { MarketStatus, PublicTrade, Ticker } from '../../../contract/trade.ts'
import { formatAmount } from '../../lib/format.ts'
import { units } from '../wallet/amount.ts'

/** Public trades kept on the tape. */
export const TAPE_SIZE = 30

export type Tone = 'up' | 'down' | 'flat'

/** A 24 h change ratio ("-0.0125") as the user reads it ("-1.25%"), truncated to 2 decimals, and its colour. */
export function changeView(ratio: string | null | undefined): { text: string; tone: Tone } {
  const u = units(ratio)
  const neg = u < 0n
  const bp = (neg ? -u : u) / 10_000n // hundredths of a percent
  const text = `${bp / 100n}.${(bp % 100n).toString().padStart(2, '0')}%`
  if (u === 0n) return { text, tone: 'flat' }
  return neg ? { text: `-${text}`, tone: 'down' } : { text: `+${text}`, tone: 'up' }
}

/** A fee rate ("0.001") as a percentage ("0.1%"), up to 4 decimals. */
export function rateText(rate: string | null | undefined): string {
  const u = units(rate) * 100n
  const whole = u / 100_000_000n
  const frac = (u % 100_000_000n).toString().padStart(8, '0')
  return `${formatAmount(`${whole}.${frac}`, 4)}%`
}

/** The tape after a push: newest first, each trade once, at most `cap`. */
export function mergeTrades(prev: readonly PublicTrade[] | undefined, incoming: readonly PublicTrade[], cap = TAPE_SIZE): PublicTrade[] {
  const byId = new Map<number, PublicTrade>()
  for (const t of prev ?? []) byId.set(t.trade_id, t)
  for (const t of incoming) byId.set(t.trade_id, t)
  return [...byId.values()].sort((a, b) => b.trade_id - a.trade_id).slice(0, cap)
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isMoney = (v: unknown): v is string => typeof v === 'string' && parseMoney(v) !== null
const isMoneyOrNull = (v: unknown) => v === null || isMoney(v)

/** A tickers push item with the fields the header reads. */
export function isMarketStatus(v: unknown): v is MarketStatus {
  return (
    isRecord(v) &&
    typeof v.inst_id === 'string' &&
    (v.state === 'live' || v.state === 'halted') &&
    (v.since === null || (typeof v.since === 'number' && Number.isFinite(v.since))) &&
    (v.journal_seq === null || Number.isInteger(v.journal_seq))
  )
}

export function isTicker(v: unknown): v is Ticker {
  return (
    isRecord(v) &&
    typeof v.inst_id === 'string' &&
    isMoneyOrNull(v.last) &&
    isMoneyOrNull(v.high24h) &&
    isMoneyOrNull(v.low24h) &&
    isMoney(v.vol24h) &&
    typeof v.change24h === 'string' &&
    typeof v.ts === 'number'
  )
}

/** A trades push item the tape can show. */
export function isPublicTrade(v: unknown): v is PublicTrade {
  return (
    isRecord(v) &&
    Number.isSafeInteger(v.trade_id) &&
    isMoney(v.price) &&
    isMoney(v.size) &&
    (v.side === 'buy' || v.side === 'sell') &&
    typeof v.ts === 'number'
  )
}

/** HH:MM:SS in the user's locale, for the tape. */
export function formatTime(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }).format(ms)
}
