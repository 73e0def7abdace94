import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { langOf, translate } from '../../../server/i18n.ts'
import { LANG_CODES, LOCALE_FILE } from '../../../contract/constants.ts'

const en = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../locales/en.json'), 'utf8')) as { errors: Record<string, string> }

describe('langOf', () => {
  it('reads the LANG header in any case and with spaces', () => {
    expect(langOf('EN')).toBe('EN')
    expect(langOf(' jp ')).toBe('JP')
  })

  it('falls back to TW for a missing, unknown or non-string header', () => {
    for (const v of [undefined, '', 'XX', 'en-US', ['EN'], 1]) expect(langOf(v), String(v)).toBe('TW')
  })
})

describe('translate', () => {
  it('fills {{params}} in the template', () => {
    expect(translate('EN', 'errors.invalidField', { field: 'wallet address' })).toBe(en.errors.invalidField?.replace('{{field}}', 'wallet address'))
  })

  it('a missing parameter becomes empty, never "undefined"', () => {
    expect(translate('EN', 'errors.invalidField')).not.toContain('undefined')
  })

  it('answers the key itself for a key no locale has', () => {
    expect(translate('JP', 'errors.noSuchKey')).toBe('errors.noSuchKey')
  })

  it('every language has every error message the server can send', () => {
    for (const lang of LANG_CODES) {
      const file = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, `../../../locales/${LOCALE_FILE[lang]}.json`), 'utf8')) as { errors?: Tree }
      // errors.* may group messages (errors.failed.* names the app's operations): every leaf is a string.
      for (const key of leaves(en.errors as Tree)) expect(typeof key.split('.').reduce<Tree | string | undefined>((t, k) => (typeof t === 'object' ? t[k] : undefined), file.errors), `${lang} errors.${key}`).toBe('string')
    }
  })
})

interface Tree {
  [key: string]: string | Tree
}

/** The dotted keys of a tree's string leaves. */
function leaves(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : leaves(v, `${prefix}${k}.`)))
}
