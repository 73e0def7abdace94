import { describe, expect, it } from 'vitest'
import { dayOfIso, dayOfMs, isoOfDay } from '../../../src/features/ranking/view.ts'

describe('the ranking screen’s days (UTC days since 1970-01-01)', () => {
  it('a date input’s value and its day go both ways', () => {
    const day = dayOfMs(Date.UTC(2026, 2, 10, 23, 59))
    expect(isoOfDay(day)).toBe('2026-03-10')
    expect(dayOfIso('2026-03-10')).toBe(day)
  })
  it.each(['', '2026-3-10', 'yesterday', '2026-13-40'])('"%s" names no day', (v) => {
    expect(dayOfIso(v)).toBeNull()
  })
})
