// The team view over HTTP (issue 12 parts 1 and 2): the whole team breadth first and paged, each
// member's performance and level, the nodes held in the team, search by exact ID, and every refusal
// (bad page, bad search, another user's data) with its localized message and nothing changed.

import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { ROOT_CODE, idemKey, localeText, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { NodeConfig, NodeTier } from '../../contract/node.ts'
import type { PayOrder } from '../../contract/orders.ts'
import type { TeamInfo, TeamMember } from '../../contract/team.ts'
import type { UserInfo, ZhiItem } from '../../contract/user.ts'
import { translate } from '../../server/i18n.ts'
import { audit, custody, fund, transfer } from '../../server/ledger/index.ts'
import { returnStakes } from '../../server/modules/node/service.ts'
import { dayOf } from '../../server/modules/release/schedule.ts'
import { statement } from '../../server/db/query/types.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS, NADI_GOLD_WALK_MS: '0', NADI_TRIAL_POWER: '0' } })
const API = '/api/v1'
let refs = 0
const credit = (s: TestServer, userId: number, amount: string) =>
  transfer(s.ctx.sql, { ref: `test:team:${++refs}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: parseUnits(amount, 8) })
const codeOf = async (s: TestServer, id: number) => (await s.ctx.sql.get(statement<{ code: string }>('SELECT code FROM users WHERE id = ?'), id))!.code
const invite = async (s: TestServer, who: SignedIn) => s.signIn(await codeOf(s, who.userId))
const get = <T>(s: TestServer, who: SignedIn, path: string, lang = 'EN') => s.get<T>(`${API}/${path}`, { token: who.token, lang })
const teamList = (s: TestServer, who: SignedIn, qs = '', lang = 'EN') => get<PagedList<TeamMember>>(s, who, `team/list${qs}`, lang)
const teamInfo = (s: TestServer, who: SignedIn) => get<TeamInfo>(s, who, 'team/info')

async function buyNode(s: TestServer, who: SignedIn, type: NodeTier['type']): Promise<PayOrder> {
  const tier = (await get<NodeConfig>(s, who, 'node/config')).body_.data.tiers.find((t) => t.type === type)!
  await credit(s, who.userId, tier.amount)
  const order = await s.post<PayOrder>(`${API}/node/buy`, { node_id: tier.id }, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
  expect(order.statusCode).toBe(200)
  const paid = await s.post<PayOrder>(`${API}/orders/payByBalance`, { id: order.body_.data.id }, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
  expect(paid.statusCode).toBe(200)
  return paid.body_.data
}

/** me → a, b; a → c; c → d: four members over three generations. */
async function tree(s: TestServer) {
  const me = await s.signIn(ROOT_CODE)
  const a = await invite(s, me)
  const b = await invite(s, me)
  const c = await invite(s, a)
  const d = await invite(s, c)
  return { me, a, b, c, d }
}

/** Everything the refusals could have touched. */
const snapshot = (s: TestServer) => s.ctx.sql.all(statement<{ id: unknown; zhi_num: unknown; team_num: unknown; me_performance: unknown; team_performance: unknown; team_elite: unknown; team_core: unknown; team_genesis: unknown }>('SELECT id, zhi_num, team_num, me_performance, team_performance, team_elite, team_core, team_genesis FROM users ORDER BY id'))

describe('GET /api/v1/team/list', () => {
  it('lists the whole team nearest generation first, with each member’s level, agent badge and personal and team performance', async () => {
    const s = await start()
    const { me, a, b, c, d } = await tree(s)
    await buyNode(s, d, 'core') // 5000 USDT, T2, advanced agent
    await buyNode(s, a, 'elite') // 1000 USDT, T1, no agent rights

    const res = await teamList(s, me)
    expect(res.statusCode).toBe(200)
    expect(res.body_.data.total).toBe(4)
    const rows = res.body_.data.list
    expect(rows.map((r) => [r.id, r.generation])).toEqual([
      [a.userId, 1],
      [b.userId, 1],
      [c.userId, 2],
      [d.userId, 3],
    ])
    const byId = new Map(rows.map((r) => [r.id, r]))
    expect(byId.get(a.userId)).toMatchObject({ level: 1, advanced_agent: false, zhi_num: 1, team_num: 2, me_performance: '1000', team_performance: '5000' })
    expect(byId.get(b.userId)).toMatchObject({ level: 0, advanced_agent: false, team_num: 0, me_performance: '0', team_performance: '0' })
    expect(byId.get(c.userId)).toMatchObject({ level: 0, advanced_agent: false, team_num: 1, me_performance: '0', team_performance: '5000' })
    expect(byId.get(d.userId)).toMatchObject({ level: 2, advanced_agent: true, team_num: 0, me_performance: '5000', team_performance: '0', wallet_address: d.address })

    // The same figures where the user centre shows names: its header and the direct list.
    expect((await get<UserInfo>(s, d, 'user/info')).body_.data).toMatchObject({ level: 2, advanced_agent: true })
    expect((await get<UserInfo>(s, me, 'user/info')).body_.data).toMatchObject({ level: 0, advanced_agent: false, team_num: 4, team_performance: '6000' })
    const direct = (await get<PagedList<ZhiItem>>(s, me, 'user/zhiList')).body_.data.list
    expect(direct.find((r) => r.id === a.userId)).toMatchObject({ level: 1, advanced_agent: false })
    expect((await audit(s.ctx.sql)).violations).toEqual([])
  })

  it('pages with page and page_size; the last page may be short', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const kids: number[] = []
    for (let i = 0; i < 3; i++) kids.push((await invite(s, me)).userId)
    const grand = await s.signIn(await codeOf(s, kids[0]!))
    const all = [...kids, grand.userId]
    const p1 = await teamList(s, me, '?page=1&page_size=3')
    expect(p1.body_.data).toMatchObject({ total: 4 })
    expect(p1.body_.data.list.map((r) => r.id)).toEqual(all.slice(0, 3))
    const p2 = await teamList(s, me, '?page=2&page_size=3')
    expect(p2.body_.data.list.map((r) => r.id)).toEqual(all.slice(3))
  })

  it('finds a member by exact ID at any depth; an ID outside the team, the caller’s own or unknown finds nothing', async () => {
    const s = await start()
    const { me, a, b, d } = await tree(s)
    const outsider = await s.signIn(ROOT_CODE)
    const found = await teamList(s, me, `?search=${d.userId}`)
    expect(found.statusCode).toBe(200)
    expect(found.body_.data.total).toBe(1)
    expect(found.body_.data.list).toMatchObject([{ id: d.userId, generation: 3 }])
    // Spaces around the ID are forgiven; it is still an exact match.
    expect((await teamList(s, me, `?search=%20${d.userId}%20`)).body_.data.list.map((r) => r.id)).toEqual([d.userId])
    for (const id of [outsider.userId, me.userId, 999_999]) {
      expect((await teamList(s, me, `?search=${id}`)).body_.data, String(id)).toEqual({ total: 0, list: [] })
    }
    // From a's side: b is a sibling and me the inviter, neither in a's team.
    for (const id of [b.userId, me.userId]) expect((await teamList(s, a, `?search=${id}`)).body_.data.total).toBe(0)
  })

  it('another user’s team is not reachable: only the caller’s own members, and no parameter names another user', async () => {
    const s = await start()
    const { me, a, c, d } = await tree(s)
    const ofA = await teamList(s, a)
    expect(ofA.body_.data.list.map((r) => r.id)).toEqual([c.userId, d.userId])
    expect(ofA.body_.data.total).toBe(2)
    for (const qs of [`?user_id=${me.userId}`, `?id=${me.userId}`]) {
      const res = await teamList(s, a, qs)
      expect(res.statusCode, qs).toBe(400)
    }
    const anon = await s.get(`${API}/team/list`)
    expect(anon.statusCode).toBe(401)
    expect((await s.get(`${API}/team/info`)).statusCode).toBe(401)
  })

  it('a search with control characters or that is not an ID is refused with 400 and a localized message, changing nothing', async () => {
    const s = await start()
    const { me, d } = await tree(s)
    const before = await snapshot(s)
    const cases: [string, string][] = [
      [`${d.userId}%00`, 'team.errors.searchControl'],
      [`%07${d.userId}`, 'team.errors.searchControl'],
      [`${d.userId}%0A`, 'team.errors.searchControl'],
      [`1%E2%80%8B2`, 'team.errors.searchControl'], // a zero-width space
      ['abc', 'team.errors.searchNotId'],
      ['12a', 'team.errors.searchNotId'],
      ['-5', 'team.errors.searchNotId'],
      ['1.5', 'team.errors.searchNotId'],
      ['0', 'team.errors.searchNotId'],
      ['12345678901234567', 'team.errors.searchNotId'],
      ['%25', 'team.errors.searchNotId'],
    ]
    for (const [q, key] of cases) {
      const res = await teamList(s, me, `?search=${q}`)
      expect(res.statusCode, q).toBe(400)
      expect(res.body_.msg, q).toBe(localeText('en', key))
    }
    const jp = await teamList(s, me, '?search=abc', 'JP')
    expect(jp.body_.msg).toBe(localeText('jp', 'team.errors.searchNotId'))
    expect(await snapshot(s)).toEqual(before)
  })

  it('a page out of range is refused with 400 naming how many pages there are', async () => {
    const s = await start()
    const { me, a, d } = await tree(s)
    const cases: [SignedIn, string, number][] = [
      [me, '?page=2', 1], // 4 members, 10 a page
      [me, '?page=3&page_size=2', 2],
      [d, '?page=2', 1], // an empty team has its one empty page
      [me, `?search=${d.userId}&page=2`, 1],
      [a, '?page=100000', 1],
    ]
    for (const [who, qs, pages] of cases) {
      const res = await teamList(s, who, qs)
      expect(res.statusCode, qs).toBe(400)
      expect(res.body_.msg, qs).toBe(translate('EN', 'team.errors.pageOutOfRange', { pages }))
    }
    expect((await teamList(s, d)).body_.data).toEqual({ total: 0, list: [] })
    const invalid = (f: string) => localeText('en', 'errors.invalidField').replace('{{field}}', localeText('en', `fields.${f}`))
    for (const [qs, field] of [
      ['?page=0', 'page'],
      ['?page=abc', 'page'],
      ['?page_size=101', 'page_size'],
    ] as const) {
      const res = await teamList(s, me, qs)
      expect(res.statusCode, qs).toBe(400)
      expect(res.body_.msg, qs).toBe(invalid(field))
    }
  })
})

describe('GET /api/v1/team/info', () => {
  it('counts the elite, core and genesis nodes held below the caller, from payment until the stake comes back', async () => {
    const s = await start()
    const { me, a, b, c, d } = await tree(s)
    await buyNode(s, d, 'core')
    await buyNode(s, c, 'genesis')
    await buyNode(s, b, 'elite')
    await buyNode(s, me, 'elite') // the caller's own node is not in their team
    expect((await teamInfo(s, me)).body_.data).toEqual({
      zhi_num: 2,
      team_num: 4,
      zhi_performance: '1000',
      team_performance: '26000',
      nodes: { elite: 1, core: 1, genesis: 1 },
    })
    expect((await teamInfo(s, a)).body_.data.nodes).toEqual({ elite: 0, core: 1, genesis: 1 })
    expect((await teamInfo(s, c)).body_.data.nodes).toEqual({ elite: 0, core: 1, genesis: 0 })
    expect((await teamInfo(s, d)).body_.data.nodes).toEqual({ elite: 0, core: 0, genesis: 0 })

    // Every term over: the stakes come back and the nodes leave the counts; the level and the
    // agent right stay, as the node service keeps them.
    const later = s.clock.now() + 400 * 86_400_000
    await s.ctx.sql.transaction((tx) => returnStakes(tx, dayOf(later), later))
    expect((await teamInfo(s, me)).body_.data.nodes).toEqual({ elite: 0, core: 0, genesis: 0 })
    expect((await teamInfo(s, a)).body_.data.nodes).toEqual({ elite: 0, core: 0, genesis: 0 })
    expect((await get<UserInfo>(s, d, 'user/info')).body_.data).toMatchObject({ level: 2, advanced_agent: true })
    expect((await audit(s.ctx.sql)).violations).toEqual([])
  })
})

describe('performance under concurrent purchases', () => {
  it('purchases paid at once all over the tree add up exactly: every team performance is the sum over the subtree', async () => {
    const s = await start()
    const root = await s.signIn(ROOT_CODE)
    const members: SignedIn[] = [root]
    // A random tree of 16 under the first member.
    let seed = 7
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
    for (let i = 0; i < 15; i++) members.push(await invite(s, members[rand(members.length)]!))
    const tiers = (await get<NodeConfig>(s, root, 'node/config')).body_.data.tiers
    const buyers = members.filter((_, i) => i % 2 === 0 || i === members.length - 1)
    const orders = await Promise.all(
      buyers.map(async (m, i) => {
        const tier = tiers[i % 2]! // elite and core: within the per-user limit, seats plenty
        await credit(s, m.userId, tier.amount)
        const o = await s.post<PayOrder>(`${API}/node/buy`, { node_id: tier.id }, { token: m.token, idempotencyKey: idemKey() })
        return { m, id: o.body_.data.id }
      }),
    )
    // All payments in flight together.
    const paid = await Promise.all(orders.map(({ m, id }) => s.post(`${API}/orders/payByBalance`, { id }, { token: m.token, idempotencyKey: idemKey() })))
    expect(paid.map((p) => p.statusCode)).toEqual(paid.map(() => 200))

    const rows = await s.ctx.sql.all(statement<{
      id: bigint
      inviter_id: bigint | null
      me_performance: bigint
      team_performance: bigint
    }>('SELECT id, inviter_id, me_performance, team_performance FROM users'))
    const parent = new Map(rows.map((r) => [r.id, r.inviter_id]))
    const expected = new Map(rows.map((r) => [r.id, 0n]))
    for (const r of rows) for (let p = parent.get(r.id) ?? null; p !== null; p = parent.get(p) ?? null) expected.set(p, expected.get(p)! + r.me_performance)
    for (const r of rows) expect(r.team_performance, `user ${r.id}`).toBe(expected.get(r.id))
    const total = rows.reduce((n, r) => n + r.me_performance, 0n)
    expect(total).toBe(buyers.reduce((n, _, i) => n + parseUnits(tiers[i % 2]!.amount, 8), 0n))
  })
})
