// The first load of /index by npm package (and our own folders), in KB gzip: the README's table
// "What the first load carries". `node scripts/first-load-packages.mjs` prints it;
// `--write` puts it in README.md, keeping each row's reason. Reads dist/ (npm run build first).
import fs from 'node:fs'
import path from 'node:path'
import { BUNDLE_PACKAGES_FILE, firstLoadPackages, readmeProblems, readmeTable, withReadmeTable } from './bundle-packages.mjs'
import { firstLoad } from './first-load.mjs'

/** The first load's bytes by package, from `dist`'s first-load files (`locale` as scripts/first-load.mjs takes it) and the build's module weights. */
export function firstLoadByPackage(dist = 'dist', locale = 'tw') {
  const file = path.join(dist, BUNDLE_PACKAGES_FILE)
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the app (npm run build)`)
  const { chunks } = JSON.parse(fs.readFileSync(file, 'utf8'))
  return firstLoadPackages(firstLoad(dist, locale).parts, chunks)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const readme = fs.readFileSync('README.md', 'utf8')
  const table = readmeTable(firstLoadByPackage(), readme)
  if (process.argv.includes('--write')) {
    fs.writeFileSync('README.md', withReadmeTable(readme, table))
    const problems = readmeProblems(firstLoadByPackage(), fs.readFileSync('README.md', 'utf8'))
    console.log(`README.md: first-load table written${problems.length ? `; still to do:\n  ${problems.join('\n  ')}` : ''}`)
  } else {
    console.log(table)
  }
}
