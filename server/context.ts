import type Database from 'better-sqlite3'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.ts'
import type { Db } from './db/index.ts'

/** What every service is given: settings, the database and a clock tests can move. */
export interface Ctx {
  config: Config
  sqlite: Database.Database
  db: Db
  now: () => number
  log: FastifyBaseLogger
}
