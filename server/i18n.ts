import fs from 'node:fs'
import path from 'node:path'
import { DEFAULT_LANG, LANG_CODES, LOCALE_FILE, isLangCode, type LangCode } from '../contract/constants.ts'

type Tree = { [k: string]: string | Tree }
export type Translate = (key: string, params?: Record<string, string | number>) => string

const dicts = new Map<LangCode, Tree>()

function load(lang: LangCode): Tree {
  let d = dicts.get(lang)
  if (!d) {
    const file = path.resolve(import.meta.dirname, '../locales', `${LOCALE_FILE[lang]}.json`)
    d = JSON.parse(fs.readFileSync(file, 'utf8')) as Tree
    dicts.set(lang, d)
  }
  return d
}

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined
    node = node[part]
  }
  return typeof node === 'string' ? node : undefined
}

/** The same {{param}} templating as rosetta in the app, so one locale file serves both. */
export function translate(lang: LangCode, key: string, params: Record<string, string | number> = {}): string {
  const template = lookup(load(lang), key) ?? lookup(load('EN'), key) ?? key
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''))
}

/** The LANG header decides the language; anything unknown falls back to the default. */
export function langOf(header: unknown): LangCode {
  const v = typeof header === 'string' ? header.trim().toUpperCase() : ''
  return isLangCode(v) ? v : DEFAULT_LANG
}

export function preloadLocales(): void {
  for (const l of LANG_CODES) load(l)
}
