import type Database from 'better-sqlite3'
import type { Ctx } from '../../context.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { CODE, type LangCode } from '../../../contract/constants.ts'
import { MEASURE_UNIT, type ActivityDetail, type ActivityItem, type ActivityPrize, type ActivityRank, type ActivityStatus, type Measure, type RankEntry } from '../../../contract/activity.ts'
import { formatMoney } from '../../../contract/money.ts'
import { ApiError, badRequest, notFound } from '../../http/errors.ts'
import { storedPrizes } from './activityFile.ts'
import { prizeOf, statusAt, type PrizeRange } from './rules.ts'
import { standings, type Standing } from './scores.ts'

/** A live leaderboard is recomputed at most this often, however many read it. */
export const BOARD_TTL_MS = 5_000
/** An ended window's board no longer moves; it is kept longer. */
const ENDED_TTL_MS = 10 * 60_000

export interface ActivityRow {
  id: bigint
  slug: string
  title: string
  body: string
  cover: string
  measure: Measure
  starts_at: bigint
  ends_at: bigint
  sort: bigint
  active: bigint
  settled_at: bigint | null
  halted: string | null
}

/** A text in the asked language, else the default, else English. */
export function pickText(json: string, lang: LangCode): string {
  const t = JSON.parse(json) as Record<string, string>
  return t[lang] ?? t.TW ?? t.EN ?? Object.values(t)[0] ?? ''
}

const prizeWire = (p: PrizeRange): ActivityPrize => ({ from: p.from, to: p.to, asset: p.asset, amount: formatMoney(p.amount) })
/** A score as the wire shows it: an amount for money measures, a count of members otherwise. */
export const scoreText = (measure: Measure, score: bigint) => (MEASURE_UNIT[measure] === 'members' ? score.toString() : formatMoney(score))

const pageOutOfRange = (pages: number) => badRequest('activity.errors.pageOutOfRange', { pages })
const notStarted = () => new ApiError(409, CODE.CONFLICT, 'activity.errors.notStarted')
// One refusal for every user whose place the caller may not see, whether or not they took part, so
// the answer tells nothing about them (not even that they exist).
const rankNotAllowed = () => new ApiError(403, CODE.FORBIDDEN, 'activity.errors.rankNotAllowed')

/**
 * 1 when @caller is a strict ancestor of @target (the target is in the caller's team). A set-based walk
 * up users.inviter_id from the target (a recursive CTE: SQLite loops over a queue, no stack, any depth),
 * taking only as many steps as the depths differ and stopping at the caller.
 */
const IS_ANCESTOR = `WITH RECURSIVE up(id, steps) AS (
    SELECT t.inviter_id, 1 FROM users t JOIN users c ON c.id = @caller
     WHERE t.id = @target AND t.inviter_id IS NOT NULL AND t.depth > c.depth
    UNION ALL
    SELECT u.inviter_id, up.steps + 1 FROM up JOIN users u ON u.id = up.id
     WHERE up.id <> @caller AND u.inviter_id IS NOT NULL AND up.steps < @gap
  )
  SELECT 1 FROM up WHERE id = @caller LIMIT 1`

interface Board {
  at: number
  list: Standing[]
  byUser: Map<number, Standing>
}

export type ActivityService = ReturnType<typeof createActivityService>

export function createActivityService(ctx: Pick<Ctx, 'sqlite' | 'now'>) {
  const { sqlite } = ctx
  const boards = new Map<number, Board>()
  const st = {
    one: sqlite.prepare('SELECT * FROM activities WHERE id = @id AND active = 1'),
    count: {
      all: sqlite.prepare('SELECT count(*) FROM activities WHERE active = 1').pluck(),
      upcoming: sqlite.prepare('SELECT count(*) FROM activities WHERE active = 1 AND starts_at > @now').pluck(),
      running: sqlite.prepare('SELECT count(*) FROM activities WHERE active = 1 AND starts_at <= @now AND ends_at > @now').pluck(),
      ended: sqlite.prepare('SELECT count(*) FROM activities WHERE active = 1 AND ends_at <= @now').pluck(),
    },
    page: {
      // Running first (ending soonest), then upcoming (starting soonest), then ended (latest first).
      all: sqlite.prepare(
        `SELECT * FROM activities WHERE active = 1
         ORDER BY CASE WHEN starts_at > @now THEN 1 WHEN ends_at > @now THEN 0 ELSE 2 END, sort,
                  CASE WHEN ends_at > @now THEN ends_at ELSE -ends_at END, id LIMIT @limit OFFSET @offset`,
      ),
      upcoming: sqlite.prepare('SELECT * FROM activities WHERE active = 1 AND starts_at > @now ORDER BY sort, starts_at, id LIMIT @limit OFFSET @offset'),
      running: sqlite.prepare('SELECT * FROM activities WHERE active = 1 AND starts_at <= @now AND ends_at > @now ORDER BY sort, ends_at, id LIMIT @limit OFFSET @offset'),
      ended: sqlite.prepare('SELECT * FROM activities WHERE active = 1 AND ends_at <= @now ORDER BY sort, ends_at DESC, id DESC LIMIT @limit OFFSET @offset'),
    },
    winners: sqlite.prepare('SELECT rank, asset, amount FROM activity_winners WHERE activity_id = @id'),
    depthGap: sqlite.prepare('SELECT t.depth - c.depth FROM users t, users c WHERE t.id = @target AND c.id = @caller').pluck(),
    isAncestor: sqlite.prepare(IS_ANCESTOR).pluck(),
  }

  /** Whose place the caller may ask for: their own, or a member of their team (strictly below them). */
  function mayView(callerId: number, userId: number): boolean {
    if (userId === callerId) return true
    const gap = st.depthGap.get({ target: userId, caller: callerId }) as bigint | undefined
    if (gap === undefined || gap <= 0n) return false
    return st.isAncestor.get({ target: userId, caller: callerId, gap }) !== undefined
  }

  function item(r: ActivityRow, lang: LangCode, now: number): ActivityItem {
    return {
      id: Number(r.id),
      title: pickText(r.title, lang),
      cover: r.cover,
      measure: r.measure,
      status: statusAt(Number(r.starts_at), Number(r.ends_at), now),
      starts_at: Number(r.starts_at),
      ends_at: Number(r.ends_at),
      prizes: storedPrizes(sqlite, r.id).map(prizeWire),
    }
  }

  function find(id: number): ActivityRow {
    const r = st.one.get({ id }) as ActivityRow | undefined
    if (!r) throw notFound('activity.errors.notFound')
    return r
  }

  /** The cached board of an activity, recomputed when older than its TTL. */
  function board(r: ActivityRow, now: number): Board {
    const id = Number(r.id)
    const ended = Number(r.ends_at) <= now
    const cached = boards.get(id)
    if (cached && now - cached.at < (ended ? ENDED_TTL_MS : BOARD_TTL_MS) && now >= cached.at) return cached
    const list = standings(sqlite as Database.Database, r.measure, Number(r.starts_at), Number(r.ends_at))
    const b = { at: now, list, byUser: new Map(list.map((s) => [s.userId, s])) }
    boards.set(id, b)
    return b
  }

  return {
    list(lang: LangCode, status: ActivityStatus | undefined, page: number, pageSize: number): PagedList<ActivityItem> {
      const now = ctx.now()
      const key = status ?? 'all'
      const total = Number(st.count[key].get({ now }) as bigint)
      if (page > 1 && (page - 1) * pageSize >= total) throw pageOutOfRange(Math.max(1, Math.ceil(total / pageSize)))
      const rows = st.page[key].all({ now, limit: pageSize, offset: (page - 1) * pageSize }) as ActivityRow[]
      return { total, list: rows.map((r) => item(r, lang, now)) }
    },

    detail(lang: LangCode, id: number): ActivityDetail {
      const now = ctx.now()
      const r = find(id)
      return { ...item(r, lang, now), body: pickText(r.body, lang), settled: r.settled_at !== null, server_time: now }
    },

    /**
     * The leaderboard's top `limit`, and one place pinned: the asked user's or else the caller's (null
     * when they have none yet). Only the caller's own place or a team member's may be asked for; an
     * allowed user with no score is refused. Before the start there is none.
     */
    rank(lang: LangCode, id: number, callerId: number, limit: number, userId?: number): ActivityRank {
      const now = ctx.now()
      const r = find(id)
      const status = statusAt(Number(r.starts_at), Number(r.ends_at), now)
      if (status === 'upcoming') throw notStarted()
      // Checked before the board is read: a refusal must not depend on whether the user scored.
      if (userId !== undefined && !mayView(callerId, userId)) throw rankNotAllowed()
      const b = board(r, now)
      const prizes = storedPrizes(sqlite, r.id)
      // Once paid, a rank shows what it was paid; before, what it stands to win.
      const paid = r.settled_at === null ? null : new Map((st.winners.all({ id: r.id }) as { rank: bigint; asset: string; amount: bigint }[]).map((w) => [Number(w.rank), w]))
      const entry = (s: Standing): RankEntry => {
        const p = paid ? (paid.get(s.rank) ?? null) : prizeOf(s.rank, prizes)
        return {
          rank: s.rank,
          user_id: s.userId,
          name: s.name,
          score: scoreText(r.measure, s.score),
          reached_at: s.reachedAt,
          prize: p ? { asset: p.asset, amount: formatMoney(p.amount) } : null,
        }
      }
      let me: Standing | null
      if (userId !== undefined) {
        me = b.byUser.get(userId) ?? null
        if (!me) throw notFound('activity.errors.notInActivity', { user: userId })
      } else me = b.byUser.get(callerId) ?? null
      return {
        id: Number(r.id),
        title: pickText(r.title, lang),
        measure: r.measure,
        status,
        ends_at: Number(r.ends_at),
        participants: b.list.length,
        top: b.list.slice(0, limit).map(entry),
        me: me ? entry(me) : null,
        computed_at: b.at,
        settled: r.settled_at !== null,
      }
    },
  }
}
