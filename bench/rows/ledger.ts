import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type Database from 'better-sqlite3'
import { openDatabase, transaction } from '../../server/db/index.ts'
import { migrate } from '../../server/db/migrate.ts'
import { audit, custody, fund, trade, transfer } from '../../server/ledger/index.ts'
import { summarize } from '../support/stats.ts'
import { info, type BenchContext, type Row } from '../support/types.ts'

export const id = 'ledger'

const TARGET_PER_S = 20_000
const USERS = 1_000
const WINDOW_MS = 2_000
const BATCH = 100
const WARM_UP_MS = 300
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
  sqlite: Database.Database
  next: () => void
  posted: () => number
}

/** Users with money in both accounts; each next() posts one 2-account transfer (fund ↔ trade or user → user). */
function rig(sqlite: Database.Database, tag: string): Rig {
  let n = 0
  let seed = 0x2545f491
  const rand = () => {
    // xorshift32: cheap, deterministic, enough to spread the accounts touched
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 2 ** 32
  }
  return {
    sqlite,
    posted: () => n,
    next() {
      const a = 1 + Math.floor(rand() * USERS)
      const b = 1 + Math.floor(rand() * USERS)
      const kind = rand() < 0.5
      const from = kind ? fund(a) : trade(a)
      const to = a === b ? (kind ? trade(a) : fund(a)) : kind ? fund(b) : trade(b)
      transfer(sqlite, { ref: `bench:${tag}:${n}`, reason: 'transfer', from, to, asset: 'USDT', amount: 1n + BigInt(n % 1000) })
      n++
    },
  }
}

function openFresh(dir: string, name: string, synchronous: 'NORMAL' | 'FULL'): Database.Database {
  const { sqlite } = openDatabase(path.join(dir, `${name}.sqlite`))
  // openDatabase sets WAL + synchronous=NORMAL, the app's settings; FULL only for the companion row.
  if (synchronous === 'FULL') sqlite.pragma('synchronous = FULL')
  migrate(sqlite)
  const users = sqlite.prepare('INSERT INTO users (code, name, created_at) VALUES (?, ?, 0)')
  transaction(sqlite, () => {
    for (let i = 1; i <= USERS; i++) {
      users.run(`BENCH${i}`, `bench ${i}`)
      for (const account of [fund(i), trade(i)]) {
        transfer(sqlite, { ref: `seed:${i}:${'user' in account ? account.kind : ''}`, reason: 'deposit', from: custody('bsc'), to: account, asset: 'USDT', amount: SEED_BALANCE })
      }
    }
  })
  return sqlite
}

/** Postings per second over a window: `perTx` postings per committed transaction. */
function measure(r: Rig, perTx: number, ms: number): { rate: number; postings: number; ms: number } {
  const start = r.posted()
  const t0 = performance.now()
  let t = t0
  while (t - t0 < ms) {
    if (perTx === 1) transaction(r.sqlite, r.next)
    else transaction(r.sqlite, () => {
      for (let i = 0; i < perTx; i++) r.next()
    })
    t = performance.now()
  }
  const postings = r.posted() - start
  return { rate: (postings * 1000) / (t - t0), postings, ms: t - t0 }
}

function sample(dir: string, name: string, synchronous: 'NORMAL' | 'FULL', perTx: number, runs: number, windowMs: number) {
  const sqlite = openFresh(dir, name, synchronous)
  try {
    const r = rig(sqlite, name)
    measure(r, perTx, WARM_UP_MS)
    const windows = Array.from({ length: runs }, () => measure(r, perTx, windowMs))
    const report = audit(sqlite)
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
function framesPerCommit(dir: string): number {
  const sqlite = openFresh(dir, 'frames', 'NORMAL')
  try {
    const r = rig(sqlite, 'frames')
    measure(r, 1, 100)
    sqlite.pragma('wal_checkpoint(TRUNCATE)')
    sqlite.pragma('wal_autocheckpoint = 0')
    const n = 1000
    for (let i = 0; i < n; i++) transaction(sqlite, r.next)
    const pageSize = Number(sqlite.pragma('page_size', { simple: true }))
    const walBytes = fs.statSync(path.join(dir, 'frames.sqlite-wal')).size
    return Math.round((walBytes / (pageSize + 24) / n) * 100) / 100
  } finally {
    sqlite.close()
  }
}

/**
 * Ledger postings on a temp file database with the app's own settings (WAL, synchronous=NORMAL,
 * foreign keys on): each posting a 2-account transfer through server/ledger's transfer(), in its own
 * committed IMMEDIATE transaction as a real action would be, for `runs` windows of ~2 s; the median
 * is the row. Companions: 100 postings per transaction, and synchronous=FULL (an fsync per commit:
 * durable against power loss, not only a process crash). The ledger is audited after each run.
 *
 * Where a one-posting commit's time goes (details.walFramesPerCommit measures the first part): each
 * commit appends ~7 pages to the WAL — the posting row, its ref index, the entries, the per-user entry
 * index (a page per user touched) and the two account rows. synchronous=NORMAL does not fsync at
 * commit, but every 1000 WAL pages (~140 commits) SQLite's auto-checkpoint copies them into the
 * database and fsyncs both files, on the committing thread; that and the page writes outweigh the
 * posting's own CPU (8 cached statements, a savepoint, foreign-key checks: ~30–40 µs). Committing
 * several actions together (the batched row) or checkpointing off the request path is what moves it.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-bench-ledger-'))
  try {
    const single = sample(dir, 'single', 'NORMAL', 1, ctx.runs, WINDOW_MS)
    ctx.log(`ledger: 1 per commit ${single.windows.map((w) => perSecond(w.rate)).join(', ')}`)
    const batched = sample(dir, 'batched', 'NORMAL', BATCH, ctx.runs, WINDOW_MS / 2)
    ctx.log(`ledger: ${BATCH} per commit ${batched.windows.map((w) => perSecond(w.rate)).join(', ')}`)
    const full = sample(dir, 'full', 'FULL', 1, ctx.runs, WINDOW_MS / 4)
    ctx.log(`ledger: 1 per commit, synchronous=FULL ${full.windows.map((w) => perSecond(w.rate)).join(', ')}`)
    const frames = framesPerCommit(dir)
    const common = { users: USERS, posting: '2-account USDT transfer (fund↔trade or user→user) via server/ledger transfer()', tmpdir: os.tmpdir() }
    return [
      atLeast({
        name: 'durable ledger postings per second (1 per committed transaction, WAL, synchronous=NORMAL)',
        value: single.s.median,
        unit: 'postings/s',
        min: TARGET_PER_S,
        format: perSecond,
        details: { ...single, ...common, windowMs: WINDOW_MS, walFramesPerCommit: frames },
      }),
      info({
        name: `ledger postings per second, ${BATCH} per transaction (WAL, synchronous=NORMAL)`,
        value: batched.s.median,
        unit: 'postings/s',
        format: perSecond,
        details: { ...batched, ...common, windowMs: WINDOW_MS / 2 },
      }),
      info({
        name: 'ledger postings per second, 1 per transaction, synchronous=FULL (fsync per commit)',
        value: full.s.median,
        unit: 'postings/s',
        format: perSecond,
        details: { ...full, ...common, windowMs: WINDOW_MS / 4 },
      }),
    ]
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
