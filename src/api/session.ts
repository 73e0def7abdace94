import { computed, signal } from '@preact/signals-react'
import { sessionStore } from '../lib/storage.ts'
import { online } from './online.ts'

/** SPEC §9: the token expires 6 minutes after its last successful use. */
export const TOKEN_IDLE_MS = 360_000
const KEY = 'token'

interface Stored {
  value: string
  expires: number
}

function read(now = Date.now()): string | null {
  const raw = sessionStore.get(KEY)
  if (!raw) return null
  try {
    const s = JSON.parse(raw) as Stored
    // Offline, no call could have renewed the token, so its idle clock stands still: the user keeps
    // their cached data and queued changes, and the server decides once the network is back.
    if (typeof s.value === 'string' && typeof s.expires === 'number' && (s.expires > now || !online.value)) return s.value
  } catch {
    /* a corrupt entry is the same as none */
  }
  sessionStore.remove(KEY)
  return null
}

const token = signal<string | null>(read())
export const signedIn = computed(() => token.value !== null)

const ACCOUNT_KEY = 'account'
/**
 * Whose data this tab holds: 'anon' for a visitor, 'u:<id>' once signed in. Caches and the outbox
 * are kept per account so one person's data never shows to the next (DESIGN §6).
 */
export const account = signal<string>(token.value ? (sessionStore.get(ACCOUNT_KEY) ?? 'anon') : 'anon')

export function setAccount(userId: number): void {
  const a = `u:${userId}`
  sessionStore.set(ACCOUNT_KEY, a)
  account.value = a
}

const expiryListeners = new Set<(account: string) => void>()
/** Runs when a stored token reaches its idle expiry without being used, with the account it was. */
export function onExpire(fn: (account: string) => void): () => void {
  expiryListeners.add(fn)
  return () => expiryListeners.delete(fn)
}

let timer: ReturnType<typeof setTimeout> | undefined
function schedule(expires: number, now: number) {
  clearTimeout(timer)
  timer = setTimeout(() => {
    if (read() === null) expire()
  }, Math.max(0, expires - now) + 50)
}

/** The token ran out unused: a sign-out like any other, and expiry listeners learn why. */
function expire() {
  if (token.value === null) return
  const was = account.value
  clearToken()
  for (const fn of expiryListeners) fn(was)
}

/** The token if it has not expired; an expired one is dropped. */
export function getToken(now = Date.now()): string | null {
  const v = read(now)
  // Found expired before the timer fired (a phone waking a backgrounded app): still a sign-out.
  if (v === null) expire()
  else if (v !== token.value) token.value = v
  return v
}

export function setToken(value: string, idleMs = TOKEN_IDLE_MS, now = Date.now()): void {
  sessionStore.set(KEY, JSON.stringify({ value, expires: now + idleMs } satisfies Stored))
  token.value = value
  schedule(now + idleMs, now)
}

/** Slides the expiry after a successful call. */
export function renewToken(idleMs = TOKEN_IDLE_MS, now = Date.now()): void {
  const v = read(now)
  if (!v) return
  sessionStore.set(KEY, JSON.stringify({ value: v, expires: now + idleMs } satisfies Stored))
  schedule(now + idleMs, now)
}

/** After a reload: arm the expiry of the token found in storage. */
export function armExpiry(now = Date.now()): void {
  const raw = sessionStore.get(KEY)
  if (!raw || getToken(now) === null) return
  schedule((JSON.parse(raw) as Stored).expires, now)
}

// Back online, the idle clock runs again: a token that ran out meanwhile is expired now.
online.subscribe((isOnline) => {
  if (isOnline && token.value !== null) armExpiry()
})

const listeners = new Set<(account: string) => void>()
/** Runs on every sign-out with the account that signed out, e.g. to drop its cached data. */
export function onSignOut(fn: (account: string) => void): () => void {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

export function clearToken(): void {
  const had = token.value !== null || sessionStore.get(KEY) !== null
  const was = account.value
  sessionStore.remove(KEY)
  sessionStore.remove(ACCOUNT_KEY)
  token.value = null
  account.value = 'anon'
  clearTimeout(timer)
  if (had) for (const fn of listeners) fn(was)
}
