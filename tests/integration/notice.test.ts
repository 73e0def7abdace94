import { describe, expect, it } from 'vitest'
import { T0, idemKey, localeText, useServers, type TestServer } from './support/server.ts'
import type { NoticeDetail, NoticeItem, NoticeRead, NoticeUnread } from '../../contract/notice.ts'
import type { PagedList } from '../../contract/envelope.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers({ env: { NADI_DEMO: '0' } })
const DAY = 86_400_000

interface NoticeSeed {
  pinned?: boolean
  publishedAt: number
  active?: boolean
  /** locale file name (tw, en, jp…) → [title, content] */
  texts: Record<string, [string, string]>
}

async function addNotice(s: TestServer, n: NoticeSeed): Promise<number> {
  const id = Number(
    (await s.ctx.sql.get(statement<{ id: bigint }>('INSERT INTO notices (pinned, published_at, state) VALUES (?, ?, ?) RETURNING id'), n.pinned ? 1 : 0, n.publishedAt, n.active === false ? 'unpublished' : 'published'))!.id,
  )
  const text = statement<never, [number, string, string, string]>('INSERT INTO notice_texts (notice_id, lang, title, content) VALUES (?, ?, ?, ?)')
  for (const [lang, [title, content]] of Object.entries(n.texts)) await s.ctx.sql.run(text, id, lang, title, content)
  return id
}

/** Four live notices (two pinned), one scheduled, one withdrawn. */
async function seed(s: TestServer) {
  return {
    pinnedNew: await addNotice(s, {
      pinned: true,
      publishedAt: T0 - 10 * DAY,
      texts: { tw: ['置頂新', '內容'], en: ['Pinned new', 'Body'], jp: ['固定・新', '本文'] },
    }),
    pinnedOld: await addNotice(s, { pinned: true, publishedAt: T0 - 20 * DAY, texts: { tw: ['置頂舊', '內容'], en: ['Pinned old', 'Body'] } }),
    newest: await addNotice(s, { publishedAt: T0 - DAY, texts: { en: ['English only', 'Only in English'] } }),
    older: await addNotice(s, { publishedAt: T0 - 5 * DAY, texts: { tw: ['繁體標題', '繁體內容'], en: ['Older', 'Older body'] } }),
    scheduled: await addNotice(s, { publishedAt: T0 + DAY, texts: { en: ['Tomorrow', 'Not yet'] } }),
    withdrawn: await addNotice(s, { publishedAt: T0 - 2 * DAY, active: false, texts: { en: ['Withdrawn', 'Gone'] } }),
  }
}

const list = (s: TestServer, qs = '', lang = 'EN') => s.get<PagedList<NoticeItem>>(`/api/v1/notice/list${qs}`, { lang })
const detail = (s: TestServer, id: number | string, lang = 'EN') => s.get<NoticeDetail>(`/api/v1/notice/detail?id=${id}`, { lang })

describe('GET /api/v1/notice/list', () => {
  it('lists live notices pinned first, then newest first, with the total', async () => {
    const s = await start()
    const n = await seed(s)
    const res = await list(s)
    expect(res.statusCode).toBe(200)
    expect(res.body_.data.total).toBe(4)
    expect(res.body_.data.list.map((x) => x.id)).toEqual([n.pinnedNew, n.pinnedOld, n.newest, n.older])
    expect(res.body_.data.list.map((x) => x.pinned)).toEqual([true, true, false, false])
    expect(res.body_.data.list[0]).toEqual({ id: n.pinnedNew, title: 'Pinned new', summary: 'Body', pinned: true, published_at: T0 - 10 * DAY })
  })

  it('pages with page and page_size (default 10)', async () => {
    const s = await start()
    const n = await seed(s)
    for (let i = 0; i < 9; i++) await addNotice(s, { publishedAt: T0 - 30 * DAY - i, texts: { en: [`Filler ${i}`, '…'] } })
    const first = await list(s)
    expect(first.body_.data.total).toBe(13)
    expect(first.body_.data.list).toHaveLength(10)
    const second = await list(s, '?page=2')
    expect(second.body_.data.list).toHaveLength(3)
    const two = await list(s, '?page=2&page_size=2')
    expect(two.body_.data.list.map((x) => x.id)).toEqual([n.newest, n.older])
  })

  it('is localized by LANG and falls back to Traditional Chinese, then English', async () => {
    const s = await start()
    const n = await seed(s)
    const titles = async (lang: string) => Object.fromEntries((await list(s, '', lang)).body_.data.list.map((x) => [x.id, x.title]))
    expect(await titles('JP')).toEqual({ [n.pinnedNew]: '固定・新', [n.pinnedOld]: '置頂舊', [n.newest]: 'English only', [n.older]: '繁體標題' })
    expect(await titles('TW')).toEqual({ [n.pinnedNew]: '置頂新', [n.pinnedOld]: '置頂舊', [n.newest]: 'English only', [n.older]: '繁體標題' })
    expect(await titles('EN')).toEqual({ [n.pinnedNew]: 'Pinned new', [n.pinnedOld]: 'Pinned old', [n.newest]: 'English only', [n.older]: 'Older' })
  })

  it('a scheduled notice appears once its publication time has come', async () => {
    const s = await start()
    const n = await seed(s)
    expect((await list(s)).body_.data.list.map((x) => x.id)).not.toContain(n.scheduled)
    s.clock.advance(DAY)
    const res = await list(s)
    expect(res.body_.data.total).toBe(5)
    expect(res.body_.data.list[2]?.id).toBe(n.scheduled)
  })

  it('the summary is the content on one line, cut at 120 characters with an ellipsis', async () => {
    const s = await start()
    const long = `First paragraph.\n\n${'word '.repeat(60)}`
    await addNotice(s, { publishedAt: T0 - DAY, texts: { en: ['Long', long] } })
    const [item] = (await list(s)).body_.data.list
    expect(item?.summary).not.toContain('\n')
    expect(item?.summary.endsWith('…')).toBe(true)
    expect(Array.from(item?.summary ?? '').length).toBeLessThanOrEqual(121)
    expect(item?.summary.startsWith('First paragraph. word word')).toBe(true)
  })

  it('paging parameters out of range are refused with 400', async () => {
    const s = await start()
    expect((await list(s, '?page=0')).statusCode).toBe(400)
    expect((await list(s, '?page_size=1000')).statusCode).toBe(400)
  })

  it('is public: no token needed', async () => {
    const s = await start()
    await seed(s)
    expect((await list(s)).statusCode).toBe(200)
  })
})

describe('GET /api/v1/notice/detail', () => {
  it('answers one notice with its full content in the request language', async () => {
    const s = await start()
    const n = await seed(s)
    const res = await detail(s, n.older, 'TW')
    expect(res.statusCode).toBe(200)
    expect(res.body_.data).toEqual({ id: n.older, title: '繁體標題', content: '繁體內容', pinned: false, published_at: T0 - 5 * DAY })
    expect((await detail(s, n.older, 'EN')).body_.data.content).toBe('Older body')
    expect((await detail(s, n.newest, 'JP')).body_.data.title).toBe('English only')
  })

  it('an unknown, scheduled or withdrawn notice answers 404 with the envelope', async () => {
    const s = await start()
    const n = await seed(s)
    for (const id of [999_999, n.scheduled, n.withdrawn]) {
      const res = await detail(s, id)
      expect(res.statusCode, String(id)).toBe(404)
      expect(res.body_, String(id)).toEqual({ code: 404, msg: localeText('en', 'errors.noticeNotFound'), data: null })
    }
  })

  it('an id that is not a positive integer (0, -1, abc, 1.5, missing) is refused with 400 naming the ID', async () => {
    const s = await start()
    await seed(s)
    const msg = localeText('en', 'errors.invalidField').replace('{{field}}', localeText('en', 'fields.id'))
    for (const id of ['0', '-1', 'abc', '1.5', '']) {
      const res = await detail(s, id)
      expect(res.statusCode, id).toBe(400)
      expect(res.body_, id).toEqual({ code: 400, msg, data: null })
    }
    const missing = await s.get('/api/v1/notice/detail', { lang: 'EN' })
    expect(missing.statusCode).toBe(400)
    expect(missing.body_.msg).toBe(msg)
  })
})

describe('unread notices and marking read (issue 12 part 5)', () => {
  const unread = (s: TestServer, token: string) => s.get<NoticeUnread>('/api/v1/notice/unread', { token, lang: 'EN' })
  const markRead = (s: TestServer, token: string, id: unknown, key = idemKey()) => s.post<NoticeRead>('/api/v1/notice/read', { id }, { token, lang: 'EN', idempotencyKey: key })

  it('a user’s unread notices are the live ones not marked read, newest first; marking one is per user', async () => {
    const s = await start()
    const n = await seed(s)
    const me = await s.signIn()
    const other = await s.signIn()
    expect((await unread(s, me.token)).body_.data).toEqual({ count: 4, ids: [n.newest, n.older, n.pinnedNew, n.pinnedOld] })
    const res = await markRead(s, me.token, n.older)
    expect(res.statusCode).toBe(200)
    expect(res.body_.data).toEqual({ id: n.older, read: true })
    expect((await unread(s, me.token)).body_.data).toEqual({ count: 3, ids: [n.newest, n.pinnedNew, n.pinnedOld] })
    expect((await unread(s, other.token)).body_.data.count).toBe(4)
  })

  it('marking read is idempotent: again with a new key, or the same key replayed, answers the same and keeps one read', async () => {
    const s = await start()
    const n = await seed(s)
    const me = await s.signIn()
    const key = idemKey()
    const first = await markRead(s, me.token, n.newest, key)
    s.clock.advance(60_000)
    const replay = await markRead(s, me.token, n.newest, key)
    const again = await markRead(s, me.token, n.newest)
    for (const r of [first, replay, again]) expect(r.body_).toMatchObject({ code: 200, data: { id: n.newest, read: true } })
    expect(await s.count('SELECT count(*) FROM notice_reads WHERE user_id = ? AND notice_id = ?', me.userId, n.newest)).toBe(1)
    expect(await s.count('SELECT read_at FROM notice_reads WHERE user_id = ?', me.userId)).toBe(T0)
  })

  it('a scheduled, withdrawn or unknown notice cannot be marked (404), a bad id is refused (400), and both need a token', async () => {
    const s = await start()
    const n = await seed(s)
    const me = await s.signIn()
    for (const id of [n.scheduled, n.withdrawn, 999_999]) {
      const res = await markRead(s, me.token, id)
      expect(res.statusCode, String(id)).toBe(404)
      expect(res.body_.msg).toBe(localeText('en', 'errors.noticeNotFound'))
    }
    for (const id of [0, 'x', 1.5]) expect((await markRead(s, me.token, id)).statusCode, String(id)).toBe(400)
    expect(await s.count('SELECT count(*) FROM notice_reads')).toBe(0)
    expect((await s.get('/api/v1/notice/unread')).statusCode).toBe(401)
    expect((await s.post('/api/v1/notice/read', { id: n.newest }, { idempotencyKey: idemKey() })).statusCode).toBe(401)
  })
})

describe('demo notices', () => {
  it('demo mode seeds notices in every language, pinned first', async () => {
    const s = await start({ env: { NADI_DEMO: '1' } })
    const en = await list(s, '?page_size=100', 'EN')
    expect(en.body_.data.total).toBeGreaterThan(0)
    const pinned = en.body_.data.list.map((x) => x.pinned)
    expect(pinned).toEqual([...pinned].sort((a, b) => Number(b) - Number(a)))
    for (const item of en.body_.data.list) expect(item.title.length).toBeGreaterThan(0)
    const jp = await list(s, '?page_size=100', 'JP')
    expect(jp.body_.data.list.map((x) => x.title)).not.toEqual(en.body_.data.list.map((x) => x.title))
  })
})
