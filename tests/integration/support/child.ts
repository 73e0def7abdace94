// The server as a child process (`node --import tsx server/main.ts`, what `npm run serve` runs), for
// the tests that kill it with SIGKILL and start it again on the same data folder.

import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const children = new Set<ChildProcess>()

export interface Child {
  base: string
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
 * Starts the server on `dir` with a test environment plus `env`, and waits until `readyPath` answers
 * 200 (30 s at most). Its output is kept for the failure message.
 */
export async function startChild(dir: string, env: Record<string, string>, readyPath: string): Promise<Child> {
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
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env: full, stdio: ['ignore', 'pipe', 'pipe'] })
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

/** Kills every child still running (afterAll). */
export function killChildren(): void {
  for (const c of children) c.kill('SIGKILL')
}
