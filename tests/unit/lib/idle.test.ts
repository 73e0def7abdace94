import { afterEach, describe, expect, it, vi } from 'vitest'
import { whenIdle } from '../../../src/lib/idle.ts'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('whenIdle', () => {
  it('asks the browser for idle time with the timeout, so a hidden tab still runs it', () => {
    const asked: { timeout?: number }[] = []
    vi.stubGlobal('requestIdleCallback', (cb: () => void, opts: { timeout?: number }) => {
      asked.push(opts)
      cb()
      return 1
    })
    const fn = vi.fn()
    whenIdle(fn, 1000)
    expect(asked).toEqual([{ timeout: 1000 }])
    expect(fn).toHaveBeenCalledOnce()
  })

  it('without requestIdleCallback, runs after the fallback delay and not before', () => {
    vi.useFakeTimers()
    vi.stubGlobal('requestIdleCallback', undefined)
    const fn = vi.fn()
    whenIdle(fn, 5000, 1000)
    vi.advanceTimersByTime(999)
    expect(fn).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(fn).toHaveBeenCalledOnce()
  })
})
