import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { amountTone, KNOWN_TYPES, MONEY_LOG_FILTERS, signedAmount, typeLabelKey } from '../../../src/features/wallet/moneyLog.ts'
import { depositProgress, pickChain, selectionFromSearch, selectionProblem } from '../../../src/features/recharge/selection.ts'
import { statusKey } from '../../../src/features/withdraw/status.ts'
import { IDLE_POLL_MS, pollWhile, PENDING_POLL_MS } from '../../../src/features/wallet/poll.ts'

type Tree = { [k: string]: string | Tree }
const LOCALES = ['tw', 'en', 'zh', 'jp', 'ko', 'th', 'pt', 'id', 'vn', 'ms']
const dict = (l: string) => JSON.parse(fs.readFileSync(new URL(`../../../locales/${l}.json`, import.meta.url), 'utf8')) as Tree
const lookup = (d: Tree, key: string) => key.split('.').reduce<string | Tree | undefined>((n, k) => (typeof n === 'object' ? n[k] : undefined), d)

describe('money records by type', () => {
  it('a known type is named by its own key; an unknown one falls back to "Other"', () => {
    expect(typeLabelKey('deposit')).toBe('moneyLog.type.deposit')
    expect(typeLabelKey('withdraw_refund')).toBe('moneyLog.type.withdraw_refund')
    expect(typeLabelKey('withdraw_freeze')).toBe('moneyLog.type.withdraw_freeze')
    expect(typeLabelKey('airdrop_2031')).toBe('moneyLog.unknownType')
    expect(typeLabelKey('constructor')).toBe('moneyLog.unknownType')
  })

  it('every filter chip is a known type', () => {
    for (const f of MONEY_LOG_FILTERS) expect(KNOWN_TYPES).toContain(f)
  })

  it('money in is +, money out is −, and both are shown with at most 6 decimals', () => {
    expect(amountTone('12.5')).toBe('in')
    expect(amountTone('-0.00000001')).toBe('out')
    expect(amountTone('0')).toBe('zero')
    expect(signedAmount('1234.123456789', 'NADI')).toBe('+1,234.1234')
    expect(signedAmount('-3', 'USDT')).toBe('-3')
    expect(signedAmount('0', 'USDT')).toBe('0')
  })

  it('every type, deposit state and withdrawal state has words in all ten languages', () => {
    const keys = [
      ...KNOWN_TYPES.map(typeLabelKey),
      'moneyLog.unknownType',
      ...(['requested', 'approved', 'broadcast', 'confirmed', 'failed'] as const).map(statusKey),
      'recharge.status.confirming',
      'recharge.status.credited',
      'recharge.status.dropped',
      ...(['selectCoin', 'selectChain', 'completeSelection', 'selectCoinFirst'] as const).map((k) => `recharge.${k}`),
    ]
    for (const l of LOCALES) {
      const d = dict(l)
      const missing = keys.filter((k) => typeof lookup(d, k) !== 'string')
      expect(missing, l).toEqual([])
    }
  })
})

describe('recharge selection (SPEC §5)', () => {
  it('asks for what is missing, in order', () => {
    expect(selectionProblem({})).toBe('recharge.completeSelection')
    expect(selectionProblem({ chain: 'bsc' })).toBe('recharge.selectCoin')
    expect(selectionProblem({ coin: 'USDT' })).toBe('recharge.selectChain')
    expect(selectionProblem({ coin: 'USDT', chain: 'bsc' })).toBeNull()
  })

  it('a chain chosen before a currency is refused with "select currency first"', () => {
    expect(pickChain({}, 'nadi')).toEqual({ selection: {}, problem: 'recharge.selectCoinFirst' })
    expect(pickChain({ coin: 'NADI' }, 'nadi')).toEqual({ selection: { coin: 'NADI', chain: 'nadi' }, problem: null })
  })

  it('reads a selection from the address bar and drops unknown values', () => {
    expect(selectionFromSearch('?coin=usdt&chain=BSC')).toEqual({ coin: 'USDT', chain: 'bsc' })
    expect(selectionFromSearch('coin=BTC&chain=eth')).toEqual({})
  })

  it('shows deposit progress as seen of required, never beyond it', () => {
    expect(depositProgress({ confirmations: 1, required: 3, status: 'confirming' })).toEqual({ done: 1, required: 3, ratio: 1 / 3 })
    expect(depositProgress({ confirmations: 9, required: 3, status: 'confirming' }).done).toBe(3)
    expect(depositProgress({ confirmations: 0, required: 3, status: 'credited' }).done).toBe(3)
    expect(depositProgress({ confirmations: -1, required: 0, status: 'confirming' })).toEqual({ done: 0, required: 1, ratio: 0 })
  })
})

describe('lists with rows under way', () => {
  it('refresh while a row is under way, and stop once none is', () => {
    const pages = (...s: string[]) => [{ list: s.map((status) => ({ status })) }]
    const pending = (r: { status: string }) => r.status === 'confirming'
    expect(pollWhile(pages('credited', 'confirming'), pending)).toBe(PENDING_POLL_MS)
    expect(pollWhile(pages('credited', 'dropped'), pending)).toBe(false)
    expect(pollWhile(undefined, pending)).toBe(false)
  })

  it('a list that can change from outside (deposits) keeps refreshing slowly when nothing is under way', () => {
    expect(pollWhile([{ list: [] }], () => false, IDLE_POLL_MS)).toBe(IDLE_POLL_MS)
    expect(pollWhile([{ list: [{ status: 'confirming' }] }], (r) => r.status === 'confirming', IDLE_POLL_MS)).toBe(PENDING_POLL_MS)
  })
})
