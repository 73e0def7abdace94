// The scale-out shape on one machine (docs/processes.md, "The shape on one machine"): the dev chains as
// a process of their own, two engine candidates, a jobs process, two api processes and the proxy in
// front of those, all on one PostgreSQL database. `npm run shape` (../shape.ts) starts it on a
// throwaway cluster; tests/integration/shape.test.ts starts it on the test run's.
//
// Every NADI process is a child in its own process group: a terminal's Ctrl-C reaches the launcher
// alone, which stops them in order — the proxy, the api processes, the jobs, the engines, the chains
// last, since the others read them until they stop.

import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { freePort } from '../../server/db/pg/cluster.ts'
import { startProxy, type Proxy } from './proxy.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

export type Entry = 'main' | 'chains'

export interface ShapeOptions {
  /** The database every process shares. */
  databaseUrl: string
  /** The data folder they share (uploads, the holder file): one machine, one folder. */
  dataDir: string
  /** Where the proxy listens (port 0: any free one). */
  listen: { host: string; port: number }
  /** Settings for every NADI process, over this process's environment. */
  env?: Record<string, string>
  /** Node's arguments that run a server entry (default: tsx on the sources). */
  entryArgs?: (entry: Entry) => string[]
  /** Where each process's output goes, a line at a time with its name. */
  output?: (name: string, line: string) => void
  /** Most time one process may take to be ready (60 s: six processes starting on two cores). */
  readyMs?: number
}

export interface ShapeProcess {
  name: string
  role: 'chains' | 'api' | 'engine' | 'jobs'
  /** Where it answers (its health check; the app for an api process). */
  base: string
  proc: ChildProcess
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export interface Shape {
  /** The proxy: where to open the app. */
  url: string
  /** The chains process (NADI_DEV_CHAINS_URL of the others). */
  chainsUrl: string
  processes: ShapeProcess[]
  /** Stops everything, in order; safe to call more than once. */
  stop(): Promise<void>
}

const HEALTH = '/api/v1/common/health'
/** An api process is ready once it serves the market, read from its mirror of the engine leader. */
const API_READY = '/api/v1/trade/market'

const tsxArgs = (entry: Entry) => ['--import', 'tsx', entry === 'main' ? 'server/main.ts' : 'server/chains.ts']

export async function startShape(opts: ShapeOptions): Promise<Shape> {
  const entryArgs = opts.entryArgs ?? tsxArgs
  const output = opts.output ?? ((name, line) => process.stdout.write(`${name.padEnd(7)}| ${line}\n`))
  const readyMs = opts.readyMs ?? 60_000
  const processes: ShapeProcess[] = []
  let proxy: Proxy | null = null

  const start = async (name: string, role: ShapeProcess['role'], env: Record<string, string>, readyPath: string): Promise<ShapeProcess> => {
    const port = await freePort()
    const args = role === 'chains' ? entryArgs('chains') : [...entryArgs('main'), '--role', role]
    const proc = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', ...opts.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })))
    let tail = ''
    for (const stream of [proc.stdout!, proc.stderr!]) {
      let partial = ''
      stream.on('data', (b: Buffer) => {
        const text = partial + b.toString('utf8')
        const lines = text.split('\n')
        partial = lines.pop()!
        for (const l of lines) if (l.trim()) output(name, l)
        tail = (tail + b.toString('utf8')).slice(-4000)
      })
    }
    const p: ShapeProcess = { name, role, base: `http://127.0.0.1:${port}`, proc, exited }
    processes.push(p)
    const deadline = Date.now() + readyMs
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`${name} exited at start:\n${tail}`)
      try {
        if ((await fetch(`${p.base}${readyPath}`, { signal: AbortSignal.timeout(2000) })).ok) return p
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${name} was not ready within ${readyMs} ms:\n${tail}`)
      await new Promise((r) => setTimeout(r, 150))
    }
  }

  let stopping: Promise<void> | null = null
  const stop = () =>
    (stopping ??= (async () => {
      await proxy?.close()
      for (const role of ['api', 'jobs', 'engine', 'chains'] as const) {
        await Promise.all(processes.filter((p) => p.role === role).map((p) => end(p)))
      }
    })())

  try {
    const chains = await start('chains', 'chains', {}, '/chains')
    const shared = { NADI_DATABASE_URL: opts.databaseUrl, NADI_DATA_DIR: opts.dataDir, NADI_DEV_CHAINS_URL: chains.base }
    // An api process is ready once it mirrors an engine leader: the first engine starts before them.
    await Promise.all([start('engine1', 'engine', shared, HEALTH), start('jobs', 'jobs', shared, HEALTH)])
    const api = { ...shared, NADI_TRUST_PROXY: '1' }
    const [api1, api2] = await Promise.all([start('api1', 'api', api, API_READY), start('api2', 'api', api, API_READY), start('engine2', 'engine', shared, HEALTH)])
    proxy = await startProxy(
      [api1!, api2!].map((p) => ({ host: '127.0.0.1', port: Number(new URL(p.base).port) })),
      opts.listen,
    )
    return { url: proxy.url, chainsUrl: chains.base, processes, stop }
  } catch (err) {
    await stop()
    throw err
  }
}

/** SIGTERM to the process's group (the server stops in order), SIGKILL after 10 s. */
async function end(p: ShapeProcess): Promise<void> {
  if (p.proc.exitCode !== null || p.proc.signalCode !== null) return
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-p.proc.pid!, s)
    } catch {
      // already gone
    }
  }
  signal('SIGTERM')
  const timer = setTimeout(() => signal('SIGKILL'), 10_000)
  await p.exited
  clearTimeout(timer)
}
