// Kysely over the one synchronous PostgreSQL connection (./sync.ts), as Kysely's SqliteDialect runs
// over better-sqlite3's: PostgreSQL's SQL (the compiler writes `$n`, RETURNING, its quoting), our
// connection underneath, and a lock so that one Kysely transaction at a time holds it — which is
// what atomically() (server/db/index.ts) waits for on both backends.

import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import type { PgSync } from './sync.ts'

class Connection implements DatabaseConnection {
  constructor(private readonly conn: PgSync) {}

  executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const r = this.conn.execute(q.sql, q.parameters)
      return Promise.resolve({ rows: r.rows as R[], numAffectedRows: BigInt(r.count) })
    } catch (e) {
      return Promise.reject(e as Error)
    }
  }

  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(q)
  }
}

class Driver_ implements Driver {
  private readonly connection: Connection
  private holder: Promise<void> = Promise.resolve()
  private release: (() => void) | null = null

  constructor(conn: PgSync) {
    this.connection = new Connection(conn)
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.holder
    let release!: () => void
    this.holder = new Promise<void>((r) => (release = r))
    await previous
    this.release = release
    return this.connection
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : ''
    await conn.executeQuery(CompiledQuery.raw(`BEGIN${level}`))
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('COMMIT'))
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('ROLLBACK'))
  }

  async savepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw(`SAVEPOINT "${name.replace(/"/g, '')}"`))
  }

  async rollbackToSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw(`ROLLBACK TO SAVEPOINT "${name.replace(/"/g, '')}"`))
  }

  async releaseSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw(`RELEASE SAVEPOINT "${name.replace(/"/g, '')}"`))
  }

  async releaseConnection(): Promise<void> {
    const r = this.release
    this.release = null
    r?.()
  }

  async destroy(): Promise<void> {}
}

export function pgSyncDialect(conn: PgSync): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new Driver_(conn),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  }
}
