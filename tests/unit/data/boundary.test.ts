import fs from 'node:fs'
import path from 'node:path'
import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { preloadData } from '../../../src/data/index.ts'

// The first-load budget: the facade and what it imports statically must not reach Dexie. Walks the
// static import graph (type-only imports are erased; `import('./x')` is a lazy chunk) from the files
// the app imports eagerly.
const DATA = path.resolve(import.meta.dirname, '../../../src/data')
const STATIC = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/gm

function staticImports(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8')
  return [...src.matchAll(STATIC)].filter((m) => !m[1]).map((m) => m[2]!)
}

function reach(entry: string): Set<string> {
  const seen = new Set<string>()
  const walk = (file: string) => {
    for (const spec of staticImports(file)) {
      const target = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : spec
      if (seen.has(target)) continue
      seen.add(target)
      if (spec.startsWith('.') && target.startsWith(DATA)) walk(target)
    }
  }
  walk(path.join(DATA, entry))
  return seen
}

describe('src/data boundary', () => {
  it('index.ts reaches neither Dexie nor the Dexie modules through static imports', () => {
    const reached = [...reach('index.ts')].map((p) => (p.startsWith(DATA) ? path.relative(DATA, p) : p))
    expect(reached).not.toContain('dexie')
    for (const heavy of ['db.ts', 'kv.ts', 'outbox.ts', 'klines.ts', 'store.ts']) expect(reached).not.toContain(heavy)
  })

  it('useOutbox.ts (a Dexie live query) is imported only by screens of their own lazy chunk, never by the first load', () => {
    const SRC = path.resolve(DATA, '..')
    const files = fs.readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f))
    const users = files.filter((f) => staticImports(path.join(SRC, f)).some((s) => s.endsWith('/useOutbox.ts') || s === './useOutbox.ts'))
    expect(users.length).toBeGreaterThan(0)
    const routes = fs.readFileSync(path.join(SRC, 'app/routes.ts'), 'utf8')
    for (const f of users) {
      // A screen the route table loads with import(), and nothing the app imports eagerly.
      expect(routes, f).toContain(`import('../${f.replace(/\\/g, '/')}')`)
    }
  })

  it('the walker sees through to Dexie from the Dexie side (so the check above can fail)', () => {
    expect(reach('store.ts')).toContain('dexie')
  })

  it('preloadData loads the lazy Dexie chunk and resolves', async () => {
    await expect(preloadData()).resolves.toBeUndefined()
  })
})
