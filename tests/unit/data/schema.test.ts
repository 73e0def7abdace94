import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { beforeEach, describe, expect, it } from 'vitest'
import { DB_NAME, SCHEMA, openDb } from '../../../src/data/db.ts'
import { freshDatabase } from './fresh.ts'

beforeEach(freshDatabase)

describe('database schema', () => {
  it('opening a version-1 database upgrades it to version 2 and keeps its kv and queries rows', async () => {
    // A phone that ran the first release: only version 1 exists on it.
    const v1 = new Dexie(DB_NAME)
    v1.version(1).stores(SCHEMA[1])
    await v1.open()
    await v1.table('kv').put({ id: 'lang', value: 'EN' })
    await v1.table('queries').put({ account: 'u:7', client: { timestamp: 1, buster: 'b1', clientState: { queries: [], mutations: [] } } })
    v1.close()

    const db = openDb()
    await db.open()
    expect(db.verno).toBe(2)
    expect(await db.kv.get('lang')).toEqual({ id: 'lang', value: 'EN' })
    expect((await db.queries.get('u:7'))?.client.buster).toBe('b1')

    // The tables version 2 adds work at once, with their indexes.
    const id = await db.outbox.add({ account: 'u:7', action: 'a', payload: 1, idempotencyKey: 'k', createdAt: 1, state: 'pending', attempts: 0, nextAttemptAt: 1 })
    expect(await db.outbox.where('[account+state]').equals(['u:7', 'pending']).primaryKeys()).toEqual([id])
    await db.klines.put({ instId: 'BTC-USDT', bar: '1m', ts: 60_000, o: 1, h: 2, l: 0.5, c: 1.5, v: 10 })
    expect(await db.klines.where('[instId+bar]').equals(['BTC-USDT', '1m']).count()).toBe(1)
  })

  it('a new database is created at version 2 with all four tables', async () => {
    const db = openDb()
    await db.open()
    expect(db.verno).toBe(2)
    expect(db.tables.map((t) => t.name).sort()).toEqual(['klines', 'kv', 'outbox', 'queries'])
  })

  it('openDb returns one shared instance per page', () => {
    expect(openDb()).toBe(openDb())
  })
})
