// The per-chunk and first-load budgets of scripts/budgets.json, as pure functions: scripts/check-budget.mjs
// applies them to dist/ after the build, the unit tests to made-up chunks.

/** A chunk's name: its file without folder and hash (assets/locale-tw-core-CVovmhDZ.js → locale-tw-core). */
export function chunkName(file) {
  const base = file.slice(file.lastIndexOf('/') + 1)
  const m = /^(.+)-[A-Za-z0-9_-]{8}\.js$/.exec(base)
  return m ? m[1] : base.replace(/\.js$/, '')
}

const isFirstLoadLocale = (name) => /^locale-\w+-core$/.test(name)

/** The row of `table` that holds `name`: its own, else the first pattern (* = anything) that matches, else "default". */
export function limitFor(table, name) {
  if (name in table && name !== 'default') return { key: name, kb: table[name] }
  for (const [key, kb] of Object.entries(table)) {
    if (!key.includes('*')) continue
    const re = new RegExp(`^${key.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`)
    if (re.test(name)) return { key, kb }
  }
  if (!('default' in table)) throw new Error(`no budget for chunk "${name}" and no default`)
  return { key: 'default', kb: table.default }
}

/**
 * Every chunk against its limit, and the first load's total against budgets.firstLoad.totalKB.
 * `chunks`: every JS chunk with its gzip bytes; `firstLoad`: the files of the first load (first-load.mjs
 * parts) and their total gzip bytes. Returns each chunk's verdict, what failed, and rows of the table
 * that matched no chunk (left from a chunk that is gone: worth a look, not a failure).
 */
export function checkBudgets(chunks, firstLoad, budgets) {
  const firstFiles = new Set(firstLoad.parts.map((p) => p.file.replace(/^\//, '')))
  const used = { firstLoad: new Set(), lazy: new Set() }
  const rows = chunks.map((c) => {
    const name = chunkName(c.file)
    const kind = firstFiles.has(c.file.replace(/^\//, '')) || isFirstLoadLocale(name) ? 'firstLoad' : 'lazy'
    const limit = limitFor(budgets[kind].chunks, name)
    used[kind].add(limit.key)
    return { file: c.file, name, kind, gzip: c.gzip, limitKB: limit.kb, row: limit.key, over: c.gzip > limit.kb * 1024 }
  })
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`
  const failures = rows.filter((r) => r.over).map((r) => `${r.file}: ${kb(r.gzip)} gzip, over its ${r.kind === 'firstLoad' ? 'first-load' : 'lazy'} chunk budget of ${r.limitKB} KB ("${r.row}")`)
  const totalKB = budgets.firstLoad.totalKB
  if (firstLoad.gzip > totalKB * 1024) failures.unshift(`the first load of /index is ${kb(firstLoad.gzip)} gzip, over its budget of ${totalKB} KB`)
  const unused = ['firstLoad', 'lazy'].flatMap((kind) => Object.keys(budgets[kind].chunks).filter((k) => k !== 'default' && !used[kind].has(k)).map((k) => `${kind}.${k}`))
  return { rows, failures, unused }
}
