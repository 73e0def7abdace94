// One writer per data folder. The server keeps state in memory that only stays true while nobody else
// writes behind it (the market's book, the next order id, batches of money in flight): two servers on
// one database each trade on their own book over one journal and one ledger, and the journal stops
// replaying (the fixture journal-refused-on-replay). So whatever writes takes this lock first and
// keeps it for its whole life.
//
// The lock is an exclusive transaction held open on a small SQLite file beside the database. SQLite
// takes it with an fcntl() lock, which the kernel drops when the process ends, however it ends: after
// kill -9 the next start gets it at once and there is never a stale lock to clean by hand. It also
// holds across containers that share the volume on one host (one kernel), and SQLite tracks it per
// file inside a process too, so a second writer in the same process is refused the same way.
// Who holds it is written beside it (the lock itself cannot be read while held): the pid, host, start
// time and command of the holder, and the operator socket where it takes commands (server/ops.ts).
//
// On PostgreSQL the processes of a deployment in roles (issue 19, docs/processes.md) share the database:
// each takes the same lock SHARED, so they coexist, while a server that writes alone (--role all) or a
// writing command takes it exclusively — the two kinds refuse each other, whichever comes second.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { describeDatabase, isPostgresUrl } from './connection.ts'

export interface Holder {
  pid: number
  host: string
  /** What runs: 'server' or the CLI command's words. */
  role: string
  startedAt: number
  /** The operator socket of a server holding the lock, when it listens on one. */
  socket?: string
}

export interface WriterLock {
  readonly dbFile: string
  readonly holder: Holder
  /** Records where the holder takes operator commands (rewrites the holder file). */
  setSocket(socket: string): void
  /** Lets go of the lock; done once it resolves (on SQLite, before it returns). */
  release(): Promise<void>
}

/**
 * Why a PostgreSQL writer lock was refused: another writes alone (alone), role processes share it and
 * this one would write alone (roles), or this role process meets one writing alone (role-vs-alone).
 */
export type PgConflict = 'alone' | 'roles' | 'role-vs-alone'

export class DataFolderBusy extends Error {
  override name = 'DataFolderBusy'
  constructor(
    readonly dbFile: string,
    readonly holder: Holder | null,
    /** PostgreSQL: the database's URL (without its password) whose writer lock is held. */
    readonly database?: string,
    readonly conflict: PgConflict = 'alone',
  ) {
    super(database ? pgBusyMessage(database, holder, conflict) : busyMessage(dbFile, holder))
  }
}

function pgBusyMessage(database: string, h: Holder | null, conflict: PgConflict): string {
  const who = h ? `${h.role} pid ${h.pid} on ${h.host}, started ${new Date(h.startedAt).toISOString()}` : 'another process'
  const why = {
    alone: 'Only one process may write to it; stop that one first',
    roles: 'Role processes (--role api|jobs) share it with each other and with operator commands that need only the database: a server that writes alone (--role all) cannot run beside them; stop them first',
    'role-vs-alone': 'It writes alone (--role all): role processes share the database only with each other; stop that one first',
  }[conflict]
  return `the database ${database} is in use: ${who} holds its writer lock. ${why} (or point NADI_DATABASE_URL elsewhere).`
}

export const lockFileOf = (dbFile: string) => `${dbFile}.lock`
export const holderFileOf = (dbFile: string) => `${dbFile}.lock.json`

function busyMessage(dbFile: string, h: Holder | null): string {
  const folder = path.dirname(dbFile)
  const who = h
    ? `${h.role} pid ${h.pid} on ${h.host}, started ${new Date(h.startedAt).toISOString()}`
    : 'another process (it has not said who it is yet)'
  return `the data folder ${folder} is in use: ${who} writes to ${dbFile}. Only one process may write to a data folder; stop that one first (or point NADI_DATA_DIR elsewhere).`
}

/** Reads who holds the lock, as the holder wrote it; null when unreadable. */
export function readHolder(dbFile: string): Holder | null {
  try {
    const v = JSON.parse(fs.readFileSync(holderFileOf(dbFile), 'utf8')) as Partial<Holder>
    if (typeof v.pid !== 'number' || typeof v.host !== 'string' || typeof v.role !== 'string' || typeof v.startedAt !== 'number') return null
    return { pid: v.pid, host: v.host, role: v.role, startedAt: v.startedAt, ...(typeof v.socket === 'string' ? { socket: v.socket } : {}) }
  } catch {
    return null
  }
}

/** The advisory lock key of the writer on a PostgreSQL database (any constant; it names nothing else). */
export const PG_WRITER_LOCK = 7_411_000

/** Where the database is and the local file its holder and operator socket are named after. */
export interface LockTarget {
  /** A SQLite file or a postgres:// URL. */
  database: string
  /** SQLite: the database file. PostgreSQL: a name in the data folder standing for the database. */
  lockFile: string
}

/**
 * The writer lock of the database, whichever backend: lockDataFolder on SQLite, an advisory lock on
 * PostgreSQL. `shared`: a role process's share of it (PostgreSQL only: on SQLite one process writes).
 */
export async function lockDatabase(target: LockTarget, role: string, opts: { shared?: boolean } = {}): Promise<WriterLock> {
  if (!isPostgresUrl(target.database)) {
    if (opts.shared) throw new Error('a shared writer lock needs PostgreSQL: on SQLite one process writes')
    return lockDataFolder(target.lockFile, role)
  }
  return lockPostgres(target.database, target.lockFile, role, opts.shared ?? false)
}

/**
 * PostgreSQL's form of the writer lock: a session advisory lock held on a connection of its own for
 * the writer's whole life. The server drops it when that session ends, however the process ends, so
 * there is no stale lock here either. Who holds it is written beside lockFile (for the operator
 * socket, on this host) and in the session's application_name (seen from any host).
 */
async function lockPostgres(url: string, lockFile: string, role: string, shared: boolean): Promise<WriterLock> {
  const holder: Holder = { pid: process.pid, host: os.hostname(), role, startedAt: Date.now() }
  const name = `nadi ${role} pid ${holder.pid} on ${holder.host}`.slice(0, 63)
  // UTC: the holder's start (backend_start) is read as text and taken as UTC.
  const conn = new pg.Client({ connectionString: url, application_name: name, options: '-c TimeZone=UTC' })
  // The session is never replaced when it is lost: a new one would not hold the lock. Nothing runs on
  // it until the release, which finds it gone and has nothing to let go of; until then a lost session
  // must not crash the process through an unhandled 'error'.
  conn.on('error', () => {})
  await conn.connect()
  let got = false
  try {
    const r = await conn.query<{ got: boolean }>(`SELECT ${shared ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock'}($1) AS got`, [PG_WRITER_LOCK])
    got = r.rows[0]!.got
    if (!got) {
      const other = await advisoryHolder(conn, PG_WRITER_LOCK)
      const local = readHolder(lockFile)
      const remote = other?.holder ?? null
      const who = local && remote && local.pid === remote.pid && local.host === remote.host ? local : (remote ?? local)
      throw new DataFolderBusy(lockFile, who, describeDatabase(url), shared ? 'role-vs-alone' : other?.shared ? 'roles' : 'alone')
    }
  } finally {
    if (!got) await conn.end().catch(() => undefined)
  }
  // Several processes share it: none of them writes the one holder file (nor takes operator commands).
  if (shared) {
    let released = false
    return {
      dbFile: lockFile,
      holder,
      setSocket() {
        throw new Error('a shared writer lock takes no operator commands: only a process writing alone does')
      },
      async release() {
        if (released) return
        released = true
        await unlockAndClose(conn)
      },
    }
  }
  fs.mkdirSync(path.dirname(lockFile), { recursive: true })
  return heldLock(lockFile, holder, () => unlockAndClose(conn))
}

/**
 * Lets go of the lock before the session ends. Closing alone is not enough: the server's backend
 * drops its locks only when it has processed the goodbye, after our close has returned, so a
 * process restarting at once (a test's crash-and-restart, a supervisor's restart) could find the
 * lock still held by the session it has just ended.
 */
export async function unlockAndClose(conn: pg.Client): Promise<void> {
  try {
    await conn.query('SELECT pg_advisory_unlock_all()')
  } catch {
    // A dead session holds nothing: the server dropped its locks with it.
  } finally {
    await conn.end().catch(() => undefined)
  }
}

const HOLDER = `SELECT a.application_name, a.backend_start::text AS since, l.mode FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'advisory' AND l.objid = $1 AND l.granted
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY a.backend_start LIMIT 1`

/**
 * Who holds a session advisory lock on the connection's database (the longest held, when several share
 * it), as its session's application_name says (`nadi <role> pid <n> on <host>`, which every NADI
 * process sets); null when nobody does or the name is not NADI's.
 */
export async function advisoryHolder(conn: pg.Client, key: number): Promise<{ holder: Holder | null; shared: boolean } | null> {
  const other = (await conn.query<{ application_name: string; since: string; mode: string }>(HOLDER, [key])).rows[0]
  if (!other) return null
  const m = /^nadi (.+) pid (\d+) on (.+)$/.exec(other.application_name)
  const holder = m ? { role: m[1]!, pid: Number(m[2]), host: m[3]!, startedAt: Date.parse(`${other.since}Z`) || 0 } : null
  return { holder, shared: other.mode === 'ShareLock' }
}

/**
 * Takes the writer lock of the database's folder or throws DataFolderBusy naming the holder. Never
 * waits: a second writer is refused at once. An in-memory database has nothing to share and no lock.
 */
export function lockDataFolder(dbFile: string, role: string): WriterLock {
  const holder: Holder = { pid: process.pid, host: os.hostname(), role, startedAt: Date.now() }
  if (dbFile === ':memory:') return { dbFile, holder, setSocket() {}, async release() {} }
  fs.mkdirSync(path.dirname(dbFile), { recursive: true })
  const lock = new Database(lockFileOf(dbFile), { timeout: 0 })
  try {
    // A rollback journal, not WAL: an exclusive transaction then excludes every other connection,
    // readers included, and nothing about it lives in shared memory.
    lock.pragma('journal_mode = DELETE')
    lock.exec('BEGIN EXCLUSIVE')
  } catch (err) {
    lock.close()
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataFolderBusy(dbFile, readHolder(dbFile))
    throw err
  }
  return heldLock(dbFile, holder, () => void lock.close())
}

/**
 * The WriterLock of a held lock: its holder written beside `file` (whole, then renamed, so a reader
 * never sees half of it), rewritten when the operator socket is known, removed before `free` lets go —
 * once the lock is free a new holder may write its own.
 */
function heldLock(file: string, holder: Holder, free: () => void | Promise<void>): WriterLock {
  const write = () => {
    const tmp = `${holderFileOf(file)}.${process.pid}.tmp`
    fs.writeFileSync(tmp, `${JSON.stringify(holder)}\n`)
    fs.renameSync(tmp, holderFileOf(file))
  }
  write()
  let released = false
  return {
    dbFile: file,
    holder,
    setSocket(socket) {
      holder.socket = socket
      write()
    },
    async release() {
      if (released) return
      released = true
      try {
        if (readHolder(file)?.pid === process.pid) fs.rmSync(holderFileOf(file), { force: true })
      } catch {
        // Only informative; the lock itself is what counts.
      }
      await free()
    },
  }
}
