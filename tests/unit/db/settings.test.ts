import { describe, expect, it } from 'vitest'
import { readDatabaseSettings } from '../../../server/db/settings.ts'

describe('the database settings', () => {
  it('default to the SQLite file in the data folder', () => {
    expect(readDatabaseSettings({}, '/srv/nadi')).toEqual({ dbFile: '/srv/nadi/nadi.sqlite', databaseUrl: null, database: '/srv/nadi/nadi.sqlite', lockFile: '/srv/nadi/nadi.sqlite' })
  })

  it('take PostgreSQL from NADI_DATABASE_URL, with a holder name in the data folder per database', () => {
    const a = readDatabaseSettings({ NADI_DATABASE_URL: 'postgres://nadi:pw@db:5432/nadi' }, '/srv/nadi')
    expect(a).toMatchObject({ databaseUrl: 'postgres://nadi:pw@db:5432/nadi', database: 'postgres://nadi:pw@db:5432/nadi' })
    expect(a.lockFile).toMatch(/^\/srv\/nadi\/postgres-[0-9a-f]{12}$/)
    expect(readDatabaseSettings({ NADI_DATABASE_URL: 'postgresql://db/other' }, '/srv/nadi').lockFile).not.toBe(a.lockFile)
  })

  it('refuse what is not a PostgreSQL URL, naming the variable and never echoing a password', () => {
    expect(() => readDatabaseSettings({ NADI_DATABASE_URL: 'mysql://u:secret@db/nadi' }, '/d')).toThrow(/^NADI_DATABASE_URL must be a postgres:\/\/ .*"mysql:\/\/…@db\/nadi"/)
    expect(() => readDatabaseSettings({ NADI_DATABASE_URL: 'mysql://u:secret@db/nadi' }, '/d')).not.toThrow(/secret/)
  })
})
