import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { encodeQr, formatBits, penalty, qrPath, versionFor } from '../../../src/features/recharge/qr.ts'

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const hash = (m: boolean[][]) => createHash('sha256').update(m.map((r) => r.map((b) => (b ? '1' : '0')).join('')).join('\n')).digest('hex')

describe('QR code of a deposit address', () => {
  it('a 42-character address fits version 3 (29 × 29) at level M', () => {
    expect(versionFor(42)).toBe(3)
    const m = encodeQr(ADDRESS)
    expect([m.version, m.size, m.modules.length, m.modules[0]!.length]).toEqual([3, 29, 29, 29])
  })

  it('picks the smallest version for the length, up to version 10', () => {
    expect(versionFor(1)).toBe(1)
    expect(versionFor(14)).toBe(1)
    expect(versionFor(15)).toBe(2)
    expect(versionFor(213)).toBe(10)
    expect(versionFor(214)).toBeNull()
    expect(() => encodeQr('x'.repeat(300))).toThrow()
  })

  it('the format bits for level M are the standard ones', () => {
    // ISO/IEC 18004 table C.1: level M, masks 0–7.
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((k) => formatBits(k).toString(2).padStart(15, '0'))).toEqual([
      '101010000010010',
      '101000100100101',
      '101111001111100',
      '101101101001011',
      '100010111111001',
      '100000011001110',
      '100111110010111',
      '100101010100000',
    ])
  })

  it('draws the three finder patterns, the timing lines and the dark module', () => {
    const m = encodeQr(ADDRESS)
    const s = m.size
    const finder = (x0: number, y0: number) => {
      for (let y = 0; y < 7; y++) {
        for (let x = 0; x < 7; x++) {
          const d = Math.max(Math.abs(x - 3), Math.abs(y - 3))
          expect(m.modules[y0 + y]![x0 + x], `finder at ${x0},${y0}`).toBe(d !== 2)
        }
      }
    }
    finder(0, 0)
    finder(s - 7, 0)
    finder(0, s - 7)
    for (let i = 8; i < s - 8; i++) {
      expect(m.modules[6]![i]).toBe(i % 2 === 0)
      expect(m.modules[i]![6]).toBe(i % 2 === 0)
    }
    expect(m.modules[s - 8]![8]).toBe(true)
  })

  it('carries its format bits, level M and the chosen mask, in both copies', () => {
    const m = encodeQr(ADDRESS)
    const bits = formatBits(m.mask)
    const bit = (i: number) => ((bits >>> i) & 1) === 1
    const first = [0, 1, 2, 3, 4, 5, 7, 8].map((y) => m.modules[y]![8])
    expect(first).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map(bit))
    const second = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => m.modules[8]![m.size - 1 - i])
    expect(second).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map(bit))
  })

  it('chooses the mask with the lowest penalty of the eight', () => {
    for (const text of [ADDRESS, 'hi', 'x'.repeat(120)]) {
      const chosen = encodeQr(text)
      const scores = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => penalty(encodeQr(text, k).modules))
      expect(penalty(chosen.modules)).toBe(Math.min(...scores))
      expect(encodeQr(text, chosen.mask).modules).toEqual(chosen.modules)
    }
  })

  it('encodes a known address to the matrix a QR reader decoded (jsQR) when this encoder was written', () => {
    const m = encodeQr(ADDRESS)
    expect(m.mask).toBe(4)
    expect(hash(m.modules)).toBe('b86de281ece0c993e36bbbc3a10dd7173fa7e174fb6e5ba0360e60d3a1cfbe40')
  })

  it('draws as one path of unit rectangles inside the quiet zone', () => {
    const m = encodeQr('hi')
    const d = qrPath(m, 4)
    expect(d.startsWith('M4 4h7v1h-7z')).toBe(true) // the top row of the first finder pattern, one run
    const dark = m.modules.flat().filter(Boolean).length
    const drawn = [...d.matchAll(/h(\d+)v1/g)].reduce((n, x) => n + Number(x[1]), 0)
    expect(drawn).toBe(dark)
  })
})
