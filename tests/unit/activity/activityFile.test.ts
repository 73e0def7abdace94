import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ActivityFileInvalid, checkActivityFile, parseInstant } from '../../../server/modules/activity/activityFile.ts'
import { DEMO_ACTIVITY_FILE } from '../../../server/modules/activity/seed.ts'

const LANGS = ['TW', 'EN', 'ZH', 'JP', 'KO', 'TH', 'PT', 'ID', 'VN', 'MS']
const T = (text: string) => Object.fromEntries(LANGS.map((l) => [l, `${text} (${l})`]))
const entry = (over: Record<string, unknown> = {}) => ({
  slug: 'spring-race',
  title: T('Spring race'),
  body: T('Buy the most.'),
  cover: '/activities/device-sprint.svg',
  measure: 'purchases',
  starts_at: '2026-05-01T00:00:00Z',
  ends_at: '2026-05-31T00:00:00+08:00',
  prizes: [
    { from: 1, to: 1, asset: 'USDT', amount: '100' },
    { from: 2, to: 5, asset: 'NADI', amount: '12.12345678' },
  ],
  ...over,
})
const refused = (json: unknown, message: RegExp) => {
  expect(() => checkActivityFile(json)).toThrow(ActivityFileInvalid)
  expect(() => checkActivityFile(json)).toThrow(message)
}

describe('the activity file', () => {
  it('a good file gives times in ms and amounts in units', () => {
    const [a] = checkActivityFile({ activities: [entry()] })
    expect(a!.startsAt).toBe(Date.UTC(2026, 4, 1))
    expect(a!.endsAt).toBe(Date.UTC(2026, 4, 30, 16))
    expect(a!.prizes[1]).toEqual({ from: 2, to: 5, asset: 'NADI', amount: 1_212_345_678n })
  })

  it('the demo file is a good file', () => {
    expect(checkActivityFile(JSON.parse(fs.readFileSync(DEMO_ACTIVITY_FILE, 'utf8')))).toHaveLength(2)
  })

  it('refuses what the schema cannot take: a missing language, an unknown measure or asset, 9 decimals, a negative amount, an extra field', () => {
    const title = T('x')
    delete title.VN
    refused({ activities: [entry({ title })] }, /schema/)
    refused({ activities: [entry({ measure: 'likes' })] }, /schema/)
    refused({ activities: [entry({ prizes: [{ from: 1, to: 1, asset: 'BTC', amount: '1' }] })] }, /schema/)
    refused({ activities: [entry({ prizes: [{ from: 1, to: 1, asset: 'USDT', amount: '1.123456789' }] })] }, /schema/)
    refused({ activities: [entry({ prizes: [{ from: 1, to: 1, asset: 'USDT', amount: '-1' }] })] }, /schema/)
    refused({ activities: [entry({ winner: 'me' })] }, /schema/)
    refused({ activities: [] }, /schema/)
    refused({ activities: [entry({ starts_at: '2026-05-01' })] }, /schema/)
  })

  it('refuses the rules a schema cannot say', () => {
    refused({ activities: [entry(), entry()] }, /slug used twice/)
    refused({ activities: [entry({ title: { ...T('x'), JP: '   ' } })] }, /title is blank in JP/)
    refused({ activities: [entry({ ends_at: '2026-05-01T00:00:00Z' })] }, /ends_at must be after starts_at/)
    refused({ activities: [entry({ ends_at: '2027-06-01T00:00:00Z' })] }, /longer than 366 days/)
    refused({ activities: [entry({ starts_at: '2026-02-30T00:00:00Z' })] }, /not a real moment/)
    refused({ activities: [entry({ prizes: [{ from: 1, to: 1, asset: 'USDT', amount: '0' }] })] }, /above 0/)
    refused({ activities: [entry({ prizes: [{ from: 1, to: 2, asset: 'USDT', amount: '1' }, { from: 4, to: 4, asset: 'USDT', amount: '1' }] })] }, /without gaps/)
    refused({ activities: [entry({ prizes: [{ from: 2, to: 2, asset: 'USDT', amount: '1' }] })] }, /expected from 1/)
    refused({ activities: [entry({ prizes: [{ from: 1, to: 1000, asset: 'USDT', amount: '99999999999' }] })] }, /add up to more than/)
  })

  it('reads instants with their offset and refuses impossible ones', () => {
    expect(parseInstant('2026-05-01T08:00:00+08:00')).toBe(Date.UTC(2026, 4, 1))
    expect(parseInstant('2026-05-01T00:00Z')).toBe(Date.UTC(2026, 4, 1))
    expect(parseInstant('2026-05-01T00:00:00.5Z')).toBe(Date.UTC(2026, 4, 1) + 500)
    expect(parseInstant('2026-02-29T00:00:00Z')).toBeNull()
    expect(parseInstant('2026-01-01T24:00:00Z')).toBeNull()
    expect(parseInstant('2026-01-01T00:00:00+15:00')).toBeNull()
  })
})
