import { describe, expect, it } from 'vitest'
import rosetta from 'rosetta'
import { LANG_CODES } from '../../../contract/constants.ts'
import { langOf, preloadLocales, translate } from '../../../server/i18n.ts'
import en from '../../../locales/en.json' with { type: 'json' }

type Tree = { [k: string]: string | Tree }
const flatKeys = (t: Tree, prefix = ''): string[] =>
  Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : flatKeys(v, `${prefix}${k}.`)))

// These use the real locale files; EN is asserted exactly, other languages only structurally because
// their translations are still being written.

describe('translate (server)', () => {
  it('translate returns the English text of a key', () => {
    expect(translate('EN', 'errors.notFound')).toBe('Not found')
    expect(translate('EN', 'api.ok')).toBe('Success')
  })

  it('translate fills {{param}} placeholders', () => {
    expect(translate('EN', 'errors.invalidField', { field: 'wallet address' })).toBe('Invalid wallet address')
    expect(translate('EN', 'chainNotice.wait', { seconds: 5 })).toBe('Please read (5s)')
  })

  it('translate fills a missing param with an empty string', () => {
    expect(translate('EN', 'errors.invalidField')).toBe('Invalid ')
  })

  it('translate returns the key itself when no language has it', () => {
    for (const lang of LANG_CODES) expect(translate(lang, 'no.such.key')).toBe('no.such.key')
    expect(translate('EN', '')).toBe('')
  })

  it('translate returns the key for a key that names a section instead of a string', () => {
    expect(translate('EN', 'errors')).toBe('errors')
    expect(translate('EN', 'errors.notFound.deeper')).toBe('errors.notFound.deeper')
  })

  it('translate gives a non-empty string for every language, with placeholders filled', () => {
    for (const lang of LANG_CODES) {
      const text = translate(lang, 'errors.invalidField', { field: 'X' })
      expect(text, lang).not.toBe('errors.invalidField')
      expect(text, lang).not.toMatch(/\{\{/)
      expect(text, lang).toContain('X')
    }
  })

  it('translate interpolates exactly like rosetta does in the app, for every English key', () => {
    const app = rosetta<Record<string, unknown>>()
    app.set('EN', en as Record<string, unknown>)
    app.locale('EN')
    const params = { field: 'F', start: '2024-01-01', end: '2024-01-02', seconds: 0, name: 'N' }
    const keys = flatKeys(en as Tree)
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) {
      expect(translate('EN', key, params), key).toBe(app.t(key, params))
      expect(translate('EN', key), key).toBe(app.t(key, {}))
    }
  })

  it('preloadLocales reads every locale file without throwing', () => {
    expect(() => preloadLocales()).not.toThrow()
  })
})

describe('langOf', () => {
  it('langOf maps each language code, case-insensitively and trimmed', () => {
    for (const code of LANG_CODES) {
      expect(langOf(code)).toBe(code)
      expect(langOf(code.toLowerCase())).toBe(code)
      expect(langOf(` ${code.toLowerCase()} `)).toBe(code)
    }
    expect(langOf('En')).toBe('EN')
  })

  it('langOf falls back to TW for unknown, empty or non-string headers', () => {
    for (const h of [undefined, null, '', ' ', 'xx', 'en-US', 'zh-TW', 'english', 'E N', 42, ['EN'], { lang: 'EN' }]) {
      expect(langOf(h), JSON.stringify(h)).toBe('TW')
    }
  })
})
