// Trade order states (SPEC §4) as the lists show them. Pure.
import { OPEN_STATUSES, type Order, type OrderStatus } from '../../../contract/trade.ts'

/** The order list's tabs and the server's state filter behind each. */
export const ORDER_TABS = { current: 'open', history: 'history' } as const
export type OrderTab = keyof typeof ORDER_TABS

/** Pending and partially filled orders are still on the book and can be cancelled. */
export const isOpen = (s: OrderStatus): boolean => OPEN_STATUSES.includes(s)

/** The locale key of a state's words. */
export const statusKey = (s: OrderStatus): string => `trade.status.${s}`

/** The badge colour: gold while on the book, teal when filled, grey when cancelled. */
export function statusTone(s: OrderStatus): 'open' | 'done' | 'cancelled' {
  return isOpen(s) ? 'open' : s === 'filled' ? 'done' : 'cancelled'
}

/** What the order asked for: NADI for a limit order or a market sell, USDT for a market buy. */
export function orderAmount(o: Pick<Order, 'size' | 'quote_amount'>): { amount: string; asset: 'NADI' | 'USDT' } {
  return o.size !== null ? { amount: o.size, asset: 'NADI' } : { amount: o.quote_amount ?? '0', asset: 'USDT' }
}
