// Migrations for both backends from one list (issue 18): a database migrated in one go and one
// migrated a version at a time end in the same schema, and SQLite's schema is PostgreSQL's.

import { afterEach, expect, it } from 'vitest'
import { openDatabase, openSqliteFile, type Database_ } from '../../server/db/index.ts'
import { migrate, migrateDatabase, migrationFiles } from '../../server/db/migrate.ts'
import { schemaInfo, schemaInfoOf } from '../../server/db/schemaInfo.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'

const opened: Database_[] = []
const dbs: TestDatabase[] = []
afterEach(async () => {
  for (const d of opened.splice(0)) await d.close()
  for (const d of dbs.splice(0)) d.drop()
})

/** An empty database of this run's backend. */
function empty(): Database_ {
  let d: Database_
  if (testBackend() === 'postgres') {
    const t = freshDatabase({ empty: true })
    dbs.push(t)
    d = openDatabase(t.url)
  } else d = openDatabase(':memory:')
  opened.push(d)
  return d
}

const versions = migrationFiles().map((f) => parseInt(f, 10))

it('a database migrated in one go and one migrated version by version end in the same schema', async () => {
  const once = empty()
  expect(await migrateDatabase(once)).toHaveLength(versions.length)
  const stepwise = empty()
  for (const v of versions) expect(await migrateDatabase(stepwise, undefined, v)).toHaveLength(1)
  expect(await migrateDatabase(stepwise)).toEqual([])
  expect(await schemaInfoOf(stepwise)).toEqual(await schemaInfoOf(once))
})

it.runIf(testBackend() === 'postgres')("PostgreSQL's schema is SQLite's: the same tables, columns, types, keys and indexes", async () => {
  const pg = empty()
  await migrateDatabase(pg)
  const lite = openSqliteFile(':memory:')
  opened.push(lite)
  migrate(lite.sqlite)
  const a = schemaInfo(lite.sqlite)
  const b = await schemaInfoOf(pg)
  expect(Object.keys(b.tables).sort()).toEqual(Object.keys(a.tables).sort())
  for (const t of Object.keys(a.tables)) expect(b.tables[t], t).toEqual(a.tables[t])
})
