// Leadership through a PostgreSQL advisory lock (server/roles/leader.ts), with real processes: of two
// candidates on one key exactly one leads; kill -9 of the leader and the other leads within 5 s; a
// leader closed in order stops its work before it lets go; a leader whose session is ended under it
// stops at once and, alone, leads again; a leader whose work cannot start steps down.

import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PgPool } from '../../server/db/query/pg.ts'
import { statement } from '../../server/db/query/types.ts'
import { elect } from '../../server/roles/leader.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const KEY = 7_499_001

interface Candidate {
  proc: ChildProcess
  /** Every line it printed: [what, at]. */
  lines: [string, number][]
  /** Resolves with the time of its first `what` line. */
  next(what: string, timeoutMs?: number): Promise<number>
}

const procs: ChildProcess[] = []
const dbs: TestDatabase[] = []
afterAll(() => {
  for (const p of procs) p.kill('SIGKILL')
  for (const d of dbs) d.drop()
})

function candidate(url: string): Candidate {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'tests/integration/support/elector.ts', url, 'test', String(KEY)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  procs.push(proc)
  const lines: [string, number][] = []
  let err = ''
  const waiters: (() => void)[] = []
  let buf = ''
  proc.stdout!.on('data', (b: Buffer) => {
    buf += b.toString()
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const [what, at] = buf.slice(0, i).split(' ')
      buf = buf.slice(i + 1)
      lines.push([what!, Number(at)])
      for (const w of waiters.splice(0)) w()
    }
  })
  proc.stderr!.on('data', (b: Buffer) => (err += b.toString()))
  return {
    proc,
    lines,
    next: (what, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const seen = () => lines.find(([w]) => w === what)
        const timer = setTimeout(() => reject(new Error(`no "${what}" within ${timeoutMs} ms; printed ${JSON.stringify(lines)}; stderr ${err}`)), timeoutMs)
        const check = () => {
          const l = seen()
          if (l) {
            clearTimeout(timer)
            resolve(l[1])
          } else waiters.push(check)
        }
        check()
      }),
  }
}

const leaderRow = async (url: string) => {
  const c = new PgPool(url, { appName: 'nadi tests', max: 1 })
  try {
    return await c.get(statement<{ pid: bigint }, []>("SELECT pid FROM role_leaders WHERE name = 'test'"))
  } finally {
    await c.close()
  }
}

/** A fresh database, candidate a leading on it and candidate b started after it (a standby). */
async function leaderAndStandby() {
  const db = freshDatabase()
  dbs.push(db)
  const a = candidate(db.url)
  await a.next('lead')
  const b = candidate(db.url)
  await b.next('started')
  return { db, a, b }
}

describe.runIf(testBackend() === 'postgres')('leadership through PostgreSQL', () => {
  it('of two candidates one leads; kill -9 of the leader and the standby leads within 5 s', { timeout: 60_000 }, async () => {
    const { db, a, b } = await leaderAndStandby()
    // A standby asks every second: three refusals in a row, and the leader's row names the leader.
    await new Promise((r) => setTimeout(r, 3000))
    expect(b.lines.map(([w]) => w)).toEqual(['started'])
    expect(Number((await leaderRow(db.url))?.pid)).toBe(a.proc.pid)

    const killedAt = Date.now()
    a.proc.kill('SIGKILL')
    const ledAt = await b.next('lead', 10_000)
    const takeover = ledAt - killedAt
    console.log(`leadership takeover after kill -9 of the leader: ${takeover} ms`)
    expect(takeover).toBeLessThan(5000)
    await expect.poll(async () => Number((await leaderRow(db.url))?.pid)).toBe(b.proc.pid)
    b.proc.kill('SIGKILL')
  })

  it('a leader closed in order stops its work before the lock goes; the standby leads and the row names it', { timeout: 60_000 }, async () => {
    const { db, a, b } = await leaderAndStandby()
    a.proc.kill('SIGTERM')
    const lost = await a.next('lose')
    const closed = await a.next('closed')
    expect(lost).toBeLessThanOrEqual(closed)
    expect(await b.next('lead', 5000)).toBeGreaterThanOrEqual(lost)
    await expect.poll(async () => Number((await leaderRow(db.url))?.pid)).toBe(b.proc.pid)
    b.proc.kill('SIGTERM')
    await b.next('closed')
    expect(await leaderRow(db.url)).toBeUndefined()
  })

  it('a leader whose session ends under it stops its work at once, and leads again when the lock is free', { timeout: 30_000 }, async () => {
    const db = freshDatabase()
    dbs.push(db)
    const events: [string, number][] = []
    const log = { info() {}, warn() {}, error() {} }
    const election = elect({ url: db.url, name: 'test', key: KEY, onLead: () => void events.push(['lead', Date.now()]), onLose: () => void events.push(['lose', Date.now()]), log })
    try {
      await expect.poll(() => events.length).toBe(1)
      expect(election.leading()).toBe(true)
      const admin = new PgPool(db.url, { appName: 'nadi tests', max: 1 })
      // Connected before the clock starts, so that the time measured is the leader's noticing alone.
      await admin.get(statement('SELECT 1'))
      const cutAt = Date.now()
      try {
        // In the select list, so that only the rows the WHERE kept are terminated.
        expect(await admin.all(statement("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'nadi test leader pid %'"))).toEqual([{ pg_terminate_backend: 1n }])
      } finally {
        await admin.close()
      }
      await expect.poll(() => events.map(([w]) => w)).toEqual(['lead', 'lose'])
      expect(election.leading()).toBe(false)
      // Noticed as the connection's end, not at the next heartbeat.
      expect(events[1]![1] - cutAt).toBeLessThan(500)
      await expect.poll(() => events.map(([w]) => w), { timeout: 10_000 }).toEqual(['lead', 'lose', 'lead'])
    } finally {
      await election.close()
    }
    expect(events.map(([w]) => w)).toEqual(['lead', 'lose', 'lead', 'lose'])
  })

  it('a leader whose work fails to start steps down (its work stopped) and seeks the leadership again', { timeout: 30_000 }, async () => {
    const db = freshDatabase()
    dbs.push(db)
    const events: string[] = []
    let starts = 0
    const log = { info() {}, warn() {}, error() {} }
    const onLead = () => {
      events.push('lead')
      if (++starts === 1) throw new Error('the work could not start')
    }
    const election = elect({ url: db.url, name: 'test', key: KEY, onLead, onLose: () => void events.push('lose'), log })
    try {
      await expect.poll(() => events, { timeout: 10_000 }).toEqual(['lead', 'lose', 'lead'])
      expect(election.leading()).toBe(true)
    } finally {
      await election.close()
    }
  })
})
