/**
 * NADI benchmarks: `npm run bench` (builds first) or `npx tsx bench/run.ts [id…] [--strict]`.
 *
 * Prints one table (name | measured | target | verdict) and writes bench/out/results.json.
 * To add rows: create bench/rows/<id>.ts exporting `id` and `async function run(ctx): Promise<Row[]>`
 * (see support/types.ts), then add it to ROWS below. Server and browser come from ctx, started once.
 *
 *   ids      run only the row modules whose id contains one of these words
 *   --strict exit 1 when any row misses its target (by default only errors fail the run)
 *   BENCH_RUNS=n  repetitions of timed rows (default 5)
 *   BENCH_BASELINE=/path/to/checkout  another commit, built, measured beside ours and the floor by the
 *                 page rows (first-load, paint, offline); BENCH_BASELINE_LABEL names it (README: Bench)
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts'
import { startPostgres, type BenchPostgres } from './support/postgres.ts'
import { startServer, type BenchServer } from './support/server.ts'
import { baselineFromEnv, buildFloor, type Subject } from './support/subjects.ts'
import type { BenchContext, Row, RowModule } from './support/types.ts'
import * as firstLoad from './rows/first-load.ts'
import * as paint from './rows/paint.ts'
import * as offline from './rows/offline.ts'
import * as klines from './rows/klines.ts'

const ROWS: RowModule[] = [firstLoad, paint, offline, klines]
ROWS.push(await import('./rows/ledger.ts'))
ROWS.push(await import('./rows/credit.ts'))
ROWS.push(await import('./rows/engine.ts'))
ROWS.push(await import('./rows/chart.ts'))
ROWS.push(await import('./rows/exchange.ts'))
ROWS.push(await import('./rows/bus.ts'))
ROWS.push(await import('./rows/processes.ts'))
ROWS.push(await import('./rows/commerce.ts'))
ROWS.push(await import('./rows/ranking.ts'))
ROWS.push(await import('./rows/settlement.ts'))
ROWS.push(await import('./rows/team.ts'))
ROWS.push(await import('./rows/mining.ts'))
ROWS.push(await import('./rows/envelope.ts'))
ROWS.push(await import('./rows/pgDriver.ts'))
ROWS.push(await import('./rows/rtt.ts'))

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)))
const dist = path.join(root, 'dist')
const outDir = path.join(root, 'bench', 'out')

const argv = process.argv.slice(2)
const strict = argv.includes('--strict')
const only = argv.filter((a) => !a.startsWith('--'))
const runs = Number(process.env.BENCH_RUNS ?? 5)
if (!Number.isInteger(runs) || runs < 1) throw new Error(`BENCH_RUNS must be a positive integer, got "${process.env.BENCH_RUNS}"`)

if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`bench: ${path.relative(process.cwd(), dist) || dist}/index.html is missing. Build the app first: npm run build (or use npm run bench).`)
  process.exit(2)
}

const selected = only.length ? ROWS.filter((m) => only.some((w) => m.id.includes(w))) : ROWS
if (selected.length === 0) {
  console.error(`bench: no row module matches ${only.join(', ')} (have: ${ROWS.map((m) => m.id).join(', ')})`)
  process.exit(2)
}

const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`)

const baseline = baselineFromEnv(process.env)
const ours: Subject = { kind: 'ours', label: '', root, dist }

/** Started on first use by a row, shared by all rows, stopped at the end. */
const shared: {
  server?: Promise<BenchServer>
  browser?: Promise<LaunchedBrowser>
  postgres?: Promise<BenchPostgres>
  floor?: Promise<Subject>
  servers: Map<Subject['kind'], Promise<BenchServer>>
} = { servers: new Map() }
const serverFor = (subject: Subject): Promise<BenchServer> => {
  if (subject.kind === 'ours') return ctx.server()
  let s = shared.servers.get(subject.kind)
  if (!s) shared.servers.set(subject.kind, (s = startServer(subject.root, subject.dist).then((x) => (log(`${subject.label} served on ${x.origin}`), x))))
  return s
}
const ctx: BenchContext = {
  root,
  dist,
  outDir,
  runs,
  server: () => (shared.server ??= startServer(root).then((s) => (log(`server on ${s.origin}`), s))),
  subjects: async () => {
    const floor = await (shared.floor ??= buildFloor(root).then((f) => (log(`floor built in ${path.relative(root, f.dist)}`), f)))
    return [ours, floor, ...(baseline ? [baseline] : [])]
  },
  serverFor,
  browser: async (): Promise<Browser> => (await (shared.browser ??= launchBrowser())).browser,
  postgres: () => (shared.postgres ??= startPostgres().then((p) => (log('PostgreSQL cluster started'), p))),
  log,
}

const started = Date.now()
const loadBefore = os.loadavg()
const results: { module: string; ms: number; rows: Row[] }[] = []
let errors = 0
try {
  for (const mod of selected) {
    const t0 = Date.now()
    log(`${mod.id}…`)
    try {
      const rows = await mod.run(ctx)
      results.push({ module: mod.id, ms: Date.now() - t0, rows })
    } catch (err) {
      errors++
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err)
      log(`${mod.id} failed: ${message}`)
      results.push({
        module: mod.id,
        ms: Date.now() - t0,
        rows: [{ name: `${mod.id}: error`, measured: 'error', target: '—', pass: false, details: { error: message } }],
      })
    }
  }
} finally {
  // Whatever was started is stopped, even after a failure.
  const [b, s, ...others] = await Promise.all([shared.browser?.catch(() => null), shared.server?.catch(() => null), ...[...shared.servers.values()].map((x) => x.catch(() => null))])
  await Promise.allSettled([b?.close(), s?.close(), ...others.map((x) => x?.close())])
  // After the servers, whose connections it would otherwise cut.
  const pg = await shared.postgres?.catch(() => null)
  try {
    pg?.stop()
  } catch (err) {
    log(`stopping the PostgreSQL cluster: ${err instanceof Error ? err.message : String(err)}`)
  }
}

const rows = results.flatMap((r) => r.rows)
const verdict = (r: Row) => (r.pass === null ? '—' : r.pass ? '✓' : '✗')
const table = [['name', 'measured', 'target', 'verdict'], ...rows.map((r) => [r.name, r.measured, r.target, verdict(r)])]
const widths = [0, 1, 2, 3].map((c) => Math.max(...table.map((line) => (line[c] ?? '').length)))
const fmt = (line: string[]) => line.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(' | ').trimEnd()
console.log()
console.log(fmt(table[0] ?? []))
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'))
for (const line of table.slice(1)) console.log(fmt(line))
const misses = rows.filter((r) => r.pass === false).length
const loadAfter = os.loadavg()
console.log(`\n${rows.length} rows, ${misses} ✗, in ${((Date.now() - started) / 1000).toFixed(0)} s  (timed rows: median of ${runs}; details in bench/out/results.json)`)
const busiest = Math.max(loadBefore[0] ?? 0, loadAfter[0] ?? 0)
if (busiest > os.cpus().length) {
  console.log(`note: load average reached ${busiest.toFixed(1)} on ${os.cpus().length} cores; timings are noisy, compare with a quieter run`)
}

function git(...args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

fs.mkdirSync(outDir, { recursive: true })
fs.writeFileSync(
  path.join(outDir, 'results.json'),
  JSON.stringify(
    {
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      commit: git('rev-parse', 'HEAD'),
      dirty: (git('status', '--porcelain') ?? '') !== '',
      machine: {
        node: process.version,
        platform: `${os.platform()} ${os.release()}`,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? null,
        loadavg: { before: loadBefore, after: loadAfter },
      },
      runs,
      baseline: baseline && { label: baseline.label, root: baseline.root },
      modules: results.map((r) => ({ id: r.module, ms: r.ms })),
      rows,
    },
    // Row details may carry ledger amounts (bigint, units of 1e-8): written as decimal strings.
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
    2,
  ) + '\n',
)

process.exitCode = errors > 0 || (strict && misses > 0) ? 1 : 0
