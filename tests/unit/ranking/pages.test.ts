// Deep pages (issue 12 review): a page of the rankings or of the team list costs its depth, so how
// deep one may go is capped and a page beyond is refused with a localized message, like a page out
// of range; the page straddling the cap stops at it. Pages read off the index stay in ranking order.
import { afterEach, describe, expect, it } from 'vitest'
import { RANKING_SHOWN } from '../../../contract/ranking.ts'
import { TEAM_LIST_SHOWN } from '../../../contract/teamRules.ts'
import { loadConfig } from '../../../server/config.ts'
import { openSqliteFile, type SqliteDatabase } from '../../../server/db/index.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { ApiError } from '../../../server/http/errors.ts'
import { translate } from '../../../server/i18n.ts'
import { createRankingService } from '../../../server/modules/ranking/service.ts'
import { createTeamService } from '../../../server/modules/team/service.ts'
import { rank, type Entry } from '../../../server/modules/ranking/rules.ts'

const NOW = Date.UTC(2026, 2, 10, 12)
const DAY = Math.floor(NOW / 86_400_000)
const open: SqliteDatabase[] = []
afterEach(() => {
  for (const c of open.splice(0)) c.sqlite.close()
})

/** RANKING_SHOWN + 5 users under a root, each with a day figure and a team figure (ties common). */
function seeded(): SqliteDatabase {
  const c = openSqliteFile(':memory:')
  open.push(c)
  migrate(c.sqlite)
  const n = RANKING_SHOWN + 5
  c.sqlite.exec(`
    INSERT INTO users (id, wallet_address, code, name, depth, is_root, created_at, team_performance) VALUES (1, NULL, 'R', 'NADI', 0, 1, 0, 999999999999);
    WITH RECURSIVE n(x) AS (SELECT 2 UNION ALL SELECT x + 1 FROM n WHERE x < ${n + 1})
    INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, created_at, team_performance, team_reached_at)
      SELECT x, printf('0x%040x', x), 'C' || x, 'u' || x, 1, 1, 0, (1 + (x * 7919) % 50) * 100000000, (x * 31) % 17 FROM n;
    INSERT INTO ranking_days (day, user_id, amount, reached_at) SELECT ${DAY}, id, team_performance, team_reached_at FROM users WHERE is_root = 0;`)
  return c
}

const service = (c: SqliteDatabase) => createRankingService({ sql: c.sql, config: loadConfig({ NADI_ENV: 'test', NADI_DEMO: '0', LOG_LEVEL: 'silent' }), now: () => NOW })

/** The ApiError a read refuses with, thrown or as its promise's rejection. */
async function refusal(f: () => unknown): Promise<ApiError> {
  try {
    await f()
  } catch (err) {
    if (err instanceof ApiError) return err
    throw err
  }
  throw new Error('not refused')
}

describe('ranking pages', () => {
  it('read in ranking order off the index, the page at the cap stopping at it, and a page beyond refused', async () => {
    const c = seeded()
    const svc = service(c)
    const entries = (c.sqlite.prepare('SELECT id, team_performance, team_reached_at FROM users WHERE is_root = 0').all() as { id: bigint; team_performance: bigint; team_reached_at: bigint }[]).map(
      (r): Entry => ({ userId: r.id, amount: r.team_performance, reachedAt: r.team_reached_at }),
    )
    const want = rank(entries)
    for (const read of [(p: number, size: number) => svc.daily(DAY, p, size), (p: number, size: number) => svc.total(p, size)]) {
      const deep = await read(RANKING_SHOWN / 100, 100)
      expect(deep.total).toBe(RANKING_SHOWN + 5)
      expect(deep.list.map((r) => [r.rank, r.user_id])).toEqual(want.slice(RANKING_SHOWN - 100, RANKING_SHOWN).map((e) => [e.rank, Number(e.userId)]))
      // 30 a page: page 334 starts at 9,990 and stops at 10,000.
      expect((await read(334, 30)).list.map((r) => r.rank)).toEqual(Array.from({ length: 10 }, (_, i) => 9991 + i))
      const err = await refusal(() => read(RANKING_SHOWN / 100 + 1, 100))
      expect([err.status, err.key, err.params]).toEqual([400, 'ranking.errors.pageTooDeep', { page: 101, shown: RANKING_SHOWN, pages: 100 }])
      expect(translate('EN', err.key, err.params)).toMatch(/top 10000 only/)
    }
  })
})

describe('team list pages', () => {
  it('go as deep as TEAM_LIST_SHOWN members; beyond is refused, and the search still finds anyone', async () => {
    const c = openSqliteFile(':memory:')
    open.push(c)
    migrate(c.sqlite)
    const n = TEAM_LIST_SHOWN + 7
    c.sqlite.exec(`
      INSERT INTO users (id, wallet_address, code, name, depth, created_at, team_num) VALUES (1, '0x${'0'.repeat(39)}1', 'C1', 'top', 0, 0, ${n});
      WITH RECURSIVE n(x) AS (SELECT 2 UNION ALL SELECT x + 1 FROM n WHERE x < ${n + 1})
      INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, created_at) SELECT x, printf('0x%040x', x), 'C' || x, 'u' || x, 1, 1, 0 FROM n;`)
    const team = createTeamService({ sql: c.sql })
    const last = await team.list(1, TEAM_LIST_SHOWN / 10, 10, undefined)
    expect(last.list.map((m) => m.id)).toEqual(Array.from({ length: 10 }, (_, i) => TEAM_LIST_SHOWN - 8 + i))
    expect((await team.list(1, Math.ceil(TEAM_LIST_SHOWN / 30), 30, undefined)).list).toHaveLength(TEAM_LIST_SHOWN % 30 || 30)
    const err = await refusal(() => team.list(1, TEAM_LIST_SHOWN / 10 + 1, 10, undefined))
    expect([err.status, err.key, err.params]).toEqual([400, 'team.errors.pageTooDeep', { shown: TEAM_LIST_SHOWN }])
    expect(translate('JP', err.key, err.params)).toContain(String(TEAM_LIST_SHOWN))
    expect((await team.list(1, 1, 10, String(n + 1))).list.map((m) => m.id)).toEqual([n + 1])
  })
})
