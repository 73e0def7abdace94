// A fresh ledger database per test: in memory, with the app's own migrations and a few users.

import type { SqlConnection } from '../../../server/db/connection.ts'
import { openSqliteFile } from '../../../server/db/index.ts'
import { migrate } from '../../../server/db/migrate.ts'
import type { Sql } from '../../../server/db/query/types.ts'

export interface TestDb {
  sqlite: SqlConnection
  /** The asynchronous way over the same connection. */
  sql: Sql
  /** Ids of the users created, 1…n. */
  users: bigint[]
  /** Counts of postings and entries: "nothing was written" is these plus the balances unchanged. */
  counts(): { postings: number; entries: number; accounts: number }
  close(): void
}

export function freshDb(userCount = 4): TestDb {
  const { sqlite, sql } = openSqliteFile(':memory:')
  migrate(sqlite)
  const insert = sqlite.prepare('INSERT INTO users (code, name, created_at) VALUES (?, ?, 0)')
  const users: bigint[] = []
  for (let i = 1; i <= userCount; i++) users.push(insert.run(`U${i}`, `user ${i}`).lastInsertRowid as bigint)
  const count = (table: string) => Number(sqlite.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get())
  return {
    sqlite,
    sql,
    users,
    counts: () => ({ postings: count('ledger_postings'), entries: count('ledger_entries'), accounts: count('ledger_accounts') }),
    close: () => sqlite.close(),
  }
}

/** sfc32: a small seeded generator, so a failing sequence is replayed from its seed. */
export function prng(seed: number) {
  let a = 0x9e3779b9
  let b = 0x243f6a88
  let c = 0xb7e15162
  let d = seed >>> 0
  const next = () => {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    let t = (a + b) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    d = (d + 1) | 0
    t = (t + d) | 0
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  for (let i = 0; i < 16; i++) next()
  return {
    /** [0, 1) */
    next,
    /** An integer in [0, n). */
    int: (n: number) => Math.floor(next() * n),
    /** A bigint in [1, max]. */
    amount: (max: bigint): bigint => {
      if (max < 1n) return 1n
      // 53 random bits are plenty for the spread; scale them into [0, max).
      const r = BigInt(Math.floor(next() * 2 ** 53))
      return 1n + ((r * max) >> 53n)
    },
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
    chance: (p: number) => next() < p,
  }
}
