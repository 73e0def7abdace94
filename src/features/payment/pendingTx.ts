// A transfer the wallet sent whose hash the server has not acknowledged yet. Kept in local storage
// so that closing the dialog (or the tab) between the two never loses a payment already on its way:
// the dialog reopened for that order sends the same hash again instead of asking for a new transfer.
import type { PendingTx } from './paymentFlow.ts'
import { storage } from '../../lib/storage.ts'

const key = (orderId: number) => `pay-tx:${orderId}`
const HASH_RE = /^0x[0-9a-fA-F]{64}$/

export function loadPendingTx(orderId: number): PendingTx | null {
  const raw = storage.get(key(orderId))
  if (!raw) return null
  try {
    const v = JSON.parse(raw) as Partial<PendingTx>
    if ((v.chain === 'bsc' || v.chain === 'nadi') && typeof v.txHash === 'string' && HASH_RE.test(v.txHash)) return { chain: v.chain, txHash: v.txHash }
  } catch {
    /* a corrupt entry is the same as none */
  }
  storage.remove(key(orderId))
  return null
}

export function savePendingTx(orderId: number, tx: PendingTx): void {
  storage.set(key(orderId), JSON.stringify(tx))
}

export function clearPendingTx(orderId: number): void {
  storage.remove(key(orderId))
}
