// The bus across processes on PostgreSQL (server/roles/pgBus.ts), on a real database: messages cross
// between connections and between processes in publish order, a big one travels through
// bus_messages without overtaking or being overtaken, a LISTEN connection killed under a bus comes
// back and tells its subscribers what they may have missed, and whatever else arrives on a channel
// is dropped and logged.

import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { PgPool } from '../../server/db/query/pg.ts'
import { statement } from '../../server/db/query/types.ts'
import { PgBus } from '../../server/roles/pgBus.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

const dbs: TestDatabase[] = []
const buses: PgBus[] = []
const procs: ChildProcess[] = []
afterEach(async () => {
  for (const b of buses.splice(0)) await b.close()
})
afterAll(() => {
  for (const p of procs) p.kill('SIGKILL')
  for (const d of dbs) d.drop()
})

interface Logged {
  warn: string[]
  error: string[]
}

function database(): string {
  const db = freshDatabase()
  dbs.push(db)
  return db.url
}

function bus(url: string, name: string, extra: { pingEveryMs?: number; keepMs?: number } = {}): { bus: PgBus; logged: Logged } {
  const logged: Logged = { warn: [], error: [] }
  const log = { info() {}, warn: (_o: unknown, m?: string) => void logged.warn.push(m ?? ''), error: (_o: unknown, m?: string) => void logged.error.push(m ?? '') }
  const b = new PgBus({ url, log, name, ...extra })
  buses.push(b)
  return { bus: b, logged }
}

/** Resolves when pred holds, checked as messages arrive (every 10 ms), or fails after ms. */
async function until(pred: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

async function sql(url: string, text: string, ...params: unknown[]): Promise<unknown[]> {
  const c = new PgPool(url, { appName: 'nadi tests', max: 1 })
  try {
    return await c.all(statement<unknown, unknown[]>(text), ...params)
  } finally {
    await c.close()
  }
}

const ns = (got: unknown[]) => got.map((p) => (p as { n: number }).n)

describe.runIf(testBackend() === 'postgres')('the bus on PostgreSQL', () => {
  it('two buses on one database exchange messages in publish order, the publisher receiving its own through the same path', async () => {
    const url = database()
    const a = bus(url, 'a').bus
    const b = bus(url, 'b').bus
    const atA: unknown[] = []
    const atB: unknown[] = []
    const atBUser: unknown[] = []
    a.subscribe('books:NADI-USDT', (p) => atA.push(p))
    b.subscribe('books:NADI-USDT', (p) => atB.push(p))
    b.subscribe('user@update_order#7', (p) => atBUser.push(p))
    await Promise.all([a.settled(), b.settled()])
    for (let n = 1; n <= 300; n++) {
      a.publish('books:NADI-USDT', { n })
      if (n % 3 === 0) a.publish('user@update_order#7', { n })
      // Other users' and other markets' messages reach nobody here.
      if (n % 5 === 0) a.publish('user@update_order#8', { n })
      if (n % 10 === 0) await new Promise((r) => setImmediate(r))
    }
    await until(() => atB.length === 300 && atA.length === 300 && atBUser.length === 100, 'all messages')
    const all = Array.from({ length: 300 }, (_, i) => i + 1)
    expect(ns(atA)).toEqual(all)
    expect(ns(atB)).toEqual(all)
    expect(ns(atBUser)).toEqual(all.filter((n) => n % 3 === 0))
    // Nothing arrives with a delay: a message published in one process is not delivered twice.
    await new Promise((r) => setTimeout(r, 100))
    expect(atB.length).toBe(300)
  })

  it('messages published by another process arrive in order, big ones (through bus_messages) in their place', async () => {
    const url = database()
    const { bus: b, logged } = bus(url, 'b')
    const got: unknown[] = []
    let gaps = 0
    b.subscribe('trades:NADI-USDT', (p) => got.push(p), () => gaps++)
    await b.settled()
    const proc = spawn(process.execPath, ['--import', 'tsx', 'tests/integration/support/busPublisher.ts', url, 'trades:NADI-USDT', '1000'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
    procs.push(proc)
    let out = ''
    let err = ''
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    await until(() => out.includes('ready'), `the publisher (stderr: ${err})`, 20_000)
    proc.stdin!.write('go\n')
    await until(() => got.length === 1000, `1,000 messages (got ${got.length}; publisher: ${out} ${err})`, 20_000)
    expect(ns(got)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1))
    expect((got[99] as { pad: string }).pad).toHaveLength(10_000)
    expect(gaps).toBe(0)
    expect(logged.warn).toEqual([])
    expect(await sql(url, 'SELECT count(*) AS n FROM bus_messages')).toEqual([{ n: 10n }])
  })

  it('what is published just before a close still leaves', async () => {
    const url = database()
    const a = new PgBus({ url, log: { info() {}, warn() {}, error() {} } })
    const b = bus(url, 'b').bus
    const got: unknown[] = []
    b.subscribe('tickers:NADI-USDT', (p) => got.push(p))
    await Promise.all([a.settled(), b.settled()])
    for (let n = 1; n <= 5; n++) a.publish('tickers:NADI-USDT', { n })
    a.publish('tickers:NADI-USDT', { n: 6, big: 'z'.repeat(8_000) })
    await a.close()
    await until(() => got.length === 6, 'the messages published before the close')
    expect(ns(got)).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('rows of big messages are deleted once older than keepMs', async () => {
    const url = database()
    let t = 1_000_000
    const logged: string[] = []
    const a = new PgBus({ url, log: { info() {}, warn: (_o: unknown, m?: string) => void logged.push(m ?? ''), error() {} }, now: () => t, keepMs: 1_000 })
    buses.push(a)
    const got: unknown[] = []
    a.subscribe('ranking', (p) => got.push(p))
    await a.settled()
    a.publish('ranking', { big: 'y'.repeat(9_000) })
    await until(() => got.length === 1, 'the big message')
    expect(await sql(url, 'SELECT count(*) AS n FROM bus_messages')).toEqual([{ n: 1n }])
    t += 5_000
    await until(async () => ((await sql(url, 'SELECT count(*) AS n FROM bus_messages')) as { n: bigint }[])[0]!.n === 0n, 'the row to go', 5_000)
  })

  it("a LISTEN connection killed under a bus reconnects, reports the gap to its subscribers, and carries on; what it published meanwhile shows as a gap at the others", async () => {
    const url = database()
    const { bus: a, logged: aLog } = bus(url, 'a')
    const { bus: b, logged: bLog } = bus(url, 'b')
    const atA: unknown[] = []
    const atB: unknown[] = []
    let gapsA = 0
    let gapsB = 0
    a.subscribe('books:NADI-USDT', (p) => atA.push(p), () => gapsA++)
    b.subscribe('books:NADI-USDT', (p) => atB.push(p), () => gapsB++)
    await Promise.all([a.settled(), b.settled()])
    a.publish('books:NADI-USDT', { n: 1 })
    b.publish('books:NADI-USDT', { n: 50 })
    await until(() => atB.length === 2 && atA.length === 2, 'the first messages')

    const killed = await sql(url, "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'nadi bus b %'")
    expect(killed).toEqual([{ ok: 1n }])
    await until(() => bLog.warn.some((m) => /connection lost/.test(m)), 'b to notice')
    // While b is down, what it publishes cannot leave — but its sequence moves on.
    b.publish('books:NADI-USDT', { n: 100 })
    await until(() => gapsB === 1, 'b to reconnect and report the gap')
    await b.settled()
    b.publish('books:NADI-USDT', { n: 101 })
    a.publish('books:NADI-USDT', { n: 2 })
    await until(() => atB.length === 4 && atA.length === 4, 'messages after the reconnect')
    // Order holds per publisher (a: 1, 2; b: 50, 101); between two sessions PostgreSQL promises none.
    const byPublisher = (got: unknown[]) => [ns(got).filter((n) => n < 50), ns(got).filter((n) => n >= 50)]
    expect(byPublisher(atB)).toEqual([[1, 2], [50, 101]])
    // a saw b's 101 right after b's 50 (100 never left): that is a gap for a's subscriber.
    expect(byPublisher(atA)).toEqual([[1, 2], [50, 101]])
    expect(gapsA).toBe(1)
    expect(gapsB).toBe(1)
    expect(aLog.error).toEqual([])
  })

  it('whatever else is notified on a channel is dropped and logged, and what follows is delivered', async () => {
    const url = database()
    const { bus: b, logged } = bus(url, 'b')
    const got: unknown[] = []
    b.subscribe('books:NADI-USDT', (p) => got.push(p))
    await b.settled()
    const other = new PgPool(url, { appName: 'nadi tests', max: 1 })
    const notify = statement<never, [string, string]>('SELECT pg_notify(?, ?)')
    try {
      await other.get(notify, 'nadi_books', 'not json at all')
      // Messages a second apart: the bus logs at most one warning a second.
      await until(() => logged.warn.length === 1, 'the first warning')
      await new Promise((r) => setTimeout(r, 1_050))
      await other.get(notify, 'nadi_books', JSON.stringify({ o: 'abcdef0123456789', s: 1, t: 'user@balance#1', p: {} }))
      await until(() => logged.warn.length === 2, 'the second warning')
      await other.get(notify, 'nadi_books', JSON.stringify({ o: 'abcdef0123456789', s: 2, t: 'books:NADI-USDT', p: { n: 1 } }))
    } finally {
      await other.close()
    }
    await until(() => got.length === 1, 'the good message')
    expect(got).toEqual([{ n: 1 }])
    expect(logged.warn).toEqual(['bus: a malformed message was dropped', 'bus: a malformed message was dropped'])
  })
})
