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
  it.each(['index.ts', 'useOutbox.ts'])('%s reaches neither Dexie nor the Dexie modules through static imports', (entry) => {
    const reached = [...reach(entry)].map((p) => (p.startsWith(DATA) ? path.relative(DATA, p) : p))
    expect(reached).not.toContain('dexie')
    for (const heavy of ['db.ts', 'kv.ts', 'outbox.ts', 'klines.ts', 'store.ts']) expect(reached).not.toContain(heavy)
  })

  it('the walker sees through to Dexie from the Dexie side (so the check above can fail)', () => {
    expect(reach('store.ts')).toContain('dexie')
  })

  it('preloadData loads the lazy Dexie chunk and resolves', async () => {
    await expect(preloadData()).resolves.toBeUndefined()
  })
})
