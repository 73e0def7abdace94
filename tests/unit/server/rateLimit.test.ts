import { describe, expect, it } from 'vitest'
import { WindowLimiter } from '../../../server/http/rateLimit.ts'

/** The limiter's private map, to prove what sweep() frees. */
const sizeOf = (l: WindowLimiter) => (l as unknown as { hits: Map<string, unknown> }).hits.size

describe('WindowLimiter', () => {
  it('WindowLimiter allows `limit` attempts per window and refuses the next', () => {
    const l = new WindowLimiter(3, 60_000)
    expect([l.take('k', 0), l.take('k', 1), l.take('k', 2)]).toEqual([true, true, true])
    expect(l.take('k', 3)).toBe(false)
    expect(l.take('k', 59_999)).toBe(false)
  })

  it('WindowLimiter starts a fresh window once windowMs has passed since its first attempt', () => {
    const l = new WindowLimiter(2, 1_000)
    l.take('k', 100)
    l.take('k', 200)
    expect(l.take('k', 1_099)).toBe(false)
    expect(l.take('k', 1_100)).toBe(true)
    expect(l.take('k', 1_101)).toBe(true)
    expect(l.take('k', 1_102)).toBe(false)
  })

  it('WindowLimiter windows are fixed: refused attempts do not push the reset further out', () => {
    const l = new WindowLimiter(1, 1_000)
    expect(l.take('k', 0)).toBe(true)
    for (let t = 10; t < 1_000; t += 10) expect(l.take('k', t)).toBe(false)
    expect(l.take('k', 1_000)).toBe(true)
  })

  it('WindowLimiter counts each key independently', () => {
    const l = new WindowLimiter(1, 1_000)
    expect(l.take('a', 0)).toBe(true)
    expect(l.take('a', 1)).toBe(false)
    expect(l.take('b', 2)).toBe(true)
    expect(l.take('b', 3)).toBe(false)
    expect(l.take('c', 4)).toBe(true)
  })

  it('WindowLimiter with limit 1 allows exactly one attempt per window', () => {
    const l = new WindowLimiter(1, 500)
    const allowed = [0, 100, 499, 500, 999, 1_000].map((t) => l.take('k', t))
    expect(allowed).toEqual([true, false, false, true, false, true])
  })

  it('sweep drops keys whose window has ended and keeps live ones', () => {
    const l = new WindowLimiter(5, 1_000)
    l.take('old', 0)
    l.take('live', 600)
    expect(sizeOf(l)).toBe(2)
    l.sweep(999)
    expect(sizeOf(l)).toBe(2)
    l.sweep(1_000)
    expect(sizeOf(l)).toBe(1)
    // The live key's count survives the sweep.
    for (let i = 0; i < 4; i++) expect(l.take('live', 1_100)).toBe(true)
    expect(l.take('live', 1_100)).toBe(false)
  })

  it('a swept key starts over with a fresh window', () => {
    const l = new WindowLimiter(1, 1_000)
    l.take('k', 0)
    l.sweep(1_000)
    expect(sizeOf(l)).toBe(0)
    expect(l.take('k', 1_000)).toBe(true)
    expect(l.take('k', 1_001)).toBe(false)
  })

  it('more than 10 000 live keys trigger an automatic sweep of expired ones', () => {
    const l = new WindowLimiter(1, 1_000)
    for (let i = 0; i < 10_000; i++) l.take(`old${i}`, 0)
    expect(sizeOf(l)).toBe(10_000)
    // A new key at a time when all the old windows have ended pushes the size over 10 000.
    l.take('new', 5_000)
    expect(sizeOf(l)).toBe(1)
  })
})
