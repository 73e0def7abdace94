// Savings (pledge) (issue 11 part 5; SPEC §3 Pledge, §4, §5). Pledging freezes NADI in the user's
// fund account and opens a position of kind 'pledge' (base = the principal, the mode's rate, a period
// of 1 or 30 days, the term from tomorrow): the settlement pays its interest from the savings
// account. The settlement of the term's last day releases the principal (the step registered here):
// unfrozen, the pledge redeemed, the product's capacity given back. The rules are pure, in
// contract/pledgeRules.ts.
import type { Selectable } from 'kysely'
import type { LangCode } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { formatMoney, parseAmount } from '../../../contract/money.ts'
import type { MyPledge, PledgeBody, PledgeIncome, PledgeProduct, PledgeReleaseLog } from '../../../contract/pledge.ts'
import {
  capacityLeft,
  checkPledge,
  DAY_MS,
  modeRate,
  periodDays,
  periodsOf,
  ppmToPercent,
  termIncome,
  type PledgeTerms,
} from '../../../contract/pledgeRules.ts'
import { daysLeft, lastDayOf, termOf } from '../../../contract/term.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements, type Queryable, type Tx } from '../../db/query/types.ts'
import { answerKeyedIn } from '../../db/keyedEffect.ts'
import type { PledgeProductsTable, PledgesTable } from '../../db/schema.ts'
import { badRequest, conflict, invalidField, notFound } from '../../http/errors.ts'
import * as ledger from '../../ledger/index.ts'
import { pickText } from '../goods/rules.ts'
import { insufficient } from '../payment/index.ts'
import { dayOf } from '../release/schedule.ts'
import { onSettle } from '../settlement/service.ts'

type ProductRow = Selectable<PledgeProductsTable>
type PledgeRow = Selectable<PledgesTable> & { paid?: bigint }

type Due = { id: bigint; user_id: bigint; product_id: bigint; amount: bigint }

const S = statements({
  product: statement<ProductRow, [id: number | bigint]>('SELECT * FROM pledge_products WHERE id = ?'),
  // The capacity guard: the row changes only while the pledge fits (the table's CHECK backs it).
  take: statement<never, [{ amount: bigint; id: bigint }]>(
    'UPDATE pledge_products SET pledged = pledged + @amount WHERE id = @id AND active = 1 AND pledged + @amount <= total_pledge',
  ),
  insert: statement<{ id: bigint }, [{ user: number; product: bigint; mode: string; amount: bigint; rate: bigint; days: number; start: number; end: number; at: number }]>(
    `INSERT INTO pledges (user_id, product_id, mode, amount, rate_ppm, days, start_day, end_day, created_at)
     VALUES (@user, @product, @mode, @amount, @rate, @days, @start, @end, @at) RETURNING id`,
  ),
  position: statement<{ id: bigint }, [{ user: number; base: bigint; rate: bigint; period: number; start: number; end: number; source: string; at: number }]>(
    `INSERT INTO positions (user_id, kind, asset, base, rate_ppm, period_days, remaining, start_day, end_day, source, created_at)
     VALUES (@user, 'pledge', 'NADI', @base, @rate, @period, NULL, @start, @end, @source, @at) RETURNING id`,
  ),
  link: statement<never, [positionId: bigint, pledgeId: bigint]>('UPDATE pledges SET position_id = ? WHERE id = ?'),
  due: statement<Due, [day: number]>("SELECT id, user_id, product_id, amount FROM pledges WHERE status = 'waiting' AND end_day - 1 <= ? ORDER BY id"),
  redeem: statement<never, [at: number, id: bigint]>("UPDATE pledges SET status = 'redeemed', released_at = ? WHERE id = ? AND status = 'waiting'"),
  giveBack: statement<never, [amount: bigint, productId: bigint]>('UPDATE pledge_products SET pledged = pledged - ? WHERE id = ?'),
  release: statement<never, [pledgeId: bigint, day: number, amount: bigint, at: number]>('INSERT INTO pledge_releases (pledge_id, day, amount, created_at) VALUES (?, ?, ?, ?)'),
})

const WITH_PAID = 'SELECT g.*, coalesce(p.paid, 0) AS paid FROM pledges g LEFT JOIN positions p ON p.id = g.position_id'
const INCOME_OF_USER = 'FROM settlement_lines l JOIN pledges g ON g.position_id = l.position_id WHERE g.user_id = ?'
type Page = [userId: number, limit: number, offset: number]

/** What the pledge screens read; `own` and `names` also answer a pledge inside its transaction. */
const READS = statements({
  products: statement<ProductRow, []>('SELECT * FROM pledge_products WHERE active = 1 ORDER BY sort, id'),
  names: statement<{ id: bigint; name: string }, []>('SELECT id, name FROM pledge_products'),
  own: statement<PledgeRow, [id: number, userId: number]>(`${WITH_PAID} WHERE g.id = ? AND g.user_id = ?`),
  count: statement<{ n: bigint }, [userId: number]>('SELECT count(*) AS n FROM pledges WHERE user_id = ?'),
  page: statement<PledgeRow, Page>(`${WITH_PAID} WHERE g.user_id = ? ORDER BY g.id DESC LIMIT ? OFFSET ?`),
  releases: statement<{ day: bigint; amount: bigint; created_at: bigint }, [pledgeId: bigint]>('SELECT * FROM pledge_releases WHERE pledge_id = ? ORDER BY day'),
  income: statement<{ day: bigint; amount: bigint }, [positionId: bigint]>(
    'SELECT l.day AS day, l.amount AS amount FROM settlement_lines l WHERE l.position_id = ? ORDER BY l.day DESC LIMIT 1000',
  ),
  incomeCount: statement<{ n: bigint }, [userId: number]>(`SELECT count(*) AS n ${INCOME_OF_USER}`),
  incomePage: statement<{ pledge_id: bigint; product_id: bigint; day: bigint; amount: bigint }, Page>(
    `SELECT g.id AS pledge_id, g.product_id AS product_id, l.day AS day, l.amount AS amount ${INCOME_OF_USER} ORDER BY l.day DESC, g.id DESC LIMIT ? OFFSET ?`,
  ),
})

type NameRow = { id: bigint; name: string }

const termsOf = (p: ProductRow): PledgeTerms => ({
  day: Number(p.day),
  minPledge: p.min_pledge,
  dayRatePpm: p.day_rate_ppm,
  monthRatePpm: p.month_rate_ppm,
  totalPledge: p.total_pledge,
  pledged: p.pledged,
})

/**
 * The settlement step: on the settlement of a term's last day (run once that day has ended), the
 * principal is unfrozen, the pledge redeemed and its share of the product's capacity given back, in
 * the day's transaction — so a day caught up late releases what fell due that day, once.
 */
export async function releaseDue(tx: Tx, day: number, at: number): Promise<number> {
  const due = await tx.all(S.due, day)
  for (const g of due) {
    if ((await tx.run(S.redeem, at, g.id)).changes !== 1) continue
    await tx.run(S.giveBack, g.amount, g.product_id)
    await tx.run(S.release, g.id, day, g.amount, at)
    await ledger.unfreeze(tx, {
      ref: `pledge:${g.id}:release`,
      reason: 'pledge.release',
      userId: g.user_id,
      account: ledger.fund(g.user_id),
      asset: 'NADI',
      amount: g.amount,
      at,
      meta: { pledge: g.id },
    })
  }
  return due.length
}

/** Registers the release with the settlement of this database (once per server). */
export function registerPledgeRelease(ctx: Pick<Ctx, 'sql'>): void {
  onSettle(ctx, {
    name: 'pledge-release',
    run: async (tx, day, at) => {
      await releaseDue(tx, day, at)
    },
  })
}

export type PledgeService = ReturnType<typeof createPledgeService>

export function createPledgeService(ctx: Ctx) {
  function productWire(p: ProductRow, lang: LangCode): PledgeProduct {
    const day = Number(p.day)
    const terms = termsOf(p)
    return {
      id: Number(p.id),
      name: pickText(p.name, lang),
      day,
      min_pledge: formatMoney(p.min_pledge),
      day_rate: ppmToPercent(modeRate(terms, 'day')),
      month_rate: ppmToPercent(modeRate(terms, 'month')),
      total_pledge: formatMoney(p.total_pledge),
      pledged: formatMoney(p.pledged),
      left: formatMoney(capacityLeft(terms)),
      power_pool: formatMoney(p.power_pool),
      day_periods: modeRate(terms, 'day') > 0n ? periodsOf(day, 'day') : 0,
      month_periods: modeRate(terms, 'month') > 0n ? periodsOf(day, 'month') : 0,
    }
  }

  const byName = (rows: NameRow[], lang: LangCode) => new Map(rows.map((r) => [r.id, pickText(r.name, lang)]))
  const namesNow = async (lang: LangCode, on: Queryable = ctx.sql) => byName(await on.all(READS.names), lang)

  function pledgeWire(g: PledgeRow, name: string): MyPledge {
    const term = { startDay: Number(g.start_day), endDay: Number(g.end_day) }
    const days = Number(g.days)
    const redeemed = g.status === 'redeemed'
    return {
      id: Number(g.id),
      product_id: Number(g.product_id),
      name,
      mode: g.mode,
      amount: formatMoney(g.amount),
      rate: ppmToPercent(g.rate_ppm),
      day: days,
      start_date: term.startDay * DAY_MS,
      end_date: lastDayOf(term) * DAY_MS,
      remaining_days: daysLeft(term, dayOf(ctx.now())),
      income: formatMoney(g.paid ?? 0n),
      expected_income: formatMoney(termIncome(g.amount, g.rate_ppm, days, g.mode)),
      release_amount: formatMoney(g.amount),
      release_time: redeemed && g.released_at !== null ? Number(g.released_at) : term.endDay * DAY_MS,
      release_rate: redeemed ? '100' : '0',
      status: g.status,
      created_at: Number(g.created_at),
    }
  }

  /** The caller's pledge; another user's is answered like an unknown one. */
  function found(g: PledgeRow | undefined): PledgeRow {
    if (!g) throw notFound('errors.pledgeNotFound')
    return g
  }

  return {
    async list(lang: LangCode): Promise<PledgeProduct[]> {
      return (await ctx.sql.all(READS.products)).map((p) => productWire(p, lang))
    },

    async detail(lang: LangCode, id: number): Promise<PledgeProduct> {
      const p = await ctx.sql.get(S.product, id)
      if (!p || p.active !== 1n) throw notFound('errors.pledgeProductNotFound')
      return productWire(p, lang)
    },

    async pledge(userId: number, lang: LangCode, body: PledgeBody): Promise<MyPledge> {
      // The schema checked the format; what is left to refuse is more than the ledger holds.
      const amount = parseAmount(body.amount)
      if (amount === null) throw invalidField('amount')
      // Read inside the pledge's transaction too (a keyed request's answer), where its rows are seen.
      const answer = async (q: Queryable, id: number) => pledgeWire(found(await q.get(READS.own, id, userId)), (await namesNow(lang, q)).get(BigInt(body.product_id)) ?? '')
      answerKeyedIn((id: number, tx) => answer(tx, id))
      const id = await ctx.commits.write(async (tx) => {
        const p = await tx.get(S.product, body.product_id)
        if (!p || p.active !== 1n) throw notFound('errors.pledgeProductNotFound')
        const terms = termsOf(p)
        // Read without a lock: a refusal worded from it; the freeze below is what holds the line.
        const available = (await ledger.balance(tx, ledger.fund(userId), 'NADI')).available
        const refusal = checkPledge(terms, body.mode, amount, available)
        if (refusal) {
          switch (refusal.reason) {
            case 'amountZero':
              throw badRequest('errors.amountZero')
            case 'modeUnavailable':
              throw badRequest('errors.pledgeModeUnavailable')
            case 'belowMin':
              throw badRequest('errors.pledgeBelowMin', { amount: formatMoney(refusal.min) })
            case 'capacity':
              throw conflict('errors.pledgeCapacity', { left: formatMoney(refusal.left) })
            case 'insufficient':
              throw insufficient('NADI', refusal.current, refusal.required)
          }
        }
        if ((await tx.run(S.take, { amount, id: p.id })).changes !== 1) {
          // Another process's pledge took the capacity since it was read: the refusal names what is left now.
          const fresh = (await tx.get(S.product, p.id))!
          throw conflict('errors.pledgeCapacity', { left: formatMoney(capacityLeft(termsOf(fresh))) })
        }
        const now = ctx.now()
        const { startDay, endDay } = termOf(dayOf(now), terms.day)
        const rate = modeRate(terms, body.mode)
        const pledgeId = (await tx.get(S.insert, { user: userId, product: p.id, mode: body.mode, amount, rate, days: terms.day, start: startDay, end: endDay, at: now }))!.id
        const positionId = (await tx.get(S.position, { user: userId, base: amount, rate, period: periodDays(body.mode), start: startDay, end: endDay, source: `pledge:${pledgeId}`, at: now }))!.id
        await tx.run(S.link, positionId, pledgeId)
        try {
          // Another process may have spent the balance since it was read: the ledger refuses the overdraft.
          await ledger.freeze(tx, { ref: `pledge:${pledgeId}`, reason: 'pledge', userId, account: ledger.fund(userId), asset: 'NADI', amount, at: now, meta: { pledge: Number(pledgeId), product: p.id } })
        } catch (err) {
          if (!(err instanceof ledger.InsufficientFunds)) throw err
          // The refusal names the balance now: err.current is what the posting read before another connection's debit committed.
          throw insufficient('NADI', (await ledger.balance(tx, ledger.fund(userId), 'NADI')).available, amount)
        }
        return Number(pledgeId)
      })
      return answer(ctx.sql, id)
    },

    async myList(userId: number, lang: LangCode, page: number, pageSize: number): Promise<PagedList<MyPledge>> {
      const { n } = (await ctx.sql.get(READS.count, userId))!
      const rows = await ctx.sql.all(READS.page, userId, pageSize, (page - 1) * pageSize)
      const byId = await namesNow(lang)
      return { total: Number(n), list: rows.map((g) => pledgeWire(g, byId.get(g.product_id) ?? '')) }
    },

    async releaseLog(userId: number, lang: LangCode, id: number): Promise<PledgeReleaseLog> {
      const g = found(await ctx.sql.get(READS.own, id, userId))
      const name = (await namesNow(lang)).get(g.product_id) ?? ''
      const releases = (await ctx.sql.all(READS.releases, g.id)).map((r) => ({
        amount: formatMoney(r.amount),
        at: Number(r.created_at),
        day: Number(r.day) * DAY_MS,
      }))
      const income = g.position_id === null ? [] : (await ctx.sql.all(READS.income, g.position_id)).map((l) => ({ pledge_id: Number(g.id), name, day: Number(l.day) * DAY_MS, amount: formatMoney(l.amount) }))
      return { pledge: pledgeWire(g, name), releases, income }
    },

    /** The income record: every settled day of every pledge of the caller, newest first. */
    async incomeLog(userId: number, lang: LangCode, page: number, pageSize: number): Promise<PagedList<PledgeIncome>> {
      const { n } = (await ctx.sql.get(READS.incomeCount, userId))!
      const rows = await ctx.sql.all(READS.incomePage, userId, pageSize, (page - 1) * pageSize)
      const byId = await namesNow(lang)
      return { total: Number(n), list: rows.map((r) => ({ pledge_id: Number(r.pledge_id), name: byId.get(r.product_id) ?? '', day: Number(r.day) * DAY_MS, amount: formatMoney(r.amount) })) }
    },
  }
}
