// Sign-in limits kept in the database (server/http/rateLimit.ts StoredLimiter, migration 029): two
// connections — two api processes behind a balancer — count against one limit, on both backends.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/index.ts'
import { migrate } from '../../server/db/migrate.ts'
import { StoredLimiter } from '../../server/http/rateLimit.ts'
import { freshDatabase, testBackend } from '../support/pg.ts'

const cleanups: (() => unknown)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

it('two processes on one database count against one limit; limits are kept apart by name; a new window starts over', async () => {
  let target: string
  if (testBackend() === 'postgres') {
    const db = freshDatabase()
    cleanups.push(() => db.drop())
    target = db.url
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-limits-'))
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }))
    target = path.join(dir, 'nadi.sqlite')
  }
  const a = openDatabase(target)
  cleanups.push(() => a.close())
  migrate(a.sqlite)
  const b = openDatabase(target)
  cleanups.push(() => b.close())
  const onA = new StoredLimiter(a.sqlite, 'login-ip', 3, 60_000)
  const onB = new StoredLimiter(b.sqlite, 'login-ip', 3, 60_000)
  expect([onA.take('203.0.113.7', 1_000), onB.take('203.0.113.7', 1_001), onA.take('203.0.113.7', 1_002), onB.take('203.0.113.7', 1_003)]).toEqual([true, true, true, false])
  expect(onA.take('198.51.100.9', 1_004)).toBe(true)
  expect(new StoredLimiter(b.sqlite, 'login-address', 3, 60_000).take('203.0.113.7', 1_005)).toBe(true)
  // A restarted process (a new limiter on the same database) still counts the window.
  expect(new StoredLimiter(b.sqlite, 'login-ip', 3, 60_000).take('203.0.113.7', 59_999)).toBe(false)
  expect(onA.take('203.0.113.7', 61_000)).toBe(true)
  expect(onB.take('203.0.113.7', 61_001)).toBe(true)
})
