// The server as a child process (`node --import tsx server/main.ts`, what `npm run serve` runs), for
// the tests that kill it with SIGKILL and start it again on the same data folder.

import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { ApiEnvelope } from '../../../contract/envelope.ts'
import type { Order } from '../../../contract/trade.ts'
import { parseMoney } from '../../../contract/money.ts'
import { openDatabase } from '../../../server/db/index.ts'
import { custody, trade, transfer } from '../../../server/ledger/index.ts'
import { serverArgs } from '../../support/serverBundle.ts'
import { freshDatabase, type TestDatabase } from '../../support/pg.ts'
import { statement } from '../../../server/db/query/types.ts'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const children = new Set<ChildProcess>()

export interface Child {
  base: string
  /** The leader of its own process group (what it starts, e.g. the dev chains' anvil nodes, is in the group). */
  proc: ChildProcess
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  output(): string
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
  })
}

/**
 * Starts the server on `dir` with a test environment plus `env` (and command line `args`, e.g. --role),
 * and waits until `readyPath` answers 200 (30 s at most). Its output is kept for the failure message.
 */
export async function startChild(dir: string, env: Record<string, string>, readyPath: string, args: string[] = []): Promise<Child> {
  const port = await freePort()
  const full: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.homedir(),
    NADI_ENV: 'test',
    NADI_DEMO: '0',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    NADI_DATA_DIR: dir,
    NADI_DIST_DIR: path.join(dir, 'no-dist'),
    ...env,
  }
  const proc = spawn(process.execPath, [...serverArgs('main'), ...args], { cwd: ROOT, env: full, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  children.add(proc)
  let out = ''
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()))
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => {
      children.delete(proc)
      resolve({ code, signal })
    }),
  )
  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`server exited at start:\n${out}`)
    try {
      if ((await fetch(`${base}${readyPath}`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return { base, proc, exited, output: () => out }
}

/** Polls `fn` until it answers something truthy (every 100 ms, `ms` at most), which it returns. */
export async function until<T>(fn: () => T | Promise<T>, what: string, ms = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v) return v as NonNullable<T>
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Signs a wallet in over HTTP (the SIWE flow), registering it under `code`; answers the token. */
export async function signInHttp(base: string, wallet: { address: string; signMessage(m: string): Promise<string> }, code: string): Promise<string> {
  const q = new URLSearchParams({ address: wallet.address, chainId: '56', code })
  const { data } = (await (await fetch(`${base}/api/v1/auth/loginMessage?${q}`)).json()) as { data: { message: string } }
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: wallet.address, message: data.message, sign_message: await wallet.signMessage(data.message), code }),
  })
  const body = (await res.json()) as { data: { token: string } }
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${JSON.stringify(body)}`)
  return body.data.token
}

/**
 * POST trade/placeOrder (a limit order unless body says otherwise); the envelope, or null when the
 * connection died with the server (the order was not acknowledged).
 */
export async function placeHttp(base: string, token: string, body: Record<string, string>): Promise<ApiEnvelope<Order> | null> {
  try {
    const res = await fetch(`${base}/api/v1/trade/placeOrder`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ inst_id: 'NADI-USDT', type: 'limit', ...body }),
    })
    return (await res.json()) as ApiEnvelope<Order>
  } catch {
    return null
  }
}

/**
 * Credits 1,000,000 USDT and NADI to each wallet's trade account, straight into the data folder's
 * ledger (as deposits and transfers would); answers their user ids. Test set-up only.
 */
export async function fundTraders(database: string, addresses: readonly string[], refPrefix: string): Promise<number[]> {
  const side = openDatabase(database)
  try {
    const ids = await Promise.all(addresses.map(async (a) => Number((await side.sql.get(statement<{ id: bigint }>('SELECT id FROM users WHERE wallet_address = ?'), a.toLowerCase()))!.id)))
    await side.sql.transaction(async (tx) => {
      for (const id of ids) {
        for (const asset of ['USDT', 'NADI'] as const) await transfer(tx, { ref: `${refPrefix}:${id}:${asset}`, reason: 'deposit', from: custody('bsc'), to: trade(id), asset, amount: parseMoney('1000000')! })
      }
    })
    return ids
  } finally {
    await side.close()
  }
}

/** Whether a `--role jobs` child leads the jobs, as its health answer says. */
export async function leadsJobs(c: Child): Promise<boolean> {
  return ((await (await fetch(`${c.base}/api/v1/common/health`)).json()) as { data: { leading: boolean } }).data.leading
}

/** kill -9 of the child's whole process group: the server and everything it started die at once. */
export function killGroup(proc: ChildProcess): void {
  try {
    process.kill(-proc.pid!, 'SIGKILL')
  } catch {
    // already gone
  }
}

/** Kills every child still running, with its group (afterAll). */
export function killChildren(): void {
  for (const c of children) killGroup(c)
}

/** Runs `node --import tsx server/cli.ts …` on a data folder; resolves with its exit code and output. */
export function runCli(dir: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const full = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.homedir(), NADI_ENV: 'test', NADI_DEMO: '0', NADI_DATA_DIR: dir, ...env }
    const p = spawn(process.execPath, [...serverArgs('cli'), ...args], { cwd: ROOT, env: full, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    p.stdout!.on('data', (b: Buffer) => (out += b.toString()))
    p.stderr!.on('data', (b: Buffer) => (err += b.toString()))
    p.on('exit', (code) => resolve({ code: code ?? -1, out, err }))
  })
}

/** Starts a server expected to refuse to start; resolves with its exit code and output. */
export function startRefused(dir: string, env: Record<string, string> = {}, args: string[] = []): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const full = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.homedir(), NADI_ENV: 'test', NADI_DEMO: '0', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', NADI_DATA_DIR: dir, NADI_DIST_DIR: path.join(dir, 'no-dist'), ...env }
    const p = spawn(process.execPath, [...serverArgs('main'), ...args], { cwd: ROOT, env: full, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    p.stdout!.on('data', (b: Buffer) => (out += b.toString()))
    p.stderr!.on('data', (b: Buffer) => (out += b.toString()))
    const timer = setTimeout(() => p.kill('SIGKILL'), 30_000)
    p.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, out })
    })
  })
}

/** The roles' shape of the race and blocking tests: a PostgreSQL database of its own, an engine (which migrates and seeds) and `apis` api processes on it. */
export interface RolesOnPostgres {
  db: TestDatabase
  dir: string
  apis: Child[]
  /** Stops every process, drops the database and the folder. */
  stop(): void
}

export async function rolesOnPostgres(name: string, inviteCode: string, apis: number): Promise<RolesOnPostgres> {
  const db = freshDatabase()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `nadi-${name}-`))
  const stop = () => {
    killChildren()
    db.drop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  try {
    const env = { NADI_DATABASE_URL: db.url, NADI_ROOT_INVITE_CODE: inviteCode, NADI_LOGIN_PER_IP: '100000' }
    await startChild(dir, env, '/api/v1/common/health', ['--role', 'engine'])
    const started = await Promise.all(Array.from({ length: apis }, () => startChild(dir, env, '/api/v1/trade/market', ['--role', 'api'])))
    return { db, dir, apis: started, stop }
  } catch (e) {
    stop()
    throw e
  }
}
