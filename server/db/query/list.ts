import type { PgList, Statement } from './types.ts'

// A statement over a list of rows (a multi-row INSERT, an UPDATE … FROM a list, a join against one),
// written once for both backends. SQLite reads the rows from one VALUES list, a text per row count.
// PostgreSQL reads them as one array per column through unnest: one short text whatever the count
// instead of one per row count of up to 9,000 parameters (18 for a batch's orders), sent unnamed so
// that each is planned for its own arrays, whose length the planner reads (a generic plan made for
// lists of any length joined a few rows against a scan of all trade_orders). Measured on the
// market's batches: 4,400 → 7,400 durable orders a second (docs/processes.md).

/** The element type a list column travels as on PostgreSQL (its rows' `?` in order). */
export type ListType = 'bigint' | 'text'

const pgForms = new Map<string, PgList>()

/**
 * `head`, then `rows` rows of `row` — a parenthesized tuple of expressions, each `?` one value of a
 * row, typed by `types` in order — then `tail`. The parameters are the rows' values, row after row.
 * On PostgreSQL the list is `SELECT <row's expressions> AS column1… FROM unnest(…)`, so a head ending
 * in `FROM (` and a tail naming `v.column1…` read the same columns as from SQLite's VALUES.
 */
export function listStatement<R = never>(head: string, row: string, types: readonly ListType[], rows: number, tail = ''): Statement<R, unknown[]> {
  if (!Number.isInteger(rows) || rows < 1) throw new RangeError(`a list statement takes at least one row, got ${rows}`)
  const text = `${head} VALUES ${new Array<string>(rows).fill(row).join(', ')}${tail}`
  return { text, pg: pgForm(head, row, types, tail) }
}

function pgForm(head: string, row: string, types: readonly ListType[], tail: string): PgList {
  const key = `${head}\u0000${row}\u0000${types.join(',')}\u0000${tail}`
  let form = pgForms.get(key)
  if (form) return form
  if (head.includes('?') || tail.includes('?')) throw new Error(`a list statement's parameters are its rows' only: ${head} … ${tail}`)
  const exprs = tupleItems(row)
  let slot = 0
  const selected = exprs.map((e, i) => `${e.replace(/\?/g, () => `nadi_list.c${++slot}`)} AS column${i + 1}`)
  if (slot !== types.length) throw new Error(`list row ${row} has ${slot} parameters and ${types.length} types`)
  const unnest = types.map((t) => `CAST(? AS ${t}[])`).join(', ')
  const names = types.map((_, i) => `c${i + 1}`).join(', ')
  const width = types.length
  form = {
    text: `${head} SELECT ${selected.join(', ')} FROM unnest(${unnest}) AS nadi_list(${names})${tail}`,
    columns(flat) {
      if (flat.length % width !== 0) throw new RangeError(`${flat.length} values are not rows of ${width}`)
      return types.map((t, j) => {
        const items: string[] = []
        for (let i = j; i < flat.length; i += width) items.push(arrayItem(flat[i], t))
        return `{${items.join(',')}}`
      })
    },
  }
  pgForms.set(key, form)
  return form
}

/** The top-level expressions of `(a, f(b, c), 'x,y')`. */
function tupleItems(row: string): string[] {
  const inner = row.trim()
  if (!inner.startsWith('(') || !inner.endsWith(')')) throw new Error(`a list row is one parenthesized tuple: ${row}`)
  const items: string[] = []
  let depth = 0
  let from = 1
  for (let i = 1; i < inner.length - 1; i++) {
    const c = inner[i]
    if (c === "'") {
      const end = inner.indexOf("'", i + 1)
      if (end < 0) throw new Error(`unterminated string in list row ${row}`)
      i = end
    } else if (c === '(') depth++
    else if (c === ')') {
      if (--depth < 0) throw new Error(`a list row is one parenthesized tuple: ${row}`)
    } else if (c === ',' && depth === 0) {
      items.push(inner.slice(from, i).trim())
      from = i + 1
    }
  }
  if (depth !== 0) throw new Error(`a list row is one parenthesized tuple: ${row}`)
  items.push(inner.slice(from, -1).trim())
  return items
}

/** One element of a PostgreSQL array literal; values refused as the driver refuses them in a statement. */
export function arrayItem(v: unknown, type: ListType): string {
  if (v === null) return 'NULL'
  if (type === 'bigint') {
    if (typeof v === 'bigint') return v.toString()
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v)
  } else if (typeof v === 'string') {
    // Quoted, so commas, braces, blanks and the word NULL stay text; inside, only " and \ are escaped.
    return v.includes('"') || v.includes('\\') ? `"${v.replace(/["\\]/g, '\\$&')}"` : `"${v}"`
  }
  throw new TypeError(`cannot send ${typeof v === 'string' ? `"${v.slice(0, 40)}"` : typeof v === 'object' ? 'an object' : String(v)} as a ${type} in a list`)
}
