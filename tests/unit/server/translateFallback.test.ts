import { describe, expect, it, vi } from 'vitest'

// The real locale files all carry the same keys, so the fallback chain is proven on fixture
// dictionaries served through a mocked node:fs (server/i18n.ts reads files with fs.readFileSync).
const fixtures = vi.hoisted(() => ({
  en: { greet: { hello: 'Hello {{name}}', onlyEn: 'English only {{n}}' }, section: { leaf: 'Leaf' } },
  tw: { greet: { hello: '你好 {{name}}' }, section: 'not a section here' },
}))

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>()
  const readFileSync = ((file: unknown, ...rest: unknown[]) => {
    const name = String(file).replace(/\\/g, '/')
    if (name.endsWith('/locales/en.json')) return JSON.stringify(fixtures.en)
    if (name.endsWith('/locales/tw.json')) return JSON.stringify(fixtures.tw)
    return (real.readFileSync as (...a: unknown[]) => unknown)(file, ...rest)
  }) as typeof real.readFileSync
  return { ...real, readFileSync, default: { ...real, readFileSync } }
})

const { translate } = await import('../../../server/i18n.ts')

describe('translate fallback chain', () => {
  it('translate uses the requested language when it has the key', () => {
    expect(translate('TW', 'greet.hello', { name: 'A' })).toBe('你好 A')
    expect(translate('EN', 'greet.hello', { name: 'A' })).toBe('Hello A')
  })

  it('translate falls back to English for a key missing in the requested language', () => {
    expect(translate('TW', 'greet.onlyEn', { n: 3 })).toBe('English only 3')
  })

  it('translate falls back to English when the requested language has a string where a section should be', () => {
    expect(translate('TW', 'section.leaf')).toBe('Leaf')
  })

  it('translate returns the key itself when English lacks it too', () => {
    expect(translate('TW', 'greet.nowhere')).toBe('greet.nowhere')
    expect(translate('EN', 'greet.nowhere')).toBe('greet.nowhere')
  })
})
