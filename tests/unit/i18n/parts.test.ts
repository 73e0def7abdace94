import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { localePart, mergePart, unlistedFirstLoadKeys, type LocaleSplit } from '../../../src/i18n/parts.ts'

const TABLE = {
  home: { title: 'Home' },
  trade: { buy: 'Buy' },
  errors: { network: 'No network', failed: { addressAdd: 'adding the address' }, tradePriceStep: 'Price step' },
}
const SPLIT: LocaleSplit = { namespaces: ['trade'], firstLoadKeys: { errors: ['network', 'failed'] } }
const core = (split = SPLIT) => localePart(TABLE, split, 'core')
const rest = (split = SPLIT) => localePart(TABLE, split, 'rest')

describe('a language cut in two parts', () => {
  it('keeps lazy namespaces out of the first part and other namespaces out of the second', () => {
    expect(Object.keys(core())).toEqual(['home', 'errors'])
    expect(Object.keys(rest())).toEqual(['trade', 'errors'])
    expect(rest().trade).toEqual(TABLE.trade)
  })

  it('puts the listed keys of a namespace the first load needs a few of in the first part (subtrees whole), the others in the second', () => {
    expect(core().errors).toEqual({ network: 'No network', failed: { addressAdd: 'adding the address' } })
    expect(rest().errors).toEqual({ tradePriceStep: 'Price step' })
  })

  it('without firstLoadKeys, cuts by namespace only', () => {
    expect(core({ namespaces: ['trade'] }).errors).toEqual(TABLE.errors)
    expect(rest({ namespaces: ['trade'] }).errors).toBeUndefined()
  })
})

describe('the two parts put back together', () => {
  it('give the whole language, whichever part comes first', () => {
    expect(mergePart(mergePart({}, core()), rest())).toEqual(TABLE)
    expect(mergePart(mergePart({}, rest()), core())).toEqual(TABLE)
  })

  it('a part loaded twice changes nothing (vitest and dev, where both parts are the whole file)', () => {
    expect(mergePart(mergePart({}, TABLE), TABLE)).toEqual(TABLE)
  })

  it('leave what was loaded unchanged (a new table each time)', () => {
    const loaded = mergePart({}, core())
    mergePart(loaded, rest())
    expect(loaded).toEqual(core())
  })
})

describe('first-load code naming strings of a namespace cut by key', () => {
  it('passes listed keys and names under a listed key, built at run time or not', () => {
    expect(unlistedFirstLoadKeys('t("errors.network");t(`errors.failed.${op}`);t(\'errors.failed.addressAdd\')', SPLIT)).toEqual([])
  })

  it('reports a key not listed, and a name whose key is built at run time', () => {
    expect(unlistedFirstLoadKeys('t("errors.tradePriceStep");t(`errors.${code}`);t("home.title")', SPLIT)).toEqual(['errors.$', 'errors.tradePriceStep'])
  })

  it('reads no other namespace, nor a word that only ends in the namespace name', () => {
    expect(unlistedFirstLoadKeys('t("home.errors");x.errors.y;"myerrors.z"', SPLIT)).toEqual([])
  })

  it('the project lists keys that exist in every locale file (a typo would leave a string out of the first part)', () => {
    const split = JSON.parse(fs.readFileSync('src/i18n/lazy-namespaces.json', 'utf8')) as LocaleSplit
    expect(Object.keys(split.firstLoadKeys ?? {}).length).toBeGreaterThan(0)
    for (const file of ['tw', 'en', 'zh', 'jp', 'ko', 'th', 'pt', 'id', 'vn', 'ms']) {
      const table = JSON.parse(fs.readFileSync(`locales/${file}.json`, 'utf8')) as Record<string, Record<string, unknown>>
      for (const [ns, keys] of Object.entries(split.firstLoadKeys ?? {})) {
        for (const k of keys) expect(table[ns]?.[k], `${file}: ${ns}.${k}`).toBeDefined()
      }
    }
  })
})
