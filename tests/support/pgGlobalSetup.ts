// Global setup of the projects that run on PostgreSQL: one throwaway cluster for the run (initdb +
// pg_ctl in a temp folder on a free port, server/db/pg/cluster.ts) and a template database with every
// migration applied, which each test's database is copied from (CREATE DATABASE … TEMPLATE).

import { psqlSync, startCluster, type Cluster } from '../../server/db/pg/cluster.ts'
import { PgSync } from '../../server/db/pg/sync.ts'
import { migrate } from '../../server/db/migrate.ts'
import { TEMPLATE_DB } from './pg.ts'

let cluster: Cluster | null = null

export async function setup(): Promise<void> {
  cluster = await startCluster()
  psqlSync(cluster.url, `CREATE DATABASE ${TEMPLATE_DB}`)
  const template = new PgSync(cluster.urlOf(TEMPLATE_DB), { appName: 'nadi tests' })
  try {
    migrate(template)
  } finally {
    template.close()
  }
  process.env.NADI_TEST_PG_ADMIN = cluster.url
}

export function teardown(): void {
  cluster?.stop()
  cluster = null
}
