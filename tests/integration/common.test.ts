import { describe, expect, it } from 'vitest'
import { ROOT_CODE, T0, useServers } from './support/server.ts'
import type { Banner, MainInfo, PublicConfig } from '../../contract/common.ts'
import { SEED_BANNERS } from '../../server/db/seed/content.ts'
import { parseMoney } from '../../contract/money.ts'
import { custody, trade, transfer } from '../../server/ledger/index.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers()

describe('GET /api/v1/common/bannerList', () => {
  it('answers the demo banners in order, titled in the request language', async () => {
    const s = await start()
    const en = await s.get<Banner[]>('/api/v1/common/bannerList', { lang: 'EN' })
    expect(en.statusCode).toBe(200)
    expect(en.body_.data.map((b) => b.title)).toEqual(SEED_BANNERS.map((b) => b.title.en))
    expect(en.body_.data.map((b) => b.image)).toEqual(SEED_BANNERS.map((b) => b.image))
    expect(en.body_.data.map((b) => b.link)).toEqual(SEED_BANNERS.map((b) => b.link))

    const jp = await s.get<Banner[]>('/api/v1/common/bannerList', { lang: 'JP' })
    expect(jp.body_.data.map((b) => b.title)).toEqual(SEED_BANNERS.map((b) => b.title.jp))
    const vn = await s.get<Banner[]>('/api/v1/common/bannerList', { lang: 'VN' })
    expect(vn.body_.data.map((b) => b.title)).toEqual(SEED_BANNERS.map((b) => b.title.vn))
  })

  it('without LANG the titles are in Traditional Chinese', async () => {
    const s = await start()
    const res = await s.get<Banner[]>('/api/v1/common/bannerList')
    expect(res.body_.data.map((b) => b.title)).toEqual(SEED_BANNERS.map((b) => b.title.tw))
  })

  it('a banner missing the asked language falls back to Traditional Chinese; inactive banners are hidden', async () => {
    const s = await start({ env: { NADI_DEMO: '0' } })
    const db = s.ctx.sql
    const id = Number((await db.get(statement<{ id: bigint }>("INSERT INTO banners (image, link, sort) VALUES ('/b.svg', NULL, 1) RETURNING id")))!.id)
    await db.run(statement("INSERT INTO banner_texts (banner_id, lang, title) VALUES (?, 'tw', '只有繁體')"), id)
    const hidden = Number((await db.get(statement<{ id: bigint }>("INSERT INTO banners (image, link, sort, state) VALUES ('/h.svg', NULL, 0, 'unpublished') RETURNING id")))!.id)
    await db.run(statement("INSERT INTO banner_texts (banner_id, lang, title) VALUES (?, 'en', 'Hidden')"), hidden)
    const res = await s.get<Banner[]>('/api/v1/common/bannerList', { lang: 'KO' })
    expect(res.body_.data).toEqual([{ id, image: '/b.svg', link: null, title: '只有繁體' }])
  })

  it('without banners the list is empty', async () => {
    const s = await start({ env: { NADI_DEMO: '0' } })
    expect((await s.get('/api/v1/common/bannerList')).body_).toMatchObject({ code: 200, data: [] })
  })
})

describe('GET /api/v1/common/mainInfo', () => {
  it('counts members (not the root), today’s new members, notices, with price and server time', async () => {
    const s = await start({ env: { NADI_DEMO: '0' } })
    const empty = await s.get<MainInfo>('/api/v1/common/mainInfo')
    expect(empty.body_.data).toEqual({ member_count: 0, new_members_today: 0, nadi_price: '0.25', nadi_price_source: 'reference', notice_count: 0, server_time: T0 })

    await s.signIn(ROOT_CODE)
    s.clock.advance(24 * 3600_000) // the next day
    await s.signIn(ROOT_CODE)
    await s.signIn(ROOT_CODE)
    const res = await s.get<MainInfo>('/api/v1/common/mainInfo')
    expect(res.body_.data).toMatchObject({ member_count: 3, new_members_today: 2, server_time: T0 + 24 * 3600_000 })
  })

  it('the NADI price is the market’s last trade once there is one, the reference price before, and says which', async () => {
    const s = await start({ env: { NADI_DEMO: '0' } })
    expect((await s.get<MainInfo>('/api/v1/common/mainInfo')).body_.data).toMatchObject({ nadi_price: '0.25', nadi_price_source: 'reference' })
    const [maker, taker] = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
    for (const [who, asset] of [[maker, 'NADI'], [taker, 'USDT']] as const) {
      await transfer(s.ctx.sql, { ref: `price:${who.userId}`, reason: 'deposit', from: custody('bsc'), to: trade(who.userId), asset, amount: parseMoney('1000')! })
    }
    await s.exchange!.place(maker.userId, { side: 'sell', type: 'limit', price: 3172, lots: 1000, clientOrderId: 'm1' })
    await s.exchange!.place(taker.userId, { side: 'buy', type: 'limit', price: 3172, lots: 500, clientOrderId: 't1' })
    expect((await s.get<MainInfo>('/api/v1/common/mainInfo')).body_.data).toMatchObject({ nadi_price: '0.3172', nadi_price_source: 'market' })
  })

  it('the notice count matches the notice list total', async () => {
    const s = await start()
    const info = await s.get<MainInfo>('/api/v1/common/mainInfo')
    const list = await s.get<{ total: number }>('/api/v1/notice/list')
    expect(info.body_.data.notice_count).toBe(list.body_.data.total)
    expect(info.body_.data.notice_count).toBeGreaterThan(0)
  })
})

describe('GET /api/v1/common/config', () => {
  it('lists the ten languages with TW as default, BSC (56) and the NADI chain, and the limits', async () => {
    const s = await start()
    const res = await s.get<PublicConfig>('/api/v1/common/config')
    expect(res.statusCode).toBe(200)
    const c = res.body_.data
    expect(c.languages.map((l) => l.code)).toEqual(['TW', 'EN', 'ZH', 'JP', 'KO', 'TH', 'PT', 'ID', 'VN', 'MS'])
    for (const l of c.languages) expect(l.name.length).toBeGreaterThan(0)
    expect(c.default_lang).toBe('TW')
    expect(c.chains).toEqual([
      { id: 56, key: 'bsc', name: 'BNB Smart Chain', native_symbol: 'BNB' },
      { id: 92025, key: 'nadi', name: 'NADI Chain', native_symbol: 'NADI' },
    ])
    expect(c.login_chain_id).toBe(92025)
    expect(c.limits).toEqual({ page_size: 10, withdraw_min: '1', withdraw_confirmations: 3, display_decimals: 6, session_idle_ms: 360_000 })
    expect(c.demo).toBe(true)
    expect(c.chain_notice).toEqual({
      id: 'nadi-chain-upgrade-1',
      countdown_seconds: 5,
      starts_at: Date.UTC(2026, 11, 1, 2),
      ends_at: Date.UTC(2026, 11, 1, 4),
    })
  })

  it('follows the settings: the NADI chain id, the idle time; the chain notice disappears once it has ended', async () => {
    const s = await start({ env: { NADI_CHAIN_ID: '31337', NADI_SESSION_IDLE_MS: '120000', NADI_DEMO: '0' } })
    const c = (await s.get<PublicConfig>('/api/v1/common/config')).body_.data
    expect(c.chains.map((x) => x.id)).toEqual([56, 31337])
    expect(c.login_chain_id).toBe(31337)
    expect(c.limits.session_idle_ms).toBe(120_000)
    expect(c.demo).toBe(false)
    s.clock.set(Date.UTC(2026, 11, 1, 4))
    expect((await s.get<PublicConfig>('/api/v1/common/config')).body_.data.chain_notice).toBeNull()
  })

  it('the health check answers without a token', async () => {
    const s = await start()
    const res = await s.get<{ time: number }>('/api/v1/common/health')
    expect(res.statusCode).toBe(200)
    expect(typeof res.body_.data.time).toBe('number')
  })
})
