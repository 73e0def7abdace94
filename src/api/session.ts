import { computed, signal } from '@preact/signals-react'
import { sessionStore } from '../lib/storage.ts'

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
    if (typeof s.value === 'string' && typeof s.expires === 'number' && s.expires > now) return s.value
  } catch {
    /* a corrupt entry is the same as none */
  }
  sessionStore.remove(KEY)
  return null
}

const token = signal<string | null>(read())
export const signedIn = computed(() => token.value !== null)

/** The token if it has not expired; an expired one is dropped. */
export function getToken(now = Date.now()): string | null {
  const v = read(now)
  if (v !== token.value) token.value = v
  return v
}

export function setToken(value: string, idleMs = TOKEN_IDLE_MS, now = Date.now()): void {
  sessionStore.set(KEY, JSON.stringify({ value, expires: now + idleMs } satisfies Stored))
  token.value = value
}

/** Slides the expiry after a successful call. */
export function renewToken(idleMs = TOKEN_IDLE_MS, now = Date.now()): void {
  const v = read(now)
  if (v) sessionStore.set(KEY, JSON.stringify({ value: v, expires: now + idleMs } satisfies Stored))
}

const listeners = new Set<() => void>()
/** Runs on every sign-out, e.g. to drop the user's cached data. */
export function onSignOut(fn: () => void): () => void {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

export function clearToken(): void {
  const had = token.value !== null || sessionStore.get(KEY) !== null
  sessionStore.remove(KEY)
  token.value = null
  if (had) for (const fn of listeners) fn()
}
