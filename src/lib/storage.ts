// The only place the app touches Web Storage (SPEC §9: token in session storage, other keys local).
// Private browsing and storage quotas can make either throw; the app then runs without persistence.

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn()
  } catch {
    return fallback
  }
}

export const storage = {
  get: (key: string): string | null => safe(() => localStorage.getItem(key), null),
  set: (key: string, value: string): void => safe(() => localStorage.setItem(key, value), undefined),
  remove: (key: string): void => safe(() => localStorage.removeItem(key), undefined),
}

export const sessionStore = {
  get: (key: string): string | null => safe(() => sessionStorage.getItem(key), null),
  set: (key: string, value: string): void => safe(() => sessionStorage.setItem(key, value), undefined),
  remove: (key: string): void => safe(() => sessionStorage.removeItem(key), undefined),
  keys: (): string[] => safe(() => Array.from({ length: sessionStorage.length }, (_, i) => sessionStorage.key(i) ?? ''), []),
}
