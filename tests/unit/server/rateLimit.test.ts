import { describe, expect, it } from 'vitest'
import { WindowLimiter } from '../../../server/http/rateLimit.ts'

describe('WindowLimiter', () => {
  it('allows `limit` attempts per key in a window, then refuses', () => {
    const l = new WindowLimiter(3, 1000)
    expect([1, 2, 3, 4, 5].map(() => l.take('a', 0))).toEqual([true, true, true, false, false])
  })

  it('counts keys separately', () => {
    const l = new WindowLimiter(1, 1000)
    expect(l.take('a', 0)).toBe(true)
    expect(l.take('b', 0)).toBe(true)
    expect(l.take('a', 10)).toBe(false)
  })

  it('starts afresh once the window has passed', () => {
    const l = new WindowLimiter(1, 1000)
    expect(l.take('a', 0)).toBe(true)
    expect(l.take('a', 999)).toBe(false)
    expect(l.take('a', 1000)).toBe(true)
    expect(l.take('a', 1001)).toBe(false)
  })

  it('sweep forgets only the keys whose window has ended', () => {
    const l = new WindowLimiter(1, 1000)
    l.take('old', 0)
    l.take('new', 900)
    l.sweep(1000)
    expect(l.take('old', 1000)).toBe(true)
    expect(l.take('new', 1000)).toBe(false)
  })
})
