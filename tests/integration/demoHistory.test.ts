// Demo history on the real server (issue 9): a demo market's first start stores a few days of candles
// ending at its starting price, so every bar of the chart has shape; it touches neither journal nor
// ledger, is stored once per data folder, and a market that has candles or trades already is never given any.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import type { Candle } from '../../contract/trade.ts'
import { audit, custody, trade, transfer } from '../../server/ledger/index.ts'
import { ROOT_CODE, useServers } from './support/server.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers()
const dirs: string[] = []
const databases: TestDatabase[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  for (const d of databases) d.drop()
})
/** The database both starts of a test share: a SQLite file in a temp folder, or one PostgreSQL database of its own. */
const folder = (): Record<string, string> => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-demo-history-'))
  dirs.push(d)
  if (testBackend() === 'sqlite') return { NADI_DB_FILE: path.join(d, 'nadi.sqlite') }
  const db = freshDatabase()
  databases.push(db)
  return { NADI_DATABASE_URL: db.url }
}
const klines = async (s: Awaited<ReturnType<typeof start>>, bar: string, limit = 300) =>
  (await s.get<{ list: Candle[] }>(`/api/v1/trade/klines?inst_id=NADI-USDT&bar=${bar}&limit=${limit}`)).body_.data.list

it('a demo market’s first start stores days of candles on every bar, once, and nothing else', async () => {
  const db = folder()
  const env = { ...db, NADI_DEMO_MARKET: '1', NADI_DEMO_MARKET_EVERY_MS: '600000' }
  const s = await start({ env })
  const t0 = s.clock.now()
  const stored = await s.count('SELECT COUNT(*) FROM trade_candles WHERE bar = ? AND ts < ?', '1m', t0 - (t0 % 60_000))
  expect(stored).toBe(5 * 1440)
  // Every bar has shape, the daily one included; the newest candle stands at the starting price.
  expect((await klines(s, '1d')).length).toBeGreaterThanOrEqual(5)
  expect((await klines(s, '4h')).length).toBeGreaterThanOrEqual(30)
  expect(await klines(s, '1m', 300)).toHaveLength(300)
  const older = await s.get<{ list: Candle[] }>(`/api/v1/trade/klines?inst_id=NADI-USDT&bar=1m&limit=300&before=${t0 - 2 * 86_400_000}`)
  expect(older.body_.data.list).toHaveLength(300)
  // History only: the journal and the ledger hold nothing but what the live demo market did (and the demo's funding of its treasury, release, mining, savings, loan and activity prize accounts).
  expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE reason NOT IN ('demo_fund', 'treasury_fund', 'release_fund', 'loan_fund', 'activity_fund', 'trade')")).toBe(0)
  // The commands are read as JSON here: SQLite and PostgreSQL spell a JSON path differently.
  const demoUsers = new Set(((await s.ctx.sql.all(statement<{ id: bigint }>("SELECT id FROM users WHERE code IN ('DEMOMAKER', 'DEMOTAKER')"))).map((r) => r.id)).map(Number))
  const commands = (await s.ctx.sql.all(statement<{ command: string }>('SELECT command FROM exchange_journal'))).map((r) => r.command)
  expect(commands.map((c) => (JSON.parse(c) as { userId: number }).userId).filter((u) => !demoUsers.has(u))).toEqual([])
  expect((await audit(s.ctx.sql)).violations).toEqual([])
  await s.close()

  // The next start on the folder stores nothing more.
  const again = await start({ env, start: t0 + 3_600_000 })
  expect(await again.count('SELECT COUNT(*) FROM trade_candles WHERE bar = ? AND ts < ?', '1m', t0 - (t0 % 60_000))).toBe(stored)
  expect(await again.count('SELECT COUNT(*) FROM trade_candles WHERE bar = ? AND ts >= ?', '1m', t0 + 3_600_000 - 3 * 86_400_000)).toBeLessThan(3 * 1440)
})

it('a market that has traded is never given made-up history', async () => {
  const db = folder()
  const plain = await start({ env: db })
  const [a, b] = [await plain.signIn(ROOT_CODE), await plain.signIn(ROOT_CODE)]
  await transfer(plain.ctx.sql, { ref: 'h:a', reason: 'deposit', from: custody('nadi'), to: trade(a.userId), asset: 'NADI', amount: 100_000_000_000n })
  await transfer(plain.ctx.sql, { ref: 'h:b', reason: 'deposit', from: custody('bsc'), to: trade(b.userId), asset: 'USDT', amount: 100_000_000_000n })
  await plain.exchange!.place(a.userId, { side: 'sell', type: 'limit', price: 2500, lots: 1000, clientOrderId: 's' })
  await plain.exchange!.place(b.userId, { side: 'buy', type: 'limit', price: 2500, lots: 1000, clientOrderId: 'b' })
  await new Promise((r) => setTimeout(r, 20)) // candles are saved just after the commit
  await plain.close()

  const demo = await start({ env: { ...db, NADI_DEMO_MARKET: '1', NADI_DEMO_MARKET_EVERY_MS: '600000' } })
  expect(await demo.count("SELECT COUNT(*) FROM trade_candles WHERE bar = '1d'")).toBe(1)
  expect(await demo.count("SELECT COUNT(*) FROM trade_candles WHERE bar = '1m' AND ts < ?", demo.clock.now() - 3_600_000)).toBe(0)
})
