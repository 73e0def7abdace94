import { describe, expect, it } from 'vitest'
import { clock, countdown, idParam, phase, rankRange } from '../../../src/features/activity/view.ts'

describe('the activity screens\' arithmetic', () => {
  it('a countdown splits into days, hours, minutes and seconds, never below zero', () => {
    expect(countdown(((3 * 24 + 4) * 3600 + 5 * 60 + 6) * 1000 + 999)).toEqual({ days: 3, hours: 4, minutes: 5, seconds: 6 })
    expect(countdown(-5000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 })
    expect(clock({ days: 0, hours: 4, minutes: 5, seconds: 6 })).toBe('04:05:06')
  })

  it('counts to the start before it, to the end while running, and to nothing after', () => {
    const a = { starts_at: 1000, ends_at: 5000 }
    expect(phase(a, 0)).toEqual({ status: 'upcoming', leftMs: 1000 })
    expect(phase(a, 1000)).toEqual({ status: 'running', leftMs: 4000 })
    expect(phase(a, 5000)).toEqual({ status: 'ended', leftMs: 0 })
  })

  it('names a prize range by its ranks', () => {
    expect(rankRange({ from: 1, to: 1 })).toBe('1')
    expect(rankRange({ from: 4, to: 10 })).toBe('4–10')
  })

  it('takes only a real id from the route', () => {
    expect(idParam('12')).toBe(12)
    for (const bad of [undefined, '', '0', '-1', '1.5', 'abc', '99999999999999999']) expect(idParam(bad)).toBe(0)
  })
})
