// CI gate, after the build (npm test): each JavaScript chunk within its budget and the first load of
// /index within its total (scripts/budgets.json), every npm package of the first load justified in
// README.md, and no lazy locale namespace named by first-load code.
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { checkBudgets } from './budget.mjs'
import { readmeProblems } from './bundle-packages.mjs'
import { firstLoad } from './first-load.mjs'
import { firstLoadByPackage } from './first-load-packages.mjs'

const budgets = JSON.parse(fs.readFileSync('scripts/budgets.json', 'utf8'))
const fl = firstLoad()
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const chunks = fs
  .readdirSync('dist/assets')
  .filter((f) => f.endsWith('.js'))
  .map((f) => ({ file: `assets/${f}`, gzip: zlib.gzipSync(fs.readFileSync(path.join('dist/assets', f)), { level: 9 }).length }))
const { rows, failures, unused } = checkBudgets(chunks, fl, budgets)
console.log(`first-load JavaScript (gzip): ${kb(fl.gzip)}  (budget ${budgets.firstLoad.totalKB} KB); ${rows.length} chunks within their budgets: ${rows.length - rows.filter((r) => r.over).length}`)
if (unused.length) console.log(`note: rows of scripts/budgets.json that match no chunk (a chunk renamed or gone?): ${unused.join(', ')}`)

// The README's table names every npm package of the first load, and why.
failures.push(...readmeProblems(firstLoadByPackage(), fs.readFileSync('README.md', 'utf8')).map((p) => `${p} (node scripts/first-load-packages.mjs --write, then say why)`))

// The namespaces that leave the first load (src/i18n/lazy-namespaces.json) must not be named by
// first-load code: a string of one would show as its key until the second part arrives.
const lazy = JSON.parse(fs.readFileSync('src/i18n/lazy-namespaces.json', 'utf8'))
const named = []
for (const p of fl.parts) {
  const code = fs.readFileSync(path.join('dist', p.file), 'utf8')
  for (const m of code.matchAll(new RegExp(`["'\`]((?:${lazy.namespaces.join('|')})\\.[\\w.$]*)`, 'g'))) {
    if (!lazy.notKeys.includes(m[1])) named.push(`${p.file}: ${m[1]}`)
  }
}
if (named.length) {
  failures.push(`first-load code names strings of lazy locale namespaces (move the namespace out of src/i18n/lazy-namespaces.json, or the code out of the first load):\n  ${named.join('\n  ')}`)
}

if (failures.length) {
  for (const p of fl.parts) console.log(`  ${kb(p.gzip).padStart(9)}  ${p.file}`)
  console.error(`budget check failed:\n  ${failures.join('\n  ')}`)
  process.exit(1)
}
