// The deployment's load balancer (deploy/nginx.conf, deploy/Caddyfile; docs/deploy.md), checked by the
// proxies themselves: their own syntax checks, and each proxy run as a non-root process on free ports
// in front of two real NADI servers — requests spread over both, WebSockets upgraded through it, and
// when one server stops, its sockets closed with 1012 and every request and new socket served by the
// other. Skipped, saying so, where nginx or Caddy is not installed.
//
// The servers are two `--role all` processes on SQLite data folders of their own: what the proxy does
// depends only on HTTP and sockets, which every role serves the same way (the api role's health route
// and /ws are the same routes); so this runs once, on the SQLite project.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SERVICE_RESTART } from '../../server/ws/hub.ts'
import { testBackend } from '../support/pg.ts'
import { freePort, killChildren, startChild, type Child } from './support/child.ts'
import { Client } from './support/wsClient.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const HEALTH = '/api/v1/common/health'

function installed(cmd: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' })
  return r.status === 0 ? r.stdout.trim() : null
}
const NGINX = installed('nginx')
const CADDY = installed('caddy')
if (!NGINX) console.log('deploy.test.ts: nginx is not installed (apt-get install -y nginx-light): the nginx checks are skipped')
if (!CADDY) console.log('deploy.test.ts: caddy is not installed (apt-get install -y caddy): the Caddyfile check is skipped')

/** Run as root, the proxies are run as nobody: a deployment never needs root for them past port 80. */
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}

const dirs: string[] = []
const procs: ChildProcess[] = []
afterAll(() => {
  for (const p of procs) p.kill('SIGKILL')
  killChildren()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function tempDir(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  fs.chmodSync(d, 0o777)
  dirs.push(d)
  return d
}

/** Replaces `from` in `text`, which must be there: a change to a config that this adaptation misses fails here. */
function swap(text: string, from: string | RegExp, to: string): string {
  const found = typeof from === 'string' ? text.includes(from) : text.search(from) >= 0
  if (!found) throw new Error(`the config no longer has ${String(from)}`)
  return text.replace(from, to)
}

/**
 * deploy/nginx.conf as it runs here: its listen port and upstreams on free ports, its files (pid, logs,
 * temp) under `prefix`, and a response header naming the upstream that answered, for the test to see.
 */
function nginxConfig(prefix: string, listen: number, upstreams: [number, number]): string {
  let conf = fs.readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8')
  conf = swap(conf, 'listen 8080;', `listen 127.0.0.1:${listen};\n    add_header X-Upstream $upstream_addr always;`)
  conf = swap(conf, '127.0.0.1:8081', `127.0.0.1:${upstreams[0]}`)
  conf = swap(conf, '127.0.0.1:8082', `127.0.0.1:${upstreams[1]}`)
  conf = swap(conf, /^pid \S+;/m, `pid ${prefix}/nginx.pid;`)
  conf = swap(conf, /\/var\/log\/nginx\//g, `${prefix}/`)
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${prefix}/${t};`).join('\n')
  conf = swap(conf, /^http \{$/m, `http {\n${temp}`)
  const file = path.join(prefix, 'nginx.conf')
  fs.writeFileSync(file, conf)
  return file
}

/** nginx's arguments for a config under `prefix`: errors to stderr from the start (not the packaged log path). */
const nginxArgs = (prefix: string, file: string) => ['-e', 'stderr', '-p', prefix, '-c', file]

/** A proxy as a child process (non-root); stop() ends it with `signal` and answers what it wrote to stderr. */
function runProxy(cmd: string, args: string[], env?: NodeJS.ProcessEnv): { stop(signal: NodeJS.Signals): Promise<string> } {
  const proc = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'], ...asUser })
  procs.push(proc)
  let err = ''
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  return {
    async stop(signal) {
      const exited = new Promise((resolve) => proc.once('exit', resolve))
      proc.kill(signal)
      await exited
      return err
    },
  }
}

/** Two servers on SQLite data folders of their own. */
async function twoServers(): Promise<[Child, Child]> {
  const servers: Child[] = []
  for (const name of ['a', 'b']) servers.push(await startChild(tempDir(`nadi-deploy-${name}-`), {}, HEALTH))
  return servers as [Child, Child]
}

const portOf = (c: Child) => Number(new URL(c.base).port)

/**
 * What the app needs from a balancer at `origin` in front of servers a and b (its copy of the config
 * names the upstream that answered in X-Upstream): requests reach both; sockets upgrade; a stopped in
 * order (SIGTERM, as a deploy or `docker stop` does) closes its sockets with 1012 while b's keep
 * working; afterwards every request and every reconnect is served by b.
 */
async function balances(origin: string, a: Child, b: Child): Promise<void> {
  const upstreamOf = (c: Child) => c.base.replace('http://', '')
  const health = async () => {
    const res = await fetch(`${origin}${HEALTH}`)
    return { status: res.status, upstream: res.headers.get('x-upstream') ?? '' }
  }
  await expect.poll(() => health().then((h) => h.status, () => 0), { timeout: 10_000, interval: 100 }).toBe(200)

  // Round robin, nothing sticky: both servers answer.
  const answered = new Set<string>()
  for (let i = 0; i < 10; i++) answered.add((await health()).upstream)
  expect([...answered].sort()).toEqual([upstreamOf(a), upstreamOf(b)].sort())

  const sockets: Client[] = []
  for (let i = 0; i < 6; i++) sockets.push(await Client.open(origin))
  for (const [i, s] of sockets.entries()) {
    s.send({ method: 'GET_TIME', id: i })
    expect(await s.next()).toMatchObject({ id: i, result: expect.any(Number) })
  }

  a.proc.kill('SIGTERM')
  expect((await a.exited).code).toBe(0)
  await expect.poll(() => sockets.filter((s) => s.closed !== null).length, { timeout: 5000 }).toBeGreaterThan(0)
  const closed = sockets.filter((s) => s.closed !== null)
  expect(closed.map((s) => s.closed!.code)).toEqual(closed.map(() => SERVICE_RESTART))
  expect(closed.length).toBeLessThan(sockets.length)
  for (const [i, s] of sockets.entries()) {
    if (s.closed !== null) continue
    s.send({ method: 'GET_TIME', id: 100 + i })
    expect(await s.next()).toMatchObject({ id: 100 + i })
  }
  // The app's reconnects, and every request, reach b: a's refused connection sends each to the other.
  for (let i = 0; i < closed.length; i++) {
    const again = await Client.open(origin)
    again.send({ method: 'GET_TIME', id: 200 + i })
    expect(await again.next()).toMatchObject({ id: 200 + i, result: expect.any(Number) })
    again.ws.close()
  }
  const after = await Promise.all(Array.from({ length: 10 }, () => health()))
  expect(after.map((h) => h.status)).toEqual(after.map(() => 200))
  expect(after.every((h) => h.upstream.endsWith(upstreamOf(b)))).toBe(true)
  for (const s of sockets) s.ws.close()
}

describe.runIf(NGINX)('deploy/nginx.conf', () => {
  it('passes nginx -t', () => {
    const prefix = tempDir('nadi-nginx-')
    const file = nginxConfig(prefix, 8080, [8081, 8082])
    const r = spawnSync(NGINX!, ['-t', ...nginxArgs(prefix, file)], { encoding: 'utf8', ...asUser })
    expect(r.stderr).toMatch(/test is successful/)
    expect(r.status).toBe(0)
  })

  it.runIf(testBackend() === 'sqlite')(
    'in front of two servers: spreads requests and sockets over both, and when one stops the other serves everything',
    { timeout: 60_000 },
    async () => {
      const [a, b] = await twoServers()
      const prefix = tempDir('nadi-nginx-')
      const listen = await freePort()
      const file = nginxConfig(prefix, listen, [portOf(a), portOf(b)])
      const nginx = runProxy(NGINX!, [...nginxArgs(prefix, file), '-g', 'daemon off;'])
      await balances(`http://127.0.0.1:${listen}`, a, b)
      expect(await nginx.stop('SIGQUIT')).not.toMatch(/\[(emerg|crit)\]/)
    },
  )
})

/** Caddy's environment: its own folders under `home`, and the Caddyfile's addresses. */
const caddyEnv = (home: string, addresses: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home, ...addresses })

describe.runIf(CADDY)('deploy/Caddyfile', () => {
  it('passes caddy validate', () => {
    const r = spawnSync(CADDY!, ['validate', '--config', path.join(ROOT, 'deploy/Caddyfile'), '--adapter', 'caddyfile'], {
      encoding: 'utf8',
      env: caddyEnv(tempDir('nadi-caddy-')),
      ...asUser,
    })
    expect(r.stdout + r.stderr).toMatch(/Valid configuration/)
    expect(r.status).toBe(0)
  })

  it.runIf(testBackend() === 'sqlite')(
    'in front of two servers: spreads requests and sockets over both, and when one stops the other serves everything',
    { timeout: 60_000 },
    async () => {
      const [a, b] = await twoServers()
      const home = tempDir('nadi-caddy-')
      const file = path.join(home, 'Caddyfile')
      // The one addition: a response header naming the upstream that answered, for the test to see.
      fs.writeFileSync(file, swap(fs.readFileSync(path.join(ROOT, 'deploy/Caddyfile'), 'utf8'), 'lb_policy round_robin', 'lb_policy round_robin\n\t\theader_down X-Upstream {http.reverse_proxy.upstream.hostport}'))
      const listen = await freePort()
      const env = caddyEnv(home, { NADI_SITE: `http://127.0.0.1:${listen}`, NADI_API1: `127.0.0.1:${portOf(a)}`, NADI_API2: `127.0.0.1:${portOf(b)}` })
      const caddy = runProxy(CADDY!, ['run', '--config', file, '--adapter', 'caddyfile'], env)
      await balances(`http://127.0.0.1:${listen}`, a, b)
      expect(await caddy.stop('SIGTERM')).not.toMatch(/"level":"(fatal|panic)"/)
    },
  )
})
