// Several servers starting at once on a fresh PostgreSQL database (issue 19: api processes are started
// together behind a balancer) seed exactly once: three processes migrate, then run the start's seeds
// in the same instant (server/roles/seeds.ts). Each starts, all answer the same root invite code, and
// the database holds one root, one catalog, one set of banners, notices, nodes and activities, each
// demo funding posted once, and a ledger whose audit is clean.

import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'
import { PgPool } from '../../server/db/query/pg.ts'
import { statement } from '../../server/db/query/types.ts'
import { SEED_BANNERS, SEED_NOTICES } from '../../server/db/seed/content.ts'
import { audit } from '../../server/ledger/index.ts'
import { DEMO_ACTIVITY_FILE } from '../../server/modules/activity/seed.ts'
import { DEMO_PLEDGE_FILE } from '../../server/modules/pledge/seed.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const PROCESSES = 3

const dbs: TestDatabase[] = []
afterAll(() => {
  for (const d of dbs) d.drop()
})

interface Seeder {
  ready: Promise<void>
  go(): void
  result: Promise<{ code?: string; failed?: string }>
}

function seeder(url: string): Seeder {
  const p = spawn(process.execPath, ['--import', 'tsx', 'tests/integration/support/seedRace.ts', url], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
  let err = ''
  p.stderr!.on('data', (b: Buffer) => (err += b.toString()))
  const lines = readline.createInterface({ input: p.stdout! })
  let markReady: () => void
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  const result = new Promise<{ code?: string; failed?: string }>((resolve) => {
    lines.on('line', (line) => {
      if (line === 'ready') markReady()
      else if (line.startsWith('{')) resolve(JSON.parse(line) as { code?: string; failed?: string })
    })
    p.on('exit', (code) => resolve({ failed: `exited ${code} before answering: ${err.slice(-500)}` }))
  })
  return { ready: Promise.race([ready, result.then(() => {})]), go: () => p.stdin!.end('go\n'), result }
}

describe.runIf(testBackend() === 'postgres')('seeding at start, several servers at once', () => {
  it('three servers starting together on a fresh database seed exactly once, without an error', { timeout: 60_000 }, async () => {
    const db = freshDatabase({ empty: true })
    dbs.push(db)
    const seeders = Array.from({ length: PROCESSES }, () => seeder(db.url))
    await Promise.all(seeders.map((s) => s.ready))
    for (const s of seeders) s.go()
    const results = await Promise.all(seeders.map((s) => s.result))

    expect(results.map((r) => r.failed)).toEqual(results.map(() => undefined))
    expect(new Set(results.map((r) => r.code)).size).toBe(1)
    const books = new PgPool(db.url, { appName: 'nadi tests' })
    try {
      const count = async (sql: string) => Number((await books.get(statement<{ n: bigint }, []>(sql)))?.n)
      expect(await count('SELECT count(*) AS n FROM users WHERE is_root = 1')).toBe(1)
      expect((await books.get(statement<{ code: string }, []>('SELECT code FROM users WHERE is_root = 1')))?.code).toBe(results[0]!.code)
      const catalog = JSON.parse(fs.readFileSync(path.join(ROOT, 'server/db/seed/catalog.json'), 'utf8')) as { products: unknown[]; categories: unknown[] }
      expect(await count('SELECT count(*) AS n FROM products')).toBe(catalog.products.length)
      expect(await count('SELECT count(*) AS n FROM product_categories')).toBe(catalog.categories.length)
      expect(await count("SELECT count(*) AS n FROM banners WHERE place = 'home'")).toBe(SEED_BANNERS.length)
      expect(await count('SELECT count(*) AS n FROM notices')).toBe(SEED_NOTICES.length)
      const nodeFile = JSON.parse(fs.readFileSync(path.join(ROOT, 'server/modules/node/demoNodes.json'), 'utf8')) as { tiers: unknown[] }
      expect(await count('SELECT count(*) AS n FROM node_tiers')).toBe(nodeFile.tiers.length)
      const activities = JSON.parse(fs.readFileSync(DEMO_ACTIVITY_FILE, 'utf8')) as { activities: unknown[] }
      expect(await count('SELECT count(*) AS n FROM activities')).toBe(activities.activities.length)
      const pledge = JSON.parse(fs.readFileSync(DEMO_PLEDGE_FILE, 'utf8')) as { products: unknown[] }
      expect(await count('SELECT count(*) AS n FROM pledge_products')).toBe(pledge.products.length)
      // Every demo funding once: one posting per ref (refs are unique), and no ref posted under another name.
      const demoRefs = (await books.all(statement<{ ref: string }, []>("SELECT ref FROM ledger_postings WHERE ref LIKE 'demo:%' ORDER BY ref"))).map((r) => r.ref)
      expect(demoRefs.length).toBeGreaterThan(0)
      expect(new Set(demoRefs).size).toBe(demoRefs.length)
      expect((await audit(books)).violations).toEqual([])
    } finally {
      await books.close()
    }
  })
})
