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

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'

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
  release(): void
}

export class DataFolderBusy extends Error {
  override name = 'DataFolderBusy'
  constructor(
    readonly dbFile: string,
    readonly holder: Holder | null,
  ) {
    super(busyMessage(dbFile, holder))
  }
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

/**
 * Takes the writer lock of the database's folder or throws DataFolderBusy naming the holder. Never
 * waits: a second writer is refused at once. An in-memory database has nothing to share and no lock.
 */
export function lockDataFolder(dbFile: string, role: string): WriterLock {
  const holder: Holder = { pid: process.pid, host: os.hostname(), role, startedAt: Date.now() }
  if (dbFile === ':memory:') return { dbFile, holder, setSocket() {}, release() {} }
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
  const write = () => {
    // Written whole and renamed: a reader never sees half a file.
    const tmp = `${holderFileOf(dbFile)}.${process.pid}.tmp`
    fs.writeFileSync(tmp, `${JSON.stringify(holder)}\n`)
    fs.renameSync(tmp, holderFileOf(dbFile))
  }
  write()
  let released = false
  return {
    dbFile,
    holder,
    setSocket(socket) {
      holder.socket = socket
      write()
    },
    release() {
      if (released) return
      released = true
      // The holder file goes first: once the lock is free a new holder may write its own.
      try {
        if (readHolder(dbFile)?.pid === process.pid) fs.rmSync(holderFileOf(dbFile), { force: true })
      } catch {
        // Only informative; the lock below is what counts.
      }
      lock.close()
    },
  }
}
