// PostgreSQL for tests: which backend this run is on, and a fresh database per server. The cluster
// itself is started once per run by ./pgGlobalSetup.ts (a throwaway one in a temp folder), which
// leaves its address in the environment for the test workers.

import crypto from 'node:crypto'
import { psqlSync } from '../../server/db/pg/cluster.ts'

export type Backend = 'sqlite' | 'postgres'

/** The backend of this run: NADI_TEST_BACKEND=postgres in the integration-pg project, SQLite otherwise. */
export function testBackend(): Backend {
  return process.env.NADI_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite'
}

export const TEMPLATE_DB = 'nadi_template'

export interface TestDatabase {
  url: string
  drop(): void
}

function admin(): string {
  const url = process.env.NADI_TEST_PG_ADMIN
  if (!url) throw new Error('no PostgreSQL cluster for this run (NADI_TEST_PG_ADMIN is unset): run it in the integration-pg project, whose global setup starts one')
  return url
}

/** A new database on the run's cluster: migrated (a copy of the template) unless `empty`. */
export function freshDatabase(opts: { empty?: boolean } = {}): TestDatabase {
  const base = admin()
  const name = `nadi_t_${crypto.randomBytes(6).toString('hex')}`
  psqlSync(base, `CREATE DATABASE ${name} TEMPLATE ${opts.empty ? 'template0' : TEMPLATE_DB}`)
  const url = base.replace(/\/[^/?]*(\?|$)/, `/${name}$1`)
  let dropped = false
  return {
    url,
    drop() {
      if (dropped) return
      dropped = true
      psqlSync(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}
