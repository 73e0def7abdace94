import { describe, expect, it } from 'vitest'
import { readDatabaseSettings } from '../../../server/db/settings.ts'

describe('the database settings', () => {
  it('default to the SQLite file in the data folder', () => {
    expect(readDatabaseSettings({}, '/srv/nadi')).toEqual({ dbFile: '/srv/nadi/nadi.sqlite', databaseUrl: null, database: '/srv/nadi/nadi.sqlite', lockFile: '/srv/nadi/nadi.sqlite', pgPool: 8 })
  })

  it('take PostgreSQL from NADI_DATABASE_URL, with a holder name in the data folder per database', () => {
    const a = readDatabaseSettings({ NADI_DATABASE_URL: 'postgres://nadi:pw@db:5432/nadi' }, '/srv/nadi')
    expect(a).toMatchObject({ databaseUrl: 'postgres://nadi:pw@db:5432/nadi', database: 'postgres://nadi:pw@db:5432/nadi' })
    expect(a.lockFile).toMatch(/^\/srv\/nadi\/postgres-[0-9a-f]{12}$/)
    expect(readDatabaseSettings({ NADI_DATABASE_URL: 'postgresql://db/other' }, '/srv/nadi').lockFile).not.toBe(a.lockFile)
  })

  it('size each process’s PostgreSQL pool from NADI_PG_POOL, refusing what is not a count of connections', () => {
    expect(readDatabaseSettings({ NADI_DATABASE_URL: 'postgres://db/nadi', NADI_PG_POOL: '40' }, '/d').pgPool).toBe(40)
    for (const bad of ['0', '-3', '2.5', 'many', '201']) expect(() => readDatabaseSettings({ NADI_PG_POOL: bad }, '/d'), bad).toThrow(/NADI_PG_POOL must be an integer from 1 to 200/)
  })

  it('refuse what is not a PostgreSQL URL, naming the variable and never echoing a password', () => {
    expect(() => readDatabaseSettings({ NADI_DATABASE_URL: 'mysql://u:secret@db/nadi' }, '/d')).toThrow(/^NADI_DATABASE_URL must be a postgres:\/\/ .*"mysql:\/\/…@db\/nadi"/)
    expect(() => readDatabaseSettings({ NADI_DATABASE_URL: 'mysql://u:secret@db/nadi' }, '/d')).not.toThrow(/secret/)
  })
})
