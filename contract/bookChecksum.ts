// The order book checksum of DESIGN §5, computed the same way by server and app: the top 25 levels
// interleaved bid, ask ("bidPx:bidSz:askPx:askSz:…", a side's missing level left out), CRC32 of that
// text as a signed 32-bit integer (OKX v5's rule). Prices and sizes are the wire's decimal strings.

import { parseMoney } from './money.ts'
import type { BookData, BookLevel } from './trade.ts'

export const CHECKSUM_DEPTH = 25

const TABLE = (() => {
  const t = new Int32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c
  }
  return t
})()

/** CRC32 (IEEE) of an ASCII/UTF-8 string, signed. */
export function crc32(text: string): number {
  const bytes = new TextEncoder().encode(text)
  let c = -1
  for (let i = 0; i < bytes.length; i++) c = (TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8)
  return (c ^ -1) | 0
}

export function checksumText(bids: readonly BookLevel[], asks: readonly BookLevel[]): string {
  const parts: string[] = []
  for (let i = 0; i < CHECKSUM_DEPTH; i++) {
    const b = bids[i]
    const a = asks[i]
    if (b) parts.push(b[0], b[1])
    if (a) parts.push(a[0], a[1])
  }
  return parts.join(':')
}

export function bookChecksum(bids: readonly BookLevel[], asks: readonly BookLevel[]): number {
  return crc32(checksumText(bids, asks))
}

function isLevels(v: unknown): v is BookLevel[] {
  return (
    Array.isArray(v) &&
    v.every((l) => Array.isArray(l) && l.length >= 2 && typeof l[0] === 'string' && typeof l[1] === 'string' && parseMoney(l[0]) !== null && parseMoney(l[1]) !== null)
  )
}

/**
 * A books push item with every field a book kept from pushes relies on, levels readable as money: the
 * app checks what the server sends, a server what another process sends (server/ws/frames.ts).
 */
export function isBookData(v: unknown): v is BookData {
  if (typeof v !== 'object' || v === null) return false
  const d = v as Record<string, unknown>
  return (
    isLevels(d.asks) &&
    isLevels(d.bids) &&
    Number.isSafeInteger(d.seqId) &&
    Number.isSafeInteger(d.prevSeqId) &&
    Number.isSafeInteger(d.checksum)
  )
}
