// What each chunk of the build carries, by npm package (issue 21: every dependency in the first load
// justified in the README). vite.config.ts (bundlePackages) weighs each chunk's modules at build time
// and writes dist/.bundle-packages; scripts/first-load-packages.mjs and scripts/check-budget.mjs read it.
import zlib from 'node:zlib'
import { transformSync } from 'esbuild'

/** Written beside the app, a dotfile the server never serves (like .envelope-key). */
export const BUNDLE_PACKAGES_FILE = '.bundle-packages'

/**
 * Who a module belongs to: its npm package (the innermost node_modules/ folder, scoped names kept),
 * "(ours) <top folder>/" for this repository's files, "(bundler runtime)" for virtual modules.
 */
export function packageOf(id, root) {
  const clean = id.replace(/\?.*$/, '').replaceAll('\\', '/')
  if (clean.startsWith('\0') || !clean.startsWith('/') && !/^[A-Za-z]:\//.test(clean)) return '(bundler runtime)'
  const nm = clean.lastIndexOf('/node_modules/')
  if (nm >= 0) {
    const [first, second] = clean.slice(nm + '/node_modules/'.length).split('/')
    return first?.startsWith('@') ? `${first}/${second}` : first
  }
  const rel = clean.startsWith(root.replaceAll('\\', '/') + '/') ? clean.slice(root.length + 1) : clean
  return `(ours) ${rel.split('/')[0]}/`
}

/** An npm package, not our own code or the bundler's. */
export const isNpmPackage = (name) => !name.startsWith('(')

/**
 * Each package's weight in one chunk: the gzip size of its modules' code minified on its own. Gzip
 * sizes do not add up, so these weights only share out the chunk's real gzip size (shareOut).
 */
export function packageWeights(modules, root) {
  const code = new Map()
  for (const [id, m] of Object.entries(modules)) {
    if (!m.code) continue
    const name = packageOf(id, root)
    code.set(name, (code.get(name) ?? '') + m.code + '\n')
  }
  const weights = {}
  for (const [name, src] of code) {
    let min = src
    try {
      // The chunk is minified as a whole; a package's part is weighed as close to that as one can alone.
      min = transformSync(src, { minify: true, loader: 'js', format: 'esm', logLevel: 'silent' }).code
    } catch {
      // A fragment esbuild will not parse on its own is weighed as written.
    }
    weights[name] = zlib.gzipSync(min, { level: 9 }).length
  }
  return weights
}

/** `total` bytes shared out in proportion to `weights`, as whole bytes that add up to `total` exactly. */
export function shareOut(total, weights) {
  const entries = Object.entries(weights).filter(([, w]) => w > 0)
  const sum = entries.reduce((a, [, w]) => a + w, 0)
  if (sum === 0) return {}
  const exact = entries.map(([name, w]) => [name, (total * w) / sum])
  const out = Object.fromEntries(exact.map(([name, x]) => [name, Math.floor(x)]))
  let left = total - Object.values(out).reduce((a, b) => a + b, 0)
  // Largest remainders first, so the rounding moves no package by more than a byte.
  for (const [name] of [...exact].sort((a, b) => (b[1] % 1) - (a[1] % 1) || a[0].localeCompare(b[0]))) {
    if (left-- <= 0) break
    out[name] += 1
  }
  return out
}

/**
 * The first load's gzip bytes by package: each first-load file's real gzip size (scripts/first-load.mjs
 * parts) shared out by its chunk's weights. Largest first.
 */
export function firstLoadPackages(parts, chunks) {
  const totals = new Map()
  for (const p of parts) {
    const weights = chunks[p.file.replace(/^\//, '')]
    if (!weights) throw new Error(`${p.file} is in the first load but not in ${BUNDLE_PACKAGES_FILE}: rebuild (npm run build)`)
    for (const [name, bytes] of Object.entries(shareOut(p.gzip, weights))) totals.set(name, (totals.get(name) ?? 0) + bytes)
  }
  return [...totals.entries()].map(([name, gzip]) => ({ name, gzip })).sort((a, b) => b.gzip - a.gzip || a.name.localeCompare(b.name))
}

const README_START = '<!-- first-load-packages:start (node scripts/first-load-packages.mjs --write) -->'
const README_END = '<!-- first-load-packages:end -->'
const ROW = /^\|\s*`([^`]+)`\s*\|\s*([^|]*?)\s*\|\s*(.*?)\s*\|\s*$/

/** The README's "What the first load carries" rows: package → why (empty when not said). */
export function readmeReasons(readme) {
  const start = readme.indexOf(README_START)
  const end = readme.indexOf(README_END)
  if (start < 0 || end < start) throw new Error(`README.md has no first-load table (between ${README_START} and ${README_END})`)
  const reasons = new Map()
  for (const line of readme.slice(start, end).split('\n')) {
    const m = ROW.exec(line)
    if (m) reasons.set(m[1], m[3])
  }
  return reasons
}

/** What the README's table gets wrong: npm packages of the first load with no row or no reason, and rows of packages no longer in it. */
export function readmeProblems(packages, readme) {
  const reasons = readmeReasons(readme)
  const problems = []
  for (const p of packages) {
    if (!isNpmPackage(p.name)) continue
    if (!reasons.has(p.name)) problems.push(`${p.name} is in the first load but has no row in README.md`)
    else if (!reasons.get(p.name)) problems.push(`${p.name}: its README.md row does not say why it is in the first load`)
  }
  for (const name of reasons.keys()) if (!packages.some((p) => p.name === name)) problems.push(`${name} has a README.md row but is no longer in the first load`)
  return problems
}

const kb = (n) => (n / 1024).toFixed(1)

/** The table, regenerated: sizes from `packages`, reasons kept from the README's current rows. */
export function readmeTable(packages, readme) {
  const reasons = readmeReasons(readme)
  const total = packages.reduce((a, p) => a + p.gzip, 0)
  const lines = ['| package | KB gzip | why it is in the first load |', '|---|---:|---|']
  for (const p of packages) lines.push(`| \`${p.name}\` | ${kb(p.gzip)} | ${reasons.get(p.name) ?? ''} |`)
  lines.push(`| total | ${kb(total)} | |`)
  return lines.join('\n')
}

/** `readme` with its table replaced by `table`. */
export function withReadmeTable(readme, table) {
  readmeReasons(readme)
  const start = readme.indexOf(README_START) + README_START.length
  return `${readme.slice(0, start)}\n${table}\n${readme.slice(readme.indexOf(README_END))}`
}
