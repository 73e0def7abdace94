// A QR code encoder for short text (a deposit address): byte mode, error correction level M,
// versions 1–10, the mask with the lowest penalty (ISO/IEC 18004). About 3 KB instead of a library.
// Pure: returns the module matrix; QrCode.tsx draws it as one SVG path.

/** Error-correction codewords per block and number of blocks at level M, by version (index 0 unused). */
const ECC_PER_BLOCK = [-1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26]
const BLOCKS = [-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5]
const MAX_VERSION = 10
/** Level M's two format bits. */
const ECL_M = 0

export interface QrMatrix {
  version: number
  size: number
  mask: number
  /** modules[y][x], true = dark. */
  modules: boolean[][]
}

function rawDataModules(ver: number): number {
  let r = (16 * ver + 128) * ver + 64
  if (ver >= 2) {
    const align = Math.floor(ver / 7) + 2
    r -= (25 * align - 10) * align - 55
    if (ver >= 7) r -= 36
  }
  return r
}

const dataCodewords = (ver: number) => Math.floor(rawDataModules(ver) / 8) - ECC_PER_BLOCK[ver]! * BLOCKS[ver]!

function alignmentPositions(ver: number): number[] {
  if (ver === 1) return []
  const n = Math.floor(ver / 7) + 2
  const step = Math.floor((ver * 8 + n * 3 + 5) / (n * 4 - 4)) * 2
  const out = [6]
  for (let pos = ver * 4 + 17 - 7; out.length < n; pos -= step) out.splice(1, 0, pos)
  return out
}

// Reed–Solomon over GF(2^8) with the polynomial 0x11D.
function gfMul(x: number, y: number): number {
  let z = 0
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d)
    z ^= ((y >>> i) & 1) * x
  }
  return z
}

function rsDivisor(degree: number): number[] {
  const r = new Array<number>(degree).fill(0)
  r[degree - 1] = 1
  let root = 1
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      r[j] = gfMul(r[j]!, root)
      if (j + 1 < degree) r[j] = r[j]! ^ r[j + 1]!
    }
    root = gfMul(root, 0x02)
  }
  return r
}

function rsRemainder(data: number[], divisor: number[]): number[] {
  const r = new Array<number>(divisor.length).fill(0)
  for (const b of data) {
    const factor = b ^ r.shift()!
    r.push(0)
    for (let i = 0; i < divisor.length; i++) r[i] = r[i]! ^ gfMul(divisor[i]!, factor)
  }
  return r
}

/** The data codewords: mode, length, bytes, terminator, padding. */
function encodeData(bytes: Uint8Array, ver: number): number[] {
  const bits: number[] = []
  const put = (value: number, len: number) => {
    for (let i = len - 1; i >= 0; i--) bits.push((value >>> i) & 1)
  }
  put(0b0100, 4)
  put(bytes.length, ver <= 9 ? 8 : 16)
  for (const b of bytes) put(b, 8)
  const capacity = dataCodewords(ver) * 8
  put(0, Math.min(4, capacity - bits.length))
  put(0, (8 - (bits.length % 8)) % 8)
  const out: number[] = []
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0))
  for (let pad = 0xec; out.length < capacity / 8; pad ^= 0xec ^ 0x11) out.push(pad)
  return out
}

function withEcc(data: number[], ver: number): number[] {
  const blocks = BLOCKS[ver]!
  const eccLen = ECC_PER_BLOCK[ver]!
  const raw = Math.floor(rawDataModules(ver) / 8)
  const short = blocks - (raw % blocks)
  const shortLen = Math.floor(raw / blocks)
  const div = rsDivisor(eccLen)
  const all: number[][] = []
  for (let i = 0, k = 0; i < blocks; i++) {
    const dat = data.slice(k, k + shortLen - eccLen + (i < short ? 0 : 1))
    k += dat.length
    const ecc = rsRemainder(dat, div)
    if (i < short) dat.push(0)
    all.push(dat.concat(ecc))
  }
  const out: number[] = []
  for (let i = 0; i < all[0]!.length; i++) {
    for (let j = 0; j < all.length; j++) if (i !== shortLen - eccLen || j >= short) out.push(all[j]![i]!)
  }
  return out
}

const MASKS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
]

/** The 15 format bits for level M and a mask, BCH-protected and XOR-masked. */
export function formatBits(mask: number): number {
  const data = (ECL_M << 3) | mask
  let rem = data
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537)
  return ((data << 10) | rem) ^ 0x5412
}

class Grid {
  readonly size: number
  readonly modules: boolean[][]
  readonly fixed: boolean[][]
  constructor(readonly version: number) {
    this.size = version * 4 + 17
    this.modules = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false))
    this.fixed = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false))
  }
  set(x: number, y: number, dark: boolean) {
    this.modules[y]![x] = dark
    this.fixed[y]![x] = true
  }
  drawFunctionPatterns() {
    const { size } = this
    for (let i = 0; i < size; i++) {
      this.set(6, i, i % 2 === 0)
      this.set(i, 6, i % 2 === 0)
    }
    for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]] as const) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx
          const y = cy + dy
          const d = Math.max(Math.abs(dx), Math.abs(dy))
          if (x >= 0 && x < size && y >= 0 && y < size) this.set(x, y, d !== 2 && d !== 4)
        }
      }
    }
    const pos = alignmentPositions(this.version)
    const last = pos.length - 1
    for (let i = 0; i < pos.length; i++) {
      for (let j = 0; j < pos.length; j++) {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue
        for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) this.set(pos[i]! + dx, pos[j]! + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1)
      }
    }
    this.drawFormat(0) // reserves the area; the real bits come with the mask
    if (this.version >= 7) {
      let rem = this.version
      for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25)
      const bits = (this.version << 12) | rem
      for (let i = 0; i < 18; i++) {
        const bit = ((bits >>> i) & 1) === 1
        const a = size - 11 + (i % 3)
        const b = Math.floor(i / 3)
        this.set(a, b, bit)
        this.set(b, a, bit)
      }
    }
  }
  drawFormat(mask: number) {
    const bits = formatBits(mask)
    const bit = (i: number) => ((bits >>> i) & 1) === 1
    const { size } = this
    for (let i = 0; i <= 5; i++) this.set(8, i, bit(i))
    this.set(8, 7, bit(6))
    this.set(8, 8, bit(7))
    this.set(7, 8, bit(8))
    for (let i = 9; i < 15; i++) this.set(14 - i, 8, bit(i))
    for (let i = 0; i < 8; i++) this.set(size - 1 - i, 8, bit(i))
    for (let i = 8; i < 15; i++) this.set(8, size - 15 + i, bit(i))
    this.set(8, size - 8, true)
  }
  drawCodewords(data: number[]) {
    const { size } = this
    let i = 0
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5
      for (let vert = 0; vert < size; vert++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j
          const upward = ((right + 1) & 2) === 0
          const y = upward ? size - 1 - vert : vert
          if (!this.fixed[y]![x] && i < data.length * 8) {
            this.modules[y]![x] = ((data[i >>> 3]! >>> (7 - (i & 7))) & 1) === 1
            i++
          }
        }
      }
    }
  }
  applyMask(mask: number) {
    const f = MASKS[mask]!
    for (let y = 0; y < this.size; y++) for (let x = 0; x < this.size; x++) if (!this.fixed[y]![x] && f(x, y)) this.modules[y]![x] = !this.modules[y]![x]
  }
}

/** ISO/IEC 18004 penalty: runs, 2×2 blocks, finder-like patterns, dark/light balance. Lower is better. */
export function penalty(m: boolean[][]): number {
  const size = m.length
  let score = 0
  const line = (get: (i: number) => boolean) => {
    let run = 1
    for (let i = 1; i <= size; i++) {
      if (i < size && get(i) === get(i - 1)) run++
      else {
        if (run >= 5) score += run - 2
        run = 1
      }
    }
    // 1:1:3:1:1 dark-light pattern with four light modules on either side (outside counts as light).
    const at = (i: number) => (i < 0 || i >= size ? false : get(i))
    const core = [true, false, true, true, true, false, true]
    for (let i = 0; i + 7 <= size; i++) {
      if (!core.every((v, k) => at(i + k) === v)) continue
      const before = [1, 2, 3, 4].every((k) => !at(i - k))
      const after = [0, 1, 2, 3].every((k) => !at(i + 7 + k))
      if (before || after) score += 40
    }
  }
  for (let y = 0; y < size; y++) line((x) => m[y]![x]!)
  for (let x = 0; x < size; x++) line((y) => m[y]![x]!)
  let dark = 0
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (m[y]![x]) dark++
      if (x + 1 < size && y + 1 < size) {
        const c = m[y]![x]
        if (c === m[y]![x + 1] && c === m[y + 1]![x] && c === m[y + 1]![x + 1]) score += 3
      }
    }
  }
  const total = size * size
  score += Math.max(0, Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1) * 10
  return score
}

/** The smallest version that holds this many bytes at level M, or null when none up to 10 does. */
export function versionFor(byteLength: number): number | null {
  for (let v = 1; v <= MAX_VERSION; v++) if (4 + (v <= 9 ? 8 : 16) + byteLength * 8 <= dataCodewords(v) * 8) return v
  return null
}

/**
 * Encodes text (UTF-8) as a QR code, with the mask of lowest penalty unless one is given. Throws when
 * the text is longer than version 10 holds (213 bytes).
 */
export function encodeQr(text: string, onlyMask?: number): QrMatrix {
  const bytes = new TextEncoder().encode(text)
  const version = versionFor(bytes.length)
  if (version === null) throw new Error('qr: text too long')
  const codewords = withEcc(encodeData(bytes, version), version)
  let best: QrMatrix | null = null
  let bestScore = Infinity
  for (let mask = 0; mask < 8; mask++) {
    if (onlyMask !== undefined && mask !== onlyMask) continue
    const g = new Grid(version)
    g.drawFunctionPatterns()
    g.drawCodewords(codewords)
    g.applyMask(mask)
    g.drawFormat(mask)
    const score = penalty(g.modules)
    if (score < bestScore) {
      bestScore = score
      best = { version, size: g.size, mask, modules: g.modules }
    }
  }
  return best!
}

/** One SVG path drawing every dark module as a unit square, offset by a quiet zone. */
export function qrPath(m: QrMatrix, quiet = 4): string {
  let d = ''
  for (let y = 0; y < m.size; y++) {
    for (let x = 0; x < m.size; x++) {
      if (!m.modules[y]![x]) continue
      // Runs of dark modules on a row become one rectangle: a shorter path.
      let run = 1
      while (x + run < m.size && m.modules[y]![x + run]) run++
      d += `M${x + quiet} ${y + quiet}h${run}v1h-${run}z`
      x += run - 1
    }
  }
  return d
}
