// The daily settlement (DESIGN §11): one UTC day at a time, oldest first, each day one transaction.
//
//   1. lines   every position due that day gets its line, set-based: floor(base × rate / 1e6), capped
//              by what remains, and the millionths the floor left (frac);
//   2. advance the positions move on (paid, remaining, last day settled; exhausted or past their
//              end: ended);
//   3. steps   what a feature adds to a day (a node's stake returned, the fee pool split…), registered
//              with onSettle() and run in the same transaction;
//   4. money   each user's earnings of the day are one ledger posting `settle:<day>:<user>` from the
//              platform account that funds each kind; the floors' remainder, floor(Σ frac / 1e6),
//              is posted to the dust account, so the funding account pays exactly the computed total;
//   5. record  settlement_totals (per kind and asset: lines, computed, paid, dust) and settlement_days.
//
// A settled day posts nothing again (its lines' primary key, its record); a crash mid-day undoes the
// whole day and the next pass redoes it; days missed while the server was down are caught up in
// order. A funding account short of money stops the settlement at that day, logged with what is
// missing, and nothing of that day is paid until it is funded. The stop is recorded (settlementHalt)
// so the app can say why earnings paused; the next settled day clears it.
import type { Ctx } from '../../context.ts'
import { statement, statements, type Queryable, type Sql, type Tx } from '../../db/query/types.ts'
import { inSnapshot } from '../../db/steps.ts'
import { startJobs } from '../../jobs/scheduler.ts'
import * as ledger from '../../ledger/index.ts'
import { formatMoney } from '../../../contract/money.ts'
import { dayOf, dayStart } from '../release/schedule.ts'

export type PositionKind = 'device' | 'destroy' | 'joint' | 'trial' | 'node' | 'pledge'

/** The platform account that funds each kind of earning (DESIGN §11). */
export const FUNDED_BY: Record<PositionKind, ledger.AccountRef> = {
  device: ledger.MINING,
  destroy: ledger.MINING,
  joint: ledger.MINING,
  trial: ledger.MINING,
  node: ledger.MINING,
  pledge: ledger.SAVINGS,
}

type Day = { day: number }
type DayAt = { day: number; at: number }
type PerUser = { user_id: bigint; kind: PositionKind; asset: string; amount: bigint; lines: bigint }
type PerKind = { kind: PositionKind; asset: string; lines: bigint; paid: bigint; frac: bigint }

const S = statements({
  lines: statement<never, [Day]>(`INSERT INTO settlement_lines (position_id, day, amount, frac)
          SELECT id, CAST(@day AS BIGINT),
                 CASE WHEN remaining IS NOT NULL AND remaining < f THEN remaining ELSE f END,
                 CASE WHEN remaining IS NOT NULL AND remaining <= f THEN 0 ELSE r END
          FROM (SELECT id, remaining,
                       (base / 1000000) * rate_ppm + ((base % 1000000) * rate_ppm) / 1000000 AS f,
                       ((base % 1000000) * rate_ppm) % 1000000 AS r
                FROM positions
                WHERE status = 'active' AND start_day <= @day AND (end_day IS NULL OR @day < end_day)
                  AND (settled_day IS NULL OR settled_day < @day) AND (@day - start_day + 1) % period_days = 0) AS due`),
  advance: statement<never, [DayAt]>(`UPDATE positions SET paid = paid + l.amount,
              remaining = CASE WHEN remaining IS NULL THEN NULL ELSE remaining - l.amount END,
              settled_day = @day,
              status = CASE WHEN remaining IS NOT NULL AND remaining - l.amount = 0 THEN 'ended' ELSE status END,
              ended_at = CASE WHEN remaining IS NOT NULL AND remaining - l.amount = 0 THEN @at ELSE ended_at END
            FROM settlement_lines l WHERE l.day = @day AND l.position_id = positions.id`),
  expire: statement<never, [DayAt]>("UPDATE positions SET status = 'ended', ended_at = @at WHERE status = 'active' AND end_day IS NOT NULL AND end_day <= @day + 1"),
  perUser: statement<PerUser, [day: number]>(`SELECT p.user_id AS user_id, p.kind AS kind, p.asset AS asset, sum(l.amount) AS amount, count(*) AS lines
            FROM settlement_lines l JOIN positions p ON p.id = l.position_id
            WHERE l.day = ? GROUP BY p.user_id, p.kind, p.asset ORDER BY p.user_id`),
  perKind: statement<PerKind, [day: number]>(`SELECT p.kind AS kind, p.asset AS asset, count(*) AS lines, sum(l.amount) AS paid, sum(l.frac) AS frac
            FROM settlement_lines l JOIN positions p ON p.id = l.position_id WHERE l.day = ? GROUP BY p.kind, p.asset`),
  total: statement<never, [day: number, kind: PositionKind, asset: string, lines: bigint, computed: bigint, paid: bigint, dust: bigint]>(
    'INSERT INTO settlement_totals (day, kind, asset, lines, computed, paid, dust) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ),
  record: statement<never, [day: number, positions: number, users: number, startedAt: number, finishedAt: number]>(
    'INSERT INTO settlement_days (day, positions, users, started_at, finished_at) VALUES (?, ?, ?, ?, ?)',
  ),
  lastDay: statement<{ day: bigint | null }, []>('SELECT max(day) AS day FROM settlement_days'),
  halted: statement<never, [{ key: string; value: string }]>('INSERT INTO settings (key, value) VALUES (@key, @value) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
  resumed: statement<never, [{ key: string }]>('DELETE FROM settings WHERE key = @key'),
  firstDue: statement<{ day: bigint | null }, []>("SELECT min(start_day) AS day FROM positions WHERE status = 'active'"),
  analyze: statement<never, []>('ANALYZE settlement_lines'),
})


export interface SettleStep {
  name: string
  /** Runs inside the day's transaction after the lines, before the money of the day is posted. */
  run(tx: Tx, day: number, at: number): Promise<void>
  /** The first day this step has work for, when that can come before any position's (a ranking day with no position yet). */
  firstDay?(sql: Queryable): Promise<number | null>
}

const steps = new WeakMap<object, SettleStep[]>()

/** A feature's part of every settled day (per database connection, so each server has its own). */
export function onSettle(ctx: Pick<Ctx, 'sql'>, step: SettleStep): void {
  const list = steps.get(ctx.sql) ?? []
  if (!list.some((s) => s.name === step.name)) list.push(step)
  steps.set(ctx.sql, list)
}

export class SettlementFundingShort extends Error {
  override name = 'SettlementFundingShort'
  constructor(
    readonly day: number,
    readonly account: string,
    readonly asset: string,
    readonly available: bigint,
    readonly required: bigint,
  ) {
    super(`settlement of ${isoDay(day)} needs ${formatMoney(required)} ${asset} from ${account}, which has ${formatMoney(available)}`)
  }
}

/** Where a stopped settlement is: the day it could not fund, and the funding account short. */
export interface SettlementHalt {
  day: number
  account: string
  asset: string
}
const HALT_KEY = 'settlement.halt'
const HALT = statement<{ value: string }, [{ key: string }]>('SELECT value FROM settings WHERE key = @key')

/** The settlement's stop, or null while it runs (one indexed read: mining shows it on every record). */
export async function settlementHalt(ctx: Pick<Ctx, 'sql'>): Promise<SettlementHalt | null> {
  const r = await ctx.sql.get(HALT, { key: HALT_KEY })
  return r ? (JSON.parse(r.value) as SettlementHalt) : null
}

export const isoDay = (day: number) => new Date(dayStart(day)).toISOString().slice(0, 10)

export interface DaySettled {
  day: number
  positions: number
  users: number
  paid: bigint
  dust: bigint
}

const accountName = (a: ledger.AccountRef) => ('platform' in a ? a.platform : `${a.kind}`)

/** Settles one day in the caller's transaction, tx. Throws SettlementFundingShort, undoing the day. */
export async function settleDay(ctx: Pick<Ctx, 'sql'>, tx: Tx, day: number, at: number): Promise<DaySettled> {
  const positions = (await tx.run(S.lines, { day })).changes
  // PostgreSQL plans the statements below from statistics that know nothing of the day's lines (the
  // table was last analyzed before they existed): it would join a million lines by one index probe
  // each and sort them on disk. ANALYZE counts the transaction's own rows and costs a fraction of a
  // second; SQLite keeps no statistics here, and its ANALYZE would read the whole table.
  if (positions > 0 && tx.dialect === 'postgres') await tx.run(S.analyze)
  await tx.run(S.advance, { day, at })
  await tx.run(S.expire, { day, at })
  // In registration order, one after another: a later step reads what an earlier one wrote.
  for (const step of steps.get(ctx.sql) ?? []) await step.run(tx, day, at)

  // What each funding account must pay: the lines, and the dust the floors left.
  const kinds = await tx.all(S.perKind, day)
  const need = new Map<string, { account: ledger.AccountRef; asset: string; amount: bigint }>()
  const want = (account: ledger.AccountRef, asset: string, amount: bigint) => {
    const key = `${accountName(account)}|${asset}`
    const n = need.get(key) ?? { account, asset, amount: 0n }
    n.amount += amount
    need.set(key, n)
  }
  const dusts: { account: ledger.AccountRef; kind: PositionKind; asset: string; dust: bigint }[] = []
  let paid = 0n
  let dustTotal = 0n
  for (const k of kinds) {
    const dust = k.frac / 1_000_000n
    await tx.run(S.total, day, k.kind, k.asset, k.lines, k.paid + dust, k.paid, dust)
    want(FUNDED_BY[k.kind], k.asset, k.paid + dust)
    if (dust > 0n) dusts.push({ account: FUNDED_BY[k.kind], kind: k.kind, asset: k.asset, dust })
    paid += k.paid
    dustTotal += dust
  }
  for (const n of need.values()) {
    const { available } = await ledger.balance(tx, n.account, n.asset)
    if (available < n.amount) throw new SettlementFundingShort(day, accountName(n.account), n.asset, available, n.amount)
  }

  const rows = await tx.all(S.perUser, day)
  // One batch: a day's postings are written a chunk at a time (ledger.postMany), not one by one.
  const postings: ledger.PostingInput[] = []
  for (let i = 0; i < rows.length; ) {
    const user = rows[i]!.user_id
    const moves: ledger.Move[] = []
    const detail: Record<string, string> = {}
    for (; i < rows.length && rows[i]!.user_id === user; i++) {
      const r = rows[i]!
      if (r.amount > 0n) moves.push({ from: FUNDED_BY[r.kind], to: ledger.fund(user), asset: r.asset, amount: r.amount })
      detail[`${r.kind}:${r.asset}`] = formatMoney(r.amount)
    }
    if (moves.length === 0) continue
    postings.push({ ref: `settle:${day}:${user}`, reason: 'settlement', userId: user, moves, at, meta: { day: isoDay(day), earned: detail } })
  }
  const users = postings.length
  for (const d of dusts) {
    postings.push({
      ref: `settle:${day}:dust:${d.kind}:${d.asset}`,
      reason: 'settlement_dust',
      userId: null,
      moves: [{ from: d.account, to: ledger.DUST, asset: d.asset, amount: d.dust }],
      at,
      meta: { day: isoDay(day), kind: d.kind },
    })
  }
  await ledger.postMany(tx, postings)
  await tx.run(S.record, day, positions, users, at, at)
  await tx.run(S.resumed, { key: HALT_KEY })
  return { day, positions, users, paid, dust: dustTotal }
}

/** The next day to settle: the one after the last settled, else the first any active position starts or a step has work for. */
export async function nextDay(ctx: Pick<Ctx, 'sql'>): Promise<number | null> {
  const last = (await ctx.sql.get(S.lastDay))!.day
  if (last !== null) return Number(last) + 1
  const first = (await ctx.sql.get(S.firstDue))!.day
  const days = [first === null ? null : Number(first)]
  for (const step of steps.get(ctx.sql) ?? []) days.push((await step.firstDay?.(ctx.sql)) ?? null)
  const known = days.filter((d) => d !== null)
  return known.length === 0 ? null : Math.min(...known)
}

/**
 * One pass: every day that has ended (UTC) and is not settled yet, oldest first, a transaction
 * each. A day is settled once it is over, so "yesterday's earnings" are final when shown. Returns
 * the days settled; a second pass the same day settles nothing.
 */
export async function settleDue(ctx: Pick<Ctx, 'sql' | 'now' | 'log'>): Promise<DaySettled[]> {
  const lastEnded = dayOf(ctx.now()) - 1
  const done: DaySettled[] = []
  for (;;) {
    const day = await nextDay(ctx)
    if (day === null || day > lastEnded) return done
    try {
      done.push(await ctx.sql.transaction((tx) => settleDay(ctx, tx, day, ctx.now())))
    } catch (err) {
      if (err instanceof SettlementFundingShort) {
        const halt: SettlementHalt = { day: err.day, account: err.account, asset: err.asset }
        await ctx.sql.transaction((tx) => tx.run(S.halted, { key: HALT_KEY, value: JSON.stringify(halt) }))
        ctx.log.error({ day: isoDay(err.day), account: err.account, asset: err.asset, available: formatMoney(err.available), required: formatMoney(err.required) }, `settlement halted: ${err.message}`)
      }
      throw err
    }
  }
}

export interface SettlementCheck {
  day: number
  kind: string
  asset: string
  message: string
}

/**
 * The settlement's own audit: per settled day, kind and asset, computed = paid + dust, paid equals
 * the lines, dust equals floor(Σ frac / 1e6), and what left the funding accounts that day equals
 * the computed totals (TOB-LOOM-022: no change nobody can account for).
 */
const AUDIT = statements({
  lines: statement<{ day: bigint; kind: string; asset: string; paid: bigint; frac: bigint }, []>(
    `SELECT l.day AS day, p.kind AS kind, p.asset AS asset, sum(l.amount) AS paid, sum(l.frac) AS frac
     FROM settlement_lines l JOIN positions p ON p.id = l.position_id GROUP BY l.day, p.kind, p.asset`,
  ),
  totals: statement<{ day: bigint; kind: string; asset: string; computed: bigint; paid: bigint; dust: bigint }, []>(
    'SELECT day, kind, asset, computed, paid, dust FROM settlement_totals ORDER BY day',
  ),
})

const FUNDING = [...new Set(Object.values(FUNDED_BY).map(accountName))]

/** What left the funding accounts per settle posting, for one page of postings (ledger.postingRanges). */
const leftInRange = statement<{ ref: string; asset: string; amount: bigint }, [after: bigint, last: bigint, from: bigint, to: bigint, ...funding: string[]]>(
  `SELECT p.ref AS ref, a.asset AS asset, -sum(e.delta) AS amount
   FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id JOIN ledger_accounts a ON a.id = e.account_id
   WHERE p.id > ? AND p.id <= ? AND e.id >= ? AND e.id <= ?
     AND p.ref LIKE 'settle:%' AND a.user_id IS NULL AND a.kind IN (${FUNDING.map(() => '?').join(', ')})
   GROUP BY p.ref, a.asset`,
)

/**
 * The settlement's own audit: per settled day, kind and asset, computed = paid + dust, paid equals
 * the lines, dust equals floor(Σ frac / 1e6), and what left the funding accounts that day equals
 * the computed totals (TOB-LOOM-022: no change nobody can account for). In one snapshot (q's own
 * transaction when it is one).
 */
export function auditSettlement(q: Sql | Tx): Promise<SettlementCheck[]> {
  return inSnapshot(q, async (tx) => {
    const out: SettlementCheck[] = []
    const key = (day: bigint, kind: string, asset: string) => `${day}|${kind}|${asset}`
    const lines = new Map<string, { paid: bigint; frac: bigint }>()
    for (const l of await tx.all(AUDIT.lines)) lines.set(key(l.day, l.kind, l.asset), l)
    const computedPerDay = new Map<string, bigint>()
    for (const t of await tx.all(AUDIT.totals)) {
      const at = { day: Number(t.day), kind: t.kind, asset: t.asset }
      const l = lines.get(key(t.day, t.kind, t.asset)) ?? { paid: 0n, frac: 0n }
      if (t.paid + t.dust !== t.computed) out.push({ ...at, message: `paid ${formatMoney(t.paid)} + dust ${formatMoney(t.dust)} ≠ computed ${formatMoney(t.computed)}` })
      if (l.paid !== t.paid) out.push({ ...at, message: `lines sum to ${formatMoney(l.paid)}, the day recorded ${formatMoney(t.paid)} paid` })
      if (l.frac / 1_000_000n !== t.dust) out.push({ ...at, message: `the floors left ${formatMoney(l.frac / 1_000_000n)}, the day recorded ${formatMoney(t.dust)} dust` })
      const dayAsset = `${t.day}|${t.asset}`
      computedPerDay.set(dayAsset, (computedPerDay.get(dayAsset) ?? 0n) + t.computed)
    }
    // Summed per posting and its day read from the ref (settle:<day>:…) here: SQLite and PostgreSQL
    // share no function that finds a character in a string (instr / strpos). A posting per user and
    // day adds up to many: read a page of postings at a time.
    const leftPerDay = new Map<string, bigint>()
    for await (const r of ledger.postingRanges(tx)) {
      for (const p of await tx.all(leftInRange, r.after, r.last, r.from, r.to, ...FUNDING)) {
        const k = `${BigInt(p.ref.split(':')[1] as string)}|${p.asset}`
        leftPerDay.set(k, (leftPerDay.get(k) ?? 0n) + p.amount)
      }
    }
    const seen = new Set<string>()
    for (const [k, amount] of leftPerDay) {
      seen.add(k)
      const [day, asset] = k.split('|') as [string, string]
      const computed = computedPerDay.get(k) ?? 0n
      if (amount !== computed) out.push({ day: Number(day), kind: '*', asset, message: `the funding accounts paid ${formatMoney(amount)}, the day computed ${formatMoney(computed)}` })
    }
    for (const [k, computed] of computedPerDay) {
      if (!seen.has(k) && computed !== 0n) {
        const [day, asset] = k.split('|') as [string, string]
        out.push({ day: Number(day), kind: '*', asset, message: `the day computed ${formatMoney(computed)} and nothing left the funding accounts` })
      }
    }
    return out
  })
}

/** The settlement job: a pass every few minutes (tests drive settleDue with their clock). */
export function startSettlement(ctx: Ctx, everyMs = 60_000): () => void {
  return startJobs(ctx, [{ name: 'settlement', everyMs, run: settleDue }])
}
