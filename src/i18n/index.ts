import rosetta from 'rosetta'
import { signal } from '@preact/signals-react'
import { useSignals } from '@preact/signals-react/runtime'
import { DEFAULT_LANG, LANG_TAG, LOCALE_FILE, isLangCode, type LangCode } from '../../contract/constants.ts'
import { whenIdle } from '../lib/idle.ts'
import { storage } from '../lib/storage.ts'
import { mergePart } from './parts.ts'

type Dict = Record<string, unknown>
export type Params = Record<string, string | number>

// Each language is two chunks (vite.config.ts localeSplit): the shell's strings, fetched at start
// (index.html preloads the stored language's), and the strings only lazy screens use, fetched right
// after. A lazy screen waits for the second part (localeComplete) before it renders.
const coreLoaders = import.meta.glob<Dict>('../../locales/*.json', { import: 'default', query: { part: 'core' } })
const restLoaders = import.meta.glob<Dict>('../../locales/*.json', { import: 'default', query: { part: 'rest' } })

const i18n = rosetta<Dict>()
const loaded = new Set<LangCode>()
const complete = new Map<LangCode, Promise<void>>()

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
/** Bumped when a language's second part arrives, so what is on screen re-renders with it. */
const parts = signal(0)

function loader(table: typeof coreLoaders, code: LangCode) {
  const load = table[`../../locales/${LOCALE_FILE[code]}.json`]
  if (!load) throw new Error(`no locale file for ${code}`)
  return load
}

/** A part joins what is loaded: both parts may carry keys of one namespace (parts.ts firstLoadKeys), in either order. */
function add(code: LangCode, part: Dict): void {
  i18n.set(code, mergePart(i18n.table(code) ?? {}, part))
}

async function ensure(code: LangCode): Promise<void> {
  if (loaded.has(code)) return
  add(code, await loader(coreLoaders, code)())
  loaded.add(code)
}

/** The rest of a language (namespaces of lazy screens), merged beside its shell strings once. */
function ensureRest(code: LangCode): Promise<void> {
  let p = complete.get(code)
  if (!p) {
    p = loader(restLoaders, code)().then((rest) => {
      add(code, rest)
      parts.value++
    })
    // A failed fetch (offline before it was ever cached) is tried again on the next call.
    p.catch(() => complete.delete(code))
    complete.set(code, p)
  }
  return p
}

function afterLoad(fn: () => void): void {
  const idle = () => whenIdle(fn, 2000)
  if (document.readyState === 'complete') idle()
  else addEventListener('load', idle, { once: true })
}

/** Resolves once the current language is whole: lazy screens render after it. */
export const localeComplete = (): Promise<void> => ensureRest(lang.value)

/**
 * A lazy part's code, once its language's strings are here too (localeComplete): strings that cannot
 * be fetched (offline, never cached) do not hold the code back.
 */
export function withStrings<T>(load: () => Promise<T>): Promise<T> {
  return Promise.all([load(), localeComplete().catch(() => {})]).then(([m]) => m)
}

export async function initI18n(): Promise<void> {
  await setLang(storedLang())
}

export async function setLang(code: LangCode): Promise<void> {
  // Switching while a lazy screen may be open: wait for the new language whole, so it never shows keys.
  const whole = complete.has(lang.value) && loaded.has(lang.value)
  await Promise.all([ensure(code), whole ? ensureRest(code).catch(() => {}) : null])
  // At start, after the page has loaded and gone idle: the first screen's own requests go first on a slow
  // link (a lazy screen opened before then asks for it itself, through localeComplete).
  if (!whole) afterLoad(() => void ensureRest(code).catch(() => {}))
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
  void parts.value
  return t
}

/** A whole subtree of the current locale, for a library that takes its own strings (web3-onboard). */
export function subtree(path: string): Record<string, unknown> {
  let node: unknown = i18n.table(lang.value)
  for (const part of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined
  return node && typeof node === 'object' ? (node as Record<string, unknown>) : {}
}
