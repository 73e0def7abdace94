// `npm run shape`: NADI as it scales out, on one machine, with nothing to set up — a throwaway
// PostgreSQL cluster (the tests' own, server/db/pg/cluster.ts), the demo's dev chains as one process,
// two engine candidates, a jobs process, two api processes and a proxy in front of them
// (./shape/launch.ts). Ctrl-C stops it all and removes the cluster and the data folder: nothing is kept.
//
// PORT (8080) is the proxy's; HOST (127.0.0.1) where it listens; NADI_ROOT_INVITE_CODE the first
// user's code (random otherwise); LOG_LEVEL the processes' (warn). Any other NADI_* setting reaches
// every process.

import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PG_MISSING, startCluster, type Cluster } from '../server/db/pg/cluster.ts'
import pg from 'pg'
import { envInt } from '../server/settings.ts'
import { startShape, type Shape } from './shape/launch.ts'

const say = (text: string) => process.stdout.write(text)

let cluster: Cluster | null = null
let shape: Shape | null = null
let dataDir: string | null = null
let stopping = false

async function stopAll(code: number): Promise<never> {
  stopping = true
  await shape?.stop().catch((err: unknown) => say(`  stopping the processes failed: ${String(err)}\n`))
  try {
    cluster?.stop()
  } catch (err) {
    say(`  stopping PostgreSQL failed: ${String(err)}\n`)
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  process.exit(code)
}

// SIGHUP too: the children are in groups of their own, so a closed terminal would leave them running.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) return
    say('\n  Stopping: the proxy, the api processes, the jobs, the engines, the chains, then PostgreSQL…\n')
    void stopAll(0)
  })
}

try {
  const port = envInt(process.env, 'PORT', 8080, 0, 65_535)
  const host = process.env.HOST?.trim() || '127.0.0.1'
  const code = process.env.NADI_ROOT_INVITE_CODE?.trim().toUpperCase() || crypto.randomBytes(4).toString('hex').toUpperCase()
  say('  Starting a throwaway PostgreSQL cluster…\n')
  try {
    cluster = await startCluster()
  } catch (err) {
    throw new Error(err instanceof Error && err.message === PG_MISSING ? PG_MISSING : `PostgreSQL did not start: ${String(err)}`, { cause: err })
  }
  const admin = new pg.Client({ connectionString: cluster.url, application_name: 'nadi shape' })
  await admin.connect()
  try {
    await admin.query('CREATE DATABASE nadi')
  } finally {
    await admin.end()
  }
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-shape-'))
  say('  Starting the dev chains, two engines, the jobs, two api processes and the proxy…\n')
  shape = await startShape({ databaseUrl: cluster.urlOf('nadi'), dataDir, listen: { host, port }, env: { NADI_ROOT_INVITE_CODE: code } })
  const open = `${shape.url.replace('127.0.0.1', 'localhost')}/?code=${code}`
  const rows = shape.processes.map((p) => `    ${p.name.padEnd(8)} pid ${String(p.proc.pid).padEnd(8)} ${p.base}`)
  say(
    `\n  NADI's scale-out shape is running. Open ${open}\n` +
      `  (root invite code ${code}; the proxy spreads requests over api1 and api2)\n\n` +
      `    proxy    ${shape.url} → api1, api2\n${rows.join('\n')}\n` +
      `    postgres ${cluster.urlOf('nadi')}\n\n` +
      `  kill -9 an engine's pid and the other leads within seconds; Ctrl-C stops everything and deletes its data.\n\n`,
  )
  for (const p of shape.processes) {
    void p.exited.then(({ code: c, signal }) => {
      if (!stopping) say(`  ${p.name} (pid ${p.proc.pid}) ended (${signal ?? `code ${c}`}); the others go on. Ctrl-C stops them.\n`)
    })
  }
} catch (err) {
  say(`\n  The shape did not start: ${err instanceof Error ? err.message : String(err)}\n\n`)
  await stopAll(1)
}
