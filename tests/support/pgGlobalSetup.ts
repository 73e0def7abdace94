// Global setup of the projects that run on PostgreSQL: one throwaway cluster for the run (initdb +
// pg_ctl in a temp folder on a free port, server/db/pg/cluster.ts) and a template database with every
// migration applied, which each test's database is copied from (CREATE DATABASE … TEMPLATE).

import { startCluster, type Cluster } from '../../server/db/pg/cluster.ts'
import { PgSync } from '../../server/db/pg/sync.ts'
import { migratePostgres } from '../../server/db/migrate.ts'
import { PgPool } from '../../server/db/query/pg.ts'
import { TEMPLATE_DB } from './pg.ts'

let cluster: Cluster | null = null

export async function setup(): Promise<void> {
  cluster = await startCluster()
  const admin = new PgSync(cluster.url, { appName: 'nadi tests' })
  try {
    admin.exec(`CREATE DATABASE ${TEMPLATE_DB}`)
  } finally {
    admin.close()
  }
  const template = new PgPool(cluster.urlOf(TEMPLATE_DB), { appName: 'nadi tests', max: 1 })
  try {
    await migratePostgres(template)
  } finally {
    await template.close()
  }
  process.env.NADI_TEST_PG_ADMIN = cluster.url
}

export function teardown(): void {
  cluster?.stop()
  cluster = null
}
