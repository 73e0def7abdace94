import type Database from 'better-sqlite3'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.ts'
import type { Db } from './db/index.ts'
import type { Gateway } from './chain/gateway.ts'

/** What every service is given: settings, the database and a clock tests can move. */
export interface Ctx {
  config: Config
  sqlite: Database.Database
  db: Db
  now: () => number
  log: FastifyBaseLogger
  /** The one door to the chains (DESIGN §7). */
  chain: Gateway
}
