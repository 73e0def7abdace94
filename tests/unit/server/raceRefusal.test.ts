// A race the database refused is a 409 in the user's language, never a 500 (issue 34 §2: one order
// paid 50 times at once across two api processes answered one of them with the unique index's 500).
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { raceRefusal } from '../../../server/http/errors.ts'
import { translate } from '../../../server/i18n.ts'

function refusedBy(sql: string): unknown {
  const db = new Database(':memory:')
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, ref TEXT UNIQUE, n INTEGER CHECK (n >= 0), p INTEGER REFERENCES t(id))')
  db.pragma('foreign_keys = ON')
  db.exec("INSERT INTO t (id, ref, n) VALUES (1, 'a', 1)")
  try {
    db.exec(sql)
  } catch (e) {
    return e
  } finally {
    db.close()
  }
  throw new Error(`not refused: ${sql}`)
}

describe('raceRefusal', () => {
  it('answers a unique key or a check the database refused with 409 "changed at the same moment"', () => {
    for (const e of [refusedBy("INSERT INTO t (ref, n) VALUES ('a', 1)"), refusedBy('UPDATE t SET n = n - 2'), Object.assign(new Error('dup'), { code: '23505' }), Object.assign(new Error('chk'), { code: '23514' })]) {
      const r = raceRefusal(e)
      expect(r, String(e)).not.toBeNull()
      expect(r!.status).toBe(409)
      expect(translate('EN', r!.key)).toMatch(/at the same moment/)
    }
  })

  it('answers a transaction PostgreSQL aborted to break a deadlock, or for a serialization failure, the same way: nothing of it was kept', () => {
    for (const code of ['40P01', '40001']) {
      const r = raceRefusal(Object.assign(new Error('deadlock detected'), { code }))
      expect([r?.status, r && translate('EN', r.key)]).toEqual([409, expect.stringMatching(/at the same moment/)])
    }
  })

  it('leaves the server’s own faults alone: a foreign key, a missing value, any other error', () => {
    for (const e of [refusedBy('INSERT INTO t (ref, n, p) VALUES (\'b\', 1, 99)'), Object.assign(new Error('fk'), { code: '23503' }), Object.assign(new Error('nn'), { code: '23502' }), new Error('boom'), null]) {
      expect(raceRefusal(e)).toBeNull()
    }
  })
})
