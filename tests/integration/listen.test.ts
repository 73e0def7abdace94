// Where `npm start` listens (issue 33): this machine only unless HOST says otherwise, since the demo
// wallet and the faucet answer whoever reaches the port. The bound address is read from the kernel's
// socket table (/proc/net/tcp), so nothing is sent to any other address to find out.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { testBackend } from '../support/pg.ts'
import { killChildren, killGroup, startChild, startRefused } from './support/child.ts'

const HEALTH = '/api/v1/common/health'
const dirs: string[] = []
afterAll(() => {
  killChildren()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-listen-'))
  dirs.push(d)
  return d
}

/** The local addresses of the sockets listening on `port` (IPv4 as dotted quads, IPv6 as "::" or hex). */
function listeningOn(port: number): string[] {
  const out: string[] = []
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/)
      if (!local || state !== '0A') continue // 0A: LISTEN
      const [addr, hexPort] = local.split(':') as [string, string]
      if (parseInt(hexPort, 16) !== port) continue
      out.push(addr.length === 8 ? (addr.match(/../g) as string[]).reverse().map((b) => parseInt(b, 16)).join('.') : /^0+$/.test(addr) ? '::' : addr)
    }
  }
  return out
}

// The bind is the same on either database: run once.
describe.skipIf(testBackend() === 'postgres')('where the server listens', () => {
  it('with no HOST it listens on 127.0.0.1 only', async () => {
    const c = await startChild(tempDir(), { HOST: '' }, HEALTH)
    expect(listeningOn(Number(new URL(c.base).port))).toEqual(['127.0.0.1'])
    killGroup(c.proc)
  })

  it('HOST=0.0.0.0 listens on every interface', async () => {
    const c = await startChild(tempDir(), { HOST: '0.0.0.0' }, HEALTH)
    expect(listeningOn(Number(new URL(c.base).port))).toEqual(['0.0.0.0'])
    killGroup(c.proc)
  })

  it('a HOST that is no address or host name stops the start, naming it', async () => {
    const { code, out } = await startRefused(tempDir(), { HOST: 'http://0.0.0.0:8080' })
    expect(code).toBe(1)
    expect(out).toContain('NADI did not start: HOST must be an IP address or a host name to listen on')
  })
})
