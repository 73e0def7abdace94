// CI gate: the first load of /index must stay under 150 KB of gzipped JavaScript (target 125 KB).
import { firstLoad } from './first-load.mjs'

const LIMIT = 150 * 1024
const TARGET = 125 * 1024
const { gzip, parts } = firstLoad()
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(`first-load JavaScript (gzip): ${kb(gzip)}  (target ≤ ${kb(TARGET)}, limit ${kb(LIMIT)})`)
if (gzip > LIMIT) {
  for (const p of parts) console.log(`  ${kb(p.gzip).padStart(9)}  ${p.file}`)
  console.error('first-load budget exceeded')
  process.exit(1)
}
