// The operator's content commands (issue 33) beside a running production-like server (no demo seed):
// what `notice load|publish|unpublish` and `banner load|remove` write is what the app's lists show,
// published and due only, pinned first; a bad file writes nothing.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { main as cli } from '../../server/cli.ts'
import { LANG_CODES } from '../../contract/constants.ts'
import { useServers, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import type { NoticeItem } from '../../contract/notice.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { Banner } from '../../contract/common.ts'

const HOUR = 3_600_000
// The commands take the wall clock; the server's test clock stands still, so it starts a little ahead
// of it: what a command publishes "now" is due on the server.
const start = useServers({ env: { NADI_DEMO: '0' }, start: Date.now() + 15 * 60_000 })
const T = (text: string) => Object.fromEntries(LANG_CODES.map((l) => [l, `${text} (${l})`]))

async function run(s: TestServer, ...argv: string[]) {
  let out = ''
  let err = ''
  const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
  return { code, out, err }
}
const file = (s: TestServer, body: unknown) => {
  const f = path.join(s.dir, `content-${Math.random().toString(36).slice(2)}.json`)
  fs.writeFileSync(f, JSON.stringify(body))
  return f
}
const titles = async (s: TestServer, lang = 'EN') => (await s.get<PagedList<NoticeItem>>('/api/v1/notice/list?page_size=50', { lang })).body_.data.list.map((n) => n.title)
const banners = async (s: TestServer, lang = 'EN') => (await s.get<Banner[]>('/api/v1/common/bannerList', { lang })).body_.data.map((b) => b.title)
const notice = (key: string, extra: Record<string, unknown> = {}) => ({ key, title: T(key), content: T(`${key} body`), ...extra })

describe('notice commands', () => {
  it('load adds, loading again updates by key; lists show published and due only, pinned first', async () => {
    const s = await start()
    const first = await run(s, 'notice', 'load', file(s, { notices: [notice('old', { publish_at: new Date(Date.now() - 2 * HOUR).toISOString() }), notice('pinned', { pinned: true, publish_at: new Date(Date.now() - 3 * HOUR).toISOString() }), notice('draft', { state: 'draft' })] }))
    expect(first).toMatchObject({ code: 0, out: 'notices loaded: 3 added, 0 updated\n' })
    expect(await titles(s)).toEqual(['pinned (EN)', 'old (EN)'])
    expect(await titles(s, 'JP')).toEqual(['pinned (JP)', 'old (JP)'])

    const again = await run(s, 'notice', 'load', file(s, { notices: [{ ...notice('old'), title: T('renamed') }] }))
    expect(again.out).toBe('notices loaded: 0 added, 1 updated\n')
    expect(await s.count('SELECT count(*) FROM notices')).toBe(3)
    expect(await titles(s)).toEqual(['pinned (EN)', 'renamed (EN)'])
    const listed = (await run(s, 'notice', 'list')).out.split('\n')
    expect(listed[0]).toMatch(/^#\d+ pinned \[published\] pinned /)
    expect(listed.slice(1, 3).map((l) => l.split(' ').slice(1, 3).join(' ')).sort()).toEqual(['draft [draft]', 'old [published]'])
  })

  it('a file missing a language is refused naming it, and changes nothing', async () => {
    const s = await start()
    await run(s, 'notice', 'load', file(s, { notices: [notice('kept')] }))
    const title = T('new')
    delete title.VN
    const bad = await run(s, 'notice', 'load', file(s, { notices: [notice('kept', { title: T('changed') }), notice('new', { title })] }))
    expect(bad.code).toBe(1)
    expect(bad.err).toMatch(/notice load: notice file does not match the schema:\n {2}\/notices\/1\/title: .*VN/)
    expect(await titles(s)).toEqual(['kept (EN)'])
    expect(await s.count('SELECT count(*) FROM notices')).toBe(1)
  })

  it('publish --at schedules: hidden until its moment by the server clock; unpublish hides at once', async () => {
    const s = await start()
    await run(s, 'notice', 'load', file(s, { notices: [notice('soon', { state: 'draft' })] }))
    const at = new Date(Date.now() + HOUR).toISOString()
    const scheduled = await run(s, 'notice', 'publish', 'soon', '--at', at)
    expect(scheduled.out).toContain('notice soon: scheduled from')
    expect(await titles(s)).toEqual([])
    s.clock.advance(HOUR)
    expect(await titles(s)).toEqual(['soon (EN)'])
    expect((await run(s, 'notice', 'unpublish', 'soon')).code).toBe(0)
    expect(await titles(s)).toEqual([])
    expect((await s.get('/api/v1/notice/detail?id=1')).statusCode).toBe(404)
  })

  it('names what it refuses: an unknown key, a draft to unpublish, a bad --at', async () => {
    const s = await start()
    await run(s, 'notice', 'load', file(s, { notices: [notice('d', { state: 'draft' })] }))
    expect(await run(s, 'notice', 'publish', 'nope')).toMatchObject({ code: 1, err: expect.stringContaining('notice publish: no notice has the key "nope"\n') })
    expect(await run(s, 'notice', 'unpublish', 'd')).toMatchObject({ code: 1, err: expect.stringContaining('notice unpublish: it is a draft and was never published\n') })
    expect((await run(s, 'notice', 'publish', 'd', '--at', 'tomorrow')).code).toBe(2)
    expect(await s.count("SELECT count(*) FROM notices WHERE state = 'draft'")).toBe(1)
  })
})

describe('banner commands', () => {
  it('load, update by key, list and remove: the home banners follow', async () => {
    const s = await start()
    const b = (key: string, sort: number, extra: Record<string, unknown> = {}) => ({ key, image: '/banners/banner-1.svg', link: '/shop', title: T(key), sort, ...extra })
    expect((await run(s, 'banner', 'load', file(s, { banners: [b('two', 2), b('one', 1), b('later', 0, { state: 'draft' })] }))).out).toBe('banners loaded: 3 added, 0 updated\n')
    expect(await banners(s, 'KO')).toEqual(['one (KO)', 'two (KO)'])
    await run(s, 'banner', 'load', file(s, { banners: [b('two', 0)] }))
    expect(await banners(s)).toEqual(['two (EN)', 'one (EN)'])
    expect((await run(s, 'banner', 'list')).out).toMatch(/two \[published\] sort 0[\s\S]*later \[draft\] sort 0[\s\S]*one \[published\] sort 1/)
    expect((await run(s, 'banner', 'remove', 'two')).code).toBe(0)
    expect(await banners(s)).toEqual(['one (EN)'])
    expect(await s.count('SELECT count(*) FROM banners')).toBe(2)
    expect(await run(s, 'banner', 'remove', 'two')).toMatchObject({ code: 1, err: expect.stringContaining('banner remove: no banner has the key "two"\n') })
  })
})
