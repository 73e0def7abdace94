// The one rule for a term's dates (contract/term.ts): a node, a loan and a pledge taken on a day show
// their full length that day and are due on the day their last settled day ends.
import { describe, expect, it } from 'vitest'
import { daysLeft, lastDayOf, termOf } from '../../../contract/term.ts'

const DAY_MS = 86_400_000
const dayOfIso = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS
const isoOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)

describe('a term of whole UTC days', () => {
  it('a 180-day node bought today shows 180 days left', () => {
    const today = dayOfIso('2026-11-26')
    expect(daysLeft(termOf(today, 180), today)).toBe(180)
  })

  it('a 30-day loan taken on 11/26 is due on 12/26', () => {
    const term = termOf(dayOfIso('2026-11-26'), 30)
    expect(isoOfDay(lastDayOf(term))).toBe('2026-12-26')
  })

  it('starts tomorrow and covers exactly its days: from the first to the last day inclusive', () => {
    const term = termOf(100, 30)
    expect(term).toEqual({ startDay: 101, endDay: 131 })
    expect(lastDayOf(term) - term.startDay + 1).toBe(30)
  })

  it('counts down one a day from its first day, is 1 on its last day and 0 once over', () => {
    const term = termOf(100, 30)
    expect([100, 101, 102, 129, 130, 131, 500].map((d) => daysLeft(term, d))).toEqual([30, 30, 29, 2, 1, 0, 0])
  })

  it('counts the whole term on any day before it starts', () => {
    expect(daysLeft({ startDay: 110, endDay: 120 }, 50)).toBe(10)
  })
})
