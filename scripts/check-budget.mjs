// CI gate: the first load of /index must stay under 150 KB of gzipped JavaScript (target 125 KB).
import fs from 'node:fs'
import path from 'node:path'
import { firstLoad } from './first-load.mjs'

const LIMIT = 150 * 1024
const TARGET = 125 * 1024
const { gzip, parts } = firstLoad()
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(`first-load JavaScript (gzip): ${kb(gzip)}  (target ≤ ${kb(TARGET)}, limit ${kb(LIMIT)})`)
// The namespaces that leave the first load (src/i18n/lazy-namespaces.json) must not be named by
// first-load code: a string of one would show as its key until the second part arrives.
const lazy = JSON.parse(fs.readFileSync('src/i18n/lazy-namespaces.json', 'utf8'))
const named = []
for (const p of parts) {
  const code = fs.readFileSync(path.join('dist', p.file), 'utf8')
  for (const m of code.matchAll(new RegExp(`["'\`]((?:${lazy.namespaces.join('|')})\\.[\\w.$]*)`, 'g'))) {
    if (!lazy.notKeys.includes(m[1])) named.push(`${p.file}: ${m[1]}`)
  }
}
if (named.length) {
  console.error(`first-load code names strings of lazy locale namespaces (move the namespace out of src/i18n/lazy-namespaces.json, or the code out of the first load):\n  ${named.join('\n  ')}`)
  process.exit(1)
}
if (gzip > LIMIT) {
  for (const p of parts) console.log(`  ${kb(p.gzip).padStart(9)}  ${p.file}`)
  console.error('first-load budget exceeded')
  process.exit(1)
}
