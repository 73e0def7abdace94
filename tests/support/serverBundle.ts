// The server and the CLI as two bundled files for the tests that start them as child processes.
//
// `node --import tsx server/main.ts` sends each of the server's ~300 modules through tsx's loader
// hooks: about 2.8 s a start on a quiet machine, several seconds beside the browser suite, and the
// integration suites start a server or a CLI a few hundred times per run. One esbuild bundle of the
// same sources starts in about 1 s. Packages stay outside it (resolved from node_modules as before),
// and each source's `import.meta.dirname`/`url` is replaced by its own file's, so the paths modules
// read beside themselves (migrations, locales, seeds) are the same as under tsx.
//
// Built once per vitest run by globalSetup, named after a hash of its content so that two runs at
// once (npm test runs two) share one copy and a changed source never runs stale.

import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'

const ROOT = path.resolve(import.meta.dirname, '../..')
const ENTRIES = { main: 'server/main.ts', cli: 'server/cli.ts', chains: 'server/chains.ts' } as const
/** What each bundle is built from: the CLI's through an entry that runs it (cliEntry.ts). */
const BUILT_FROM = { main: 'server/main.ts', cli: 'tests/support/cliEntry.ts', chains: 'server/chains.ts' }
export type Entry = keyof typeof ENTRIES

/** The environment variable naming the folder of the bundles (set by setup, read by the spawning helpers). */
export const BUNDLE_ENV = 'NADI_TEST_SERVER_BUNDLE'

/** How to start `server/<entry>.ts`: the bundle when this run built one, tsx on the sources otherwise. */
export function serverArgs(entry: Entry): string[] {
  const dir = process.env[BUNDLE_ENV]
  return dir ? [path.join(dir, `${entry}.mjs`)] : ['--import', 'tsx', ENTRIES[entry]]
}

const ownPaths: Plugin = {
  name: 'own-paths',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = (await fs.promises.readFile(args.path, 'utf8'))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
      return { contents: text, loader: 'ts' }
    })
  },
}

export async function setup(): Promise<void> {
  const out = await build({
    absWorkingDir: ROOT,
    entryPoints: BUILT_FROM,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    outdir: 'out',
    outExtension: { '.js': '.mjs' },
    plugins: [ownPaths],
    logLevel: 'error',
  })
  const hash = crypto.createHash('sha256')
  for (const f of out.outputFiles) hash.update(f.path).update(f.contents)
  const dir = path.join(ROOT, 'node_modules/.cache/nadi-server', hash.digest('hex').slice(0, 16))
  if (!fs.existsSync(dir)) {
    // Written beside, then renamed into place: a concurrent run finds it whole or not at all.
    const tmp = `${dir}.${process.pid}.tmp`
    fs.mkdirSync(tmp, { recursive: true })
    for (const f of out.outputFiles) fs.writeFileSync(path.join(tmp, path.basename(f.path)), f.contents)
    try {
      fs.renameSync(tmp, dir)
    } catch {
      fs.rmSync(tmp, { recursive: true, force: true }) // the other run's copy won the rename
    }
  }
  process.env[BUNDLE_ENV] = dir
  prune(path.dirname(dir), dir)
}

/** Removes the bundles of earlier runs (a day old: one of a run still going is never removed). */
function prune(parent: string, keep: string) {
  const dayAgo = Date.now() - 86_400_000
  for (const name of fs.readdirSync(parent)) {
    const p = path.join(parent, name)
    if (p !== keep && fs.statSync(p).mtimeMs < dayAgo) fs.rmSync(p, { recursive: true, force: true })
  }
}
