// Recharge: a coin, then a chain, before an address is shown (SPEC §5). Pure.
import type { ChainKey, Deposit } from '../../../contract/recharge.ts'
import type { Asset } from '../../../contract/wallet.ts'

export const COINS: readonly Asset[] = ['USDT', 'NADI']
export const CHAINS: readonly ChainKey[] = ['bsc', 'nadi']

export const isCoin = (v: unknown): v is Asset => typeof v === 'string' && (COINS as readonly string[]).includes(v)
export const isChain = (v: unknown): v is ChainKey => typeof v === 'string' && (CHAINS as readonly string[]).includes(v)

export interface Selection {
  coin?: Asset | undefined
  chain?: ChainKey | undefined
}

/** The locale key of what is still missing (SPEC §5's messages, in order), or null when the address can be shown. */
export function selectionProblem(s: Selection): string | null {
  if (!s.coin && !s.chain) return 'recharge.completeSelection'
  if (!s.coin) return 'recharge.selectCoin'
  if (!s.chain) return 'recharge.selectChain'
  return null
}

/** Choosing a chain before a coin is refused with SPEC §5's "select currency first". */
export function pickChain(s: Selection, chain: ChainKey): { selection: Selection; problem: string | null } {
  if (!s.coin) return { selection: s, problem: 'recharge.selectCoinFirst' }
  return { selection: { ...s, chain }, problem: null }
}

/** A selection from the address bar (/recharge?coin=USDT&chain=bsc); unknown values are dropped. */
export function selectionFromSearch(search: string): Selection {
  const q = new URLSearchParams(search)
  const coin = q.get('coin')?.toUpperCase()
  const chain = q.get('chain')?.toLowerCase()
  return { ...(isCoin(coin) ? { coin } : {}), ...(isChain(chain) ? { chain } : {}) }
}

/** "1/3": confirmations seen of those required, never above the requirement; a whole share for the bar. */
export function depositProgress(d: Pick<Deposit, 'confirmations' | 'required' | 'status'>): { done: number; required: number; ratio: number } {
  const required = Math.max(1, d.required)
  const done = d.status === 'credited' ? required : Math.min(Math.max(0, d.confirmations), required)
  return { done, required, ratio: done / required }
}
