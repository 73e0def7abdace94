// Where the books are (issue 18): SQLite under the data folder by default, or PostgreSQL at
// NADI_DATABASE_URL — and the local name the writer's holder file and operator socket go by.

import crypto from 'node:crypto'
import path from 'node:path'
import { envString, type Env } from '../settings.ts'
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
}

export function readDatabaseSettings(env: Env, dataDir: string): DatabaseSettings {
  const dbFile = envString(env, 'NADI_DB_FILE', path.join(dataDir, 'nadi.sqlite'))
  const url = env.NADI_DATABASE_URL?.trim() || null
  if (url === null) return { dbFile, databaseUrl: null, database: dbFile, lockFile: dbFile }
  if (!isPostgresUrl(url)) throw new Error(`NADI_DATABASE_URL must be a postgres:// (or postgresql://) URL, got ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//…@'))}`)
  try {
    new URL(url)
  } catch {
    throw new Error('NADI_DATABASE_URL is not a valid URL')
  }
  const id = crypto.createHash('sha256').update(url).digest('hex').slice(0, 12)
  return { dbFile, databaseUrl: url, database: url, lockFile: path.join(dataDir, `postgres-${id}`) }
}
