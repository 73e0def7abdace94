import { PG_MISSING, pgBinDir, psqlSync, startCluster, type Cluster } from '../../server/db/pg/cluster.ts'
import type { BenchContext, Row } from './types.ts'

// The PostgreSQL side of the rows measured on both backends (issue 18 §7): one throwaway cluster for
// the whole bench run (server/db/pg/cluster.ts: fsync off, so "durable" there means committed, not
// synced), a fresh database per row.

export interface BenchPostgres {
  /** A new empty database on the run's cluster; its URL, for openDatabase or NADI_DATABASE_URL. */
  database(name: string): string
  stop(): void
}

/** Why the PostgreSQL rows cannot run at all here (not installed), or null. */
export function postgresUnavailable(): string | null {
  return pgBinDir() === null ? PG_MISSING : null
}

export async function startPostgres(): Promise<BenchPostgres> {
  const cluster: Cluster = await startCluster()
  let n = 0
  return {
    database(name: string) {
      const db = `bench_${name}_${++n}`
      psqlSync(cluster.url, `CREATE DATABASE ${db} TEMPLATE template0`)
      return cluster.urlOf(db)
    },
    stop: () => cluster.stop(),
  }
}

export const SQLITE = ' (SQLite)'
export const POSTGRES = ' (PostgreSQL)'

/**
 * The rows `measure` makes on a fresh PostgreSQL database, each named with " (PostgreSQL)"; when
 * PostgreSQL is missing, or the path measured fails on it (a module whose SQL is not ported yet),
 * one row `name` saying so instead, so the table is still printed.
 */
export async function onPostgres(ctx: BenchContext, name: string, measure: (url: string) => Promise<Row[]>): Promise<Row[]> {
  const missing = postgresUnavailable()
  if (missing) return [{ name: `${name}${POSTGRES}: skipped, ${missing}`, measured: 'skipped', target: '—', pass: null, details: { skipped: missing } }]
  try {
    const pg = await ctx.postgres()
    return await measure(pg.database(name.replace(/\W+/g, '_').slice(0, 30).toLowerCase()))
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    ctx.log(`${name}${POSTGRES} failed: ${err instanceof Error ? (err.stack ?? message) : message}`)
    const line = (message.split('\n')[0] ?? '').slice(0, 160)
    return [{ name: `${name}${POSTGRES}: error, ${line}`, measured: 'error', target: '—', pass: false, details: { error: message } }]
  }
}
