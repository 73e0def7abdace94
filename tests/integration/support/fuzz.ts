// Hostile requests for every route of the API, drawn with a seeded random from the API's own OpenAPI
// description (GET /api/docs/json), so a route added tomorrow is fuzzed without touching this file.
// Each request starts from a sample the route's schema accepts and is then spoiled in one or two
// ways: fields missing, extra, of the wrong type; numbers and money strings out of range or not
// numbers at all; long, unicode and control-character strings; __proto__ and constructor keys; deep
// nesting; bodies that are not JSON or not of the declared type; odd query strings and paths; bad
// Idempotency-Keys, tokens and LANG headers; the wrong method. About one in six stays valid, so the
// state the hostile ones meet moves on (orders placed, money transferred, sessions ended).

import crypto from 'node:crypto'
import { xorshift } from '../../../bench/support/loadGen.ts'

export interface Rng {
  (): number
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number
  pick<T>(xs: readonly T[]): T
  chance(p: number): boolean
}

export function seeded(seed: number): Rng {
  const next = xorshift(seed)
  const rng = (() => next()) as Rng
  rng.int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1))
  rng.pick = (xs) => {
    if (xs.length === 0) throw new Error('pick from nothing')
    return xs[Math.floor(next() * xs.length)] as (typeof xs)[number]
  }
  rng.chance = (p) => next() < p
  return rng
}

/** The part of JSON Schema our routes' schemas use (TypeBox's output as @fastify/swagger prints it). */
export interface Schema {
  type?: string
  enum?: readonly unknown[]
  anyOf?: readonly Schema[]
  properties?: Record<string, Schema>
  required?: readonly string[]
  items?: Schema
  pattern?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
}

export interface Param {
  name: string
  required: boolean
  schema: Schema
}

export interface Route {
  method: string
  /** As registered, path parameters in braces (`/api/v1/upload/{*}`). */
  path: string
  query: Param[]
  /** The JSON body's schema; null for a route without one. */
  body: Schema | null
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[]
  requestBody?: { content?: Record<string, { schema?: Schema }> }
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>
}

/** Every operation under /api/ of the served description. */
export function routesOf(doc: OpenApiDoc): Route[] {
  const out: Route[] = []
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/')) continue
    for (const [method, op] of Object.entries(ops)) {
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} }))
      const body = op.requestBody?.content?.['application/json']?.schema ?? null
      out.push({ method: method.toUpperCase(), path, query, body })
    }
  }
  return out
}

// --- samples a schema accepts ----------------------------------------------------------------------

type Atom = { chars: string } | { alts: Piece[][] }
interface Piece {
  atom: Atom
  min: number
  max: number
}

/**
 * Strings matching the small regular expressions our schemas use: anchors, literals and escapes,
 * character classes with ranges, groups with alternatives, and the quantifiers ?, {n} and {m,n}.
 */
function parsePattern(src: string): Piece[][] {
  let i = 0
  const sequence = (): Piece[][] => {
    const alts: Piece[][] = [[]]
    while (i < src.length && src[i] !== ')') {
      const c = src[i++] as string
      if (c === '^' || c === '$') continue
      if (c === '|') {
        alts.push([])
        continue
      }
      let atom: Atom
      if (c === '(') {
        atom = { alts: sequence() }
        i++ // ')'
      } else if (c === '[') {
        let chars = ''
        while (src[i] !== ']') {
          const from = src[i] === '\\' ? src[++i] : src[i]
          i++
          if (src[i] === '-' && src[i + 1] !== ']') {
            const to = (src[i + 1] === '\\' ? src[i + 2] : src[i + 1]) as string
            i += src[i + 1] === '\\' ? 3 : 2
            for (let k = (from as string).charCodeAt(0); k <= to.charCodeAt(0); k++) chars += String.fromCharCode(k)
          } else chars += from
        }
        i++ // ']'
        atom = { chars }
      } else if (c === '\\') {
        atom = { chars: src[i++] as string }
      } else atom = { chars: c }
      let min = 1
      let max = 1
      if (src[i] === '?') {
        min = 0
        i++
      } else if (src[i] === '{') {
        const end = src.indexOf('}', i)
        const [a, b] = src.slice(i + 1, end).split(',')
        min = Number(a)
        max = b === undefined ? min : Number(b)
        i = end + 1
      }
      ;(alts[alts.length - 1] as Piece[]).push({ atom, min, max })
    }
    return alts
  }
  return sequence()
}

const patterns = new Map<string, Piece[][]>()

/** A string the pattern accepts; repeats lean short, as real values mostly are. */
export function sampleOfPattern(pattern: string, r: Rng): string {
  let parsed = patterns.get(pattern)
  if (!parsed) patterns.set(pattern, (parsed = parsePattern(pattern)))
  const gen = (alts: Piece[][]): string =>
    r.pick(alts)
      .map(({ atom, min, max }) => {
        let n = min
        while (n < max && r.chance(0.45)) n++
        let s = ''
        for (let k = 0; k < n; k++) s += 'chars' in atom ? r.pick([...atom.chars]) : gen(atom.alts)
        return s
      })
      .join('')
  return gen(parsed)
}

/**
 * A value the schema accepts (best effort: the checks a service makes beyond its schema may still
 * refuse it). Ids are small, where a fresh server's rows are, so some name a row that exists.
 */
export function sample(schema: Schema, r: Rng, name = '', seen?: FuzzState): unknown {
  const known = seen?.ids.get(name)
  if (known && r.chance(0.6)) return r.pick(known)
  if (schema.enum) return r.pick(schema.enum)
  if (schema.anyOf) return sample(r.pick(schema.anyOf), r, name, seen)
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [k, s] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(k) || r.chance(0.75)) out[k] = sample(s, r, k, seen)
      }
      return out
    }
    case 'array':
      return Array.from({ length: r.int(0, 3) }, () => sample(schema.items ?? {}, r, name, seen))
    case 'integer':
    case 'number': {
      const lo = schema.minimum ?? 0
      const hi = Math.min(schema.maximum ?? Infinity, lo + (name.endsWith('id') ? 11 : 100))
      return r.int(lo, hi)
    }
    case 'boolean':
      return r.chance(0.5)
    case 'string': {
      if (schema.pattern) return sampleOfPattern(schema.pattern, r)
      const lo = schema.minLength ?? 1
      const hi = Math.min(schema.maxLength ?? Infinity, lo + 24)
      return sampleOfPattern(`[a-z0-9]{${lo},${hi}}`, r)
    }
    default:
      return null
  }
}

// --- hostile values ----------------------------------------------------------------------------------

const LONG = 10 * 1024

/** Values of every JSON type that a field should refuse, or that test its edges. */
export const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  -0.5,
  1.5,
  1e-7,
  2 ** 31,
  2 ** 53 + 2,
  2 ** 64,
  1e21,
  -1e21,
  1e308,
  Number.MIN_VALUE,
  '',
  ' ',
  '0',
  '-0',
  '-1',
  '+1',
  '1.',
  '.5',
  '01',
  '1e3',
  '1E-2',
  '0x10',
  '0b1',
  '1_000',
  '1,5',
  ' 1 ',
  '１２',
  '١٢٣',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '0.000000001',
  '0.00000001',
  '99999999999999999999.99999999',
  '100000000000000000000',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '18446744073709551616',
  '9'.repeat(400),
  'a'.repeat(LONG),
  '9'.repeat(LONG),
  '\u{1F600}'.repeat(LONG / 4),
  '\u0000',
  'a\u0000b',
  '\u0007\u0008\u001b[31m\r\n\t\v\f',
  '\u202Eevil\u202C',
  '\u200B\uFEFF',
  '\uD800',
  '\uDFFF\uD800',
  'İıßﬁ',
  'Ω≈ç√∫˜µ≤≥÷',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '${7*7}{{7*7}}',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '\\\\server\\share',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  [],
  [1, 2, 3],
  ['1'],
  [null],
  {},
  { a: 1 },
  { $gt: '' },
]

/** Number tokens that JSON.stringify never writes: they go into the body's text as they are. */
const RAW_NUMBERS = ['1e999', '-1e999', '1e-999', '-0', '-0.0', '123456789012345678901234567890', '0.1e1', '5E+0', '1.0000000000000000001', '9007199254740993']

/** Body texts that are not a JSON object, or not JSON at all. */
const NOT_OBJECTS = [
  '[]',
  '[{}]',
  '0',
  '-1',
  '"text"',
  'null',
  'true',
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{a:1}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '{"a":0x10}',
  '{"a":1}{"b":2}',
  '\uFEFF{}',
  '{"a":"\\u00"}',
  '{"a":"\\uD800"}',
  '{"a":"\u0000"}',
  '<xml/>',
  'a=1&b=2',
  ' ',
  '\u0000',
  '\u00ff\u00fe',
  '/*x*/{}',
]

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json;;;',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'text/html',
  'application/xml',
  'application/octet-stream',
  '*/*',
  'json',
  '',
]

const LANGS_OK = ['tw', 'en', 'zh', 'jp', 'ko', 'th', 'pt', 'id', 'vn', 'ms', 'EN', 'Tw']
const LANGS_BAD = ['xx', '', 'en-US,en;q=0.9', 'zh;q=0.9', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '../../etc/passwd', 'en'.repeat(2000), '*', 'null', 'Ã©']

const KEY_BAD = ['', 'x', 'short', 'has space in it', '../../etc/passwd', 'a'.repeat(65), 'a'.repeat(LONG), 'ключ-ключ-ключ', '__proto__', 'null', 'Ã©Ã©Ã©Ã©Ã©']

const TOKENS_BAD = [
  '',
  'Bearer',
  'Bearer ',
  'Bearer null',
  'Bearer undefined',
  'Bearer x',
  `Bearer ${'A'.repeat(LONG)}`,
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOjEsImFkbWluIjp0cnVlfQ.',
  'Bearer ../../etc/passwd',
  'Bearer a b',
  'Basic dXNlcjpwYXNz',
  'Token abc',
  'Ã©Ã©',
]

const EXTRA_KEYS = ['extra', 'id', 'user_id', 'userId', 'uid', 'admin', 'is_admin', 'role', 'balance', 'status', 'fee', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '', ' ', '\u0000', 'a'.repeat(1000)]

const PROTO_TEXTS = ['"__proto__":{"admin":true,"balance":"999999"}', '"constructor":{"prototype":{"admin":true}}', '"__proto__":null', '"constructor":"x"', '"__proto__":[1]']

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']

export interface Hostile {
  method: string
  url: string
  headers: Record<string, string | string[]>
  payload?: string
  /** What was spoiled, for a failure's report. */
  kinds: string[]
  /** Nothing was spoiled (a sample of the schema with good headers). */
  valid: boolean
  /** The Idempotency-Key sent, when a well-formed one was. */
  idempotencyKey?: string
}

export interface Who {
  /** The token to send when the bearer is not spoiled; none for anonymous. */
  token?: string
  /** Tokens that must not work (a session signed out): sent as spoiled bearers. */
  dead: readonly string[]
}

/**
 * What the generator remembers across requests: Idempotency-Keys already used, for replays and
 * reuse, and the ids answers named (an order's id, a quote's quote_id), so that requests reach rows
 * that exist — the fuzzing user's own and, through lists, other users'.
 */
export class FuzzState {
  readonly usedKeys: { key: string; payload: string | undefined; url: string }[] = []
  readonly ids = new Map<string, unknown[]>()

  remember(key: string, payload: string | undefined, url: string) {
    this.usedKeys.push({ key, payload, url })
    if (this.usedKeys.length > 64) this.usedKeys.shift()
  }

  /** Takes the ids out of an answer's data: every integer or string under a key ending in "id". */
  harvest(data: unknown) {
    const stack: { v: unknown; depth: number }[] = [{ v: data, depth: 0 }]
    while (stack.length > 0) {
      const { v, depth } = stack.pop()!
      if (v === null || typeof v !== 'object' || depth > 4) continue
      for (const [k, x] of Object.entries(v)) {
        if (/id$/i.test(k) && (Number.isInteger(x) || (typeof x === 'string' && x.length <= 64))) {
          const list = this.ids.get(k) ?? []
          if (!list.includes(x)) list.push(x)
          if (list.length > 32) list.shift()
          this.ids.set(k, list)
        } else stack.push({ v: x, depth: depth + 1 })
      }
    }
  }
}

/** Percent-encoded UTF-8, every byte (a lone surrogate, which encodeURIComponent refuses, becomes U+FFFD). */
const enc = (text: string) => Buffer.from(text, 'utf8').toString('hex').replace(/../g, '%$&')

/** One field of a query string, spoiled or not; the raw text after `=` (already encoded where meant). */
function queryValue(p: Param, r: Rng, spoil: boolean, seen?: FuzzState): string {
  if (!spoil) return enc(String(sample(p.schema, r, p.name, seen)))
  const v = r.pick(HOSTILE_VALUES)
  const text = typeof v === 'string' ? v : JSON.stringify(v)
  return r.pick([enc(text), enc(text), '%', '%zz', '%E0%A4%A', '%00', '+', '%2B1', `${enc(text)}%00`, ''])
}

function buildQuery(route: Route, r: Rng, kinds: string[], spoil: boolean, seen: FuzzState): string {
  const parts: string[] = []
  const kind = spoil ? r.pick(['missing', 'wrongValue', 'extra', 'repeated', 'bracket', 'proto', 'bare', 'long', 'junk'] as const) : null
  if (kind) kinds.push(`query:${kind}`)
  const target = route.query.length > 0 ? r.pick(route.query) : null
  for (const p of route.query) {
    if (!p.required && !r.chance(0.5)) continue
    if (kind === 'missing' && p === target) continue
    parts.push(`${p.name}=${queryValue(p, r, kind === 'wrongValue' && p === target, seen)}`)
    if (kind === 'repeated' && p === target) parts.push(`${p.name}=${queryValue(p, r, true)}`)
    if (kind === 'bracket' && p === target) parts.push(`${p.name}[]=1`, `${p.name}[a]=2`)
  }
  if (kind === 'extra') parts.push(`${enc(r.pick(EXTRA_KEYS))}=${queryValue({ name: 'x', required: false, schema: {} }, r, true)}`)
  if (kind === 'proto') parts.push(r.pick(['__proto__=1', '__proto__[admin]=1', 'constructor[prototype][admin]=1', 'constructor=1', 'hasOwnProperty=1', 'toString=x']))
  if (kind === 'bare') parts.push(r.pick(['page', '=', '=1', '&&&', '&=&', '?', '#frag']))
  if (kind === 'long') parts.push(`q=${'a'.repeat(LONG)}`)
  if (kind === 'junk') parts.push(r.pick(['%', '%%%', '%u0041', '\u00e9=\u00e9', 'a=%F0%9F%98', `${'x'.repeat(300)}=${'y'.repeat(300)}`]))
  return parts.length > 0 ? `?${parts.join('&')}` : ''
}

function buildPath(route: Route, r: Rng, kinds: string[], spoil: boolean): string {
  // A path parameter (the upload PUT's key) gets a key-like sample.
  const base = route.path.replace(/\{[^}]*\}/g, () => sampleOfPattern('u/[1-9][0-9]{0,3}/[a-z_]{1,10}/[0-9a-f]{32}\\.(jpg|png|pdf)', r))
  if (!spoil) return base
  const kind = r.pick(['trailingSlash', 'doubleSlash', 'upper', 'dotdot', 'nul', 'semicolon', 'unicode', 'badPercent', 'long', 'encoded'] as const)
  kinds.push(`path:${kind}`)
  switch (kind) {
    case 'trailingSlash':
      return `${base}/`
    case 'doubleSlash':
      return base.replace('/api/', '//api//')
    case 'upper':
      return base.toUpperCase()
    case 'dotdot':
      return `${base}/..%2f..%2fetc%2fpasswd`
    case 'nul':
      return `${base}%00`
    case 'semicolon':
      return `${base};jsessionid=1`
    case 'unicode':
      return `${base}%C3%A4%F0%9F%98%80`
    case 'badPercent':
      return `${base}%`
    case 'long':
      return `${base}/${'a'.repeat(LONG)}`
    case 'encoded':
      return base.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)
  }
}

/** A JSON text for an object, with `raw` values written into it as they are (tokens JSON.stringify would not write). */
function objectText(obj: Record<string, unknown>, raw: Record<string, string> = {}, extra: string[] = []): string {
  const marks = new Map<string, string>()
  const o: Record<string, unknown> = { ...obj }
  for (const [k, text] of Object.entries(raw)) {
    const mark = `\u0001raw${marks.size}\u0001`
    marks.set(JSON.stringify(mark), text)
    o[k] = mark
  }
  let json = JSON.stringify(o)
  for (const [mark, text] of marks) json = json.replace(mark, text)
  if (extra.length === 0) return json
  return json === '{}' ? `{${extra.join(',')}}` : `{${extra.join(',')},${json.slice(1)}`
}

function nested(depth: number, r: Rng): string {
  const [open, close] = r.chance(0.5) ? ['[', ']'] : ['{"a":', '}']
  return `${open.repeat(depth)}1${close.repeat(depth)}`
}

function buildBody(route: Route, r: Rng, kinds: string[], spoil: boolean, seen: FuzzState): string {
  const schema = route.body ?? { type: 'object', properties: {} }
  const obj = sample(schema, r, '', seen) as Record<string, unknown>
  if (!spoil) return JSON.stringify(obj)
  const fields = Object.keys(schema.properties ?? {})
  const field = fields.length > 0 ? r.pick(fields) : 'x'
  const kind = r.pick(['missing', 'missingAll', 'extra', 'wrongType', 'wrongType', 'wrongType', 'rawNumber', 'proto', 'protoNested', 'deep', 'tooDeep', 'notObject', 'empty', 'duplicateKey', 'oversized', 'longField'] as const)
  kinds.push(`body:${kind}`)
  switch (kind) {
    case 'missing':
      delete obj[r.pick(schema.required?.length ? schema.required : [field])]
      return JSON.stringify(obj)
    case 'missingAll':
      return '{}'
    case 'extra':
      return JSON.stringify({ ...obj, [r.pick(EXTRA_KEYS)]: r.pick(HOSTILE_VALUES) })
    case 'wrongType':
      return JSON.stringify({ ...obj, [field]: r.pick(HOSTILE_VALUES) })
    case 'rawNumber':
      return objectText(obj, { [field]: r.pick(RAW_NUMBERS) })
    case 'proto':
      return objectText(obj, {}, [r.pick(PROTO_TEXTS)])
    case 'protoNested':
      return objectText(obj, { [field]: `{${r.pick(PROTO_TEXTS)}}` })
    case 'deep':
      return objectText(obj, { [field]: nested(r.int(10, 40), r) })
    case 'tooDeep':
      return objectText(obj, { [field]: nested(r.int(1000, 3000), r) })
    case 'notObject':
      return r.pick(NOT_OBJECTS)
    case 'empty':
      return ''
    case 'duplicateKey': {
      const json = JSON.stringify(obj)
      const dup = `${JSON.stringify(field)}:${JSON.stringify(r.pick(HOSTILE_VALUES))}`
      return json === '{}' ? `{${dup},${dup}}` : `{${dup},${json.slice(1)}`
    }
    case 'oversized':
      return JSON.stringify({ ...obj, [field]: 'a'.repeat(r.int(17, 64) * 1024) })
    case 'longField':
      return JSON.stringify({ ...obj, [field]: r.pick(['a', '9', '\u00e9', '\u{1F600}', '\u0000']).repeat(LONG / 2) })
  }
}

/**
 * One hostile request for a route. Most spoil one part (query, path, body, a header, the method);
 * some spoil two; about one in six is a valid request, which moves the state on.
 */
export function hostileRequest(route: Route, r: Rng, who: Who, state: FuzzState): Hostile {
  const kinds: string[] = []
  const valid = r.chance(1 / 6)
  const parts = new Set<string>()
  if (!valid) {
    const spoilable = ['query', 'path', 'header', 'method', 'contentType', ...(route.method === 'POST' ? ['body', 'body', 'body', 'body', 'key', 'key'] : ['query', 'query', 'query'])]
    parts.add(r.pick(spoilable))
    if (r.chance(0.25)) parts.add(r.pick(spoilable))
  }
  const method = parts.has('method') ? r.pick(METHODS.filter((m) => m !== route.method)) : route.method
  if (parts.has('method')) kinds.push(`method:${method}`)
  const url = buildPath(route, r, kinds, parts.has('path')) + buildQuery(route, r, kinds, parts.has('query'), state)
  const headers: Record<string, string | string[]> = {}
  let payload: string | undefined
  if (route.method === 'POST' || route.method === 'PUT' || parts.has('body')) {
    payload = buildBody(route, r, kinds, parts.has('body'), state)
    headers['content-type'] = 'application/json'
  }
  if (parts.has('contentType')) {
    const ct = r.pick(CONTENT_TYPES)
    kinds.push(`contentType:${ct}`)
    if (ct === '') delete headers['content-type']
    else headers['content-type'] = ct
    payload ??= r.pick(['{}', 'a=1', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', '<a/>'])
  }
  if (who.token !== undefined) headers.authorization = `Bearer ${who.token}`
  if (parts.has('header')) {
    const which = r.pick(['token', 'token', 'lang', 'lang', 'both', 'junk'] as const)
    kinds.push(`header:${which}`)
    if (which === 'token' || which === 'both') {
      const bad = r.pick([...TOKENS_BAD, ...who.dead.map((t) => `Bearer ${t}`), ...(who.token ? [`bearer ${who.token}`, who.token, `Bearer ${who.token}x`, `Bearer ${who.token} ${who.token}`, `Bearer ${who.token.slice(0, -1)}`] : [])])
      if (bad === '') delete headers.authorization
      else headers.authorization = bad
    }
    if (which === 'lang' || which === 'both') headers.lang = r.pick(LANGS_BAD)
    if (which === 'junk') {
      headers['x-forwarded-for'] = r.pick(['', 'a.b.c.d', '999.999.999.999', '::1, ::1, ::1', 'x'.repeat(1000)])
      headers.accept = r.pick(['', 'text/html', 'application/xml', '*/*;q=abc'])
      headers['accept-encoding'] = r.pick(['', 'br', 'gzip;q=0', 'identity;q=0, *;q=0', 'zstd'])
    }
  } else if (r.chance(0.3)) headers.lang = r.pick(LANGS_OK)
  let idempotencyKey: string | undefined
  if (route.method === 'POST') {
    if (parts.has('key')) {
      const which = r.pick(['bad', 'reuse', 'reuse', 'double'] as const)
      kinds.push(`key:${which}`)
      const prior = state.usedKeys.length > 0 ? r.pick(state.usedKeys) : null
      if (which === 'bad') headers['idempotency-key'] = r.pick(KEY_BAD)
      else if (which === 'double') headers['idempotency-key'] = [crypto.randomUUID(), crypto.randomUUID()]
      else if (prior) {
        // A key already used: with its own request again (a replay), or with another.
        idempotencyKey = prior.key
        headers['idempotency-key'] = prior.key
        if (prior.url === url && r.chance(0.5)) payload = prior.payload
      }
    } else if (r.chance(0.6)) {
      idempotencyKey = crypto.randomUUID()
      headers['idempotency-key'] = idempotencyKey
    }
    if (idempotencyKey) state.remember(idempotencyKey, payload, url)
  }
  return { method, url, headers, ...(payload === undefined ? {} : { payload }), kinds, valid, ...(idempotencyKey ? { idempotencyKey } : {}) }
}

/** What is wrong with an answer's body as NADI's envelope: null when it is one (with a message, for a refusal). */
export function envelopeProblem(status: number, body: string): string | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return 'not JSON'
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'not an object'
  const { code, msg } = parsed as { code?: unknown; msg?: unknown }
  if (typeof code !== 'number' || !Number.isInteger(code)) return 'code is not an integer'
  if (typeof msg !== 'string') return 'msg is not a string'
  if (!('data' in parsed)) return 'no data'
  const refused = status >= 400 || code !== 200
  if (refused && msg.trim() === '') return 'a refusal with an empty msg'
  if (refused && msg.includes('errors.')) return 'a refusal whose msg is an untranslated key'
  return null
}

// --- the production envelope ---------------------------------------------------------------------------

/** JSON texts to seal as a GET's query: not a flat object of scalars, or not JSON at all. */
export function hostileQueryText(r: Rng): string {
  return r.pick([
    ...NOT_OBJECTS,
    '{"page":[1,2]}',
    '{"page":{"a":1}}',
    '{"page":null}',
    `{${r.pick(PROTO_TEXTS)}}`,
    `{"id":${nested(r.int(10, 40), r)}}`,
    `{"id":${nested(r.int(1000, 3000), r)}}`,
    JSON.stringify({ id: r.pick(HOSTILE_VALUES) }),
  ])
}

/** The four fields of a sealed request, as sent (a GET's arrive as query text). */
export interface EnvelopeFields {
  handshake: string
  timestamp: number
  sign: string
  data: string
}

const b64uChars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const flipOne = (text: string, r: Rng) => {
  if (text.length === 0) return 'A'
  const i = r.int(0, text.length - 1)
  const c = text[i] === 'A' ? 'B' : 'A'
  return text.slice(0, i) + c + text.slice(i + 1)
}
const randomB64u = (n: number, r: Rng) => Array.from({ length: n }, () => r.pick([...b64uChars])).join('')

/**
 * A spoiled copy of a valid envelope: one field missing, of the wrong type, malformed or from another
 * envelope; the timestamp outside the window; a field added; or not an object at all. `others` are
 * envelopes sealed for other requests (another handshake's among them). None of these may be accepted.
 */
export function hostileEnvelope(valid: EnvelopeFields, others: readonly EnvelopeFields[], now: number, r: Rng): { envelope: unknown; kind: string } {
  const e: Record<string, unknown> = { ...valid }
  const other = others.length > 0 ? r.pick(others) : { ...valid, handshake: randomB64u(22, r), sign: randomB64u(43, r) }
  const field = r.pick(['handshake', 'timestamp', 'sign', 'data'] as const)
  const kind = r.pick(['missing', 'wrongType', 'malformed', 'malformed', 'another', 'another', 'clock', 'extra', 'notObject'] as const)
  switch (kind) {
    case 'missing':
      delete e[field]
      break
    case 'wrongType':
      e[field] = r.pick(HOSTILE_VALUES.filter((v) => typeof v !== (field === 'timestamp' ? 'number' : 'string')))
      break
    case 'malformed':
      if (field === 'handshake') e.handshake = r.pick([randomB64u(22, r), valid.handshake.slice(0, 21), `${valid.handshake}A`, valid.handshake.replace(/./, '!'), ''])
      else if (field === 'timestamp') e.timestamp = r.pick([-1, 1.5, 2 ** 53, 0, now + 0.5])
      else if (field === 'sign') e.sign = r.pick([flipOne(valid.sign, r), valid.sign.slice(0, 42), `${valid.sign}A`, randomB64u(43, r), valid.sign.replace(/./, '+'), ''])
      else {
        e.data = r.pick([
          flipOne(valid.data, r),
          valid.data.slice(0, -r.int(1, 5)),
          valid.data.slice(0, 27),
          `${valid.data}A`,
          valid.data.replace(/./, '='),
          `${valid.data.slice(0, 10)}!${valid.data.slice(11)}`,
          '',
          randomB64u(r.int(12, 14) * 1024, r),
          randomB64u(40 * 1024, r),
        ])
      }
      break
    case 'another':
      // Envelopes sealed on the same tick share the timestamp, and the same handshake is no other.
      e[field] = other[field] !== valid[field] ? other[field] : field === 'timestamp' ? now + 61_000 : flipOne(valid[field], r)
      break
    case 'clock':
      e.timestamp = r.pick([now - 61_000, now + 61_000, now - 86_400_000, now + 365 * 86_400_000, 0])
      break
    case 'extra':
      e[r.pick(['type', 'token', 'handshake2', 'data2', 'x', 'user_id'])] = r.pick(HOSTILE_VALUES)
      break
    case 'notObject':
      return { envelope: r.pick([[valid], JSON.stringify(valid), null, 0, true, [], { envelope: valid }]), kind: `envelope:${kind}` }
  }
  return { envelope: e, kind: `envelope:${field}:${kind}` }
}

/**
 * Another base64url text of the same bytes: the last letter's unused low bits set differently (a text
 * whose length leaves no such bits comes back as it is). A replay store keyed on the text alone would
 * take this for a new request.
 */
export function sameBytesOtherText(text: string): string {
  if (text.length % 4 < 2) return text
  const last = b64uChars.indexOf(text[text.length - 1] as string)
  return text.slice(0, -1) + (b64uChars[last ^ 1] as string)
}
