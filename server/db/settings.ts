// Where the books are (issue 18): SQLite under the data folder by default, or PostgreSQL at
// NADI_DATABASE_URL — and the local name the writer's holder file and operator socket go by.

import crypto from 'node:crypto'
import path from 'node:path'
import { envInt, envString, type Env } from '../settings.ts'
import { isPostgresUrl } from './connection.ts'

export interface DatabaseSettings {
  /** NADI_DB_FILE: the SQLite database (also where a move to PostgreSQL copies from). */
  dbFile: string
  /** NADI_DATABASE_URL: a postgres:// URL to run on PostgreSQL instead of the SQLite file. */
  databaseUrl: string | null
  /** What openDatabase opens: databaseUrl, else dbFile. */
  database: string
  /** The local name the writer's holder file and operator socket go by: dbFile, or one per PostgreSQL database in the data folder. */
  lockFile: string
  /**
   * NADI_PG_POOL: connections in each process's pool on PostgreSQL (default 8). A statement holds
   * one for its round trip, so a database on another host wants more of them than one beside the
   * process (24 kept one api process's reads at 0.65–0.75× with 1 ms of round trip, where 8 gave
   * 0.54–0.57×); every process's pool, plus its writer lock's and bus's connections, must fit the
   * server's max_connections (docs/processes.md, "How many api processes one PostgreSQL serves").
   */
  pgPool: number
}

export function readDatabaseSettings(env: Env, dataDir: string): DatabaseSettings {
  const dbFile = envString(env, 'NADI_DB_FILE', path.join(dataDir, 'nadi.sqlite'))
  const pgPool = envInt(env, 'NADI_PG_POOL', 8, 1, 200)
  const url = env.NADI_DATABASE_URL?.trim() || null
  if (url === null) return { dbFile, databaseUrl: null, database: dbFile, lockFile: dbFile, pgPool }
  if (!isPostgresUrl(url)) throw new Error(`NADI_DATABASE_URL must be a postgres:// (or postgresql://) URL, got ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//…@'))}`)
  try {
    new URL(url)
  } catch {
    throw new Error('NADI_DATABASE_URL is not a valid URL')
  }
  const id = crypto.createHash('sha256').update(url).digest('hex').slice(0, 12)
  return { dbFile, databaseUrl: url, database: url, lockFile: path.join(dataDir, `postgres-${id}`), pgPool }
}
