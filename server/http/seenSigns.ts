// The signs a server writing alone has seen (docs/envelope.md, "Replays"), kept where the garbage
// collector does not look. A sign is remembered for two minutes: at 2,000 sealed requests a second
// that is 240,000 of them. Held as strings in a Map, each was an object that outlived the young
// generation, and the old one grew until full collections ran every few seconds — the largest part of
// what sealing cost the server. Here a sign is a 63-bit fingerprint in a typed array, open
// addressing, in two generations that swap instead of expiring entry by entry.

/** Starting slots of a generation; it doubles whenever it is half full. */
const INITIAL_SLOTS = 1 << 14

/** base64url's alphabet, by char code: the value of each letter (−1 for none). */
const LETTER = new Int8Array(128).fill(-1)
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].entries()) LETTER[c.charCodeAt(0)] = i

/**
 * 63 bits of a base64url sign's first 11 letters as two 32-bit halves (the low bit of `lo` forced on, so no
 * fingerprint is the empty slot's 0,0). A sign is an HMAC: its bits are uniform, and nobody without the
 * handshake's key can choose them, so two signs share a fingerprint by chance alone (2⁻⁶³).
 * Null when the text is not 11 letters of base64url at least.
 */
export function fingerprint(sign: string): [hi: number, lo: number] | null {
  if (sign.length < 11) return null
  let hi = 0
  let lo = 0
  // 11 letters carry 66 bits; the pair keeps the last 64 of them.
  for (let i = 0; i < 11; i++) {
    const code = sign.charCodeAt(i)
    const v = code < 128 ? LETTER[code]! : -1
    if (v < 0) return null
    // Shift the 64-bit (hi, lo) pair left by 6 and add v, keeping 64 bits.
    hi = ((hi << 6) | (lo >>> 26)) >>> 0
    lo = ((lo << 6) | v) >>> 0
  }
  return [hi, (lo | 1) >>> 0]
}

class Generation {
  /** Slot i is entries[2i] (hi) and entries[2i + 1] (lo), side by side: one cache line per probe, not two. */
  entries: Uint32Array
  size = 0
  constructor(slots: number) {
    this.entries = new Uint32Array(2 * slots)
  }

  get slots(): number {
    return this.entries.length >> 1
  }

  /** The slot holding the fingerprint, or the empty one where it would go. */
  private slot(hi: number, lo: number): number {
    const e = this.entries
    const mask = this.slots - 1
    // The fingerprint is already uniform: its own bits pick the first slot.
    let i = (lo ^ hi) & mask
    while (e[2 * i + 1] !== 0 && (e[2 * i] !== hi || e[2 * i + 1] !== lo)) i = (i + 1) & mask
    return i
  }

  has(hi: number, lo: number): boolean {
    return this.entries[2 * this.slot(hi, lo) + 1] !== 0
  }

  add(hi: number, lo: number): void {
    if ((this.size + 1) * 2 > this.slots) this.grow()
    const i = this.slot(hi, lo)
    if (this.entries[2 * i + 1] !== 0) return
    this.entries[2 * i] = hi
    this.entries[2 * i + 1] = lo
    this.size++
  }

  private grow(): void {
    const old = this.entries
    this.entries = new Uint32Array(old.length * 2)
    this.size = 0
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== 0) this.add(old[i]!, old[i + 1]!)
  }
}

/**
 * Signs seen within the last `keepMs` at least (and up to twice that): the current generation takes
 * new ones; when it is `keepMs` old it becomes the previous one and the one before is dropped whole.
 */
export class SeenSigns {
  private current = new Generation(INITIAL_SLOTS)
  private previous = new Generation(INITIAL_SLOTS)
  private since: number | null = null

  constructor(private readonly keepMs: number) {}

  /** Records a sign; false when it was seen before (or is no sign at all). */
  fresh(sign: string, now: number): boolean {
    const f = fingerprint(sign)
    if (!f) return false
    this.turn(now)
    const [hi, lo] = f
    if (this.current.has(hi, lo) || this.previous.has(hi, lo)) return false
    this.current.add(hi, lo)
    return true
  }

  private turn(now: number): void {
    if (this.since === null) this.since = now
    if (now - this.since < this.keepMs) return
    // Two turns at once (a quiet spell) leave nothing young enough to keep.
    this.previous = now - this.since < 2 * this.keepMs ? this.current : new Generation(INITIAL_SLOTS)
    this.current = new Generation(INITIAL_SLOTS)
    this.since = now
  }
}
