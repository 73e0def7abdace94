import { describe, expect, it } from 'vitest'
import { getAddress } from 'ethers'
import { ROOT_CODE, localeText, useServers, type TestServer } from './support/server.ts'
import { translate } from '../../server/i18n.ts'
import type { ZhiItem } from '../../contract/user.ts'
import type { PagedList } from '../../contract/envelope.ts'
import { statement } from '../../server/db/query/types.ts'
import { numbers } from '../support/rows.ts'

const start = useServers()

const codeOf = async (s: TestServer, id: number) => (await s.ctx.sql.get(statement<{ code: string }>('SELECT code FROM users WHERE id = ?'), id))!.code
const zhiList = (s: TestServer, token: string, qs = '') => s.get<PagedList<ZhiItem>>(`/api/v1/user/zhiList${qs}`, { token, lang: 'EN' })

describe('GET /api/v1/user/zhiList', () => {
  it('lists only the caller’s own direct referrals, newest first, 10 a page by default, with the total', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const someoneElse = await s.signIn(ROOT_CODE)
    const mine: number[] = []
    for (let i = 0; i < 12; i++) {
      s.clock.advance(1000)
      mine.push((await s.signIn(await codeOf(s, me.userId))).userId)
    }
    // Referrals of my referral and of someone else are not mine.
    await s.signIn(await codeOf(s, mine[0]!))
    await s.signIn(await codeOf(s, someoneElse.userId))

    const page1 = await zhiList(s, me.token)
    expect(page1.statusCode).toBe(200)
    expect(page1.body_.data.total).toBe(12)
    expect(page1.body_.data.list).toHaveLength(10)
    const newestFirst = [...mine].reverse()
    expect(page1.body_.data.list.map((r) => r.id)).toEqual(newestFirst.slice(0, 10))

    const page2 = await zhiList(s, me.token, '?page=2')
    expect(page2.body_.data.total).toBe(12)
    expect(page2.body_.data.list.map((r) => r.id)).toEqual(newestFirst.slice(10))

    const small = await zhiList(s, me.token, '?page=3&page_size=5')
    expect(small.body_.data.list.map((r) => r.id)).toEqual(newestFirst.slice(10, 12))
    // A page past the last is refused as team/list refuses it, naming how many pages there are.
    const beyond = await zhiList(s, me.token, '?page=9')
    expect([beyond.statusCode, beyond.body_.msg]).toEqual([400, translate('EN', 'team.errors.pageOutOfRange', { pages: 2 })])
    const team = await s.get(`/api/v1/team/list?page=9`, { token: me.token, lang: 'EN' })
    expect([team.statusCode, team.body_.msg]).toEqual([400, translate('EN', 'team.errors.pageOutOfRange', { pages: 2 })])
    expect((await zhiList(s, me.token, '?page=4&page_size=5')).statusCode).toBe(400)
    // An empty list still has its (empty) page 1.
    const loner = await s.signIn(ROOT_CODE)
    expect((await zhiList(s, loner.token)).body_.data).toEqual({ list: [], total: 0 })
    expect((await zhiList(s, loner.token, '?page=2')).statusCode).toBe(400)
  })

  it('an item carries id, name, checksummed address, team size, performance, level, agent right and join time', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const child = await s.signIn(await codeOf(s, me.userId))
    await s.signIn(await codeOf(s, child.userId))
    const res = await zhiList(s, me.token)
    const row = numbers((await s.ctx.sql.get(statement<{ name: string; created_at: bigint }>('SELECT name, created_at FROM users WHERE id = ?'), child.userId))!)
    expect(res.body_.data.list).toEqual([
      { id: child.userId, name: row.name, wallet_address: getAddress(child.address), team_num: 1, me_performance: '0', level: 0, advanced_agent: false, created_at: row.created_at },
    ])
  })

  it('a user without referrals gets an empty page', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    expect((await zhiList(s, me.token)).body_.data).toEqual({ list: [], total: 0 })
  })

  it('paging parameters out of range are refused with 400 naming the parameter', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const invalid = (f: string) => localeText('en', 'errors.invalidField').replace('{{field}}', localeText('en', `fields.${f}`))
    for (const [qs, field] of [
      ['?page=0', 'page'],
      ['?page=abc', 'page'],
      ['?page_size=0', 'page_size'],
      ['?page_size=101', 'page_size'],
    ] as const) {
      const res = await zhiList(s, me.token, qs)
      expect(res.statusCode, qs).toBe(400)
      expect(res.body_.msg, qs).toBe(invalid(field))
    }
  })

  it('needs a token', async () => {
    const s = await start()
    const res = await s.get('/api/v1/user/zhiList')
    expect(res.statusCode).toBe(401)
    expect(res.body_.code).toBe(401)
  })
})
