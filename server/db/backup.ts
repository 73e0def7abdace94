// Backups of a SQLite database (issue 18): `cli backup <file>` beside a running server, `cli restore
// <file>` into a stopped one. PostgreSQL has its own tools (pg_dump / pg_restore, streaming replicas;
// docs/backups.md).
//
// The copy is taken with SQLite's online backup API, not by copying files: a file copy of a database
// in WAL mode taken while the server writes can hold half a transaction, or miss what is still in
// the -wal file. The backup copies every page in one step, inside one read transaction of its own, so
// it is the database as of one commit; in WAL mode that read never blocks the writer.

import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { audit } from '../ledger/audit.ts'
import { sqlOver } from './index.ts'
import { migrationFiles } from './migrate.ts'

export interface BackupResult {
  file: string
  bytes: number
  /** The schema version the copy is at. */
  version: number
}

function versionOf(db: Database.Database): number {
  const v = db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get() as number | bigint | null
  return v === null ? 0 : Number(v)
}

/** A consistent copy of the SQLite database `source` at `dest` (which must not exist). */
export async function backupSqlite(source: string, dest: string): Promise<BackupResult> {
  if (!fs.existsSync(source)) throw new Error(`no database at ${source}`)
  if (fs.existsSync(dest)) throw new Error(`${dest} exists already: a backup never overwrites a file`)
  fs.mkdirSync(path.dirname(path.resolve(dest)), { recursive: true })
  const db = new Database(source, { readonly: true, fileMustExist: true })
  db.pragma('busy_timeout = 5000')
  const tmp = `${dest}.partial`
  try {
    // One step of all pages: the copy is one snapshot, never restarted by the server's commits.
    await db.backup(tmp, { progress: () => 1 << 30 })
    fs.renameSync(tmp, dest)
  } catch (e) {
    fs.rmSync(tmp, { force: true })
    throw e
  } finally {
    db.close()
  }
  const copy = new Database(dest, { readonly: true })
  try {
    return { file: dest, bytes: fs.statSync(dest).size, version: versionOf(copy) }
  } finally {
    copy.close()
  }
}

export class RestoreRefused extends Error {
  override name = 'RestoreRefused'
}

export interface RestoreResult {
  /** Where the database that was there before now is (null: there was none). */
  previous: string | null
  version: number
}

/**
 * Checks a backup and puts it in place of `target` (the server stopped: the caller holds the writer
 * lock). Refused, changing nothing, unless the file is an intact SQLite database of this project at a
 * schema version this code knows, whose books pass the ledger audit. The database it replaces is kept
 * beside it, renamed.
 */
export async function restoreSqlite(backup: string, target: string, now = Date.now()): Promise<RestoreResult> {
  if (!fs.existsSync(backup)) throw new RestoreRefused(`no file at ${backup}`)
  let db: Database.Database
  try {
    db = new Database(backup, { readonly: true, fileMustExist: true })
    db.pragma('schema_version')
  } catch (e) {
    throw new RestoreRefused(`${backup} is not a SQLite database: ${(e as Error).message}`)
  }
  let version: number
  try {
    const check = db.pragma('integrity_check', { simple: true })
    if (check !== 'ok') throw new RestoreRefused(`${backup} is damaged: ${String(check)}`)
    const hasMigrations = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get()
    if (!hasMigrations) throw new RestoreRefused(`${backup} is not a NADI database (no schema_migrations)`)
    version = versionOf(db)
    const known = Math.max(0, ...migrationFiles().map((f) => parseInt(f, 10)))
    if (version > known) throw new RestoreRefused(`${backup} is at schema version ${version}, newer than this code knows (${known}): restore it with the version that made it`)
    db.defaultSafeIntegers(true)
    const report = await audit(sqlOver(db))
    if (report.violations.length) throw new RestoreRefused(`${backup} fails the ledger audit: ${report.violations.map((v) => v.message).join('; ')}`)
  } finally {
    db.close()
  }
  fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true })
  let previous: string | null = null
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-')
  if (fs.existsSync(target)) {
    // Fold the WAL into the database it belongs to, so the kept copy is whole on its own.
    const old = new Database(target)
    old.pragma('wal_checkpoint(TRUNCATE)')
    old.close()
    previous = `${target}.before-restore-${stamp}`
    fs.renameSync(target, previous)
  }
  for (const side of ['-wal', '-shm']) fs.rmSync(`${target}${side}`, { force: true })
  const tmp = `${target}.restoring`
  fs.copyFileSync(backup, tmp)
  fs.renameSync(tmp, target)
  return { previous, version }
}
