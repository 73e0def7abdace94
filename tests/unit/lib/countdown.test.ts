import { describe, expect, it } from 'vitest'
import { secondsLeft } from '../../../src/lib/countdown.ts'

describe('secondsLeft', () => {
  it('secondsLeft counts whole seconds until endsAt', () => {
    expect(secondsLeft(10_000, 0)).toBe(10)
    expect(secondsLeft(61_000, 1_000)).toBe(60)
  })

  it('secondsLeft rounds a partial second up, so it shows 0 only when time is up', () => {
    expect(secondsLeft(10_001, 0)).toBe(11)
    expect(secondsLeft(1, 0)).toBe(1)
    expect(secondsLeft(999, 0)).toBe(1)
  })

  it('secondsLeft is 0 exactly at endsAt', () => {
    expect(secondsLeft(5_000, 5_000)).toBe(0)
  })

  it('secondsLeft is never negative (and never -0) after endsAt', () => {
    expect(secondsLeft(0, 10_000)).toBe(0)
    expect(Object.is(secondsLeft(999, 1_000), 0)).toBe(true)
    expect(Object.is(secondsLeft(0, 500), 0)).toBe(true)
  })
})
