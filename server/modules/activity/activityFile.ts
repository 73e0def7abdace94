// The activity file operators load with `tsx server/cli.ts activity load <file.json>`; the demo's two
// activities are one too (./demoActivities.json). Slugs are the keys: loading a file again updates
// what it names and adds what is new; nothing is deleted (an operator sets `active: false`).
//
// What may change depends on where the activity stands when the file is loaded: before it starts,
// everything; once it runs, its texts, cover, order, visibility and a later end (its measure, prizes
// and start are what people compete for, and stay); once it has ended, only texts, cover, order and
// visibility. A file that breaks any rule is refused whole: nothing is written.
import { Type, type Static } from 'typebox'
import { Compile } from 'typebox/compile'
import { LANG_CODES } from '../../../contract/constants.ts'
import { ImageUrl, Instant, parseInstant, Slug, Texts } from '../../commands/fileSchemas.ts'
import { Money } from '../../../contract/envelope.ts'
import { Measure as MeasureSchema, type Measure } from '../../../contract/activity.ts'
import { formatMoney, parseMoney } from '../../../contract/money.ts'
import { statement, statements, type Queryable, type Tx } from '../../db/query/types.ts'
import { ASSETS, INT64_MAX } from '../../ledger/index.ts'
import { prizeProblems, prizeTotals, statusAt, type PrizeRange } from './rules.ts'
import { rebuildScores } from './scores.ts'

/** At most this many ranks win in one activity (the payout is one posting per rank). */
export const MAX_PRIZE_RANKS = 1000
/** A window longer than a year is a typo more likely than a campaign. */
export const MAX_WINDOW_MS = 366 * 86_400_000

export { parseInstant }

export const ActivityEntry = Type.Object(
  {
    slug: Slug,
    title: Texts(80),
    body: Texts(4000),
    cover: ImageUrl,
    measure: MeasureSchema,
    starts_at: Instant,
    ends_at: Instant,
    prizes: Type.Array(
      Type.Object({ from: Type.Integer({ minimum: 1, maximum: MAX_PRIZE_RANKS }), to: Type.Integer({ minimum: 1, maximum: MAX_PRIZE_RANKS }), asset: Type.Union(ASSETS.map((a) => Type.Literal(a))), amount: Money }, { additionalProperties: false }),
      { minItems: 1, maxItems: 100 },
    ),
    sort: Type.Optional(Type.Integer({ minimum: -1000, maximum: 1000 })),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type ActivityEntry = Static<typeof ActivityEntry>
export const ActivityFile = Type.Object({ activities: Type.Array(ActivityEntry, { minItems: 1, maxItems: 200 }) }, { additionalProperties: false })
export type ActivityFile = Static<typeof ActivityFile>
const fileCheck = Compile(ActivityFile)

export class ActivityFileInvalid extends Error {
  override name = 'ActivityFileInvalid'
}

/** An entry's values as stored: times in ms, amounts in units. */
export interface CheckedActivity {
  entry: ActivityEntry
  startsAt: number
  endsAt: number
  prizes: PrizeRange[]
}

/**
 * Checks a parsed file against the schema and the rules a schema cannot say (ends after starts,
 * prize ranks contiguous from 1, amounts above 0 with at most 8 decimals, every language written);
 * throws ActivityFileInvalid naming the place. Pure: what the database holds is checked on load.
 */
export function checkActivityFile(json: unknown): CheckedActivity[] {
  if (!fileCheck.Check(json)) {
    const errs = [...fileCheck.Errors(json)].slice(0, 5).map((e) => `${e.instancePath || '/'}: ${e.message}`)
    throw new ActivityFileInvalid(`activity file does not match the schema:\n  ${errs.join('\n  ')}`)
  }
  const file = json as ActivityFile
  const slugs = new Set<string>()
  return file.activities.map((a, i) => {
    const at = `activities[${i}] (${a.slug})`
    if (slugs.has(a.slug)) throw new ActivityFileInvalid(`${at}: slug used twice`)
    slugs.add(a.slug)
    for (const field of ['title', 'body'] as const) {
      const blank = LANG_CODES.filter((l) => a[field][l].trim() === '')
      if (blank.length) throw new ActivityFileInvalid(`${at}: ${field} is blank in ${blank.join(', ')}`)
    }
    const startsAt = parseInstant(a.starts_at)
    const endsAt = parseInstant(a.ends_at)
    if (startsAt === null) throw new ActivityFileInvalid(`${at}: starts_at ${a.starts_at} is not a real moment`)
    if (endsAt === null) throw new ActivityFileInvalid(`${at}: ends_at ${a.ends_at} is not a real moment`)
    if (endsAt <= startsAt) throw new ActivityFileInvalid(`${at}: ends_at must be after starts_at`)
    if (endsAt - startsAt > MAX_WINDOW_MS) throw new ActivityFileInvalid(`${at}: the window is longer than 366 days`)
    const prizes = a.prizes.map((p) => ({ from: p.from, to: p.to, asset: p.asset, amount: parseMoney(p.amount) ?? 0n }))
    const problems = prizeProblems(prizes, MAX_PRIZE_RANKS)
    if (problems.length) throw new ActivityFileInvalid(`${at}: ${problems.join('; ')}`)
    for (const [asset, total] of prizeTotals(prizes)) {
      if (total > INT64_MAX) throw new ActivityFileInvalid(`${at}: the ${asset} prizes add up to more than ${formatMoney(INT64_MAX)}`)
    }
    return { entry: a, startsAt, endsAt, prizes }
  })
}

export interface ActivityLoadSummary {
  added: number
  updated: number
}

interface StoredRow {
  id: bigint
  measure: Measure
  starts_at: bigint
  ends_at: bigint
}

const texts = (t: Record<string, string>) => JSON.stringify(Object.fromEntries(LANG_CODES.map((l) => [l, t[l]])))
const samePrizes = (a: readonly PrizeRange[], b: readonly PrizeRange[]) =>
  a.length === b.length && a.every((p, i) => p.from === b[i]!.from && p.to === b[i]!.to && p.asset === b[i]!.asset && p.amount === b[i]!.amount)

interface PrizeRow {
  rank_from: bigint
  rank_to: bigint
  asset: string
  amount: bigint
}

const PRIZES = statement<PrizeRow, [{ id: bigint | number }]>('SELECT rank_from, rank_to, asset, amount FROM activity_prizes WHERE activity_id = @id ORDER BY rank_from')

const prizeRange = (r: PrizeRow): PrizeRange => ({ from: Number(r.rank_from), to: Number(r.rank_to), asset: r.asset, amount: r.amount })

/** The prize table, as storedPrizes, awaited: a request's read, a load's, an operator's list. */
export async function readStoredPrizes(q: Queryable, activityId: bigint | number): Promise<PrizeRange[]> {
  return (await q.all(PRIZES, { id: activityId })).map(prizeRange)
}

type ActivityValues = {
  slug: string
  title: string
  body: string
  cover: string
  measure: Measure
  starts_at: number
  ends_at: number
  sort: number
  active: number
  now: number
}

const LOAD = statements({
  find: statement<StoredRow, [{ slug: string }]>('SELECT id, measure, starts_at, ends_at FROM activities WHERE slug = @slug'),
  insert: statement<{ id: bigint }, [ActivityValues]>(
    `INSERT INTO activities (slug, title, body, cover, measure, starts_at, ends_at, sort, active, created_at, updated_at)
     VALUES (@slug, @title, @body, @cover, @measure, @starts_at, @ends_at, @sort, @active, @now, @now) RETURNING id`,
  ),
  update: statement<never, [ActivityValues & { id: bigint }]>(
    `UPDATE activities SET title = @title, body = @body, cover = @cover, measure = @measure, starts_at = @starts_at, ends_at = @ends_at,
       sort = @sort, active = @active, updated_at = @now WHERE id = @id`,
  ),
  dropPrizes: statement<never, [{ id: bigint }]>('DELETE FROM activity_prizes WHERE activity_id = @id'),
  addPrize: statement<never, [{ id: bigint; from: number; to: number; asset: string; amount: bigint }]>(
    'INSERT INTO activity_prizes (activity_id, rank_from, rank_to, asset, amount) VALUES (@id, @from, @to, @asset, @amount)',
  ),
})

/**
 * Loads checked activities at `now`, in the caller's transaction: a refusal (ActivityFileInvalid)
 * anywhere undoes the whole file.
 */
export async function loadActivities(tx: Tx, list: readonly CheckedActivity[], now: number): Promise<ActivityLoadSummary> {
  const sum = { added: 0, updated: 0 }
  for (const [i, c] of list.entries()) {
    const a = c.entry
    const at = `activities[${i}] (${a.slug})`
    const values: ActivityValues = {
      slug: a.slug,
      title: texts(a.title),
      body: texts(a.body),
      cover: a.cover,
      measure: a.measure,
      starts_at: c.startsAt,
      ends_at: c.endsAt,
      sort: a.sort ?? 0,
      active: a.active === false ? 0 : 1,
      now,
    }
    const old = await tx.get(LOAD.find, { slug: a.slug })
    let id: bigint
    if (!old) {
      if (c.endsAt <= now) throw new ActivityFileInvalid(`${at}: a new activity must end in the future (ends_at ${a.ends_at} has passed)`)
      id = (await tx.get(LOAD.insert, values))!.id
      // Its window may have begun already: its scores start from what the raw tables hold.
      await rebuildScores(tx, id)
      sum.added++
    } else {
      const status = statusAt(Number(old.starts_at), Number(old.ends_at), now)
      const prizesChanged = !samePrizes(await readStoredPrizes(tx, old.id), c.prizes)
      if (status !== 'upcoming') {
        const frozen: string[] = []
        if (old.measure !== a.measure) frozen.push('measure')
        if (prizesChanged) frozen.push('prizes')
        if (Number(old.starts_at) !== c.startsAt) frozen.push('starts_at')
        if (status === 'ended' && Number(old.ends_at) !== c.endsAt) frozen.push('ends_at')
        if (frozen.length) throw new ActivityFileInvalid(`${at}: the activity has ${status === 'running' ? 'started' : 'ended'}; its ${frozen.join(', ')} can no longer change`)
        if (status === 'running' && c.endsAt <= now) throw new ActivityFileInvalid(`${at}: a running activity's end can move, but not into the past`)
      }
      await tx.run(LOAD.update, { ...values, id: old.id })
      id = old.id
      // The kept scores describe the old window and measure: rewrite them for the new ones.
      if (old.measure !== a.measure || Number(old.starts_at) !== c.startsAt || Number(old.ends_at) !== c.endsAt) await rebuildScores(tx, id)
      if (!prizesChanged) {
        sum.updated++
        continue
      }
      await tx.run(LOAD.dropPrizes, { id })
      sum.updated++
    }
    for (const p of c.prizes) await tx.run(LOAD.addPrize, { id, from: p.from, to: p.to, asset: p.asset, amount: p.amount })
  }
  return sum
}
