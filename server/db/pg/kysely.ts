// Kysely over the pool of PostgreSQL connections (../query/pg.ts): PostgreSQL's SQL (the compiler
// writes `$n`, RETURNING, its quoting), every query awaited. A query outside a transaction takes a
// free connection for itself; a transaction holds one connection from BEGIN to its end.

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
import type pg from 'pg'
import type { PgPool } from '../query/pg.ts'

class Connection implements DatabaseConnection {
  /** The connection of the open transaction. */
  tx: { client: pg.PoolClient; broken?: Error } | null = null

  constructor(private readonly pool: PgPool) {}

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const r = await this.pool.execute(q.sql, q.parameters, this.tx?.client)
      const changed = r.command === 'INSERT' || r.command === 'UPDATE' || r.command === 'DELETE' || r.command === 'MERGE'
      return { rows: r.rows as R[], numAffectedRows: changed ? BigInt(r.rowCount ?? 0) : undefined }
    } catch (e) {
      if (this.tx && (e as Error).name === 'PgConnectionLost') this.tx.broken = e as Error
      throw e
    }
  }

  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(q)
  }

  /** Hands the transaction's connection back (closed if it failed). */
  end(): void {
    const tx = this.tx
    this.tx = null
    tx?.client.release(tx.broken)
  }
}

class PoolDriver implements Driver {
  constructor(private readonly pool: PgPool) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Connection(this.pool)
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (this.pool.insideTransaction) throw new Error('a Kysely transaction was begun inside a transaction of the same process: use the open one')
    const c = conn as Connection
    c.tx = { client: await this.pool.pool.connect() }
    const level = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : ''
    try {
      await conn.executeQuery(CompiledQuery.raw(`BEGIN${level}`))
    } catch (e) {
      c.end()
      throw e
    }
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    try {
      await conn.executeQuery(CompiledQuery.raw('COMMIT'))
    } finally {
      ;(conn as Connection).end()
    }
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as Connection
    try {
      if (!c.tx?.broken) await conn.executeQuery(CompiledQuery.raw('ROLLBACK'))
    } finally {
      c.end()
    }
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

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    // A transaction that neither committed nor rolled back (Kysely always does one) still frees its connection.
    ;(conn as Connection).end()
  }

  async destroy(): Promise<void> {}
}

export function pgPoolDialect(pool: PgPool): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PoolDriver(pool),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  }
}
