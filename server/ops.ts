// The operator socket. A server holds its data folder's writer lock (db/writerLock.ts) for its whole
// life, so an operator command that writes (`withdraw approve`, `market repair`) cannot open the
// database beside it as a second writer; it asks the server instead, over a Unix socket that only
// the folder's owner can reach, and the server runs the command in its own process, on its own
// connection and live market. One request per connection: a JSON line {"argv":[…],"user":"…"} in (user:
// the OS user who ran the CLI, whom the operator log names), a JSON line {"code","out","err"} back.

import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export interface OpsResult {
  code: number
  out: string
  err: string
}

const MAX_REQUEST = 64 * 1024
/** sun_path holds 108 bytes on Linux, 104 on macOS. */
const MAX_SOCKET_PATH = 100

/** The socket beside the database, or in the temp folder (named after the database) when that path is too long. */
export function opsSocketPath(dbFile: string): string {
  const beside = `${dbFile}.ops.sock`
  if (Buffer.byteLength(beside) <= MAX_SOCKET_PATH) return beside
  const id = crypto.createHash('sha256').update(path.resolve(dbFile)).digest('hex').slice(0, 16)
  return path.join(os.tmpdir(), `nadi-${id}.ops.sock`)
}

export interface OpsRequest {
  argv: string[]
  /** The OS user who ran the CLI. */
  user: string
}

/** What an OS user name may be when it is logged; anything else is logged as unknown. */
export const OS_USER = /^[A-Za-z0-9._-]{1,64}$/

function parseRequest(line: string): OpsRequest | null {
  try {
    const v = JSON.parse(line) as { argv?: unknown; user?: unknown }
    if (!Array.isArray(v.argv) || v.argv.length === 0 || v.argv.length > 32) return null
    if (!v.argv.every((a): a is string => typeof a === 'string' && a.length <= 1000)) return null
    return { argv: v.argv, user: typeof v.user === 'string' && OS_USER.test(v.user) ? v.user : 'unknown' }
  } catch {
    return null
  }
}

/** The OS user running this process, as the operator log names them. */
export function osUser(): string {
  let name: string | undefined
  try {
    name = os.userInfo().username
  } catch {
    // No passwd entry for the uid (a container's arbitrary user): the environment's name, if any.
    name = process.env.USER ?? process.env.LOGNAME
  }
  return name !== undefined && OS_USER.test(name) ? name : 'unknown'
}

export interface OpsServer {
  readonly path: string
  close(): Promise<void>
}

/**
 * Listens on the socket and runs each request's argv. Call only while holding the writer lock: a
 * socket file left by a process that died is removed first, and nobody else may be listening there.
 */
export async function listenOps(socketPath: string, run: (request: OpsRequest) => Promise<OpsResult>, log: { error(o: unknown, m?: string): void }): Promise<OpsServer> {
  fs.rmSync(socketPath, { force: true })
  const server = net.createServer((sock) => {
    let buf = ''
    sock.setEncoding('utf8')
    sock.setTimeout(60_000, () => sock.destroy())
    sock.on('error', () => {})
    sock.on('data', (chunk: string) => {
      buf += chunk
      if (buf.length > MAX_REQUEST) {
        sock.end(`${JSON.stringify({ code: 2, out: '', err: 'request too large' })}\n`)
        return
      }
      const nl = buf.indexOf('\n')
      if (nl < 0) return
      sock.pause()
      const request = parseRequest(buf.slice(0, nl))
      if (!request) {
        sock.end(`${JSON.stringify({ code: 2, out: '', err: 'bad request: expected {"argv":[...]}' })}\n`)
        return
      }
      const { argv } = request
      run(request).then(
        (r) => sock.end(`${JSON.stringify(r)}\n`),
        (err: unknown) => {
          log.error({ err, argv }, 'ops: command failed')
          sock.end(`${JSON.stringify({ code: 1, out: '', err: `failed in the server: ${err instanceof Error ? err.message : String(err)}` })}\n`)
        },
      )
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(socketPath, () => {
      server.off('error', reject)
      resolve()
    })
  })
  // The folder's owner only: the socket runs operator commands.
  fs.chmodSync(socketPath, 0o600)
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        fs.rmSync(socketPath, { force: true })
      }),
  }
}

/** Sends one command to the server holding the lock; rejects when nobody answers there. */
export function sendOps(socketPath: string, argv: string[], timeoutMs = 120_000, user = osUser()): Promise<OpsResult> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(socketPath)
    let buf = ''
    sock.setEncoding('utf8')
    sock.setTimeout(timeoutMs, () => sock.destroy(new Error(`no answer from ${socketPath} in ${timeoutMs} ms`)))
    sock.on('connect', () => sock.write(`${JSON.stringify({ argv, user })}\n`))
    sock.on('data', (c: string) => (buf += c))
    sock.on('error', reject)
    sock.on('end', () => {
      try {
        const r = JSON.parse(buf) as OpsResult
        if (typeof r.code !== 'number' || typeof r.out !== 'string' || typeof r.err !== 'string') throw new Error('bad answer')
        resolve(r)
      } catch {
        reject(new Error(`the server at ${socketPath} answered something unreadable`))
      }
    })
  })
}
