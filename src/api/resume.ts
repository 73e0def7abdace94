// Where a user was when their login expired (SPEC §8, DESIGN §4): after signing in again as the same
// account they are brought back there. Kept in session storage beside the token, so a reload during
// the expiry notice loses nothing; another account signing in never lands on it.
import { sessionStore } from '../lib/storage.ts'

const KEY = 'resume'

export interface ReturnPoint {
  /** 'u:<id>', as session.ts names accounts. */
  account: string
  /** Path and query inside the app. */
  path: string
}

/** An in-app path: one leading slash, so nothing stored can send the user to another origin. */
export function isAppPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') && path.length <= 2000
}

/** Where to return `account` to from what was stored, or null: nothing stored, corrupt, another account's, or the home screen. Pure. */
export function returnPathFor(raw: string | null, account: string): string | null {
  if (!raw) return null
  let p: unknown
  try {
    p = JSON.parse(raw)
  } catch {
    return null
  }
  const o = p as Partial<ReturnPoint> | null
  if (!o || typeof o.account !== 'string' || typeof o.path !== 'string') return null
  if (o.account !== account || !account.startsWith('u:') || !isAppPath(o.path)) return null
  const bare = o.path.split(/[?#]/)[0]
  return bare === '/' || bare === '/index' ? null : o.path
}

/** Remembers where `account` was; a visitor's place is not worth keeping. */
export function rememberReturn(account: string, path: string): void {
  if (!account.startsWith('u:') || !isAppPath(path)) return
  sessionStore.set(KEY, JSON.stringify({ account, path } satisfies ReturnPoint))
}

/** Once signed in as `account`: the place to return to, if it is theirs. Whoever signed in, the point is used up. */
export function takeReturn(account: string): string | null {
  const path = returnPathFor(sessionStore.get(KEY), account)
  sessionStore.remove(KEY)
  return path
}
