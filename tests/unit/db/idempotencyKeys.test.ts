import { afterEach, describe, expect, it } from 'vitest'
import { openSqliteFile, type SqliteDatabase } from '../../../server/db/index.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { claimKeysIn, recordKeysIn, releaseKeysIn } from '../../../server/db/idempotencyKeys.ts'
import type { KeyAnswer, KeyedEffect } from '../../../server/db/keyedEffect.ts'
import { statement } from '../../../server/db/query/types.ts'

let open: SqliteDatabase[] = []
afterEach(async () => {
  for (const d of open) await d.close()
  open = []
})

function db(): SqliteDatabase {
  const conn = openSqliteFile(':memory:')
  migrate(conn.sqlite)
  open.push(conn)
  return conn
}

/** A keyed request as the HTTP layer makes one, with `answer` for whatever value its effect has (null: nothing to keep). */
function keyed(key: string, answer: (v: unknown) => KeyAnswer | null = (v) => ({ status: 200, body: JSON.stringify(v) })): KeyedEffect & { wrote_: number } {
  const k = {
    scope: 'u:1',
    key,
    hash: `hash-${key}`,
    at: 1_000,
    holder: `holder-${key}-${Math.random()}`,
    wrote_: 0,
    held: () => new Error('held'),
    wrote: () => void k.wrote_++,
    answerFor: async (v: unknown) => answer(v),
    record: () => {},
    recordIn: async () => {},
    claim: () => {},
    release: () => {},
    answerAs: () => {},
    answerIn: () => {},
  }
  return k
}

const ROWS = statement<{ key: string; status: bigint | null; body: string | null; holder: string }>('SELECT key, status, body, holder FROM idempotency_keys ORDER BY key')

describe("the market batch's keys, one statement for all", () => {
  it('claims free keys, refuses one another request holds and a second of the same key in the batch', async () => {
    const conn = db()
    const other = keyed('k2')
    await conn.sql.transaction((tx) => claimKeysIn(tx, [other]))
    const [a, b, dup] = [keyed('k1'), keyed('k2'), keyed('k1')]
    const got = await conn.sql.transaction((tx) => claimKeysIn(tx, [a, b, dup]))
    expect(got).toEqual([true, false, false])
    expect([a.wrote_, b.wrote_, dup.wrote_]).toEqual([1, 0, 0])
    const rows = await conn.sql.all(ROWS)
    expect(rows.map((r) => [r.key, r.holder])).toEqual([
      ['k1', a.holder],
      ['k2', other.holder],
    ])
  })

  it('records the answers of claimed keys, frees those with none to keep, and frees refused ones', async () => {
    const conn = db()
    const [a, busy, refused] = [keyed('a'), keyed('b', () => null), keyed('c')]
    await conn.sql.transaction(async (tx) => {
      await claimKeysIn(tx, [a, busy, refused])
      await releaseKeysIn(tx, [refused])
      await recordKeysIn(tx, [
        { keyed: a, value: { id: 7 } },
        { keyed: busy, value: { id: 8 } },
      ])
    })
    const rows = await conn.sql.all(ROWS)
    expect(rows.map((r) => [r.key, r.status, r.body])).toEqual([['a', 200n, '{"id":7}']])
  })

  it('throws when a claimed key is no longer the batch’s, so the batch does not commit an answer it cannot keep', async () => {
    const conn = db()
    const a = keyed('a')
    await expect(
      conn.sql.transaction(async (tx) => {
        await claimKeysIn(tx, [a])
        await tx.run(statement<never, [string]>("UPDATE idempotency_keys SET holder = 'someone else' WHERE key = ?"), 'a')
        await recordKeysIn(tx, [{ keyed: a, value: 1 }])
      }),
    ).rejects.toThrow(/held by another request/)
    expect(await conn.sql.all(ROWS)).toEqual([])
  })
})
