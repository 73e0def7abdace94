// A throwaway PostgreSQL cluster in a temp folder: what the tests and the bench run against. No system
// service, no root-only path: `initdb` + `pg_ctl` from Debian's package (or $NADI_PG_BIN) on a free
// port, as the `postgres` user when we are root (PostgreSQL refuses to run as root), as ourselves
// otherwise. Durability is switched off (fsync, full pages): the cluster dies with the run.

import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export interface Cluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string
  port: number
  dir: string
  /** The URL of database `name` on this cluster. */
  urlOf(name: string): string
  stop(): void
}

/** Where the PostgreSQL binaries are: $NADI_PG_BIN, else the newest /usr/lib/postgresql/<v>/bin. */
export function pgBinDir(): string | null {
  const env = process.env.NADI_PG_BIN
  if (env) return fs.existsSync(path.join(env, 'initdb')) ? env : null
  const base = '/usr/lib/postgresql'
  if (!fs.existsSync(base)) return null
  const versions = fs
    .readdirSync(base)
    .filter((v) => /^\d+$/.test(v) && Number(v) >= 15 && fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length ? path.join(base, versions[0]!, 'bin') : null
}

/**
 * Runs `sql` on `url` with the cluster's own psql and waits for it: for harnesses that set databases up
 * before anything is served (a test's fresh database, a bench row's), where a child process costs
 * ~20 ms and keeps them free of a synchronous driver.
 */
export function psqlSync(url: string, sql: string, bin = pgBinDir()): void {
  if (!bin) throw new Error(PG_MISSING)
  const r = spawnSync(path.join(bin, 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`psql failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || String(r.error ?? '')).trim()} (in: ${sql})`)
}

/** The one line that says how to get PostgreSQL on this machine. */
export const PG_MISSING = 'PostgreSQL 15+ is not installed (no initdb under /usr/lib/postgresql/*/bin or $NADI_PG_BIN): run `apt-get install -y postgresql`'

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.unref()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

export async function startCluster(opts: { bin?: string; /** How a port is chosen (tests take one that is in use first). */ pickPort?: () => Promise<number> } = {}): Promise<Cluster> {
  const bin = opts.bin ?? pgBinDir()
  if (!bin) throw new Error(PG_MISSING)
  const asRoot = process.getuid?.() === 0
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-pg-'))
  const data = path.join(dir, 'data')
  fs.mkdirSync(data, { mode: 0o700 })
  if (asRoot) {
    execFileSync('chown', ['-R', 'postgres:postgres', dir])
  }
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd)
    const r = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' }) : spawnSync(full, args, { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`)
    return r.stdout
  }
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync'])
  // A free port is free only until someone binds it: `npm test` starts two clusters at once (two
  // vitest runs) beside servers picking ports of their own, so a start that lost its port to another
  // is tried again on a new one.
  let port = 0
  for (let attempt = 1; ; attempt++) {
    port = await (opts.pickPort ?? freePort)()
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses='127.0.0.1'",
      '-c fsync=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
      '-c shared_buffers=256MB',
      '-c max_locks_per_transaction=256',
    ].join(' ')
    try {
      run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '60', 'start'])
      break
    } catch (e) {
      const log = fs.existsSync(path.join(dir, 'log')) ? fs.readFileSync(path.join(dir, 'log'), 'utf8') : ''
      if (attempt >= 3 || !/could not bind|Address already in use/i.test(log)) throw e
    }
  }
  const urlOf = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`
  let stopped = false
  return {
    url: urlOf('postgres'),
    port,
    dir,
    urlOf,
    stop() {
      if (stopped) return
      stopped = true
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
