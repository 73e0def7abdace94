import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.ts'
import type { Db } from './db/index.ts'
import type { Sql } from './db/query/types.ts'
import type { Gateway } from './chain/gateway.ts'
import type { GroupCommit } from './db/groupCommit.ts'

/** What every service is given: settings, the database and a clock tests can move. */
export interface Ctx {
  config: Config
  db: Db
  /** The way to the database (server/db/query): every statement awaited, on SQLite as on PostgreSQL. */
  sql: Sql
  now: () => number
  log: FastifyBaseLogger
  /** The one door to the chains (DESIGN §7). */
  chain: Gateway
  /**
   * Group commit for the users' money actions: requests that arrive together share one transaction
   * (each in its own savepoint) and are answered after its commit. Use it for a request's money action;
   * jobs, and writes that must be durable, open their own `sql.transaction`.
   */
  commits: GroupCommit
}
