import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import type { OrderStatus } from '../../../contract/trade.ts'
import { isOpen, ORDER_TABS, orderAmount, statusKey, statusTone } from '../../../src/features/trade/status.ts'

const ALL: OrderStatus[] = ['pending', 'partially_filled', 'filled', 'cancelled']
const LOCALES = ['tw', 'en', 'zh', 'jp', 'ko', 'th', 'pt', 'id', 'vn', 'ms']

function lookup(locale: string, key: string): unknown {
  let node: unknown = JSON.parse(fs.readFileSync(new URL(`../../../locales/${locale}.json`, import.meta.url), 'utf8'))
  for (const k of key.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[k] : undefined
  return node
}

describe('trade order states (SPEC §4)', () => {
  it('pending and partially filled orders are current and cancellable; filled and cancelled are history', () => {
    expect(ALL.filter(isOpen)).toEqual(['pending', 'partially_filled'])
    expect(ORDER_TABS).toEqual({ current: 'open', history: 'history' })
  })

  it('each state has its own colour', () => {
    expect(ALL.map(statusTone)).toEqual(['open', 'open', 'done', 'cancelled'])
  })

  it('every state reads as words in every language, and no two states read the same', () => {
    for (const locale of LOCALES) {
      const words = ALL.map((s) => lookup(locale, statusKey(s)))
      for (const w of words) expect(typeof w === 'string' && w.length > 0, `${locale}: ${String(w)}`).toBe(true)
      expect(new Set(words).size, locale).toBe(ALL.length)
    }
  })

  it('an order shows what it asked for: NADI for a size, USDT for a market buy', () => {
    expect(orderAmount({ size: '5', quote_amount: null })).toEqual({ amount: '5', asset: 'NADI' })
    expect(orderAmount({ size: null, quote_amount: '12.5' })).toEqual({ amount: '12.5', asset: 'USDT' })
  })
})
