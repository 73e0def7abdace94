import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { installMemoryStorage } from '../lib/memoryStorage.ts'

const T0 = 1_700_000_000_000

// session.ts reads sessionStorage at import time, so the in-memory storage goes on globalThis first.
// It also arms a real setTimeout for the idle expiry (on Date.now()), so the clock is faked and starts
// at T0: the explicit `now` arguments below and the timer then agree.
vi.useFakeTimers({ now: T0 })
const { session: store } = installMemoryStorage()
const { TOKEN_IDLE_MS, armExpiry, clearToken, getToken, onExpire, onSignOut, renewToken, setToken, signedIn } = await import(
  '../../../src/api/session.ts'
)

afterAll(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const stored = () => {
  const raw = store.getItem('token')
  return raw === null ? null : (JSON.parse(raw) as { value: string; expires: number })
}

/** Registers a listener for the length of one test. */
const offs: (() => unknown)[] = []
function spyOn(register: (fn: () => void) => () => unknown) {
  const fn = vi.fn()
  offs.push(register(fn))
  return fn
}

beforeEach(() => {
  for (const off of offs.splice(0)) off()
  store.clear()
  clearToken()
  vi.clearAllTimers()
  vi.setSystemTime(T0)
})

describe('session token', () => {
  it('the idle expiry is 6 minutes', () => {
    expect(TOKEN_IDLE_MS).toBe(6 * 60 * 1000)
  })

  it('setToken stores the token in sessionStorage under "token" with an expiry 6 minutes ahead', () => {
    setToken('abc', TOKEN_IDLE_MS, T0)
    expect(stored()).toEqual({ value: 'abc', expires: T0 + 360_000 })
    expect(getToken(T0)).toBe('abc')
    expect(signedIn.value).toBe(true)
  })

  it('getToken returns the token until just before the expiry', () => {
    setToken('abc', TOKEN_IDLE_MS, T0)
    expect(getToken(T0 + 359_999)).toBe('abc')
  })

  it('getToken returns null at the expiry and removes the stored entry', () => {
    setToken('abc', TOKEN_IDLE_MS, T0)
    expect(getToken(T0 + 360_000)).toBeNull()
    expect(store.getItem('token')).toBeNull()
    expect(signedIn.value).toBe(false)
    // Later reads stay empty even for an earlier clock: the entry is gone.
    expect(getToken(T0)).toBeNull()
  })

  it('renewToken slides the expiry to 6 minutes after the last successful use', () => {
    setToken('abc', TOKEN_IDLE_MS, T0)
    renewToken(TOKEN_IDLE_MS, T0 + 300_000)
    expect(stored()?.expires).toBe(T0 + 660_000)
    expect(getToken(T0 + 659_999)).toBe('abc')
    expect(getToken(T0 + 660_000)).toBeNull()
  })

  it('renewToken repeatedly keeps a busy session alive well past 6 minutes', () => {
    setToken('abc', TOKEN_IDLE_MS, T0)
    for (let t = T0; t <= T0 + 3_600_000; t += 300_000) renewToken(TOKEN_IDLE_MS, t)
    expect(getToken(T0 + 3_600_000 + 359_999)).toBe('abc')
  })

  it('renewToken does not resurrect an expired token', () => {
    setToken('abc', TOKEN_IDLE_MS, T0)
    renewToken(TOKEN_IDLE_MS, T0 + 360_000)
    expect(store.getItem('token')).toBeNull()
    expect(getToken(T0 + 360_001)).toBeNull()
  })

  it('renewToken without a token stores nothing', () => {
    renewToken(TOKEN_IDLE_MS, T0)
    expect(store.getItem('token')).toBeNull()
  })

  it('setToken honours a custom idle time', () => {
    setToken('abc', 1_000, T0)
    expect(getToken(T0 + 999)).toBe('abc')
    expect(getToken(T0 + 1_000)).toBeNull()
  })

  it('a corrupt stored value counts as no token and is removed', () => {
    const corrupt = ['{not json', 'null', '"abc"', '42', '[]', '{"value":1,"expires":9e15}', '{"value":"abc","expires":"9e15"}', '{"value":"abc"}']
    for (const raw of corrupt) {
      store.setItem('token', raw)
      expect(getToken(T0), raw).toBeNull()
      expect(store.getItem('token'), raw).toBeNull()
    }
  })

  it('an empty stored value counts as no token', () => {
    store.setItem('token', '')
    expect(getToken(T0)).toBeNull()
  })

  it('getToken picks up a token found in sessionStorage (e.g. after a reload)', () => {
    store.setItem('token', JSON.stringify({ value: 'fromStorage', expires: T0 + 1_000 }))
    expect(getToken(T0)).toBe('fromStorage')
    expect(signedIn.value).toBe(true)
  })
})

describe('idle expiry timer', () => {
  it('an unused token runs out on its own: onExpire and onSignOut run once, storage is emptied', () => {
    const expired = spyOn(onExpire)
    const signedOut = spyOn(onSignOut)
    setToken('abc', TOKEN_IDLE_MS, T0)
    vi.advanceTimersByTime(TOKEN_IDLE_MS - 1)
    expect(expired).not.toHaveBeenCalled()
    expect(signedIn.value).toBe(true)
    vi.advanceTimersByTime(1_000)
    expect(expired).toHaveBeenCalledTimes(1)
    expect(signedOut).toHaveBeenCalledTimes(1)
    expect(signedIn.value).toBe(false)
    expect(store.getItem('token')).toBeNull()
    vi.advanceTimersByTime(3_600_000)
    expect(expired).toHaveBeenCalledTimes(1)
  })

  it('renewToken postpones the idle expiry', () => {
    const expired = spyOn(onExpire)
    setToken('abc', TOKEN_IDLE_MS, T0)
    vi.advanceTimersByTime(300_000)
    renewToken(TOKEN_IDLE_MS, Date.now())
    vi.advanceTimersByTime(TOKEN_IDLE_MS - 1)
    expect(expired).not.toHaveBeenCalled()
    expect(getToken(Date.now())).toBe('abc')
    vi.advanceTimersByTime(1_000)
    expect(expired).toHaveBeenCalledTimes(1)
  })

  it('clearToken cancels the idle expiry: a signed-out user gets no expiry notice', () => {
    const expired = spyOn(onExpire)
    setToken('abc', TOKEN_IDLE_MS, T0)
    clearToken()
    vi.advanceTimersByTime(3_600_000)
    expect(expired).not.toHaveBeenCalled()
  })

  it('armExpiry arms the expiry of a token found in storage after a reload', () => {
    const expired = spyOn(onExpire)
    store.setItem('token', JSON.stringify({ value: 'reloaded', expires: T0 + 2_000 }))
    expect(getToken(T0)).toBe('reloaded')
    armExpiry(T0)
    vi.advanceTimersByTime(1_999)
    expect(expired).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1_000)
    expect(expired).toHaveBeenCalledTimes(1)
    expect(signedIn.value).toBe(false)
  })

  it('armExpiry does nothing without a live stored token', () => {
    const expired = spyOn(onExpire)
    armExpiry(T0)
    store.setItem('token', '{corrupt')
    armExpiry(T0)
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(3_600_000)
    expect(expired).not.toHaveBeenCalled()
  })

  it('an unsubscribed onExpire listener is not called', () => {
    const fn = vi.fn()
    const off = onExpire(fn)
    off()
    setToken('abc', TOKEN_IDLE_MS, T0)
    vi.advanceTimersByTime(TOKEN_IDLE_MS + 1_000)
    expect(fn).not.toHaveBeenCalled()
  })
})

describe('clearToken / onSignOut', () => {
  it('clearToken removes the token and runs each onSignOut listener once', () => {
    const a = spyOn(onSignOut)
    const b = spyOn(onSignOut)
    setToken('abc', TOKEN_IDLE_MS, T0)
    clearToken()
    expect(store.getItem('token')).toBeNull()
    expect(signedIn.value).toBe(false)
    expect(getToken(T0)).toBeNull()
    expect(a).toHaveBeenCalledTimes(1)
    expect(b).toHaveBeenCalledTimes(1)
  })

  it('clearToken when already signed out does not run the listeners again', () => {
    const fn = spyOn(onSignOut)
    setToken('abc', TOKEN_IDLE_MS, T0)
    clearToken()
    clearToken()
    clearToken()
    expect(fn).toHaveBeenCalledTimes(1)
  })

  it('the same listener registered twice runs once per sign-out', () => {
    const fn = vi.fn()
    offs.push(onSignOut(fn), onSignOut(fn))
    setToken('abc', TOKEN_IDLE_MS, T0)
    clearToken()
    expect(fn).toHaveBeenCalledTimes(1)
  })

  it('an unsubscribed onSignOut listener is not called', () => {
    const fn = vi.fn()
    const off = onSignOut(fn)
    off()
    setToken('abc', TOKEN_IDLE_MS, T0)
    clearToken()
    expect(fn).not.toHaveBeenCalled()
  })

  it('clearToken with a token still in the signal runs the listeners even if storage was wiped', () => {
    const fn = spyOn(onSignOut)
    setToken('abc', TOKEN_IDLE_MS, T0)
    store.clear() // storage wiped behind the module's back; the signal still holds the token
    clearToken()
    expect(fn).toHaveBeenCalledTimes(1)
    expect(signedIn.value).toBe(false)
  })

  // Regression, fixed (src/api/session.ts, getToken → read(), and the timer callback in schedule()): when
  // getToken(now) finds the token past its idle expiry it removes it and nulls the signal, but runs
  // neither the onSignOut nor the onExpire listeners. The idle timer (fires at expires + 50 ms) then
  // sees `token.value === null` and returns early, and a later clearToken() sees `had === false`.
  // This happens whenever a request runs between the expiry and the timer, e.g. a phone that slept
  // with the PWA in the background (timers frozen/throttled) wakes up and React Query's
  // refetch-on-focus calls client.ts call() → getToken() first. Then queryClient.clear() (registered
  // with onSignOut in src/app/queryClient.ts: "One user's data never shows to the next person who
  // signs in") never runs, so the previous user's cached queries (gcTime 24 h) survive; nor does the
  // 'login expired' redirect from onExpire in App.tsx. client.ts's 401 branch skips clearToken too,
  // because its `token` is already null. Expected: an idle expiry is a sign-out however it is
  // noticed, so both listener sets run exactly once. Actual: neither runs.
  it('a token found expired by getToken before the timer fires still signs out (listeners run once)', () => {
    const signedOut = spyOn(onSignOut)
    const expired = spyOn(onExpire)
    setToken('abc', TOKEN_IDLE_MS, T0)
    // The clock jumps past the expiry without the timer having run (a frozen background tab).
    vi.setSystemTime(T0 + 10 * 60_000)
    expect(getToken()).toBeNull()
    vi.runOnlyPendingTimers()
    clearToken()
    expect(signedOut).toHaveBeenCalledTimes(1)
    expect(expired).toHaveBeenCalledTimes(1)
  })
})
