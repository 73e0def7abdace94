// Global setup of the projects that run on PostgreSQL: one throwaway cluster for the run (initdb +
// pg_ctl in a temp folder on a free port, server/db/pg/cluster.ts) and a template database with every
// migration applied, which each test's database is copied from (CREATE DATABASE … TEMPLATE).

import { psqlSync, startCluster, type Cluster } from '../../server/db/pg/cluster.ts'
import { migratePostgres } from '../../server/db/migrate.ts'
import { PgPool } from '../../server/db/query/pg.ts'
import { TEMPLATE_DB } from './pg.ts'

let cluster: Cluster | null = null

export async function setup(): Promise<void> {
  cluster = await startCluster()
  psqlSync(cluster.url, `CREATE DATABASE ${TEMPLATE_DB}`)
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
