// The notice and banner files operators load with `notice load <file.json>` and `banner load
// <file.json>` (docs/commands.md, docs/examples/); the demo's notices and banners go through the same
// loader (server/db/seed.ts). Keys are the slugs: loading a file again updates what it names and adds
// what is new. A row's state, moment and pin follow the file where it says them, and stay as they are
// where it does not, so reloading a file of texts does not undo a `notice unpublish`. A file that
// breaks any rule is refused whole: nothing is written.
import { Type, type Static } from 'typebox'
import { Compile } from 'typebox/compile'
import { LANG_CODES, LOCALE_FILE } from '../../../contract/constants.ts'
import { statement, statements, type Statement, type Tx } from '../../db/query/types.ts'
import { ImageUrl, Instant, parseInstant, Slug, Texts } from '../../commands/fileSchemas.ts'
import { ContentRefused, publish, unpublish, type Placed, type StoredState } from './rules.ts'

/** At most this many entries in one file: more is a generated file gone wrong, not a day's content. */
export const MAX_ENTRIES = 500

/** In a file, "scheduled" is "published" with a publish_at still ahead, said out loud. */
const FileState = Type.Union([Type.Literal('draft'), Type.Literal('scheduled'), Type.Literal('published'), Type.Literal('unpublished')])
/** An app route a banner opens (the carousel links only inside the app). */
const AppPath = Type.String({ pattern: '^/[A-Za-z0-9._~/?=&%-]{0,200}$' })

export const NoticeEntry = Type.Object(
  {
    key: Slug,
    title: Texts(120),
    /** Plain text; paragraphs separated by an empty line. */
    content: Texts(8000),
    state: Type.Optional(FileState),
    publish_at: Type.Optional(Instant),
    pinned: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type NoticeEntry = Static<typeof NoticeEntry>
export const NoticeFile = Type.Object({ notices: Type.Array(NoticeEntry, { minItems: 1, maxItems: MAX_ENTRIES }) }, { additionalProperties: false })

export const BannerEntry = Type.Object(
  {
    key: Slug,
    image: ImageUrl,
    link: Type.Optional(Type.Union([AppPath, Type.Null()])),
    title: Texts(80),
    sort: Type.Optional(Type.Integer({ minimum: -1000, maximum: 1000 })),
    state: Type.Optional(FileState),
    publish_at: Type.Optional(Instant),
  },
  { additionalProperties: false },
)
export type BannerEntry = Static<typeof BannerEntry>
export const BannerFile = Type.Object({ banners: Type.Array(BannerEntry, { minItems: 1, maxItems: MAX_ENTRIES }) }, { additionalProperties: false })

const noticeCheck = Compile(NoticeFile)
const bannerCheck = Compile(BannerFile)

export class ContentFileInvalid extends Error {
  override name = 'ContentFileInvalid'
}

/** A state and a moment as a file asks for them; undefined where the file leaves the row's own. */
interface Asked {
  state?: StoredState
  publishedAt?: number
}

export interface CheckedNotice extends Asked {
  key: string
  title: Record<string, string>
  content: Record<string, string>
  pinned?: boolean
}

export interface CheckedBanner extends Asked {
  key: string
  image: string
  link: string | null
  title: Record<string, string>
  sort: number
}

type Entry = { key: string; state?: Static<typeof FileState>; publish_at?: string }

/**
 * The schema's word on a file: the first few places that break it, each by its path (e.g.
 * /notices/2/title: must have required properties JP), so a missing language is named.
 */
function schemaProblems(kind: string, check: { Check(v: unknown): boolean; Errors(v: unknown): Iterable<{ instancePath: string; message: string }> }, json: unknown): void {
  if (check.Check(json)) return
  const errs = [...check.Errors(json)].slice(0, 5).map((e) => `${e.instancePath || '/'}: ${e.message}`)
  throw new ContentFileInvalid(`${kind} file does not match the schema:\n  ${errs.join('\n  ')}`)
}

/** Rules every entry keeps that a schema cannot say: keys once, no blank text, real and coherent moments. */
function checkEntries<E extends Entry>(list: string, entries: readonly E[], texts: readonly (keyof E & string)[], now: number): Asked[] {
  const keys = new Set<string>()
  return entries.map((e, i) => {
    const at = `${list}[${i}] (${e.key})`
    if (keys.has(e.key)) throw new ContentFileInvalid(`${at}: key used twice`)
    keys.add(e.key)
    for (const field of texts) {
      const t = e[field] as Record<string, string>
      const blank = LANG_CODES.filter((l) => t[l]!.trim() === '')
      if (blank.length) throw new ContentFileInvalid(`${at}: ${field} is blank in ${blank.join(', ')}`)
    }
    let publishedAt: number | undefined
    if (e.publish_at !== undefined) {
      const ms = parseInstant(e.publish_at)
      if (ms === null) throw new ContentFileInvalid(`${at}: publish_at ${e.publish_at} is not a real moment`)
      publishedAt = ms
    }
    if (e.state === 'scheduled') {
      if (publishedAt === undefined) throw new ContentFileInvalid(`${at}: state "scheduled" needs publish_at`)
      if (publishedAt <= now) throw new ContentFileInvalid(`${at}: state "scheduled" needs publish_at in the future (${e.publish_at} has passed); say "published" to backdate`)
    }
    const state: StoredState | undefined = e.state === 'scheduled' ? 'published' : e.state
    return { ...(state ? { state } : {}), ...(publishedAt !== undefined ? { publishedAt } : {}) }
  })
}

/** Texts keyed by the locale file names the text tables store (tw, en, jp…). */
const byLocale = (t: Record<string, string>) => Object.fromEntries(LANG_CODES.map((l) => [LOCALE_FILE[l], t[l]!]))

/** Checks a parsed notice file at `now`; throws ContentFileInvalid naming the place. Pure. */
export function checkNoticeFile(json: unknown, now: number): CheckedNotice[] {
  schemaProblems('notice', noticeCheck, json)
  const entries = (json as Static<typeof NoticeFile>).notices
  const asked = checkEntries('notices', entries, ['title', 'content'], now)
  return entries.map((e, i) => ({
    key: e.key,
    title: byLocale(e.title),
    content: byLocale(e.content),
    ...(e.pinned !== undefined ? { pinned: e.pinned } : {}),
    ...asked[i],
  }))
}

/** Checks a parsed banner file at `now`; throws ContentFileInvalid naming the place. Pure. */
export function checkBannerFile(json: unknown, now: number): CheckedBanner[] {
  schemaProblems('banner', bannerCheck, json)
  const entries = (json as Static<typeof BannerFile>).banners
  const asked = checkEntries('banners', entries, ['title'], now)
  return entries.map((e, i) => ({ key: e.key, image: e.image, link: e.link ?? null, title: byLocale(e.title), sort: e.sort ?? 0, ...asked[i] }))
}

/**
 * Where a row stands after a file: a new row is published now unless the file says otherwise; a kept
 * row changes only what the file says, so a file that names no state leaves a scheduled or unpublished
 * row as it is ("published" with no moment publishes now, or keeps a showing row's moment).
 */
export function placeAfter(old: Placed | null, asked: Asked, now: number): Placed {
  const from: Placed = old ?? { state: 'published', publishedAt: now }
  if (asked.state === 'published') return publish(from, now, asked.publishedAt)
  return { state: asked.state ?? from.state, publishedAt: asked.publishedAt ?? from.publishedAt }
}

export interface LoadSummary {
  added: number
  updated: number
}

interface StoredPlace {
  id: bigint
  state: StoredState
  published_at: bigint
}
const placeOf = (r: StoredPlace): Placed => ({ state: r.state, publishedAt: Number(r.published_at) })

type Row = Record<string, unknown>
type Id = { id: bigint }

const NOTICE = statements({
  find: statement<StoredPlace & { pinned: bigint }, [{ key: string }]>('SELECT id, state, published_at, pinned FROM notices WHERE key = @key'),
  insert: statement<Id, [Row]>('INSERT INTO notices (key, pinned, state, published_at, updated_at) VALUES (@key, @pinned, @state, @published_at, @now) RETURNING id'),
  update: statement<never, [Row]>('UPDATE notices SET pinned = @pinned, state = @state, published_at = @published_at, updated_at = @now WHERE id = @id'),
  dropTexts: statement<never, [Id]>('DELETE FROM notice_texts WHERE notice_id = @id'),
  addText: statement<never, [{ id: bigint; lang: string; title: string; content: string }]>(
    'INSERT INTO notice_texts (notice_id, lang, title, content) VALUES (@id, @lang, @title, @content)',
  ),
})

const BANNER = statements({
  find: statement<StoredPlace, [{ key: string }]>("SELECT id, state, published_at FROM banners WHERE key = @key AND place = 'home'"),
  insert: statement<Id, [Row]>(
    "INSERT INTO banners (key, image, link, sort, place, state, published_at, updated_at) VALUES (@key, @image, @link, @sort, 'home', @state, @published_at, @now) RETURNING id",
  ),
  update: statement<never, [Row]>('UPDATE banners SET image = @image, link = @link, sort = @sort, state = @state, published_at = @published_at, updated_at = @now WHERE id = @id'),
  dropTexts: statement<never, [Id]>('DELETE FROM banner_texts WHERE banner_id = @id'),
  addText: statement<never, [{ id: bigint; lang: string; title: string }]>('INSERT INTO banner_texts (banner_id, lang, title) VALUES (@id, @lang, @title)'),
  remove: statement<never, [Id]>('DELETE FROM banners WHERE id = @id'),
})

/** The statements a keyed command runs on either table: the table's name is part of the text. */
const KEYED = {
  notices: statements({
    find: statement<StoredPlace, [{ key: string }]>('SELECT id, state, published_at FROM notices WHERE key = @key'),
    move: statement<never, [{ id: bigint; state: StoredState; published_at: number; now: number }]>(
      'UPDATE notices SET state = @state, published_at = @published_at, updated_at = @now WHERE id = @id',
    ),
  }),
  banners: statements({
    find: statement<StoredPlace, [{ key: string }]>('SELECT id, state, published_at FROM banners WHERE key = @key'),
    move: statement<never, [{ id: bigint; state: StoredState; published_at: number; now: number }]>(
      'UPDATE banners SET state = @state, published_at = @published_at, updated_at = @now WHERE id = @id',
    ),
  }),
}

type Upserts = { insert: Statement<Id, [Row]>; update: Statement<never, [Row]>; dropTexts: Statement<never, [Id]> }

/** Updates the kept row (its texts dropped, to be written anew) or inserts a new one; answers its id. */
async function upsert(tx: Tx, old: Id | undefined, values: Row, s: Upserts, sum: LoadSummary): Promise<bigint> {
  if (!old) {
    sum.added++
    return (await tx.get(s.insert, values))!.id
  }
  await tx.run(s.update, { ...values, id: old.id })
  await tx.run(s.dropTexts, { id: old.id })
  sum.updated++
  return old.id
}

/** Loads checked notices at `now`, in the caller's transaction: a refusal there undoes the whole file. */
export async function loadNotices(tx: Tx, list: readonly CheckedNotice[], now: number): Promise<LoadSummary> {
  const sum = { added: 0, updated: 0 }
  for (const n of list) {
    const old = await tx.get(NOTICE.find, { key: n.key })
    const place = placeAfter(old ? placeOf(old) : null, n, now)
    const values = { key: n.key, state: place.state, published_at: place.publishedAt, pinned: (n.pinned ?? old?.pinned === 1n) ? 1 : 0, now }
    const id = await upsert(tx, old, values, NOTICE, sum)
    for (const lang of Object.keys(n.title)) await tx.run(NOTICE.addText, { id, lang, title: n.title[lang]!, content: n.content[lang]! })
  }
  return sum
}

/** Loads checked home banners at `now`, as loadNotices does. */
export async function loadBanners(tx: Tx, list: readonly CheckedBanner[], now: number): Promise<LoadSummary> {
  const sum = { added: 0, updated: 0 }
  for (const b of list) {
    const old = await tx.get(BANNER.find, { key: b.key })
    const place = placeAfter(old ? placeOf(old) : null, b, now)
    const values = { key: b.key, image: b.image, link: b.link, sort: b.sort, state: place.state, published_at: place.publishedAt, now }
    const id = await upsert(tx, old, values, BANNER, sum)
    for (const lang of Object.keys(b.title)) await tx.run(BANNER.addText, { id, lang, title: b.title[lang]! })
  }
  return sum
}

export type ContentTable = 'notices' | 'banners'

/** The row a command names by key, or a refusal saying there is none. */
async function findKeyed(tx: Tx, table: ContentTable, key: string): Promise<StoredPlace> {
  const row = await tx.get(KEYED[table].find, { key })
  if (!row) throw new ContentRefused(`no ${table === 'notices' ? 'notice' : 'banner'} has the key ${JSON.stringify(key)}`)
  return row
}

/** Moves a keyed row to where `to` puts it, in the caller's transaction; answers where it stands now. */
export async function moveKeyed(tx: Tx, table: ContentTable, key: string, to: (p: Placed) => Placed, now: number): Promise<Placed> {
  const row = await findKeyed(tx, table, key)
  const next = to(placeOf(row))
  await tx.run(KEYED[table].move, { id: row.id, state: next.state, published_at: next.publishedAt, now })
  return next
}

export const publishKeyed = (tx: Tx, table: ContentTable, key: string, now: number, at?: number) => moveKeyed(tx, table, key, (p) => publish(p, now, at), now)
export const unpublishKeyed = (tx: Tx, table: ContentTable, key: string, now: number) => moveKeyed(tx, table, key, unpublish, now)

/** Removes a home banner for good (its texts go with it); a notice is unpublished instead, as people may have read it. */
export async function removeBanner(tx: Tx, key: string): Promise<void> {
  const row = await findKeyed(tx, 'banners', key)
  await tx.run(BANNER.dropTexts, { id: row.id })
  await tx.run(BANNER.remove, { id: row.id })
}
