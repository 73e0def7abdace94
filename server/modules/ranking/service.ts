// The ranking (SPEC §1 "ranking (daily and total prize pools)", DESIGN §12, issue 12 part 3).
//
//   record   every paid order adds its USDT value to the day's ranking (team performance added that
//            day, or own purchases: NADI_RANKING_MEASURE) and to the total (team performance), in the
//            paying transaction (record.ts, called from addPerformanceIn).
//   pools    a settlement step per ended UTC day: the pools' shares (ppm) of that day's income move
//            through the ledger, one posting per asset `ranking:pools:<day>:<asset>`:
//              fees     withdraw fees, wallet-exchange fees and spot trading fees (maker and taker) the
//                       fees account received that day, read by time from where each is recorded;
//                       the pools' shares move from the fees account;
//              destroy  NADI destroyed that day stays burned; the pools' shares of its amount are
//                       funded from the treasury (the platform gives that much again as prizes).
//            The node holders' fee share and dividends (node/service.ts) and the pools each take a
//            share of the day's computed income, never of the fees account's balance, and settings.ts
//            refuses shares of one source that sum past 100 %, so no income is given out twice. The
//            node steps run first (registered first); what an account lacks (an operator moved fees
//            out) is recorded as short and the pool gets what there is.
//   daily    the next step pays the day's top N from the daily pool: rank i gets floor(pool × share_i
//            / 1e6) of each asset, one posting per rank `ranking:daily:<day>:<rank>` (reason
//            ranking_prize); ranks nobody reached and the floors' remainders stay in the pool. The
//            payout row (pool, day) and the settled day make it happen once.
//   total    `tsx server/cli.ts ranking pay-total`: the total ranking's top N paid from the total
//            pool the same way, at most once per UTC day (an operator's decision, not a schedule).
import { formatMoney } from '../../../contract/money.ts'
import { RANKING_SHOWN, RANKING_STREAM, type DailyRanking, type MyRank, type MyRanking, type PoolAmounts, type RankingPool, type RankingPools, type RankingPush, type RankRow, type TotalRanking } from '../../../contract/ranking.ts'
import type { Config } from '../../config.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements, type Queryable, type Sql, type Tx } from '../../db/query/types.ts'
import { inSnapshot } from '../../db/steps.ts'
import { badRequest } from '../../http/errors.ts'
import { startJobs } from '../../jobs/scheduler.ts'
import * as ledger from '../../ledger/index.ts'
import type { Hub } from '../../ws/hub.ts'
import { dayOf, dayStart } from '../release/schedule.ts'
import { isoDay, onSettle } from '../settlement/service.ts'
import { rankingVersion, setRankingRecorder, type RankingKey } from './record.ts'
import { pageCount, pageInRange, share, splitPrizes } from './rules.ts'

export type PoolName = 'daily' | 'total'
const POOL_ACCOUNT: Record<PoolName, ledger.AccountRef> = { daily: ledger.PRIZE_DAILY, total: ledger.PRIZE_TOTAL }
const ASSETS = ['USDT', 'NADI'] as const

const ORDER = 'amount DESC, reached_at, user_id'
// A backstop: the root is everyone's ancestor and must never rank nor be paid, whatever a table holds
// (018's backfill once put it first in the total ranking). The subquery is a handful of ids read off
// users_root (020) once per statement, each row then one probe of that list.
const NOT_ROOT = 'user_id NOT IN (SELECT id FROM users WHERE is_root = 1)'
const TOTAL_ORDER = 'team_performance DESC, team_reached_at, id'

const SQL = {
  // The day's income by asset: each source read by its time index (018_ranking.sql). Subqueries in
  // FROM carry an alias: PostgreSQL requires one, SQLite ignores it.
  income: `SELECT asset, sum(fees) AS fees, sum(destroyed) AS destroyed FROM (
             SELECT coin AS asset, fee AS fees, 0 AS destroyed FROM withdrawals WHERE status = 'confirmed' AND finished_at >= @from AND finished_at < @to
             UNION ALL SELECT to_asset, fee, 0 FROM wallet_exchanges WHERE created_at >= @from AND created_at < @to
             UNION ALL SELECT fee_asset, fee, 0 FROM trade_deals WHERE created_at >= @from AND created_at < @to
             UNION ALL SELECT 'NADI', 0, amount FROM mining_buys WHERE kind = 'destroy' AND created_at >= @from AND created_at < @to
           ) AS income GROUP BY asset`,
  // The first day anything ranks or earns the pools: the settlement starts there when no position is older.
  firstDay: `SELECT min(d) AS day FROM (
               SELECT min(day) AS d FROM ranking_days
               UNION ALL SELECT min(finished_at) / 86400000 FROM withdrawals WHERE status = 'confirmed'
               UNION ALL SELECT min(created_at) / 86400000 FROM wallet_exchanges
               UNION ALL SELECT min(created_at) / 86400000 FROM trade_deals
               UNION ALL SELECT min(created_at) / 86400000 FROM mining_buys WHERE kind = 'destroy') AS firsts`,
  poolDay: 'INSERT INTO ranking_pool_days (day, asset, fees, destroyed, to_daily, to_total, short) VALUES (@day, @asset, @fees, @destroyed, @daily, @total, @short)',
  payout: 'SELECT * FROM ranking_payouts WHERE pool = @pool AND day = @day',
  lastPayout: 'SELECT max(day) AS day FROM ranking_payouts WHERE pool = @pool',
  insertPayout: `INSERT INTO ranking_payouts (pool, day, winners, pool_usdt, pool_nadi, paid_usdt, paid_nadi, paid_at)
                 VALUES (@pool, @day, @winners, @poolUsdt, @poolNadi, @paidUsdt, @paidNadi, @at)`,
  insertResult: `INSERT INTO ranking_results (pool, day, rank, user_id, amount, reached_at, prize_usdt, prize_nadi)
                 VALUES (@pool, @day, @rank, @user, @amount, @reached, @usdt, @nadi)`,
  topDay: `SELECT user_id, amount, reached_at FROM ranking_days WHERE day = @day AND ${NOT_ROOT} ORDER BY ${ORDER} LIMIT @n`,
  // The total ranking is users' team performance (021): is_root = 0 selects users_team_rank, the
  // partial index that leaves the roots out, and names the order it holds.
  topTotal: `SELECT id AS user_id, team_performance AS amount, team_reached_at AS reached_at FROM users
             WHERE is_root = 0 AND team_performance > 0 ORDER BY ${TOTAL_ORDER} LIMIT @n`,
} as const

type Income = { asset: string; fees: bigint; destroyed: bigint }
type Ranked = { user_id: bigint; amount: bigint; reached_at: bigint }
type PoolDay = { pool: PoolName; day: number }

/** What the settlement's ranking steps and the total payout run, in their transaction. */
const STEPS = statements({
  income: statement<Income, [{ from: number; to: number }]>(SQL.income),
  firstDay: statement<{ day: bigint | null }, []>(SQL.firstDay),
  poolDay: statement<never, [{ day: number; asset: string; fees: bigint; destroyed: bigint; daily: bigint; total: bigint; short: bigint }]>(SQL.poolDay),
  payout: statement<{ pool: PoolName }, [PoolDay]>(SQL.payout),
  insertPayout: statement<never, [PoolDay & { winners: number; poolUsdt: bigint; poolNadi: bigint; paidUsdt: bigint; paidNadi: bigint; at: number }]>(SQL.insertPayout),
  insertResult: statement<never, [PoolDay & { rank: number; user: bigint; amount: bigint; reached: bigint; usdt: bigint; nadi: bigint }]>(SQL.insertResult),
  topDay: statement<Ranked, [{ day: number; n: number }]>(SQL.topDay),
  topTotal: statement<Ranked, [{ n: number }]>(SQL.topTotal),
})

type DayIncome = Map<string, { fees: bigint; destroyed: bigint }>

/** The day's income by asset (USDT, NADI; zeros included) from the income rows. */
function incomeByAsset(rows: Income[]): DayIncome {
  const out: DayIncome = new Map(ASSETS.map((a) => [a, { fees: 0n, destroyed: 0n }]))
  for (const r of rows) out.set(r.asset, { fees: r.fees ?? 0n, destroyed: r.destroyed ?? 0n })
  return out
}

/** The day's income by asset (USDT, NADI; zeros included). */
export async function dayIncome(q: Queryable, day: number): Promise<DayIncome> {
  return incomeByAsset(await q.all(STEPS.income, { from: dayStart(day), to: dayStart(day + 1) }))
}

type PoolShares = Pick<Config['ranking'], 'dailyPoolPpm' | 'totalPoolPpm'>

/** The settlement step: the pools' shares of the day's income, through the ledger, once (the day settles once; the ref and the row key back it). */
export async function feedPools(tx: Tx, cfg: PoolShares, day: number, at: number): Promise<void> {
  const income = incomeByAsset(await tx.all(STEPS.income, { from: dayStart(day), to: dayStart(day + 1) }))
  for (const [asset, { fees, destroyed }] of income) {
    if (fees === 0n && destroyed === 0n) continue
    const moves: ledger.Move[] = []
    let toDaily = 0n
    let toTotal = 0n
    let short = 0n
    for (const [from, income] of [
      [ledger.FEES, fees],
      [ledger.TREASURY, destroyed],
    ] as const) {
      let left = (await ledger.balance(tx, from, asset)).available
      for (const [pool, ppm] of [
        ['daily', cfg.dailyPoolPpm],
        ['total', cfg.totalPoolPpm],
      ] as const) {
        const want = share(income, ppm)
        const take = want < left ? want : left
        short += want - take
        left -= take
        if (take <= 0n) continue
        moves.push({ from, to: POOL_ACCOUNT[pool], asset, amount: take })
        if (pool === 'daily') toDaily += take
        else toTotal += take
      }
    }
    if (moves.length > 0) {
      await ledger.post(tx, { ref: `ranking:pools:${day}:${asset}`, reason: 'ranking_pool', userId: null, moves, at, meta: { day: isoDay(day), fees: formatMoney(fees), destroyed: formatMoney(destroyed) } })
    }
    await tx.run(STEPS.poolDay, { day, asset, fees, destroyed, daily: toDaily, total: toTotal, short })
  }
}

export interface Payout {
  pool: PoolName
  day: number
  winners: number
  paid: Record<(typeof ASSETS)[number], bigint>
}

/**
 * Pays a pool's top N (N = the shares' length) from its balance, once per (pool, day): the payout row
 * is the guard. Returns null when that payout was already made.
 */
export async function payPool(tx: Tx, pool: PoolName, shares: readonly bigint[], day: number, at: number): Promise<Payout | null> {
  if (await tx.get(STEPS.payout, { pool, day })) return null
  const winners = pool === 'daily' ? await tx.all(STEPS.topDay, { day, n: shares.length }) : await tx.all(STEPS.topTotal, { n: shares.length })
  const before = { USDT: (await ledger.balance(tx, POOL_ACCOUNT[pool], 'USDT')).available, NADI: (await ledger.balance(tx, POOL_ACCOUNT[pool], 'NADI')).available }
  const split = { USDT: splitPrizes(before.USDT, shares, winners.length), NADI: splitPrizes(before.NADI, shares, winners.length) }
  for (const [i, w] of winners.entries()) {
    const rank = i + 1
    const prize = { USDT: split.USDT.prizes[i]!, NADI: split.NADI.prizes[i]! }
    await tx.run(STEPS.insertResult, { pool, day, rank, user: w.user_id, amount: w.amount, reached: w.reached_at, usdt: prize.USDT, nadi: prize.NADI })
    const moves = ASSETS.filter((a) => prize[a] > 0n).map((a): ledger.Move => ({ from: POOL_ACCOUNT[pool], to: ledger.fund(w.user_id), asset: a, amount: prize[a] }))
    if (moves.length === 0) continue
    await ledger.post(tx, { ref: `ranking:${pool}:${day}:${rank}`, reason: 'ranking_prize', userId: w.user_id, moves, at, meta: { pool, day: isoDay(day), rank } })
  }
  const paid = { USDT: split.USDT.paid, NADI: split.NADI.paid }
  await tx.run(STEPS.insertPayout, { pool, day, winners: winners.length, poolUsdt: before.USDT, poolNadi: before.NADI, paidUsdt: paid.USDT, paidNadi: paid.NADI, at })
  return { pool, day, winners: winners.length, paid }
}

export class TotalAlreadyPaid extends Error {
  override name = 'TotalAlreadyPaid'
  constructor(readonly day: number) {
    super(`the total pool was already paid on ${isoDay(day)}`)
  }
}

/** The operator's `ranking pay-total`: the total ranking's top N from the total pool, at most once per UTC day. In the caller's transaction. */
export async function payTotal(tx: Tx, shares: readonly bigint[], at: number): Promise<Payout> {
  const done = await payPool(tx, 'total', shares, dayOf(at), at)
  if (!done) throw new TotalAlreadyPaid(dayOf(at))
  return done
}

const amounts = (usdt: bigint, nadi: bigint): PoolAmounts => ({ USDT: formatMoney(usdt), NADI: formatMoney(nadi) })
/** ppm as a percent string: 25000 → "2.5". */
export const ppmPercent = (ppm: bigint) => formatMoney(ppm * 10_000n)
const prizeOrNull = (v: bigint | null) => (v === null ? null : formatMoney(v))

// Today's income as the pools show it, per app: reading it scans the day's rows of four tables
// (157 ms at 500,000 trades), and GET /ranking/pools, every subscribe to the public stream and every
// push tick asked for it. It is read at most once per push interval (wall clock) and per day; what the
// pools show lags the income by at most that. The read in flight is what is kept, so the requests
// arriving while it runs share it rather than each scanning again. The settlement's feedPools never
// uses this: it reads the ended day's income itself.
const incomeSeen = new WeakMap<Sql, { day: number; at: number; income: Promise<DayIncome> }>()

function todaysIncome(sql: Sql, day: number, maxAgeMs: number): Promise<DayIncome> {
  const seen = incomeSeen.get(sql)
  const at = performance.now()
  if (seen && seen.day === day && at - seen.at < maxAgeMs) return seen.income
  const income = dayIncome(sql, day)
  incomeSeen.set(sql, { day, at, income })
  // A failed read is not kept: the next ask reads again.
  income.catch(() => incomeSeen.get(sql)?.income === income && incomeSeen.delete(sql))
  return income
}

/** The pools as the app shows them: balances and today's accrual so far (today's income, at most one push interval old). */
export async function poolsNow(sql: Sql, cfg: Config['ranking'], now: number): Promise<RankingPools> {
  const day = dayOf(now)
  const income = await todaysIncome(sql, day, cfg.pushMs)
  // As feedPools will compute it at the day's end: each source's share floored on its own.
  const of = (asset: string, ppm: bigint) => share(income.get(asset)!.fees, ppm) + share(income.get(asset)!.destroyed, ppm)
  const accrual = (ppm: bigint) => amounts(of('USDT', ppm), of('NADI', ppm))
  const pool = async (name: PoolName, ppm: bigint, shares: bigint[]): Promise<RankingPool> => {
    const [usdt, nadi] = [await ledger.balance(sql, POOL_ACCOUNT[name], 'USDT'), await ledger.balance(sql, POOL_ACCOUNT[name], 'NADI')]
    return {
      balance: amounts(usdt.available, nadi.available),
      today: accrual(ppm),
      share: ppmPercent(ppm),
      top: shares.length,
      prizes: shares.map(ppmPercent),
    }
  }
  const last = (await sql.get(READS.lastPayout, { pool: 'total' }))!.day
  return {
    day,
    day_start: dayStart(day),
    day_end: dayStart(day + 1),
    daily: await pool('daily', cfg.dailyPoolPpm, cfg.dailyShares),
    total: await pool('total', cfg.totalPoolPpm, cfg.totalShares),
    total_paid_day: last === null ? null : Number(last),
  }
}

type PageRow = Ranked & { name: string; prize_usdt: bigint | null; prize_nadi: bigint | null }

type Prize = { prize_usdt: bigint; prize_nadi: bigint }
type Day = { day: number }
type Window = { limit: number; offset: number }

/** What the ranking pages read, outside any transaction (the payout guard and the last payout are the settlement's too). */
const READS = statements({
  countDay: statement<{ n: bigint }, [Day]>(`SELECT count(*) AS n FROM ranking_days WHERE day = @day AND ${NOT_ROOT}`),
  countTotal: statement<{ n: bigint }, []>('SELECT count(*) AS n FROM users WHERE is_root = 0 AND team_performance > 0'),
  // A page is read off the ranking index alone (a covering range: no table row is visited while
  // skipping), then only its rows are joined to names and prizes. How deep a page may go is capped
  // (RANKING_SHOWN), so the skip is bounded too.
  pageDay: statement<PageRow, [Day & Window]>(`SELECT d.user_id, d.amount, d.reached_at, u.name, r.prize_usdt, r.prize_nadi
            FROM (SELECT user_id, amount, reached_at FROM ranking_days WHERE day = @day AND ${NOT_ROOT}
                   ORDER BY ${ORDER} LIMIT @limit OFFSET @offset) d
            JOIN users u ON u.id = d.user_id
            LEFT JOIN ranking_results r ON r.user_id = d.user_id AND r.pool = 'daily' AND r.day = @day
            ORDER BY d.amount DESC, d.reached_at, d.user_id`),
  pageTotal: statement<PageRow, [Window & { paid: bigint | null }]>(`SELECT t.user_id, t.amount, t.reached_at, u.name, r.prize_usdt, r.prize_nadi
              FROM (SELECT id AS user_id, team_performance AS amount, team_reached_at AS reached_at FROM users
                     WHERE is_root = 0 AND team_performance > 0 ORDER BY ${TOTAL_ORDER} LIMIT @limit OFFSET @offset) t
              JOIN users u ON u.id = t.user_id
              LEFT JOIN ranking_results r ON r.user_id = t.user_id AND r.pool = 'total' AND r.day = @paid
              ORDER BY t.amount DESC, t.reached_at, t.user_id`),
  payout: STEPS.payout,
  lastPayout: statement<{ day: bigint | null }, [{ pool: PoolName }]>(SQL.lastPayout),
  myDay: statement<{ amount: bigint; reached_at: bigint }, [Day & { user: number }]>(`SELECT amount, reached_at FROM ranking_days WHERE day = @day AND user_id = @user AND ${NOT_ROOT}`),
  myTotal: statement<{ amount: bigint; reached_at: bigint }, [{ user: number }]>('SELECT team_performance AS amount, team_reached_at AS reached_at FROM users WHERE id = @user AND is_root = 0 AND team_performance > 0'),
  // Rank = how many rank strictly before, plus one; a range of the ranking index.
  aheadDay: statement<{ n: bigint }, [Day & { amount: bigint; reached: bigint; user: number }]>(`SELECT count(*) AS n FROM ranking_days WHERE day = @day AND ${NOT_ROOT} AND (amount > @amount OR (amount = @amount AND (reached_at < @reached OR (reached_at = @reached AND user_id < @user))))`),
  aheadTotal: statement<{ n: bigint }, [{ amount: bigint; reached: bigint; user: number }]>(`SELECT count(*) AS n FROM users WHERE is_root = 0 AND (team_performance > @amount
                 OR (team_performance = @amount AND (team_reached_at < @reached OR (team_reached_at = @reached AND id < @user))))`),
  myPrize: statement<Prize, [{ user: number; pool: PoolName; day: number | bigint }]>('SELECT prize_usdt, prize_nadi FROM ranking_results WHERE user_id = @user AND pool = @pool AND day = @day'),
})

const rowWire = (r: PageRow, rank: number): RankRow => ({
  rank,
  user_id: Number(r.user_id),
  name: r.name,
  amount: formatMoney(r.amount),
  reached_at: Number(r.reached_at),
  prize_usdt: prizeOrNull(r.prize_usdt),
  prize_nadi: prizeOrNull(r.prize_nadi),
})

/**
 * The page's skip and size: a page past the last is refused, and so is one starting past the top
 * RANKING_SHOWN (a page 50,000 deep cost seconds of the event loop; nobody reads that far, and the
 * own rank is answered by /ranking/mine at any depth). The page that straddles the cap stops at it.
 */
function pageWindow(page: number, pageSize: number, total: number): { offset: number; limit: number } {
  if (!pageInRange(page, pageSize, total)) throw badRequest('ranking.errors.pageOutOfRange', { page, pages: pageCount(pageSize, total) })
  const offset = (page - 1) * pageSize
  if (page > 1 && offset >= RANKING_SHOWN) throw badRequest('ranking.errors.pageTooDeep', { page, shown: RANKING_SHOWN, pages: pageCount(pageSize, RANKING_SHOWN) })
  return { offset, limit: Math.min(pageSize, RANKING_SHOWN - offset) }
}

export type RankingService = ReturnType<typeof createRankingService>

// Counts over a ranking (its size for the pages, how many rank ahead of someone for /ranking/mine)
// cost a range of the index as long as the ranking (33 ms for a day of 1,000,000, 103 ms for the
// ahead-count of the last). A count only changes when a ranking figure does, which bumps
// rankingVersion: each is kept per (version, day) until the next bump. Bounded, so a burst of
// different users asking between two purchases cannot grow it without limit.
const COUNTS_KEPT = 10_000
const countsSeen = new WeakMap<RankingKey, { version: number; counts: Map<string, number> }>()

async function countOnce(app: RankingKey, key: string, count: () => Promise<bigint>): Promise<number> {
  const version = rankingVersion(app)
  let seen = countsSeen.get(app)
  if (!seen || seen.version !== version || seen.counts.size >= COUNTS_KEPT) countsSeen.set(app, (seen = { version, counts: new Map() }))
  const known = seen.counts.get(key)
  if (known !== undefined) return known
  // Counted under the version read before the count: a figure changing meanwhile bumps it, and the next ask counts again.
  const n = Number(await count())
  seen.counts.set(key, n)
  return n
}

export function createRankingService(ctx: Pick<Ctx, 'sql' | 'config' | 'now'>) {
  const count = (key: string, f: () => Promise<bigint>) => countOnce(ctx.sql, key, f)
  const n = async (q: Promise<{ n: bigint } | undefined>) => (await q)!.n
  const lastTotalPayout = async () => (await ctx.sql.get(READS.lastPayout, { pool: 'total' }))!.day
  /** A named day, or today; a day after today is refused (nothing to read, and a typo should say so). */
  const dayOrToday = (day: number | undefined): number => {
    const today = dayOf(ctx.now())
    if (day === undefined) return today
    if (day > today) throw badRequest('ranking.errors.futureDay', { day: isoDay(day), today: isoDay(today) })
    return day
  }
  const myRank = async (row: { amount: bigint; reached_at: bigint } | undefined, ahead: (r: { amount: bigint; reached_at: bigint }) => Promise<number>, prize: Prize | undefined): Promise<MyRank> =>
    row
      ? { rank: (await ahead(row)) + 1, amount: formatMoney(row.amount), prize_usdt: prize ? formatMoney(prize.prize_usdt) : null, prize_nadi: prize ? formatMoney(prize.prize_nadi) : null }
      : { rank: null, amount: '0', prize_usdt: null, prize_nadi: null }
  return {
    pools: (): Promise<RankingPools> => poolsNow(ctx.sql, ctx.config.ranking, ctx.now()),

    async daily(dayAsked: number | undefined, page: number, pageSize: number): Promise<DailyRanking> {
      const day = dayOrToday(dayAsked)
      const total = await count(`day:${day}`, () => n(ctx.sql.get(READS.countDay, { day })))
      const { offset, limit } = pageWindow(page, pageSize, total)
      const rows = await ctx.sql.all(READS.pageDay, { day, limit, offset })
      const paid = (await ctx.sql.get(READS.payout, { pool: 'daily', day })) !== undefined
      return {
        day,
        live: day === dayOf(ctx.now()),
        paid,
        list: rows.map((r, i) => rowWire(r, offset + i + 1)),
        total,
      }
    },

    async total(page: number, pageSize: number): Promise<TotalRanking> {
      const total = await count('total', () => n(ctx.sql.get(READS.countTotal)))
      const { offset, limit } = pageWindow(page, pageSize, total)
      const last = await lastTotalPayout()
      const rows = await ctx.sql.all(READS.pageTotal, { paid: last, limit, offset })
      return { list: rows.map((r, i) => rowWire(r, offset + i + 1)), total, paid_day: last === null ? null : Number(last) }
    },

    async mine(userId: number, dayAsked: number | undefined): Promise<MyRanking> {
      const day = dayOrToday(dayAsked)
      const d = await ctx.sql.get(READS.myDay, { day, user: userId })
      const t = await ctx.sql.get(READS.myTotal, { user: userId })
      const last = await lastTotalPayout()
      const dailyPrize = await ctx.sql.get(READS.myPrize, { user: userId, pool: 'daily', day })
      const totalPrize = last === null ? undefined : await ctx.sql.get(READS.myPrize, { user: userId, pool: 'total', day: last })
      return {
        day,
        daily: await myRank(d, (r) => count(`ahead:${day}:${userId}`, () => n(ctx.sql.get(READS.aheadDay, { day, amount: r.amount, reached: r.reached_at, user: userId }))), dailyPrize),
        total: await myRank(t, (r) => count(`ahead:total:${userId}`, () => n(ctx.sql.get(READS.aheadTotal, { amount: r.amount, reached: r.reached_at, user: userId }))), totalPrize),
      }
    },
  }
}

/** The two settlement steps of every day: the pools fed from the day's income, then the day's top N paid. */
export function registerRankingSteps(ctx: Pick<Ctx, 'sql' | 'config'>): void {
  const cfg = ctx.config.ranking
  const firstDay = async (sql: Queryable) => {
    const d = (await sql.get(STEPS.firstDay))!.day
    return d === null ? null : Number(d)
  }
  onSettle(ctx, { name: 'ranking-pools', run: (tx, day, at) => feedPools(tx, cfg, day, at), firstDay })
  onSettle(ctx, {
    name: 'ranking-daily',
    run: async (tx, day, at) => {
      await payPool(tx, 'daily', cfg.dailyShares, day, at)
    },
  })
}

/**
 * Wires the ranking into a process that writes: the recorder's clock and measure, and the two
 * settlement steps (after the node steps, registered before this).
 */
export function registerRanking(ctx: Ctx): void {
  setRankingRecorder(ctx.sql, { now: ctx.now, measure: ctx.config.ranking.measure })
  registerRankingSteps(ctx)
}

/** The live ranking on a process's sockets. Returns the stream job's stop. */
async function rankingPush(ctx: Ctx): Promise<RankingPush> {
  // The version read before the pools: a write meanwhile bumps it, and the next tick looks again.
  const version = `${dayOf(ctx.now())}:${rankingVersion(ctx.sql)}`
  return { pools: await poolsNow(ctx.sql, ctx.config.ranking, ctx.now()), version }
}

/** The live stream on this process's sockets: a snapshot on subscribe. Its updates come from startRankingPushes, in this process or another. */
export function registerRankingStream(ctx: Ctx, hub: Hub): void {
  hub.register({
    private: false,
    matches: (stream) => stream === RANKING_STREAM,
    // Read after the ack; every push is a whole snapshot too, so one landing first is only overtaken by
    // the same figures. A read that fails leaves the subscriber to the next push.
    onSubscribe: (conn) =>
      void rankingPush(ctx).then(
        (p) => conn.send({ arg: { channel: RANKING_STREAM }, action: 'snapshot', data: [p] }),
        (e: unknown) => ctx.log.warn({ err: e }, 'ranking snapshot not read'),
      ),
  })
}

/**
 * The live stream's updates: while anyone listens, a look every pushMs and an update when the pools
 * or today's ranking changed (income arrives from many places; this is one reader). One process runs
 * it — the server alone, or the jobs leader publishing through the bus — so nobody gets it twice.
 */
export function startRankingPushes(ctx: Ctx, publisher: { publish(stream: string, frame: unknown): void; listening?(stream: string): boolean }): () => void {
  let last = ''
  return startJobs(ctx, [
    {
      name: 'ranking-stream',
      everyMs: ctx.config.ranking.pushMs,
      run: async () => {
        if (!(publisher.listening?.(RANKING_STREAM) ?? true)) return
        const p = await rankingPush(ctx)
        const text = JSON.stringify(p)
        if (text === last) return
        last = text
        publisher.publish(RANKING_STREAM, { arg: { channel: RANKING_STREAM }, action: 'update', data: [p] })
      },
    },
  ])
}

export interface RankingCheck {
  /** 'pools' for a day's feeding, else the pool paid. */
  what: 'pools' | PoolName
  day: number
  asset: string
  message: string
}

const AUDIT = statements({
  fed: statement<{ ref: string; asset: string; kind: string; amount: bigint }, []>(
    `SELECT p.ref AS ref, a.asset AS asset, a.kind AS kind, sum(e.delta) AS amount
       FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id JOIN ledger_accounts a ON a.id = e.account_id
      WHERE p.ref LIKE 'ranking:pools:%' AND a.user_id IS NULL AND a.kind IN ('prize_daily', 'prize_total')
      GROUP BY p.ref, a.asset, a.kind`,
  ),
  poolDays: statement<{ day: bigint; asset: string; to_daily: bigint; to_total: bigint }, []>('SELECT day, asset, to_daily, to_total FROM ranking_pool_days ORDER BY day, asset'),
  prizes: statement<{ ref: string; asset: string; amount: bigint }, []>(
    `SELECT p.ref AS ref, a.asset AS asset, -sum(e.delta) AS amount
       FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id JOIN ledger_accounts a ON a.id = e.account_id
      WHERE (p.ref LIKE 'ranking:daily:%' OR p.ref LIKE 'ranking:total:%') AND a.user_id IS NULL AND a.kind IN ('prize_daily', 'prize_total')
      GROUP BY p.ref, a.asset`,
  ),
  results: statement<{ pool: PoolName; day: bigint; usdt: bigint; nadi: bigint }, []>('SELECT pool, day, sum(prize_usdt) AS usdt, sum(prize_nadi) AS nadi FROM ranking_results GROUP BY pool, day'),
  payouts: statement<{ pool: PoolName; day: bigint; paid_usdt: bigint; paid_nadi: bigint }, []>('SELECT pool, day, paid_usdt, paid_nadi FROM ranking_payouts ORDER BY pool, day'),
})

/**
 * The ranking's money against the ledger (the `audit` command): what ranking_pool_days says each pool
 * was fed equals what the `ranking:pools:<day>:<asset>` posting moved into it; what ranking_payouts
 * says a payout paid equals the sum of its ranking_results prizes and what the `ranking:<pool>:<day>:*`
 * postings moved out of the pool. A row edited or a posting missing shows as a difference. Read-only, in one snapshot (q's own
 * transaction when it is one).
 */
export function auditRanking(q: Sql | Tx): Promise<RankingCheck[]> {
  return inSnapshot(q, async (tx) => {
    const out: RankingCheck[] = []
    const money = (m: Map<string, bigint>, k: string) => m.get(k) ?? 0n
    // Credited to each pool by the feeding postings, per (day, asset, pool account): the day read from
    // the ref (ranking:pools:<day>:<asset>) here, as SQLite and PostgreSQL share no instr / strpos.
    const fed = new Map<string, bigint>()
    for (const r of await tx.all(AUDIT.fed)) {
      const k = `${BigInt(r.ref.split(':')[2] as string)}|${r.asset}|${r.kind}`
      fed.set(k, money(fed, k) + r.amount)
    }
    const recorded = new Set<string>()
    for (const d of await tx.all(AUDIT.poolDays)) {
      for (const [kind, want] of [
        ['prize_daily', d.to_daily],
        ['prize_total', d.to_total],
      ] as const) {
        const k = `${d.day}|${d.asset}|${kind}`
        recorded.add(k)
        const got = money(fed, k)
        if (got !== want) out.push({ what: 'pools', day: Number(d.day), asset: d.asset, message: `${kind} fed ${formatMoney(want)} by ranking_pool_days, the ledger moved ${formatMoney(got)}` })
      }
    }
    for (const [k, got] of fed) {
      if (recorded.has(k)) continue
      const [day, asset, kind] = k.split('|') as [string, string, string]
      out.push({ what: 'pools', day: Number(day), asset, message: `${kind} received ${formatMoney(got)} with no ranking_pool_days row` })
    }

    // Paid out of each pool by the prize postings, per (pool, day, asset), and the winners' rows.
    const postings = new Map<string, bigint>()
    for (const r of await tx.all(AUDIT.prizes)) {
      const [, pool, day] = r.ref.split(':') // ranking:<pool>:<day>:<rank>
      const k = `${pool}|${day}|${r.asset}`
      postings.set(k, money(postings, k) + r.amount)
    }
    const results = new Map<string, bigint>()
    for (const r of await tx.all(AUDIT.results)) {
      results.set(`${r.pool}|${r.day}|USDT`, r.usdt)
      results.set(`${r.pool}|${r.day}|NADI`, r.nadi)
    }
    const paidOut = new Set<string>()
    for (const p of await tx.all(AUDIT.payouts)) {
      for (const [asset, paid] of [
        ['USDT', p.paid_usdt],
        ['NADI', p.paid_nadi],
      ] as const) {
        const k = `${p.pool}|${p.day}|${asset}`
        paidOut.add(k)
        const at = { what: p.pool, day: Number(p.day), asset }
        if (money(results, k) !== paid) out.push({ ...at, message: `the payout recorded ${formatMoney(paid)} paid, its winners' prizes sum to ${formatMoney(money(results, k))}` })
        if (money(postings, k) !== paid) out.push({ ...at, message: `the payout recorded ${formatMoney(paid)} paid, the ledger moved ${formatMoney(money(postings, k))} out of the pool` })
      }
    }
    for (const [k, m] of [...postings, ...results]) {
      if (paidOut.has(k) || m === 0n) continue
      const [pool, day, asset] = k.split('|') as [PoolName, string, string]
      paidOut.add(k)
      out.push({ what: pool, day: Number(day), asset, message: `${formatMoney(m)} paid as prizes with no ranking_payouts row` })
    }
    return out
  })
}
