import rosetta from 'rosetta'
import { signal } from '@preact/signals-react'
import { useSignals } from '@preact/signals-react/runtime'
import { DEFAULT_LANG, LANG_TAG, LOCALE_FILE, isLangCode, type LangCode } from '../../contract/constants.ts'
import { storage } from '../lib/storage.ts'

type Dict = Record<string, unknown>
export type Params = Record<string, string | number>

// Each locale is its own chunk: only the current one is fetched at start, the others on switch.
const loaders = import.meta.glob<Dict>('../../locales/*.json', { import: 'default' })

const i18n = rosetta<Dict>()
const loaded = new Set<LangCode>()

/** Whether a locale is loaded, so messages can be shown. */
export const i18nReady = () => loaded.size > 0

/** The language the user chose last time, known before any locale is loaded. */
export function storedLang(): LangCode {
  const v = storage.get('lang')
  return isLangCode(v) ? v : DEFAULT_LANG
}

/**
 * The current language (API code), right from the start: requests sent while the locale file is
 * still loading already carry the user's LANG. Components read it through useT().
 */
export const lang = signal<LangCode>(storedLang())

async function ensure(code: LangCode): Promise<void> {
  if (loaded.has(code)) return
  const load = loaders[`../../locales/${LOCALE_FILE[code]}.json`]
  if (!load) throw new Error(`no locale file for ${code}`)
  i18n.set(code, await load())
  loaded.add(code)
}

export async function initI18n(): Promise<void> {
  await setLang(storedLang())
}

export async function setLang(code: LangCode): Promise<void> {
  await ensure(code)
  i18n.locale(code)
  storage.set('lang', code)
  document.documentElement.lang = LANG_TAG[code]
  lang.value = code
}

export function t(key: string, params?: Params): string {
  return i18n.t(key, params) || key
}

/** Subscribes the calling component to the language and returns the translator. */
export function useT(): typeof t {
  useSignals()
  void lang.value
  return t
}

/** A whole subtree of the current locale, for a library that takes its own strings (web3-onboard). */
export function subtree(path: string): Record<string, unknown> {
  let node: unknown = i18n.table(lang.value)
  for (const part of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined
  return node && typeof node === 'object' ? (node as Record<string, unknown>) : {}
}
