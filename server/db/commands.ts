// The database's own operator commands (issue 18): migrate, backup and restore (SQLite), and the move
// of a stopped SQLite data folder into an empty PostgreSQL database.

import path from 'node:path'
import type { Command } from '../commands/registry.ts'
import { describeDatabase, isPostgresUrl } from './connection.ts'
import { openDatabase } from './index.ts'
import { migrateDatabase } from './migrate.ts'
import { backupSqlite, RestoreRefused, restoreSqlite } from './backup.ts'
import { MoveRefused, moveToPostgres } from './move.ts'
import { lockDatabase } from './writerLock.ts'
import { loadConfig } from '../config.ts'
import '../ledger/holders.ts'

const onPostgresOnly = 'on PostgreSQL (NADI_DATABASE_URL) copies are made with pg_dump / pg_restore or a streaming replica: see docs/backups.md'

export const DATABASE_COMMANDS: Command[] = [
  {
    words: ['migrate'],
    args: '',
    summary: 'apply the migrations the database has not had yet (the server does this at start too); prints each one applied',
    writes: true,
    needs: 'schema',
    ownDatabase: true,
    async run(args, env) {
      if (args.length) {
        env.io.err(`migrate: unexpected ${args.join(' ')}`)
        return 2
      }
      const db = env.inServer ? env.database() : openDatabase(env.config.database)
      try {
        const applied = await migrateDatabase(db)
        env.io.out(applied.length ? applied.map((f) => `applied ${f}`).join('\n') : 'up to date: nothing to apply')
      } finally {
        if (!env.inServer) await db.close()
      }
      return 0
    },
  },
  {
    words: ['backup'],
    args: '<file>',
    summary: "a consistent copy of the SQLite database (SQLite's online backup, beside a running server) in <file>, which must not exist",
    ownDatabase: true,
    async run(args, env) {
      if (args.length !== 1) {
        env.io.err('backup: give the file to write, e.g. backup /backups/nadi-2026-11-26.sqlite')
        return 2
      }
      if (env.config.databaseUrl !== null) {
        env.io.err(`backup: ${onPostgresOnly}`)
        return 2
      }
      const r = await backupSqlite(env.config.dbFile, path.resolve(args[0]!))
      env.io.out(`backed up ${env.config.dbFile} to ${r.file}: ${(r.bytes / 1024 / 1024).toFixed(1)} MiB, schema version ${r.version}`)
      return 0
    },
  },
  {
    words: ['restore'],
    args: '<file>',
    summary: 'put a backup in place of the SQLite database, the server stopped: refused unless the file is intact, a NADI database this code knows and its ledger passes the audit; the database it replaces is kept beside it',
    writes: true,
    stopped: true,
    ownDatabase: true,
    async run(args, env) {
      if (args.length !== 1) {
        env.io.err('restore: give the backup file, e.g. restore /backups/nadi-2026-11-26.sqlite')
        return 2
      }
      if (env.config.databaseUrl !== null) {
        env.io.err(`restore: ${onPostgresOnly}`)
        return 2
      }
      try {
        const r = await restoreSqlite(path.resolve(args[0]!), env.config.dbFile)
        env.io.out(`restored ${args[0]} (schema version ${r.version}) as ${env.config.dbFile}${r.previous ? `; the database it replaced is ${r.previous}` : ''}`)
        return 0
      } catch (e) {
        if (!(e instanceof RestoreRefused)) throw e
        env.io.err(`refused: ${e.message}`)
        return 1
      }
    },
  },
  {
    words: ['move-to'],
    args: '<postgres-url> [--as-is]',
    summary: 'copy the SQLite data folder (server stopped) into an empty PostgreSQL database: every row, checked table by table, both audits clean (--as-is: a folder that fails its audit, e.g. a halted market to repair there, is carried with the same findings); then start with NADI_DATABASE_URL',
    writes: true,
    stopped: true,
    ownDatabase: true,
    async run(args, env) {
      const asIs = args[1] === '--as-is'
      const url = args[0]
      if (args.length !== (asIs ? 2 : 1) || !url || !isPostgresUrl(url)) {
        env.io.err('move-to: give the PostgreSQL database to move into, e.g. move-to postgres://nadi:secret@db-host:5432/nadi')
        return 2
      }
      if (env.config.databaseUrl !== null) {
        env.io.err('move-to: moves a SQLite data folder; unset NADI_DATABASE_URL and point NADI_DATA_DIR (or NADI_DB_FILE) at it')
        return 2
      }
      // The target's writer lock too: no server may be running on it while it is filled.
      const target = loadConfig({ ...process.env, NADI_DATA_DIR: env.config.dataDir, NADI_DATABASE_URL: url }, process.cwd())
      const lock = await lockDatabase(target, 'cli move-to')
      try {
        const from = env.database()
        const to = openDatabase(url)
        try {
          const report = await moveToPostgres(from, to, (line) => env.io.out(line), { asIs })
          const books = report.auditSqlite ? `the audit finds the same ${report.auditSqlite} problem(s) on both sides (run \`audit\`, \`market check\`)` : 'the audit is clean on both sides'
          env.io.out(`moved ${report.rows} rows in ${report.tables.length} tables; every table's rows match, ${books}`)
          env.io.out(`now start the server with NADI_DATABASE_URL=${describeDatabase(url)}`)
          return 0
        } finally {
          await to.close()
        }
      } catch (e) {
        if (!(e instanceof MoveRefused)) throw e
        env.io.err(`refused: ${e.message}`)
        return 1
      } finally {
        await lock.release()
      }
    },
  },
]
