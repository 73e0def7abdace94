// How a language is cut in two (vite.config.ts localeSplit) and put back together (./index.ts): the
// first part, in the first load, and the second, fetched right after start. Pure, so the unit tests
// drive it with small tables.

/** src/i18n/lazy-namespaces.json */
export interface LocaleSplit {
  /** Namespaces only lazy screens use: wholly in the second part. */
  namespaces: string[]
  /** Namespaces the first load needs a few top-level keys of: those in the first part, the others in the second. */
  firstLoadKeys?: Record<string, string[]>
}

export type Table = Record<string, unknown>

const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v)

/** One part of a language's table. */
export function localePart(all: Table, split: LocaleSplit, part: 'core' | 'rest'): Table {
  const lazy = new Set(split.namespaces)
  const out: Table = {}
  for (const [ns, value] of Object.entries(all)) {
    const keys = split.firstLoadKeys?.[ns]
    if (lazy.has(ns)) {
      if (part === 'rest') out[ns] = value
    } else if (keys && isTable(value)) {
      const side = Object.entries(value).filter(([k]) => keys.includes(k) === (part === 'core'))
      if (side.length) out[ns] = Object.fromEntries(side)
    } else if (part === 'core') out[ns] = value
  }
  return out
}

/**
 * A part added to what is loaded of a language: a namespace both parts carry some keys of is joined,
 * whichever part came first.
 */
export function mergePart(loaded: Table, part: Table): Table {
  const out = { ...loaded }
  for (const [ns, value] of Object.entries(part)) {
    const had = out[ns]
    out[ns] = isTable(had) && isTable(value) ? { ...had, ...value } : value
  }
  return out
}

/**
 * The strings of `firstLoadKeys` namespaces that first-load `code` names outside their listed keys:
 * until the second part arrives those would show as their key. A name built at run time
 * (`errors.${x}`) is reported too, since which key it becomes cannot be told; one under a listed
 * key (`errors.failed.${op}`) is not.
 */
export function unlistedFirstLoadKeys(code: string, split: LocaleSplit): string[] {
  const found = new Set<string>()
  for (const [ns, keys] of Object.entries(split.firstLoadKeys ?? {})) {
    const escaped = ns.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    for (const m of code.matchAll(new RegExp(`["'\`]${escaped}\\.([\\w.$]*)`, 'g'))) {
      const top = (m[1] ?? '').split('.')[0] ?? ''
      if (!keys.includes(top)) found.add(`${ns}.${m[1]}`)
    }
  }
  return [...found].sort()
}
