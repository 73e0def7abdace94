import type { Ctx } from '../../context.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { CODE, type LangCode } from '../../../contract/constants.ts'
import { MEASURE_UNIT, type ActivityDetail, type ActivityItem, type ActivityPrize, type ActivityRank, type ActivityStatus, type Measure, type RankEntry } from '../../../contract/activity.ts'
import { formatMoney } from '../../../contract/money.ts'
import { ApiError, badRequest, notFound } from '../../http/errors.ts'
import { statement, statements } from '../../db/query/types.ts'
import { readStoredPrizes } from './activityFile.ts'
import { prizeOf, statusAt, type PrizeRange } from './rules.ts'
import { readParticipants, readRankOf, readScoreOf, readTopScores, type ScoreRow } from './scores.ts'

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
  SELECT 1 AS one FROM up WHERE id = @caller LIMIT 1`

/** A place on a board, with what it wins (before the payout) or was paid (after). */
interface Place extends ScoreRow {
  rank: number
  prize: { asset: string; amount: bigint } | null
}

/** A paid rank as activity_winners recorded it, with the winner's name. */
interface WinnerRow {
  rank: bigint
  user_id: bigint
  score: bigint
  reached_at: bigint
  asset: string
  amount: bigint
  name: string
}

export type ActivityService = ReturnType<typeof createActivityService>

type Paid = { id: number }
type Page = [{ now: number; limit: number; offset: number }]

/** How many activities a status holds, by status ('all' for every one shown). */
const COUNT = statements({
  all: statement<{ n: bigint }, [{ now: number }]>('SELECT count(*) AS n FROM activities WHERE active = 1'),
  upcoming: statement<{ n: bigint }, [{ now: number }]>('SELECT count(*) AS n FROM activities WHERE active = 1 AND starts_at > @now'),
  running: statement<{ n: bigint }, [{ now: number }]>('SELECT count(*) AS n FROM activities WHERE active = 1 AND starts_at <= @now AND ends_at > @now'),
  ended: statement<{ n: bigint }, [{ now: number }]>('SELECT count(*) AS n FROM activities WHERE active = 1 AND ends_at <= @now'),
})

/** A page of a status's activities. */
const PAGE = statements({
  // Running first (ending soonest), then upcoming (starting soonest), then ended (latest first).
  all: statement<ActivityRow, Page>(
    `SELECT * FROM activities WHERE active = 1
     ORDER BY CASE WHEN starts_at > @now THEN 1 WHEN ends_at > @now THEN 0 ELSE 2 END, sort,
              CASE WHEN ends_at > @now THEN ends_at ELSE -ends_at END, id LIMIT @limit OFFSET @offset`,
  ),
  upcoming: statement<ActivityRow, Page>('SELECT * FROM activities WHERE active = 1 AND starts_at > @now ORDER BY sort, starts_at, id LIMIT @limit OFFSET @offset'),
  running: statement<ActivityRow, Page>('SELECT * FROM activities WHERE active = 1 AND starts_at <= @now AND ends_at > @now ORDER BY sort, ends_at, id LIMIT @limit OFFSET @offset'),
  ended: statement<ActivityRow, Page>('SELECT * FROM activities WHERE active = 1 AND ends_at <= @now ORDER BY sort, ends_at DESC, id DESC LIMIT @limit OFFSET @offset'),
})

const ACTIVITY = statements({
  one: statement<ActivityRow, [{ id: number }]>('SELECT * FROM activities WHERE id = @id AND active = 1'),
  winners: statement<WinnerRow, [Paid & { limit: number }]>(
    `SELECT w.rank, w.user_id, w.score, w.reached_at, w.asset, w.amount, u.name FROM activity_winners w JOIN users u ON u.id = w.user_id
     WHERE w.activity_id = @id ORDER BY w.rank LIMIT @limit`,
  ),
  winnerOf: statement<WinnerRow, [Paid & { user: number }]>(
    `SELECT w.rank, w.user_id, w.score, w.reached_at, w.asset, w.amount, u.name FROM activity_winners w JOIN users u ON u.id = w.user_id
     WHERE w.activity_id = @id AND w.user_id = @user`,
  ),
  paidRanks: statement<{ n: bigint }, [Paid]>('SELECT coalesce(max(rank), 0) AS n FROM activity_winners WHERE activity_id = @id'),
  // After the payout, the places past the paid ranks: everyone not paid, in board order.
  unpaid: statement<{ user_id: bigint; score: bigint; reached_at: bigint; name: string }, [Paid & { limit: number }]>(
    `SELECT s.user_id, s.score, s.reached_at, u.name FROM activity_scores s JOIN users u ON u.id = s.user_id
     WHERE s.activity_id = @id AND s.user_id NOT IN (SELECT user_id FROM activity_winners WHERE activity_id = @id)
     ORDER BY s.score DESC, s.reached_at, s.user_id LIMIT @limit`,
  ),
  // Winners whose score row is ahead of a given one (a handful of rows: the paid ranks).
  paidAhead: statement<{ n: bigint }, [Paid & { score: bigint; reached: number; user: number }]>(
    `SELECT count(*) AS n FROM activity_winners w JOIN activity_scores s ON s.activity_id = w.activity_id AND s.user_id = w.user_id
     WHERE w.activity_id = @id AND (s.score > @score OR (s.score = @score AND (s.reached_at, s.user_id) < (@reached, @user)))`,
  ),
  depthGap: statement<{ gap: bigint }, [{ target: number; caller: number }]>('SELECT t.depth - c.depth AS gap FROM users t, users c WHERE t.id = @target AND c.id = @caller'),
  isAncestor: statement<{ one: bigint }, [{ target: number; caller: number; gap: bigint }]>(IS_ANCESTOR),
})

export function createActivityService(ctx: Pick<Ctx, 'sql' | 'now'>) {
  const { sql } = ctx

  /** Whose place the caller may ask for: their own, or a member of their team (strictly below them). */
  async function mayView(callerId: number, userId: number): Promise<boolean> {
    if (userId === callerId) return true
    const gap = (await sql.get(ACTIVITY.depthGap, { target: userId, caller: callerId }))?.gap
    if (gap === undefined || gap <= 0n) return false
    return (await sql.get(ACTIVITY.isAncestor, { target: userId, caller: callerId, gap })) !== undefined
  }

  async function item(r: ActivityRow, lang: LangCode, now: number): Promise<ActivityItem> {
    return {
      id: Number(r.id),
      title: pickText(r.title, lang),
      cover: r.cover,
      measure: r.measure,
      status: statusAt(Number(r.starts_at), Number(r.ends_at), now),
      starts_at: Number(r.starts_at),
      ends_at: Number(r.ends_at),
      prizes: (await readStoredPrizes(sql, r.id)).map(prizeWire),
    }
  }

  async function find(id: number): Promise<ActivityRow> {
    const r = await sql.get(ACTIVITY.one, { id })
    if (!r) throw notFound('activity.errors.notFound')
    return r
  }

  const winnerPlace = (w: WinnerRow): Place => ({
    rank: Number(w.rank),
    userId: Number(w.user_id),
    name: w.name,
    score: w.score,
    reachedAt: Number(w.reached_at),
    prize: { asset: w.asset, amount: w.amount },
  })

  /** The live board: the top `limit` and one user's place (null without a score), read from the index. */
  async function liveBoard(id: number, prizes: PrizeRange[], limit: number, who: number): Promise<{ top: Place[]; me: Place | null }> {
    const top = (await readTopScores(sql, id, limit)).map((s, i) => ({ ...s, rank: i + 1, prize: prizeOf(i + 1, prizes) }))
    const mine = await readScoreOf(sql, id, who)
    if (!mine) return { top, me: null }
    const rank = await readRankOf(sql, id, mine)
    return { top, me: { ...mine, rank, prize: prizeOf(rank, prizes) } }
  }

  /**
   * A paid board: the paid ranks as activity_winners recorded them (who was paid what, whatever
   * landed after), then everyone else in board order, numbered on from the last paid rank.
   */
  async function paidBoard(id: number, limit: number, who: number): Promise<{ top: Place[]; me: Place | null }> {
    const paid = (await sql.all(ACTIVITY.winners, { id, limit })).map(winnerPlace)
    const paidCount = Number((await sql.get(ACTIVITY.paidRanks, { id }))!.n)
    const rest = paid.length < limit ? await sql.all(ACTIVITY.unpaid, { id, limit: limit - paid.length }) : []
    const top = [
      ...paid,
      ...rest.map((r, i) => ({ rank: paidCount + i + 1, userId: Number(r.user_id), name: r.name, score: r.score, reachedAt: Number(r.reached_at), prize: null })),
    ]
    const won = await sql.get(ACTIVITY.winnerOf, { id, user: who })
    if (won) return { top, me: winnerPlace(won) }
    const mine = await readScoreOf(sql, id, who)
    if (!mine) return { top, me: null }
    const paidAhead = (await sql.get(ACTIVITY.paidAhead, { id, score: mine.score, reached: mine.reachedAt, user: mine.userId }))!.n
    const ahead = (await readRankOf(sql, id, mine)) - 1 - Number(paidAhead)
    return { top, me: { ...mine, rank: paidCount + ahead + 1, prize: null } }
  }

  return {
    async list(lang: LangCode, status: ActivityStatus | undefined, page: number, pageSize: number): Promise<PagedList<ActivityItem>> {
      const now = ctx.now()
      const key = status ?? 'all'
      const total = Number((await sql.get(COUNT[key], { now }))!.n)
      if (page > 1 && (page - 1) * pageSize >= total) throw pageOutOfRange(Math.max(1, Math.ceil(total / pageSize)))
      const rows = await sql.all(PAGE[key], { now, limit: pageSize, offset: (page - 1) * pageSize })
      return { total, list: await Promise.all(rows.map((r) => item(r, lang, now))) }
    },

    async detail(lang: LangCode, id: number): Promise<ActivityDetail> {
      const now = ctx.now()
      const r = await find(id)
      return { ...(await item(r, lang, now)), body: pickText(r.body, lang), settled: r.settled_at !== null, server_time: now }
    },

    /**
     * The leaderboard's top `limit`, and one place pinned: the asked user's or else the caller's (null
     * when they have none yet). Only the caller's own place or a team member's may be asked for; an
     * allowed user with no score is refused. Before the start there is none.
     */
    async rank(lang: LangCode, id: number, callerId: number, limit: number, userId?: number): Promise<ActivityRank> {
      const now = ctx.now()
      const r = await find(id)
      const status = statusAt(Number(r.starts_at), Number(r.ends_at), now)
      if (status === 'upcoming') throw notStarted()
      // Checked before the board is read: a refusal must not depend on whether the user scored.
      if (userId !== undefined && !(await mayView(callerId, userId))) throw rankNotAllowed()
      const aid = Number(r.id)
      const settled = r.settled_at !== null
      // Once paid, the board shows what was paid and to whom; before, what each place stands to win.
      const b = settled ? await paidBoard(aid, limit, userId ?? callerId) : await liveBoard(aid, await readStoredPrizes(sql, r.id), limit, userId ?? callerId)
      if (userId !== undefined && !b.me) throw notFound('activity.errors.notInActivity', { user: userId })
      const entry = (p: Place): RankEntry => ({
        rank: p.rank,
        user_id: p.userId,
        name: p.name,
        score: scoreText(r.measure, p.score),
        reached_at: p.reachedAt,
        prize: p.prize ? { asset: p.prize.asset, amount: formatMoney(p.prize.amount) } : null,
      })
      return {
        id: Number(r.id),
        title: pickText(r.title, lang),
        measure: r.measure,
        status,
        ends_at: Number(r.ends_at),
        participants: await readParticipants(sql, aid),
        top: b.top.map(entry),
        me: b.me ? entry(b.me) : null,
        computed_at: now,
        settled,
      }
    },
  }
}
