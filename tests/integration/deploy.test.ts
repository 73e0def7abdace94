// The deployment's load balancer (deploy/nginx.conf, deploy/Caddyfile; docs/deploy.md), checked by the
// proxies themselves: their own syntax checks, and each proxy run as a non-root process on free ports
// in front of real NADI processes.
//
// On PostgreSQL (the integration-pg project) the proxy fronts the deployment's own shape
// (deploy/Procfile): two `--role api` processes, one `--role engine` and one `--role jobs` on the test's
// database. Through the proxy a user signs in, trades, and sees their order on sockets spread over
// both api processes; one api process is killed with -9, its sockets close, reconnect through the
// proxy to the other, and every request after the kill is answered.
//
// On SQLite (the integration project) it fronts two `--role all` servers of their own and checks the
// graceful stop instead (SIGTERM, as a deploy or `docker stop` sends): the stopping server's sockets
// close through the proxy with 1012 while the other's keep working. That path depends only on HTTP
// and sockets, which every role serves the same way, so it is not run twice.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Wallet } from 'ethers'
import { afterAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { PushFrame } from '../../contract/socket.ts'
import type { Order } from '../../contract/trade.ts'
import { SERVICE_RESTART } from '../../server/ws/hub.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { freePort, fundTraders, killChildren, killGroup, leadsJobs, placeHttp, signInHttp, startChild, type Child } from './support/child.ts'
import { Client } from './support/wsClient.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const HEALTH = '/api/v1/common/health'
/** An api process is ready when it serves the market (read from its mirror of the engine's journal). */
const READY = '/api/v1/trade/market'
const INST = 'NADI-USDT'
const CODE = 'ROOT0001'

/** A program on PATH, or in /usr/sbin where Debian puts nginx (not on a non-root user's PATH), as scripts/preflight.mjs looks. */
function installed(cmd: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' })
  if (r.status === 0) return r.stdout.trim()
  const sbin = path.join('/usr/sbin', cmd)
  return fs.existsSync(sbin) ? sbin : null
}
const NGINX = installed('nginx')
const CADDY = installed('caddy')

// `npm test` starts with scripts/preflight.mjs, which installs nginx and Caddy (as root) or stops the
// run naming the command, so under npm test they are always here. A plain `vitest run` on a machine
// without them skips their checks, saying so; were they missing under npm test anyway (a preflight
// that lost them), the checks run and fail naming the package instead of passing by skipping.
const UNDER_NPM_TEST = process.env.npm_lifecycle_event === 'test'
for (const [bin, pkg] of [
  [NGINX, 'nginx-light'],
  [CADDY, 'caddy'],
] as const) {
  if (!bin && !UNDER_NPM_TEST) console.log(`deploy.test.ts: ${pkg} is not installed (apt-get install -y ${pkg}; npm test installs it): its checks are skipped`)
}

function need(bin: string | null, pkg: string): string {
  if (!bin) throw new Error(`${pkg} is not installed: apt-get install -y ${pkg} (npm test's preflight installs it when run as root)`)
  return bin
}

/** Run as root, the proxies are run as nobody: a deployment never needs root for them past port 80. */
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}

const dirs: string[] = []
const procs: ChildProcess[] = []
const dbs: TestDatabase[] = []
const sockets: WebSocket[] = []
afterAll(() => {
  for (const s of sockets) s.terminate()
  for (const p of procs) p.kill('SIGKILL')
  killChildren()
  for (const d of dbs) d.drop()
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

/** Caddy's environment: its own folders under `home`, and the Caddyfile's addresses. */
const caddyEnv = (home: string, addresses: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home, ...addresses })

/** A proxy running in front of two upstreams: its origin; stop() ends it in order and answers what it wrote to stderr. */
interface Proxy {
  origin: string
  stop(): Promise<string>
  /** What it has written to stderr so far (its error log), for a failure's message. */
  log(): string
  /** What in its stderr means it failed. */
  fatal: RegExp
}
type StartProxy = (upstreams: [number, number]) => Promise<Proxy>

/** A proxy as a child process (non-root), stopped with `signal`. */
function runProxy(cmd: string, args: string[], signal: NodeJS.Signals, env?: NodeJS.ProcessEnv): Pick<Proxy, 'stop' | 'log'> {
  const proc = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'], ...asUser })
  procs.push(proc)
  let err = ''
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  return {
    log: () => err,
    async stop() {
      const exited = new Promise((resolve) => proc.once('exit', resolve))
      proc.kill(signal)
      await exited
      return err
    },
  }
}

const startNginx: StartProxy = async (upstreams) => {
  const bin = need(NGINX, 'nginx-light')
  const prefix = tempDir('nadi-nginx-')
  const listen = await freePort()
  const file = nginxConfig(prefix, listen, upstreams)
  const run = runProxy(bin, [...nginxArgs(prefix, file), '-g', 'daemon off;'], 'SIGQUIT')
  return { origin: `http://127.0.0.1:${listen}`, ...run, fatal: /\[(emerg|crit)\]/ }
}

const startCaddy: StartProxy = async (upstreams) => {
  const bin = need(CADDY, 'caddy')
  const home = tempDir('nadi-caddy-')
  const file = path.join(home, 'Caddyfile')
  // The one addition: a response header naming the upstream that answered, for the test to see.
  fs.writeFileSync(file, swap(fs.readFileSync(path.join(ROOT, 'deploy/Caddyfile'), 'utf8'), 'lb_policy round_robin', 'lb_policy round_robin\n\t\theader_down X-Upstream {http.reverse_proxy.upstream.hostport}'))
  const listen = await freePort()
  const env = caddyEnv(home, { NADI_SITE: `http://127.0.0.1:${listen}`, NADI_API1: `127.0.0.1:${upstreams[0]}`, NADI_API2: `127.0.0.1:${upstreams[1]}` })
  const run = runProxy(bin, ['run', '--config', file, '--adapter', 'caddyfile'], 'SIGTERM', env)
  return { origin: `http://127.0.0.1:${listen}`, ...run, fatal: /"level":"(fatal|panic)"/ }
}

const portOf = (c: Child) => Number(new URL(c.base).port)
const upstreamOf = (c: Child) => c.base.replace('http://', '')

/** The health route through the proxy: its status and the upstream(s) that answered (the last one served). */
async function health(origin: string): Promise<{ status: number; upstream: string }> {
  const res = await fetch(`${origin}${HEALTH}`)
  return { status: res.status, upstream: res.headers.get('x-upstream') ?? '' }
}

/** Round robin, nothing sticky: once the proxy answers, both upstreams serve its requests. */
async function spreads(origin: string, a: Child, b: Child): Promise<void> {
  await expect.poll(() => health(origin).then((h) => h.status, () => 0), { timeout: 10_000, interval: 100 }).toBe(200)
  const answered = new Set<string>()
  for (let i = 0; i < 10; i++) answered.add((await health(origin)).upstream)
  expect([...answered].sort()).toEqual([upstreamOf(a), upstreamOf(b)].sort())
}

/** After a's death every request is served by b (a's refused connection sends each to b). */
async function onlyB(origin: string, b: Child): Promise<void> {
  const after = await Promise.all(Array.from({ length: 10 }, () => health(origin)))
  expect(after.map((h) => h.status)).toEqual(after.map(() => 200))
  expect(after.filter((h) => !h.upstream.endsWith(upstreamOf(b)))).toEqual([])
}

/** Two servers on SQLite data folders of their own. */
async function twoServers(): Promise<[Child, Child]> {
  const servers: Child[] = []
  for (const name of ['a', 'b']) servers.push(await startChild(tempDir(`nadi-deploy-${name}-`), {}, HEALTH))
  return servers as [Child, Child]
}

/**
 * A graceful stop behind the proxy: sockets upgrade through it; server a stopped in order (SIGTERM)
 * closes its sockets with 1012 while b's keep working; afterwards every request and every reconnect is
 * served by b.
 */
async function stopsInOrder(start: StartProxy): Promise<void> {
  const [a, b] = await twoServers()
  const proxy = await start([portOf(a), portOf(b)])
  const origin = proxy.origin
  await spreads(origin, a, b)

  const clients: Client[] = []
  for (let i = 0; i < 6; i++) clients.push(await Client.open(origin))
  for (const [i, s] of clients.entries()) {
    s.send({ method: 'GET_TIME', id: i })
    expect(await s.next()).toMatchObject({ id: i, result: expect.any(Number) })
  }

  a.proc.kill('SIGTERM')
  expect((await a.exited).code).toBe(0)
  await expect.poll(() => clients.filter((s) => s.closed !== null).length, { timeout: 5000 }).toBeGreaterThan(0)
  const closed = clients.filter((s) => s.closed !== null)
  expect(closed.map((s) => s.closed!.code)).toEqual(closed.map(() => SERVICE_RESTART))
  expect(closed.length).toBeLessThan(clients.length)
  for (const [i, s] of clients.entries()) {
    if (s.closed !== null) continue
    s.send({ method: 'GET_TIME', id: 100 + i })
    expect(await s.next()).toMatchObject({ id: 100 + i })
  }
  // The app's reconnects, and every request, reach b.
  for (let i = 0; i < closed.length; i++) {
    const again = await Client.open(origin)
    again.send({ method: 'GET_TIME', id: 200 + i })
    expect(await again.next()).toMatchObject({ id: 200 + i, result: expect.any(Number) })
    again.ws.close()
  }
  await onlyB(origin, b)
  for (const s of clients) s.ws.close()
  expect(await proxy.stop()).not.toMatch(proxy.fatal)
}

/**
 * deploy/Procfile's processes on the test's database, started together as a first start is (they take
 * turns for the seeds): one engine, one jobs process, and two api processes behind the proxy
 * (NADI_TRUST_PROXY=1 as there). All share one data folder, as the compose file's one volume.
 */
async function deployment(): Promise<{ db: TestDatabase; a: Child; b: Child }> {
  const db = freshDatabase()
  dbs.push(db)
  const dir = tempDir('nadi-deploy-pg-')
  const env = { NADI_DATABASE_URL: db.url, NADI_ROOT_INVITE_CODE: CODE }
  const role = (r: string, ready: string, extra: Record<string, string> = {}) => startChild(dir, { ...env, ...extra }, ready, ['--role', r])
  const [engine, jobs, a, b] = await Promise.all([
    role('engine', HEALTH),
    role('jobs', HEALTH),
    role('api', READY, { NADI_TRUST_PROXY: '1' }),
    role('api', READY, { NADI_TRUST_PROXY: '1' }),
  ])
  // The engine's health answers `leading` as the jobs' does.
  await expect.poll(() => leadsJobs(engine), { timeout: 10_000, interval: 100 }).toBe(true)
  await expect.poll(() => leadsJobs(jobs), { timeout: 10_000, interval: 100 }).toBe(true)
  return { db, a, b }
}

/** The app's socket through the proxy, subscribed to the book and its owner's orders; it records what it hears. */
async function watch(origin: string, token: string) {
  const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`)
  sockets.push(ws)
  const pushes: PushFrame[] = []
  let closed: number | null = null
  ws.on('close', (code) => (closed = code))
  // A connection the proxy drops may also emit an error (a reset); its close is what the test reads.
  ws.on('error', () => {})
  ws.on('message', (raw) => {
    const f = JSON.parse(raw.toString()) as PushFrame | { id: unknown }
    if ('arg' in f) pushes.push(f)
  })
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('close', () => reject(new Error(`the socket through the proxy did not open (${closed})`)))
  })
  ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: [`books:${INST}`, 'user@update_order'], id: 1 }))
  return {
    closed: () => closed,
    /** The book's snapshot arrived: the subscription is in place. */
    subscribed: () => pushes.some((p) => p.arg.channel === 'books' && p.action === 'snapshot'),
    heard: (id: number) => pushes.some((p) => p.arg.channel === 'user@update_order' && (p.data as Order[]).some((o) => o.id === id)),
  }
}
type Watcher = Awaited<ReturnType<typeof watch>>

/** Every watcher has heard of every order in `ids` (their owner's update_order). */
const allHeard = (watchers: Watcher[], ids: number[]) => watchers.every((w) => ids.every((id) => w.heard(id)))

/**
 * The deployment behind the proxy, and the death of api process a (kill -9): through the proxy users
 * sign in and trade, and sockets spread over both api processes hear each order; a's sockets close,
 * reconnect through the proxy to b, and hear orders again; every request after the kill is answered.
 */
async function survivesApiKill(start: StartProxy): Promise<void> {
  const { db, a, b } = await deployment()
  const proxy = await start([portOf(a), portOf(b)])
  const origin = proxy.origin
  await spreads(origin, a, b)

  // Round robin: a sign-in's nonce is asked of one api process and checked by the other.
  const [buyer, seller] = [Wallet.createRandom(), Wallet.createRandom()]
  const tokens = [await signInHttp(origin, buyer, CODE), await signInHttp(origin, seller, CODE)] as const
  await fundTraders(db.url, [buyer.address, seller.address], 'deploy')
  const place = (who: 0 | 1, price: string, cid: string) => placeHttp(origin, tokens[who], { side: who === 0 ? 'buy' : 'sell', price, size: '10', client_order_id: cid })

  // Six of the buyer's sockets through the proxy, over both api processes: an order placed through the
  // proxy (sent by either api process to the engine) reaches every one of them.
  const watchers: Watcher[] = []
  for (let i = 0; i < 6; i++) watchers.push(await watch(origin, tokens[0]))
  await expect.poll(() => watchers.every((w) => w.subscribed()), { timeout: 10_000 }).toBe(true)
  const first = await place(0, '0.2', 'before-kill')
  expect(first?.code).toBe(200)
  await expect.poll(() => allHeard(watchers, [first!.data.id]), { timeout: 10_000 }).toBe(true)

  // Orders right after the kill, before anything else goes through the proxy: round robin sends one of
  // the first two to the dead process, and the proxy must pass it on to b (passive failover; the
  // connection was refused, so nothing was sent to a). Crossing pairs, so the engine matches them.
  killGroup(a.proc)
  expect((await a.exited).signal).toBe('SIGKILL')
  const after: Awaited<ReturnType<typeof place>>[] = []
  for (let i = 0; i < 4; i++) {
    after.push(await place(0, '0.3', `after-kill-buy-${i}`))
    after.push(await place(1, '0.3', `after-kill-sell-${i}`))
  }
  expect(after.map((r) => r?.code), proxy.log()).toEqual(after.map(() => 200))

  // A process killed outright sends no close frame: the proxy drops the client's side too (1006). The
  // app reconnects through the proxy: a's refused connection sends each upgrade to b.
  await expect.poll(() => watchers.filter((w) => w.closed() !== null).length, { timeout: 5000 }).toBeGreaterThan(0)
  const again: Watcher[] = []
  for (const w of watchers) if (w.closed() !== null) again.push(await watch(origin, tokens[0]))
  await expect.poll(() => again.every((w) => w.subscribed()), { timeout: 10_000 }).toBe(true)
  const more = [await place(0, '0.3', 'after-reconnect-buy'), await place(1, '0.3', 'after-reconnect-sell')]
  expect(more.map((r) => r?.code), proxy.log()).toEqual([200, 200])

  // Every socket of the buyer that stayed open hears every order they placed after the kill (whether a
  // socket was on a shows only by its closing, so that is judged here, at the end); the reconnected ones
  // hear the orders placed since they reconnected.
  const buys = (rs: typeof after) => rs.filter((_, i) => i % 2 === 0).map((r) => r!.data.id)
  await expect.poll(() => watchers.every((w) => w.closed() !== null || allHeard([w], buys([...after, ...more]))), { timeout: 10_000 }).toBe(true)
  await expect.poll(() => allHeard(again, buys(more)), { timeout: 10_000 }).toBe(true)
  const gone = watchers.filter((w) => w.closed() !== null)
  expect(gone.map((w) => w.closed())).toEqual(gone.map(() => 1006))
  expect(gone.length).toBeLessThan(watchers.length)
  expect(again.filter((w) => w.closed() !== null)).toEqual([])
  await onlyB(origin, b)
  // A new user signs in after the kill: the nonce and the session are the database's, not a's.
  await signInHttp(origin, Wallet.createRandom(), CODE)

  for (const s of sockets) s.terminate()
  expect(await proxy.stop()).not.toMatch(proxy.fatal)
}

const onSqlite = testBackend() === 'sqlite'
const onPostgres = testBackend() === 'postgres'
const GRACEFUL = 'in front of two servers: spreads requests and sockets over both; one stopped in order closes its sockets with 1012 and the other serves everything'
const DEPLOYMENT = 'in front of two api processes, an engine and a jobs process on PostgreSQL: users sign in, trade and hear their orders through it; kill -9 of one api process closes its sockets, they reconnect to the other, and every request after the kill succeeds'

describe.runIf(NGINX || UNDER_NPM_TEST)('deploy/nginx.conf', () => {
  it('passes nginx -t', () => {
    const prefix = tempDir('nadi-nginx-')
    const file = nginxConfig(prefix, 8080, [8081, 8082])
    const r = spawnSync(need(NGINX, 'nginx-light'), ['-t', ...nginxArgs(prefix, file)], { encoding: 'utf8', ...asUser })
    expect(r.stderr).toMatch(/test is successful/)
    expect(r.status).toBe(0)
  })
  it.runIf(onSqlite)(GRACEFUL, { timeout: 60_000 }, () => stopsInOrder(startNginx))
  it.runIf(onPostgres)(DEPLOYMENT, { timeout: 60_000 }, () => survivesApiKill(startNginx))
})

describe.runIf(CADDY || UNDER_NPM_TEST)('deploy/Caddyfile', () => {
  it('passes caddy validate', () => {
    const r = spawnSync(need(CADDY, 'caddy'), ['validate', '--config', path.join(ROOT, 'deploy/Caddyfile'), '--adapter', 'caddyfile'], {
      encoding: 'utf8',
      env: caddyEnv(tempDir('nadi-caddy-')),
      ...asUser,
    })
    expect(r.stdout + r.stderr).toMatch(/Valid configuration/)
    expect(r.status).toBe(0)
  })
  it.runIf(onSqlite)(GRACEFUL, { timeout: 60_000 }, () => stopsInOrder(startCaddy))
  it.runIf(onPostgres)(DEPLOYMENT, { timeout: 60_000 }, () => survivesApiKill(startCaddy))
})
