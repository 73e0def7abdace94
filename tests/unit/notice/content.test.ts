import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LANG_CODES } from '../../../contract/constants.ts'
import { publish, statusAt, unpublish, visibleAt } from '../../../server/modules/notice/rules.ts'
import { checkBannerFile, checkNoticeFile, placeAfter } from '../../../server/modules/notice/contentFile.ts'

const NOW = Date.UTC(2026, 11, 1, 12)
const HOUR = 3_600_000
const T = (text: string) => Object.fromEntries(LANG_CODES.map((l) => [l, `${text} (${l})`]))
const notice = (extra: Record<string, unknown> = {}) => ({ key: 'launch', title: T('Launch'), content: T('Body'), ...extra })

describe('content states by the clock', () => {
  it('a published row shows from its moment on: before it, it is scheduled and hidden', () => {
    const row = { state: 'published' as const, publishedAt: NOW + HOUR }
    expect(statusAt(row, NOW)).toBe('scheduled')
    expect(visibleAt(row, NOW)).toBe(false)
    expect(statusAt(row, NOW + HOUR)).toBe('published')
    expect(visibleAt(row, NOW + HOUR)).toBe(true)
  })

  it('drafts and unpublished rows never show, whatever their moment', () => {
    for (const state of ['draft', 'unpublished'] as const) expect(visibleAt({ state, publishedAt: NOW - HOUR }, NOW)).toBe(false)
  })

  it('publish is now, or at the moment given; a showing row published again keeps its moment', () => {
    expect(publish({ state: 'draft', publishedAt: NOW - HOUR }, NOW)).toEqual({ state: 'published', publishedAt: NOW })
    expect(publish({ state: 'draft', publishedAt: NOW }, NOW, NOW + HOUR)).toEqual({ state: 'published', publishedAt: NOW + HOUR })
    expect(publish({ state: 'published', publishedAt: NOW - HOUR }, NOW)).toEqual({ state: 'published', publishedAt: NOW - HOUR })
    expect(publish({ state: 'unpublished', publishedAt: NOW - HOUR }, NOW)).toEqual({ state: 'published', publishedAt: NOW })
  })

  it('unpublish hides a published or scheduled row and keeps its moment; a draft is refused', () => {
    expect(unpublish({ state: 'published', publishedAt: NOW + HOUR })).toEqual({ state: 'unpublished', publishedAt: NOW + HOUR })
    expect(unpublish({ state: 'unpublished', publishedAt: NOW })).toEqual({ state: 'unpublished', publishedAt: NOW })
    expect(() => unpublish({ state: 'draft', publishedAt: NOW })).toThrow(/draft/)
  })

  it('a file that names no state leaves a kept row where it stands; a new row is published now', () => {
    expect(placeAfter(null, {}, NOW)).toEqual({ state: 'published', publishedAt: NOW })
    const scheduled = { state: 'published' as const, publishedAt: NOW + HOUR }
    expect(placeAfter(scheduled, {}, NOW)).toEqual(scheduled)
    expect(placeAfter({ state: 'unpublished', publishedAt: NOW - HOUR }, {}, NOW)).toEqual({ state: 'unpublished', publishedAt: NOW - HOUR })
    expect(placeAfter({ state: 'unpublished', publishedAt: NOW - HOUR }, { state: 'published' }, NOW)).toEqual({ state: 'published', publishedAt: NOW })
    expect(placeAfter(null, { state: 'draft' }, NOW)).toEqual({ state: 'draft', publishedAt: NOW })
  })
})

describe('notice and banner files', () => {
  it('a valid notice file comes back with texts by locale file and "scheduled" as published ahead', () => {
    const [n] = checkNoticeFile({ notices: [notice({ state: 'scheduled', publish_at: '2026-12-01T21:00:00+08:00', pinned: true })] }, NOW)
    expect(n).toMatchObject({ key: 'launch', state: 'published', publishedAt: Date.UTC(2026, 11, 1, 13), pinned: true })
    expect(n!.title.jp).toBe('Launch (JP)')
    expect(Object.keys(n!.content)).toHaveLength(10)
  })

  it('a notice missing a language is refused, naming the field and the language', () => {
    const title = T('Launch')
    delete title.KO
    expect(() => checkNoticeFile({ notices: [notice({ title })] }, NOW)).toThrow(/\/notices\/0\/title.*KO/)
  })

  it('blank texts, a key twice, an unreal moment and a past schedule are refused', () => {
    expect(() => checkNoticeFile({ notices: [notice({ content: { ...T('x'), TH: '  ' } })] }, NOW)).toThrow(/notices\[0\] \(launch\): content is blank in TH/)
    expect(() => checkNoticeFile({ notices: [notice(), notice()] }, NOW)).toThrow(/key used twice/)
    expect(() => checkNoticeFile({ notices: [notice({ publish_at: '2026-02-30T00:00:00Z' })] }, NOW)).toThrow(/not a real moment/)
    expect(() => checkNoticeFile({ notices: [notice({ state: 'scheduled', publish_at: '2026-01-01T00:00:00Z' })] }, NOW)).toThrow(/in the future/)
    expect(() => checkNoticeFile({ notices: [notice({ state: 'scheduled' })] }, NOW)).toThrow(/needs publish_at/)
    expect(() => checkNoticeFile({ notices: [notice({ state: 'live' })] }, NOW)).toThrow(/state/)
    expect(() => checkNoticeFile({ notices: [notice({ Key: 'x' })] }, NOW)).toThrow(/schema/)
  })

  it('a banner opens an app route or nothing, and its image is same-origin or https', () => {
    const banner = (extra: Record<string, unknown>) => ({ banners: [{ key: 'sale', image: '/banners/banner-1.svg', title: T('Sale'), ...extra }] })
    expect(checkBannerFile(banner({ link: '/shop' }), NOW)[0]).toMatchObject({ key: 'sale', link: '/shop', sort: 0 })
    expect(checkBannerFile(banner({}), NOW)[0]!.link).toBeNull()
    expect(() => checkBannerFile(banner({ link: 'https://evil.example' }), NOW)).toThrow(/link/)
    expect(() => checkBannerFile(banner({ image: 'http://x/y.png' }), NOW)).toThrow(/image/)
  })
})

describe('the example files in docs/examples', () => {
  it('are valid notice and banner files in all ten languages', () => {
    const read = (f: string) => JSON.parse(fs.readFileSync(new URL(`../../../docs/examples/${f}`, import.meta.url), 'utf8')) as unknown
    expect(checkNoticeFile(read('notices.json'), NOW).map((n) => n.key)).toEqual(['maintenance-2026-12', 'new-year-2027'])
    expect(checkBannerFile(read('banners.json'), NOW).map((b) => b.key)).toEqual(['devices'])
  })
})
