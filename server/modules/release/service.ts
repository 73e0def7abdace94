// Releases (DESIGN §10): a paid order's value returned as NADI, one instalment a UTC day, from the
// platform's release account (ledger RELEASES) into the buyer's fund account.
//
// The job settles one day at a time, oldest first, each day in one transaction: the day's instalments
// are inserted set-based into release_lines (primary key (plan, day): a day posts once, whatever is
// retried), the plans move on by one day, and each user's sum of the day is one ledger posting,
// ref `release:<day>:<user>:<asset>:<first plan of the sum>`. A crash mid-day undoes the whole day;
// the next pass redoes it.
// Days missed while the server was down are caught up in order. The release account short of funds
// stops the job at that day, logged with what is missing; nothing is posted for it until funded.
import type { Selectable } from 'kysely'
import type { LangCode } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import type { Area } from '../../../contract/goods.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { ReleasePlan, ReleaseStatus } from '../../../contract/release.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements, type Queryable, type Tx } from '../../db/query/types.ts'
import type { ReleasePlansTable } from '../../db/schema.ts'
import { startJobs } from '../../jobs/scheduler.ts'
import * as ledger from '../../ledger/index.ts'
import { pickText } from '../goods/rules.ts'
import { dayOf, dayStart, instalment, releaseTotal } from './schedule.ts'

export type PlanRow = Selectable<ReleasePlansTable>

type Day = { day: number }
type UserSum = { user_id: bigint; asset: string; amount: bigint; plans: bigint; first_plan: bigint }

const SQL = {
  insertPlan: `INSERT INTO release_plans (user_id, order_id, area, asset, total, days, start_day, price, value, created_at)
               VALUES (?, ?, ?, 'NADI', ?, ?, ?, ?, ?, ?)`,
  orderOf: 'SELECT o.order_no AS order_no, l.name AS name, l.cover AS cover FROM pay_orders o JOIN order_lines l ON l.order_id = o.id WHERE o.id = ? ORDER BY l.id LIMIT 1',
} as const

/** What a day's pass runs, in its transaction. */
const DAY = statements({
  lines: statement<never, [Day]>(`INSERT INTO release_lines (plan_id, day, amount)
          SELECT id, @day, total / days + (CASE WHEN @day - start_day < total % days THEN 1 ELSE 0 END)
          FROM release_plans WHERE status = 'releasing' AND start_day <= @day AND start_day + released_days = @day
          ON CONFLICT (plan_id, day) DO NOTHING`),
  // A line of the day whose plan has not moved past the day is one this transaction inserted: a pass
  // that inserts a line advances its plan before it commits. Both statements below take only those,
  // so a second pass of the day (sequential, or another connection's waiting on our lines' keys)
  // neither pays nor advances what the first did.
  perUser: statement<UserSum, [Day]>(`SELECT p.user_id AS user_id, p.asset AS asset, sum(l.amount) AS amount, count(*) AS plans, min(p.id) AS first_plan
            FROM release_lines l JOIN release_plans p ON p.id = l.plan_id
            WHERE l.day = @day AND p.start_day + p.released_days = @day GROUP BY p.user_id, p.asset ORDER BY p.user_id`),
  advance: statement<never, [Day]>(`UPDATE release_plans SET released = released + l.amount, released_days = released_days + 1,
              status = CASE WHEN released_days + 1 = days THEN 'completed' ELSE 'releasing' END
            FROM release_lines l WHERE l.day = @day AND l.plan_id = release_plans.id AND release_plans.start_day + release_plans.released_days = @day`),
  record: statement<never, [day: number, plans: number, users: number, total: bigint, at: number]>(`INSERT INTO release_days (day, plans, users, total, posted_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (day) DO UPDATE SET plans = release_days.plans + excluded.plans, users = release_days.users + excluded.users, total = release_days.total + excluded.total, posted_at = excluded.posted_at`),
})

/** The first day with an instalment due: looked up before each day's transaction, outside it. */
const NEXT_DAY = statement<{ day: bigint | null }, []>("SELECT min(start_day + released_days) AS day FROM release_plans WHERE status = 'releasing'")

export interface NewPlan {
  userId: bigint
  orderId: bigint
  area: Area
  /** The paid value in USDT, units of 1e-8. */
  value: bigint
  ppm: bigint
  days: number
  /** USDT per NADI, units of 1e-8. */
  price: bigint
  startDay: number
  at: number
}

const INSERT_PLAN = statement<never, [userId: bigint, orderId: bigint, area: Area, total: bigint, days: number, startDay: number, price: string, value: bigint, at: number]>(SQL.insertPlan)

/** In the payment's transaction: the order's release plan. A value too small to release anything makes none. */
export async function createReleasePlan(tx: Tx, p: NewPlan): Promise<void> {
  const total = releaseTotal(p.value, p.ppm, p.price)
  if (total <= 0n) return
  await tx.run(INSERT_PLAN, p.userId, p.orderId, p.area, total, p.days, p.startDay, formatMoney(p.price), (p.value * p.ppm) / 1_000_000n, p.at)
}

type PlanOrder = { order_no: string; name: string; cover: string }
const ORDER_OF = statement<PlanOrder, [orderId: bigint]>(SQL.orderOf)

// The caller's plans of one area, of one status or all (status null).
type ListArgs = { user: number; area: Area; status: ReleaseStatus | null }
const OF_USER = 'user_id = @user AND area = @area AND (CAST(@status AS TEXT) IS NULL OR status = @status)'
const LIST = statements({
  count: statement<{ n: bigint }, [ListArgs]>(`SELECT count(*) AS n FROM release_plans WHERE ${OF_USER}`),
  page: statement<PlanRow, [ListArgs & { limit: number; offset: number }]>(`SELECT * FROM release_plans WHERE ${OF_USER} ORDER BY id DESC LIMIT @limit OFFSET @offset`),
})

/** A plan as the app shows it, read through `q`: a transaction's tx, or the database outside any. */
export async function planWireIn(q: Queryable, r: PlanRow, lang: LangCode): Promise<ReleasePlan> {
  return planOf(r, await q.get(ORDER_OF, r.order_id), lang)
}

function planOf(r: PlanRow, o: PlanOrder | undefined, lang: LangCode): ReleasePlan {
  const days = Number(r.days)
  const k = Number(r.released_days)
  return {
    id: Number(r.id),
    order_id: Number(r.order_id),
    order_no: o?.order_no ?? '',
    title: o ? pickText(o.name, lang) : '',
    cover: o?.cover ?? '',
    asset: r.asset,
    total: formatMoney(r.total),
    released: formatMoney(r.released),
    value: formatMoney(r.value),
    price: r.price,
    days,
    released_days: k,
    start_date: dayStart(Number(r.start_day)),
    end_date: dayStart(Number(r.start_day) + days - 1),
    daily: formatMoney(instalment(r.total, days, Math.min(k, days - 1))),
    status: r.status,
    created_at: Number(r.created_at),
  }
}

export async function listPlans(ctx: Pick<Ctx, 'sql'>, userId: number, area: Area, lang: LangCode, status: ReleaseStatus | undefined, page: number, pageSize: number): Promise<PagedList<ReleasePlan>> {
  const args = { user: userId, area, status: status ?? null }
  const { n } = (await ctx.sql.get(LIST.count, args))!
  const rows = await ctx.sql.all(LIST.page, { ...args, limit: pageSize, offset: (page - 1) * pageSize })
  return { total: Number(n), list: await Promise.all(rows.map((r) => planWireIn(ctx.sql, r, lang))) }
}

export class ReleaseFundingShort extends Error {
  override name = 'ReleaseFundingShort'
  constructor(
    readonly day: number,
    readonly asset: string,
    readonly available: bigint,
    readonly required: bigint,
  ) {
    super(`release of day ${new Date(dayStart(day)).toISOString().slice(0, 10)} needs ${formatMoney(required)} ${asset}, the release account has ${formatMoney(available)}`)
  }
}

export interface DayReleased {
  day: number
  plans: number
  users: number
  total: bigint
}

/**
 * Posts one day's instalments in the caller's transaction, tx: every plan whose next instalment falls
 * on `day` and has no line of it yet. Null when there was none: another pass posted the day (the same
 * day twice, or two passes at once) and nothing is paid, advanced or counted again. Throws
 * ReleaseFundingShort, undoing the day, when the account is short.
 */
export async function releaseDay(tx: Tx, day: number, at: number): Promise<DayReleased | null> {
  // On PostgreSQL a pass running beside ours waits here on our lines' keys until we commit, then
  // inserts none of them (DO NOTHING), its later statements seeing our plans moved on.
  const plans = (await tx.run(DAY.lines, { day })).changes
  if (plans === 0) return null
  const sums = await tx.all(DAY.perUser, { day })
  await tx.run(DAY.advance, { day })
  const needed = new Map<string, bigint>()
  for (const r of sums) needed.set(r.asset, (needed.get(r.asset) ?? 0n) + r.amount)
  for (const [asset, required] of needed) {
    const { available } = await ledger.balance(tx, ledger.RELEASES, asset)
    if (available < required) throw new ReleaseFundingShort(day, asset, available, required)
  }
  let total = 0n
  for (const r of sums) {
    await ledger.transfer(tx, {
      // Keyed by its first plan too: a plan can join a day already posted (its payment, stamped before
      // midnight, committed after the day's pass, maybe while it ran), and its user's sum of the next
      // pass is a posting of its own; a plan's line is inserted by one pass only, so no two sums share it.
      ref: `release:${day}:${r.user_id}:${r.asset}:${r.first_plan}`,
      reason: 'release',
      userId: r.user_id,
      from: ledger.RELEASES,
      to: ledger.fund(r.user_id),
      asset: r.asset,
      amount: r.amount,
      at,
      meta: { day: new Date(dayStart(day)).toISOString().slice(0, 10), plans: Number(r.plans) },
    })
    total += r.amount
  }
  await tx.run(DAY.record, day, plans, sums.length, total, at)
  return { day, plans, users: sums.length, total }
}

/**
 * One pass: every day whose instalments are due (the day has begun, UTC) and not yet posted, oldest
 * first, a transaction each. Returns the days posted; a second pass on the same day posts nothing.
 */
export async function releaseDue(ctx: Pick<Ctx, 'sql' | 'now' | 'log'>): Promise<DayReleased[]> {
  const today = dayOf(ctx.now())
  const done: DayReleased[] = []
  for (;;) {
    const next = (await ctx.sql.get(NEXT_DAY))!.day
    if (next === null || Number(next) > today) return done
    try {
      const posted = await ctx.sql.transaction((tx) => releaseDay(tx, Number(next), ctx.now()))
      // Another pass posted the day between our look and our transaction: it goes on from there.
      if (!posted) return done
      done.push(posted)
    } catch (err) {
      if (err instanceof ReleaseFundingShort) ctx.log.error({ day: err.day, asset: err.asset, available: formatMoney(err.available), required: formatMoney(err.required) }, `releases halted: ${err.message}`)
      throw err
    }
  }
}

/** The release job: a pass a minute (tests drive releaseDue with their clock). */
export function startReleaseJob(ctx: Ctx, everyMs = 60_000): () => void {
  return startJobs(ctx, [{ name: 'releases', everyMs, run: releaseDue }])
}
