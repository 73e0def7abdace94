// What the pool of PostgreSQL connections (../query/pg.ts) reads and sends as SQLite does: values as the
// server reads them (every integer a bigint, as SQLite's safe integers give), SQLite's placeholders as
// PostgreSQL's, and the errors PostgreSQL answers, so that one statement text serves both backends.

const INT = (v: string) => BigInt(v)
export const PARSERS: Record<number, (v: string) => unknown> = {
  20: INT,
  21: INT,
  23: INT,
  26: INT,
  1700: (v) => (/^-?\d+$/.test(v) ? BigInt(v) : Number(v)),
  16: (v) => (v === 't' ? 1n : 0n),
  700: Number,
  701: Number,
  17: (v) => Buffer.from(v.slice(2), 'hex'),
}
export const TEXT = (v: string) => v

/** An error PostgreSQL answered, with its SQLSTATE (e.g. 23505 unique, 23514 check). */
export class PgError extends Error {
  override name = 'PgError'
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly constraint: string | undefined,
    readonly detail: string | undefined,
    readonly table: string | undefined,
    readonly sql: string,
  ) {
    super(message)
  }
}

/**
 * The connection to the server is gone (the server restarted, an operator ended the session, the
 * network dropped): the statement did not run, and an open transaction was rolled back by the server
 * (a COMMIT that was under way may or may not have taken effect). Answered as "try again".
 */
export class PgConnectionLost extends PgError {
  override name = 'PgConnectionLost'
  constructor(message: string, sql: string) {
    super(message, '08006', undefined, undefined, undefined, sql)
  }
}

export type Param = string | null

/** Where a statement's `$k` takes its value from: the next positional argument, or a named one. */
export type Slot = { pos: number } | { name: string }

/**
 * SQLite's placeholders as PostgreSQL's: `?` (positional) and `@name` / `:name` / `$name` (bound from
 * an object, as better-sqlite3 binds them; one name is one `$k` however often it appears) become
 * `$1…`, skipping strings, quoted names, comments and `::` casts. Text already in `$1` form is kept.
 */
export function numberPlaceholders(sql: string): { text: string; slots: Slot[] } {
  const slots: Slot[] = []
  if (!/[?@:$]/.test(sql)) return { text: sql, slots }
  const named = new Map<string, number>()
  let positional = 0
  let out = ''
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1)
      const stop = end < 0 ? sql.length : end
      out += sql.slice(i, stop + 1)
      i = stop
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      const stop = end < 0 ? sql.length : end
      out += sql.slice(i, stop)
      i = stop - 1
    } else if (c === ':' && sql[i + 1] === ':') {
      out += '::'
      i++
    } else if (c === '?') {
      slots.push({ pos: positional++ })
      out += `$${slots.length}`
    } else if ((c === '@' || c === ':' || c === '$') && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))!
      const name = m[0]
      let k = named.get(name)
      if (k === undefined) {
        slots.push({ name })
        named.set(name, (k = slots.length))
      }
      out += `$${k}`
      i += name.length
    } else out += c
  }
  return { text: out, slots }
}

/** A value as libpq's text format carries it. */
export function toParam(v: unknown, sql: string): Param {
  if (v === null || typeof v === 'string') return v
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError(`cannot bind ${v} in: ${sql.slice(0, 120)}`)
    return String(v)
  }
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`
  // better-sqlite3 refuses these too; keeping the refusal keeps both backends honest.
  throw new TypeError(`cannot bind a ${v === undefined ? 'undefined' : typeof v} (${String(v)}) in: ${sql.slice(0, 120)}`)
}

const isBag = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array)

/** The arguments of a call, in the order of the statement's `$k`. */
export function paramsOf(args: unknown[], slots: Slot[] | null, sql: string): Param[] {
  let list = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args
  const bag = list.length && isBag(list[list.length - 1]) ? (list[list.length - 1] as Record<string, unknown>) : null
  if (bag) list = list.slice(0, -1)
  if (!slots) return list.map((a) => toParam(a, sql))
  if (list.length !== slots.filter((s) => 'pos' in s).length) throw new RangeError(`Too ${list.length > slots.length ? 'many' : 'few'} parameter values were provided`)
  return slots.map((s) => {
    if ('pos' in s) return toParam(list[s.pos], sql)
    if (!bag || !(s.name in bag)) throw new RangeError(`Missing named parameter "${s.name}"`)
    return toParam(bag[s.name], sql)
  })
}

