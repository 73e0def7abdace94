import type { SqlConnection } from './db/connection.ts'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.ts'
import type { Db } from './db/index.ts'
import type { Sql } from './db/query/types.ts'
import type { Gateway } from './chain/gateway.ts'
import type { GroupCommit } from './db/groupCommit.ts'

/** What every service is given: settings, the database and a clock tests can move. */
export interface Ctx {
  config: Config
  /** The synchronous connection: better-sqlite3's, or PgSync on PostgreSQL (while modules still use it: issue 34). */
  sqlite: SqlConnection
  db: Db
  /** The asynchronous way to the same database (server/db/query): what new and converted code uses. */
  sql: Sql
  now: () => number
  log: FastifyBaseLogger
  /** The one door to the chains (DESIGN §7). */
  chain: Gateway
  /**
   * Group commit for the users' money actions: requests that arrive together share one transaction
   * (each in its own savepoint) and are answered after its commit. Use it where atomically() would do
   * for a request's synchronous write; keep atomically for jobs and for writes that must be durable.
   */
  commits: GroupCommit
}
