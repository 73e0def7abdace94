import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { beforeEach, describe, expect, it } from 'vitest'
import { DB_NAME, KLINE_STRIDE, SCHEMA, klineChunkSpan, klineChunkStart, openDb, type KlineRow } from '../../../src/data/db.ts'
import { latestCandle, putCandles, readCandles } from '../../../src/data/index.ts'
import { freshDatabase } from './fresh.ts'

beforeEach(freshDatabase)

/** The database as a phone that ran an older release has it: versions 1…`upTo` of SCHEMA. */
async function olderDatabase(upTo: 1 | 2, fill: (db: Dexie) => Promise<unknown>): Promise<void> {
  const old = new Dexie(DB_NAME)
  old.version(1).stores(SCHEMA[1])
  if (upTo >= 2) old.version(2).stores(SCHEMA[2])
  await old.open()
  await fill(old)
  old.close()
}

const MIN = 60_000
const HOUR = 60 * MIN
const T0 = 1_700_000_040_000
const row = (instId: string, bar: string, ts: number, c: number): KlineRow => ({ instId, bar, ts, o: c - 1, h: c + 2, l: c - 2, c, v: c * 10 })
const candleOf = ({ ts, o, h, l, c, v }: KlineRow) => ({ ts, o, h, l, c, v })
const ALL: [number, number] = [-Infinity, Infinity]

describe('database schema', () => {
  it('opening a version-1 database upgrades it to version 3 and keeps its kv and queries rows', async () => {
    // A phone that ran the first release: only version 1 exists on it.
    await olderDatabase(1, async (v1) => {
      await v1.table('kv').put({ id: 'lang', value: 'EN' })
      await v1.table('queries').put({ account: 'u:7', client: { timestamp: 1, buster: 'b1', clientState: { queries: [], mutations: [] } } })
    })

    const db = openDb()
    await db.open()
    expect(db.verno).toBe(3)
    expect(await db.kv.get('lang')).toEqual({ id: 'lang', value: 'EN' })
    expect((await db.queries.get('u:7'))?.client.buster).toBe('b1')
    expect([...db.backendDB().objectStoreNames].sort()).toEqual(['klineChunks', 'kv', 'outbox', 'queries'])

    // The tables versions 2 and 3 add work at once, with their indexes.
    const id = await db.outbox.add({ account: 'u:7', action: 'a', payload: 1, idempotencyKey: 'k', createdAt: 1, state: 'pending', attempts: 0, nextAttemptAt: 1 })
    expect(await db.outbox.where('[account+state]').equals(['u:7', 'pending']).primaryKeys()).toEqual([id])
    await putCandles('BTC-USDT', '1m', [{ ts: 60_000, o: 1, h: 2, l: 0.5, c: 1.5, v: 10 }])
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual([{ ts: 60_000, o: 1, h: 2, l: 0.5, c: 1.5, v: 10 }])
  })

  it('opening a version-2 database packs every stored candle into chunks and drops the old klines table', async () => {
    // A phone that ran release 2: one row per candle, written in no particular order, three series.
    const btc1m = Array.from({ length: 1_234 }, (_, i) => row('BTC-USDT', '1m', T0 + i * MIN, 100 + i))
    const btc1H = Array.from({ length: 700 }, (_, i) => row('BTC-USDT', '1H', T0 - 20 + i * HOUR, 5 + i))
    const eth1m = [row('ETH-USDT', '1m', T0 + 3 * MIN, 7), row('ETH-USDT', '1m', T0 + 9_000 * MIN, 8)]
    await olderDatabase(2, async (v2) => {
      await v2.table('klines').bulkPut([...eth1m, ...btc1H.slice(300), ...[...btc1m].reverse(), ...btc1H.slice(0, 300)])
      await v2.table('kv').put({ id: 'lang', value: 'ZH' })
      await v2.table('outbox').add({ account: 'u:1', action: 'a', payload: 1, idempotencyKey: 'k', createdAt: 1, state: 'pending', attempts: 0, nextAttemptAt: 1 })
    })

    const db = openDb()
    await db.open()
    expect(db.verno).toBe(3)
    expect([...db.backendDB().objectStoreNames].sort()).toEqual(['klineChunks', 'kv', 'outbox', 'queries'])
    expect(db.tables.map((t) => t.name)).not.toContain('klines')

    // No candle is lost or changed, and each series reads back in order through the store.
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual(btc1m.map(candleOf))
    expect(await readCandles('BTC-USDT', '1H', ...ALL)).toEqual(btc1H.map(candleOf))
    expect(await readCandles('ETH-USDT', '1m', ...ALL)).toEqual(eth1m.map(candleOf))
    expect(await latestCandle('BTC-USDT', '1m')).toEqual(candleOf(btc1m.at(-1)!))
    expect(await readCandles('BTC-USDT', '1m', btc1m[400]!.ts, btc1m[900]!.ts)).toEqual(btc1m.slice(400, 901).map(candleOf))

    // The rows are the same chunks putCandles would have written: aligned windows, one per key.
    const rows = await db.klineChunks.toArray()
    for (const r of rows) {
      const span = klineChunkSpan(r.bar)
      expect(r.data).toBeInstanceOf(Float64Array)
      expect(r.data.length % KLINE_STRIDE).toBe(0)
      for (let k = 0; k < r.data.length; k += KLINE_STRIDE) expect(klineChunkStart(span, r.data[k]!)).toBe(r.start)
    }
    const windows = (series: KlineRow[]) => new Set(series.map((k) => klineChunkStart(klineChunkSpan(k.bar), k.ts))).size
    expect(rows).toHaveLength(windows(btc1m) + windows(btc1H) + windows(eth1m))
    expect(windows(btc1m)).toBeGreaterThan(2) // the data did cross chunk boundaries

    // Migrated chunks take merges like any other.
    await putCandles('BTC-USDT', '1m', [{ ...candleOf(btc1m[500]!), c: -1 }])
    expect((await readCandles('BTC-USDT', '1m', btc1m[500]!.ts, btc1m[500]!.ts))[0]?.c).toBe(-1)

    // The other tables come through untouched.
    expect(await db.kv.get('lang')).toEqual({ id: 'lang', value: 'ZH' })
    expect(await db.outbox.count()).toBe(1)
  })

  it('a version-2 database without candles upgrades to an empty chunk table', async () => {
    await olderDatabase(2, (v2) => v2.table('kv').put({ id: 'k', value: 1 }))
    const db = openDb()
    await db.open()
    expect(db.verno).toBe(3)
    expect(await db.klineChunks.count()).toBe(0)
    expect(await db.kv.get('k')).toEqual({ id: 'k', value: 1 })
  })

  it('a new database is created at version 3 with all four tables', async () => {
    const db = openDb()
    await db.open()
    expect(db.verno).toBe(3)
    expect(db.tables.map((t) => t.name).sort()).toEqual(['klineChunks', 'kv', 'outbox', 'queries'])
    expect([...db.backendDB().objectStoreNames].sort()).toEqual(['klineChunks', 'kv', 'outbox', 'queries'])
  })

  it('openDb returns one shared instance per page', () => {
    expect(openDb()).toBe(openDb())
  })
})
