import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LANG_CODES, LOCALE_FILE } from '../../../contract/constants.ts'

// One locale file serves the app (rosetta, `{{name}}` placeholders), the server (server/i18n.ts, same
// syntax) and web3-onboard (the `onboard` subtree, handed over whole by subtree('onboard'); ICU
// MessageFormat with `{name}` arguments and `{x, select, ...}`). Every file must carry exactly
// English's keys and, per key, exactly English's placeholders / ICU arguments.

const LOCALES = ['tw', 'en', 'zh', 'jp', 'ko', 'th', 'pt', 'id', 'vn', 'ms'] as const
const NON_EN = LOCALES.filter((l) => l !== 'en')
const DIR = new URL('../../../locales/', import.meta.url)
/** Keys under this prefix are web3-onboard's own strings, in ICU MessageFormat. */
const ICU_PREFIX = 'onboard.'

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

function load(name: string): Json {
  return JSON.parse(fs.readFileSync(new URL(`${name}.json`, DIR), 'utf8')) as Json
}

/** Leaf path → value, e.g. "errors.notFound" → "Not found". Non-string leaves are kept to be reported. */
function flatten(node: Json, prefix = '', out = new Map<string, Json>()): Map<string, Json> {
  if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
    for (const [k, v] of Object.entries(node)) flatten(v, prefix ? `${prefix}.${k}` : k, out)
  } else {
    out.set(prefix, node)
  }
  return out
}

/** The `{{name}}` placeholders of a rosetta/server string, sorted and de-duplicated. */
function mustachePlaceholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*(.*?)\s*\}\}/g)].map((m) => m[1] as string))].sort()
}

/**
 * The argument names of an ICU MessageFormat string, sorted; throws on unbalanced or malformed braces.
 * Handles `{name}`, `{name, type}`, `{name, type, style}` and select/plural option blocks.
 */
function icuArguments(s: string): string[] {
  const names = new Set<string>()
  let i = 0
  const fail = (why: string): never => {
    throw new Error(`${why} at ${i} in ${JSON.stringify(s)}`)
  }
  const token = (re: RegExp): string | undefined => {
    const m = re.exec(s.slice(i))
    if (!m) return undefined
    i += m[0].length
    return m[1]
  }
  const message = (nested: boolean): void => {
    while (i < s.length) {
      if (s[i] === '{') {
        i++
        argument()
      } else if (s[i] === '}') {
        if (!nested) fail('unbalanced }')
        return
      } else i++
    }
    if (nested) fail('unclosed {')
  }
  const argument = (): void => {
    const name = token(/^\s*(\w+)\s*/) ?? fail('bad argument name')
    names.add(name)
    if (s[i] === '}') return void i++
    if (s[i] !== ',') fail('expected , or }')
    i++
    const type = token(/^\s*(\w+)\s*/) ?? fail('bad argument type')
    if (s[i] === '}') return void i++
    if (s[i] !== ',') fail('expected , or }')
    i++
    if (type === 'select' || type === 'plural' || type === 'selectordinal') {
      for (;;) {
        token(/^(\s*)/)
        if (s[i] === '}') return void i++
        const selector = token(/^(offset:\s*\d+|=\d+|[\w-]+)\s*/) ?? fail('bad selector')
        if (selector.startsWith('offset:')) continue
        if (s[i] !== '{') fail('expected { after selector')
        i++
        message(true)
        i++ // the closing } of the option
      }
    }
    const end = s.indexOf('}', i)
    if (end < 0) fail('unclosed style')
    i = end + 1
  }
  message(false)
  return [...names].sort()
}

const flat = new Map(LOCALES.map((l) => [l, flatten(load(l))]))
const en = flat.get('en') as Map<string, Json>

describe('locale files', () => {
  it('all ten locale files exist and match the language table', () => {
    for (const l of LOCALES) expect(fs.existsSync(new URL(`${l}.json`, DIR)), `${l}.json`).toBe(true)
    expect(LANG_CODES.map((c) => LOCALE_FILE[c]).sort()).toEqual([...LOCALES].sort())
  })

  it('en.json has keys', () => {
    expect(en.size).toBeGreaterThan(0)
  })

  it.each(LOCALES)('%s.json parses to an object whose leaves are all strings, empty only where English is', (l) => {
    const root = load(l)
    expect(root !== null && typeof root === 'object' && !Array.isArray(root)).toBe(true)
    const bad = [...(flat.get(l) as Map<string, Json>)]
      .filter(([k, v]) => typeof v !== 'string' || (v.trim() === '' && en.get(k) !== ''))
      .map(([k]) => k)
    expect(bad, `${l}: non-string or empty values`).toEqual([])
  })

  it.each(NON_EN)('%s.json has exactly the keys of en.json', (l) => {
    const keys = new Set((flat.get(l) as Map<string, Json>).keys())
    const missing = [...en.keys()].filter((k) => !keys.has(k))
    const extra = [...keys].filter((k) => !en.has(k))
    expect({ missing, extra }, l).toEqual({ missing: [], extra: [] })
  })

  it.each(NON_EN)('%s.json uses the same {{placeholders}} as en.json for every app/server key', (l) => {
    const d = flat.get(l) as Map<string, Json>
    const mismatched: string[] = []
    for (const [k, v] of en) {
      const other = d.get(k)
      if (k.startsWith(ICU_PREFIX) || typeof v !== 'string' || typeof other !== 'string') continue
      const want = mustachePlaceholders(v).join(',')
      const got = mustachePlaceholders(other).join(',')
      if (want !== got) mismatched.push(`${k}: en {${want}} vs ${l} {${got}}`)
    }
    expect(mismatched).toEqual([])
  })

  it.each(NON_EN)('%s.json uses the same ICU arguments as en.json for every web3-onboard key', (l) => {
    const d = flat.get(l) as Map<string, Json>
    const mismatched: string[] = []
    for (const [k, v] of en) {
      const other = d.get(k)
      if (!k.startsWith(ICU_PREFIX) || typeof v !== 'string' || typeof other !== 'string') continue
      let got: string
      try {
        got = icuArguments(other).join(',')
      } catch (e) {
        got = `unparsable: ${(e as Error).message}`
      }
      const want = icuArguments(v).join(',')
      if (want !== got) mismatched.push(`${k}: en {${want}} vs ${l} {${got}}`)
    }
    expect(mismatched).toEqual([])
  })

  it.each(LOCALES)('%s.json app/server strings have only plain {{name}} placeholders and no stray braces', (l) => {
    const bad: string[] = []
    for (const [k, v] of flat.get(l) as Map<string, Json>) {
      if (k.startsWith(ICU_PREFIX) || typeof v !== 'string') continue
      // A plain name is what both the server regex and rosetta fill; any other brace is a typo.
      if (/[{}]/.test(v.replace(/\{\{\s*\w+\s*\}\}/g, ''))) bad.push(`${k}: ${v}`)
    }
    expect(bad).toEqual([])
  })

  it('the ICU argument parser sees arguments, not select branches', () => {
    expect(icuArguments('{connectionRejected, select, false {Connecting to {wallet}...} other {Connection Rejected}}')).toEqual(['connectionRejected', 'wallet'])
    expect(icuArguments('{connectionRejected, select, false {{wallet} に接続中…} other {拒否}}')).toEqual(['connectionRejected', 'wallet'])
    expect(icuArguments('{app} only supports')).toEqual(['app'])
    expect(() => icuArguments('{app only')).toThrow()
    expect(() => icuArguments('app}')).toThrow()
  })
})

// Translation coverage: a locale still copied from English fails here. Expected to fail while the
// translations are being written; some strings (brand names, "ID", "USDT", empty ones) may stay equal.
describe('translation coverage', () => {
  it.each(NON_EN)('%s.json translates at least 90% of the English strings', (l) => {
    const d = flat.get(l) as Map<string, Json>
    const same = [...en].filter(([k, v]) => d.get(k) === v).map(([k]) => k)
    const differing = (en.size - same.length) / en.size
    expect(differing, `${l}: ${same.length}/${en.size} strings identical to English, e.g. ${same.slice(0, 5).join(', ')}`).toBeGreaterThanOrEqual(0.9)
  })
})

describe('Chinese and Japanese punctuation', () => {
  // A CJK character (kana, ideograph, full-width form or CJK punctuation) beside a half-width , . : ; ( ):
  // "庫存不足,僅剩" and "月利率(每 30 天)" read as slips in zh-TW; the full-width ，。：；（） belong there.
  // A decimal point or a time's colon between digits is not beside a CJK character, so it is left alone.
  const CJK = '[\\u3040-\\u30ff\\u3400-\\u9fff\\uff00-\\uffef\\u3000-\\u303f]'
  const halfWidthBesideCjk = new RegExp(`${CJK}[,.:;()]|[,.:;()]${CJK}`, 'u')

  it('the detector catches a half-width comma, period, colon or bracket beside CJK, and not a full-width one', () => {
    for (const slip of ['庫存不足,僅剩', '月利率(每 30 天)', '金額:100', '已完成.', '（每 30 天)收益']) expect(halfWidthBesideCjk.test(slip), slip).toBe(true)
    for (const fine of ['庫存不足，僅剩', '月利率（每 30 天）', '0.05 USDT', '12:30', 'NADI (BSC)']) expect(halfWidthBesideCjk.test(fine), fine).toBe(false)
  })

  for (const locale of ['tw', 'zh', 'jp'] as const) {
    it(`${locale}: no half-width , . : ; ( ) beside a CJK character`, () => {
      const slips = [...flatten(load(locale))].filter(([, v]) => typeof v === 'string' && halfWidthBesideCjk.test(v))
      expect(slips.map(([key, v]) => `${key}: ${String(v)}`)).toEqual([])
    })
  }
})
