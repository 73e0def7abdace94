// A minimal in-memory Web Storage for unit tests that run in the node environment (no DOM).
// Install it on globalThis before importing a module that reads storage at import time.
import { vi } from 'vitest'

export class MemoryStorage {
  private readonly map = new Map<string, string>()

  get length(): number {
    return this.map.size
  }

  key(index: number): string | null {
    return [...this.map.keys()][index] ?? null
  }

  getItem(key: string): string | null {
    return this.map.has(key) ? (this.map.get(key) as string) : null
  }

  setItem(key: string, value: string): void {
    this.map.set(key, String(value))
  }

  removeItem(key: string): void {
    this.map.delete(key)
  }

  clear(): void {
    this.map.clear()
  }
}

/** Puts fresh localStorage and sessionStorage on globalThis (undone by vi.unstubAllGlobals()). */
export function installMemoryStorage(): { local: MemoryStorage; session: MemoryStorage } {
  const local = new MemoryStorage()
  const session = new MemoryStorage()
  vi.stubGlobal('localStorage', local)
  vi.stubGlobal('sessionStorage', session)
  return { local, session }
}
