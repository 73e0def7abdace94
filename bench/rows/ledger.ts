import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { SqlConnection } from '../../server/db/connection.ts'
import { statement, type Sql, type Tx } from '../../server/db/query/types.ts'
import { openDatabase, openSqliteFile, transaction, type Database_, type SqliteDatabase } from '../../server/db/index.ts'
import { GroupCommit } from '../../server/db/groupCommit.ts'
import { migrate, migrateDatabase } from '../../server/db/migrate.ts'
import { audit, custody, fund, trade, transfer } from '../../server/ledger/index.ts'
import { onPostgres, POSTGRES, SQLITE } from '../support/postgres.ts'
import { summarize } from '../support/stats.ts'
import { info, type BenchContext, type Row } from '../support/types.ts'

export const id = 'ledger'

const TARGET_PER_S = 20_000
const USERS = 1_000
const WINDOW_MS = 2_000
const WARM_UP_MS = 300
/** Actions in flight at once: requests waiting for their acknowledgement. */
const CONCURRENCY = 1_000
const SEED_BALANCE = 1_000_000n * 100_000_000n

const perSecond = (v: number) => `${Math.round(v).toLocaleString('en-US')}/s`

/** A row whose value must reach at least `min` (support/types.ts has only atMost). */
function atLeast(o: { name: string; value: number; unit: string; min: number; format: (v: number) => string; details?: unknown }): Row {
  return {
    name: o.name,
    measured: o.format(o.value),
    target: `≥ ${o.format(o.min)}`,
    pass: o.value >= o.min,
    value: o.value,
    unit: o.unit,
    limit: o.min,
    details: o.details,
  }
}

interface Rig {
  /** One posting on SQLite's connection, in the transaction open on it. */
  next: (sqlite: SqlConnection) => void
  /** next, in a transaction of the asynchronous way (group commit's batch), on either backend. */
  nextIn: (tx: Tx) => Promise<void>
  posted: () => number
}

/** Users with money in both accounts; each next() posts one 2-account transfer (fund ↔ trade or user → user). */
function rig(tag: string): Rig {
  let n = 0
  let seed = 0x2545f491
  const rand = () => {
    // xorshift32: cheap, deterministic, enough to spread the accounts touched
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 2 ** 32
  }
  const move = () => {
    const a = 1 + Math.floor(rand() * USERS)
    const b = 1 + Math.floor(rand() * USERS)
    const kind = rand() < 0.5
    const from = kind ? fund(a) : trade(a)
    const to = a === b ? (kind ? trade(a) : fund(a)) : kind ? fund(b) : trade(b)
    const i = n++
    return { ref: `bench:${tag}:${i}`, reason: 'transfer' as const, from, to, asset: 'USDT' as const, amount: 1n + BigInt(i % 1000) }
  }
  return {
    posted: () => n,
    next(sqlite) {
      transfer(sqlite, move())
    },
    async nextIn(tx) {
      await transfer(tx, move())
    },
  }
}

/** A fresh SQLite file, migrated and seeded. */
async function openFresh(dir: string, name: string, synchronous: 'NORMAL' | 'FULL'): Promise<SqliteDatabase> {
  const conn = openSqliteFile(path.join(dir, `${name}.sqlite`))
  // openSqliteFile sets WAL + synchronous=NORMAL, the app's settings; FULL only for the companion row.
  if (synchronous === 'FULL') conn.sqlite.pragma('synchronous = FULL')
  migrate(conn.sqlite)
  await seed(conn.sql)
  return conn
}

/**
 * `target`: a SQLite file or a postgres:// URL (openDatabase), migrated (PostgreSQL's through its
 * pool) and seeded, opened as the server opens it: on SQLite, WAL checkpoints in a worker thread.
 */
async function openFreshConn(target: string): Promise<Database_> {
  const conn = openDatabase(target, { checkpointInWorker: true })
  await migrateDatabase(conn)
  await seed(conn.sql)
  return conn
}

const INSERT_USER = statement<never, [code: string, name: string]>('INSERT INTO users (code, name, created_at) VALUES (?, ?, 0)')

/** USERS users, 1…USERS on a fresh database, through the asynchronous way: PostgreSQL has no other. */
async function seed(sql: Sql): Promise<void> {
  await sql.transaction(async (tx) => {
    for (let i = 1; i <= USERS; i++) {
      await tx.run(INSERT_USER, `BENCH${i}`, `bench ${i}`)
      for (const account of [fund(i), trade(i)]) {
        await transfer(tx, { ref: `seed:${i}:${'user' in account ? account.kind : ''}`, reason: 'deposit', from: custody('bsc'), to: account, asset: 'USDT', amount: SEED_BALANCE })
      }
    }
  })
}

/** Postings per second over a window: `perTx` postings per committed transaction. */
function measure(r: Rig, sqlite: SqlConnection, perTx: number, ms: number): { rate: number; postings: number; ms: number } {
  const start = r.posted()
  const t0 = performance.now()
  let t = t0
  while (t - t0 < ms) {
    if (perTx === 1) transaction(sqlite, () => r.next(sqlite))
    else transaction(sqlite, () => {
      for (let i = 0; i < perTx; i++) r.next(sqlite)
    })
    t = performance.now()
  }
  const postings = r.posted() - start
  return { rate: (postings * 1000) / (t - t0), postings, ms: t - t0 }
}

/**
 * Postings per second through group commit: CONCURRENCY callers each submit one posting and wait for
 * its acknowledgement (after the commit that holds it) before submitting the next, as requests do.
 */
async function measureGroup(r: Rig, gc: GroupCommit, ms: number): Promise<{ rate: number; postings: number; ms: number; ackP99Ms: number; batches: number }> {
  const start = r.posted()
  const acks: number[] = []
  const t0 = performance.now()
  const until = t0 + ms
  const batches0 = committed
  const caller = async () => {
    while (performance.now() < until) {
      const s = performance.now()
      await gc.write((tx) => r.nextIn(tx))
      acks.push(performance.now() - s)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, caller))
  const t = performance.now()
  const postings = r.posted() - start
  acks.sort((a, b) => a - b)
  return { rate: (postings * 1000) / (t - t0), postings, ms: t - t0, ackP99Ms: acks[Math.floor(acks.length * 0.99)] ?? 0, batches: committed - batches0 }
}

let committed = 0

async function sampleGroup(target: string, name: string, durable: boolean, runs: number, windowMs: number) {
  const conn = await openFreshConn(target)
  const { sqlite } = conn
  try {
    const r = rig(name)
    const gc = new GroupCommit(conn, { durable, onCommit: () => committed++ })
    await measureGroup(r, gc, WARM_UP_MS)
    const windows: Awaited<ReturnType<typeof measureGroup>>[] = []
    for (let i = 0; i < runs; i++) windows.push(await measureGroup(r, gc, windowMs))
    await gc.close()
    const report = await audit(conn.sql)
    if (!report.ok) throw new Error(`ledger audit failed after the ${name} run: ${report.violations.slice(0, 3).map((v) => v.message).join('; ')}`)
    return {
      s: summarize(windows.map((w) => w.rate)),
      ackP99Ms: summarize(windows.map((w) => w.ackP99Ms)).median,
      meanBatch: Math.round(windows.reduce((a, w) => a + w.postings, 0) / Math.max(1, windows.reduce((a, w) => a + w.batches, 0))),
      postings: r.posted(),
      windows,
      audit: report.counts,
    }
  } finally {
    await conn.close()
    // PostgreSQL has no connection of SQLite's to close.
    if (sqlite?.open) sqlite.close()
  }
}

async function sample(dir: string, name: string, synchronous: 'NORMAL' | 'FULL', perTx: number, runs: number, windowMs: number) {
  const conn = await openFresh(dir, name, synchronous)
  const { sqlite } = conn
  try {
    const r = rig(name)
    measure(r, sqlite, perTx, WARM_UP_MS)
    const windows = Array.from({ length: runs }, () => measure(r, sqlite, perTx, windowMs))
    const report = await audit(conn.sql)
    if (!report.ok) throw new Error(`ledger audit failed after the ${name} run: ${report.violations.slice(0, 3).map((v) => v.message).join('; ')}`)
    const checkpoint = sqlite.pragma('wal_autocheckpoint', { simple: true })
    return { s: summarize(windows.map((w) => w.rate)), postings: r.posted(), windows, audit: report.counts, walAutocheckpoint: Number(checkpoint) }
  } finally {
    sqlite.close()
  }
}

/**
 * WAL frames (pages) one committed posting writes: what each commit costs in I/O, and what fills the
 * WAL towards its next checkpoint (1000 frames by default, then an fsync of the WAL and of the database).
 */
async function framesPerCommit(dir: string): Promise<number> {
  const { sqlite } = await openFresh(dir, 'frames', 'NORMAL')
  try {
    const r = rig('frames')
    measure(r, sqlite, 1, 100)
    sqlite.pragma('wal_checkpoint(TRUNCATE)')
    sqlite.pragma('wal_autocheckpoint = 0')
    const n = 1000
    for (let i = 0; i < n; i++) transaction(sqlite, () => r.next(sqlite))
    const pageSize = Number(sqlite.pragma('page_size', { simple: true }))
    const walBytes = fs.statSync(path.join(dir, 'frames.sqlite-wal')).size
    return Math.round((walBytes / (pageSize + 24) / n) * 100) / 100
  } finally {
    sqlite.close()
  }
}

/**
 * Ledger postings on a temp file database with the app's own settings (WAL, synchronous=NORMAL,
 * foreign keys on): each posting a 2-account transfer through server/ledger's transfer(). The row is
 * the way the server posts: through group commit (server/db/groupCommit.ts), CONCURRENCY callers
 * each waiting for the commit that holds its posting before it submits the next — acknowledged means
 * committed. Companions: the same with synchronous=FULL (an fsync per commit: durable against power
 * loss, not only a process crash), and one posting per commit with no grouping, which is what each
 * commit costs: ~7 WAL pages and, every ~1000 pages, a checkpoint with fsyncs on the committing thread.
 * The ledger is audited after each run.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-bench-ledger-'))
  try {
    const group = await sampleGroup(path.join(dir, 'group.sqlite'), 'group', false, ctx.runs, WINDOW_MS)
    ctx.log(`ledger: group commit ${group.windows.map((w) => `${perSecond(w.rate)} (batch ${Math.round(w.postings / Math.max(1, w.batches))})`).join(', ')}`)
    const groupFull = await sampleGroup(path.join(dir, 'groupfull.sqlite'), 'groupfull', true, ctx.runs, WINDOW_MS / 2)
    ctx.log(`ledger: group commit, synchronous=FULL ${groupFull.windows.map((w) => perSecond(w.rate)).join(', ')}`)
    const single = await sample(dir, 'single', 'NORMAL', 1, ctx.runs, WINDOW_MS / 2)
    ctx.log(`ledger: 1 per commit ${single.windows.map((w) => perSecond(w.rate)).join(', ')}`)
    const frames = await framesPerCommit(dir)
    const common = { users: USERS, posting: '2-account USDT transfer (fund↔trade or user→user) via server/ledger transfer()', tmpdir: os.tmpdir() }
    const groupName = `durable ledger postings per second (group commit, ${CONCURRENCY} callers, ack after commit)`
    const onPg = await onPostgres(ctx, groupName, async (url) => {
      const pg = await sampleGroup(url, 'group', false, ctx.runs, WINDOW_MS)
      ctx.log(`ledger: group commit on PostgreSQL ${pg.windows.map((w) => `${perSecond(w.rate)} (batch ${Math.round(w.postings / Math.max(1, w.batches))})`).join(', ')}`)
      return [
        atLeast({ name: groupName + POSTGRES, value: pg.s.median, unit: 'postings/s', min: TARGET_PER_S, format: perSecond, details: { ...pg, ...common, windowMs: WINDOW_MS, concurrency: CONCURRENCY } }),
        info({ name: `  p99 acknowledgement / mean postings per commit${POSTGRES}`, value: pg.ackP99Ms, unit: 'ms', format: (v) => `${v.toFixed(1)} ms / ${pg.meanBatch}` }),
      ]
    })
    return [
      atLeast({
        name: groupName + SQLITE,
        value: group.s.median,
        unit: 'postings/s',
        min: TARGET_PER_S,
        format: perSecond,
        details: { ...group, ...common, windowMs: WINDOW_MS, concurrency: CONCURRENCY },
      }),
      info({
        name: `  p99 acknowledgement / mean postings per commit${SQLITE}`,
        value: group.ackP99Ms,
        unit: 'ms',
        format: (v) => `${v.toFixed(1)} ms / ${group.meanBatch}`,
      }),
      ...onPg,
      info({
        name: '  same, synchronous=FULL (fsync per commit: survives a power cut)',
        value: groupFull.s.median,
        unit: 'postings/s',
        format: perSecond,
        details: { ...groupFull, ...common, windowMs: WINDOW_MS / 2 },
      }),
      info({
        name: '  one posting per commit, no grouping',
        value: single.s.median,
        unit: 'postings/s',
        format: perSecond,
        details: { ...single, ...common, windowMs: WINDOW_MS / 2, walFramesPerCommit: frames },
      }),
    ]
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
