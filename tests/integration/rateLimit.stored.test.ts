// Sign-in limits kept in the database (server/http/rateLimit.ts StoredLimiter, migration 029): two
// connections — two api processes behind a balancer — count against one limit, on both backends.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/index.ts'
import { migrateDatabase } from '../../server/db/migrate.ts'
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
  await migrateDatabase(a)
  const b = openDatabase(target)
  cleanups.push(() => b.close())
  const onA = new StoredLimiter(a.sql, 'login-ip', 3, 60_000)
  const onB = new StoredLimiter(b.sql, 'login-ip', 3, 60_000)
  const taken = []
  for (const [on, at] of [[onA, 1_000], [onB, 1_001], [onA, 1_002], [onB, 1_003]] as const) taken.push(await on.take('203.0.113.7', at))
  expect(taken).toEqual([true, true, true, false])
  expect(await onA.take('198.51.100.9', 1_004)).toBe(true)
  expect(await new StoredLimiter(b.sql, 'login-address', 3, 60_000).take('203.0.113.7', 1_005)).toBe(true)
  // A restarted process (a new limiter on the same database) still counts the window.
  expect(await new StoredLimiter(b.sql, 'login-ip', 3, 60_000).take('203.0.113.7', 59_999)).toBe(false)
  expect(await onA.take('203.0.113.7', 61_000)).toBe(true)
  expect(await onB.take('203.0.113.7', 61_001)).toBe(true)
})
