// Devices (issue 11 part 2): a paid device order becomes one device per unit, pending; shipping
// prints one activation code per device (only hashes kept); the owner activates with it, which
// starts a 'device' position the next UTC day that the settlement pays from the mining account.
// Every refusal changes nothing; wrong codes in a row are rate limited; another user's device is 404.

import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { main as cli } from '../../server/cli.ts'
import { audit, balance, custody, fund, MINING, transfer } from '../../server/ledger/index.ts'
import { settleDue } from '../../server/modules/settlement/service.ts'
import { DAY_MS, dayOf } from '../../server/modules/release/schedule.ts'
import { ROOT_CODE, idemKey, localeText, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import type { Address } from '../../contract/address.ts'
import type { GoodsDetail } from '../../contract/goods.ts'
import type { Device, DeviceList } from '../../contract/device.ts'
import { ATTEMPT_LIMIT, ATTEMPT_WINDOW_MS } from '../../contract/deviceRules.ts'
import { statement } from '../../server/db/query/types.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_GOLD_WALK_MS: '0', NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS, NADI_DEVICE_RATE_PPM: '10000' } })
const units = (n: string) => parseUnits(n, 8)

async function runCli(s: TestServer, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
  return { code, out, err }
}

/** A user buys `quantity` of a device and pays from balance; answers the order and the spec's power. */
async function buyDevice(s: TestServer, me: SignedIn, quantity: number) {
  const o = { token: me.token, lang: 'EN' }
  await transfer(s.ctx.sql, { ref: `test:dev:credit:${me.userId}:${Math.random()}`, reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: units('100000') })
  const address = (await s.post<Address>('/api/v1/address/addAddress', { name: 'Ana', phone: '0912345678', area: 'Lisbon', address: 'Rua 1', is_default: true }, { ...o, idempotencyKey: idemKey() })).body_.data
  const goods = (await s.get<{ list: { id: number; power: string }[] }>('/api/v1/machine/goodsList?page_size=50', { lang: 'EN' })).body_.data.list.find((g) => g.power !== '0')!
  const detail = (await s.get<GoodsDetail>(`/api/v1/machine/goodsDetail?id=${goods.id}`, { lang: 'EN' })).body_.data
  const spec = detail.specs[0]!
  const { order } = (await s.post<PreOrderResult>('/api/v1/preOrder/preOrder', { area: 'machine', goods_id: goods.id, spec_id: spec.id, quantity, address_id: address.id }, { ...o, idempotencyKey: idemKey() })).body_.data
  return { order, power: (spec as unknown as { power: string }).power }
}
const pay = (s: TestServer, me: SignedIn, id: number) => s.post('/api/v1/orders/payByBalance', { id }, { token: me.token, idempotencyKey: idemKey() })
const devices = async (s: TestServer, me: SignedIn) => (await s.get<DeviceList>('/api/v1/machine/deviceList', { token: me.token, lang: 'EN' })).body_.data.list
const activate = (s: TestServer, me: SignedIn, body: unknown, lang = 'EN') => s.post<Device>('/api/v1/machine/activate', body, { token: me.token, lang, idempotencyKey: idemKey() })
const codesOf = (out: string) => [...out.matchAll(/device #(\d+) {2}([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})/g)].map((m) => ({ id: Number(m[1]), code: m[2]! }))
/** Everything activation may change, to show a refusal changed none of it. */
const state = async (s: TestServer) => ({
  devices: await s.ctx.sql.all(statement<{ id: unknown; status: unknown; position_id: unknown; activated_at: unknown }>('SELECT id, status, position_id, activated_at FROM devices ORDER BY id')),
  codes: await s.ctx.sql.all(statement<{ device_id: unknown; code_hash: unknown; used_at: unknown }>('SELECT device_id, code_hash, used_at FROM device_codes ORDER BY device_id')),
  positions: await s.count("SELECT COUNT(*) FROM positions WHERE kind = 'device'"),
})

describe('devices', () => {
  it('buy → pay → ship issues codes → activate → a position from tomorrow → the settlement pays it', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const { order, power } = await buyDevice(s, me, 2)
    expect(await devices(s, me)).toEqual([]) // not paid: no device yet
    expect((await pay(s, me, order.id)).statusCode).toBe(200)
    const mine = await devices(s, me)
    expect(mine).toHaveLength(2)
    expect(mine.every((d) => d.status === 'pending' && !d.shipped && d.power === power && d.order_no === order.order_no && d.activated_at === null)).toBe(true)
    // Not shipped: there is no code yet.
    expect((await activate(s, me, { device_id: mine[0]!.id, code: 'ABCD-EFGH-JKMN-PQRS' })).statusCode).toBe(409)
    expect((await runCli(s, 'device', 'codes', String(order.id))).err).toContain('codes are issued when it ships')

    const shipped = await runCli(s, 'ship', String(order.id), 'SF', 'SF100200300')
    expect(shipped.code).toBe(0)
    const codes = codesOf(shipped.out)
    expect(codes.map((c) => c.id).sort()).toEqual(mine.map((d) => d.id).sort())
    // Only hashes are stored.
    for (const c of codes) expect(await s.count('SELECT COUNT(*) FROM device_codes WHERE code_hash LIKE ?', `%${c.code.replace(/-/g, '')}%`)).toBe(0)
    expect((await devices(s, me)).every((d) => d.shipped)).toBe(true)

    const [a, b] = codes as [{ id: number; code: string }, { id: number; code: string }]
    // Typed without dashes and in lower case, with spaces: the same code.
    const ok = await activate(s, me, { device_id: a.id, code: ` ${a.code.replace(/-/g, '').toLowerCase().replace(/(.{4})/g, '$1 ')}` })
    expect(ok.statusCode).toBe(200)
    const today = dayOf(s.clock.now())
    expect(ok.body_.data).toMatchObject({ id: a.id, status: 'success', activated_at: s.clock.now(), mining_from: (today + 1) * DAY_MS })
    const pos = (await s.ctx.sql.get(statement<Record<string, unknown>>("SELECT * FROM positions WHERE source = ?"), `device:${a.id}`))!
    expect(pos).toMatchObject({ kind: 'device', asset: 'NADI', base: units(power), rate_ppm: 10000n, start_day: BigInt(today + 1), remaining: null, user_id: BigInt(me.userId) })

    // Refusals, each with no change: the used code again (same device, then the other device), a
    // malformed code, a wrong code.
    const before = await state(s)
    const again = await activate(s, me, { device_id: a.id, code: a.code })
    expect(again.statusCode).toBe(409)
    expect(again.body_.msg).toBe(localeText('en', 'errors.deviceAlreadyActive'))
    const used = await activate(s, me, { device_id: b.id, code: a.code })
    expect(used.statusCode).toBe(409)
    expect(used.body_.msg).toBe(localeText('en', 'errors.deviceCodeUsed'))
    const format = await activate(s, me, { device_id: b.id, code: 'not a code' })
    expect(format.statusCode).toBe(400)
    expect(format.body_.msg).toBe(localeText('en', 'errors.deviceCodeFormat'))
    const wrong = await activate(s, me, { device_id: b.id, code: 'AAAA-BBBB-CCCC-DDDD' }, 'TW')
    expect(wrong.statusCode).toBe(400)
    expect(wrong.body_.msg).toBe(localeText('tw', 'errors.deviceCodeWrong'))
    for (const body of [{ device_id: b.id }, { device_id: b.id, code: '' }, { device_id: 'x', code: b.code }, { device_id: b.id, code: b.code, extra: 1 }, { device_id: b.id, code: 'A'.repeat(41) }]) {
      expect((await activate(s, me, body)).statusCode, JSON.stringify(body)).toBe(400)
    }
    expect(await state(s)).toEqual(before)
    // The latest attempt on b was refused: it reads "failed" until activated.
    expect((await devices(s, me)).find((d) => d.id === b.id)!.status).toBe('failed')

    // The settlement of the activation day pays nothing to it; the next day pays power × rate.
    await transfer(s.ctx.sql, { ref: 'test:dev:mining', reason: 'fund', userId: null, from: custody('nadi'), to: MINING, asset: 'NADI', amount: units('1000000') })
    const nadi = async () => (await balance(s.ctx.sql, fund(me.userId), 'NADI')).available
    const n0 = await nadi()
    s.clock.advance(DAY_MS)
    await settleDue(s.ctx)
    expect(await s.count('SELECT COUNT(*) FROM settlement_lines WHERE position_id = ?', pos.id)).toBe(0)
    s.clock.advance(DAY_MS)
    await settleDue(s.ctx)
    const expected = (units(power) * 10000n) / 1_000_000n
    expect(await s.count('SELECT amount FROM settlement_lines WHERE position_id = ? AND day = ?', pos.id, today + 1)).toBe(Number(expected))
    expect(await nadi() - n0).toBeGreaterThanOrEqual(expected)

    // `device codes` reissues for the device not activated: its old code stops working, the new one works.
    const re = await runCli(s, 'device', 'codes', String(order.id))
    expect(re.code).toBe(0)
    const [fresh] = codesOf(re.out)
    expect(fresh!.id).toBe(b.id)
    expect((await activate(s, me, { device_id: b.id, code: b.code })).statusCode).toBe(400)
    expect((await activate(s, me, { device_id: b.id, code: fresh!.code })).body_.data.status).toBe('success')
    expect((await runCli(s, 'device', 'codes', String(order.id))).err).toContain('activated already')
    expect((await runCli(s, 'device', 'codes', 'x')).code).toBe(2)
    expect((await audit(s.ctx.sql)).violations).toEqual([])
  })

  it('another user’s device is answered like an unknown one, and their code reads as wrong', async () => {
    const s = await start()
    const owner = await s.signIn(ROOT_CODE)
    const other = await s.signIn(ROOT_CODE)
    const { order } = await buyDevice(s, owner, 1)
    await pay(s, owner, order.id)
    const [c] = codesOf((await runCli(s, 'ship', String(order.id), 'SF', 'SF100200301')).out)
    const { order: o2 } = await buyDevice(s, other, 1)
    await pay(s, other, o2.id)
    const [c2] = codesOf((await runCli(s, 'ship', String(o2.id), 'SF', 'SF100200302')).out)
    const before = await state(s)
    const foreign = await activate(s, other, { device_id: c!.id, code: c!.code })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.body_.msg).toBe(localeText('en', 'errors.deviceNotFound'))
    expect((await activate(s, other, { device_id: 999999, code: c!.code })).statusCode).toBe(404)
    // The owner's code on the other user's own device: wrong, saying nothing about whose it is.
    expect((await activate(s, other, { device_id: c2!.id, code: c!.code })).body_.msg).toBe(localeText('en', 'errors.deviceCodeWrong'))
    expect(await state(s)).toEqual(before)
    expect(await devices(s, other)).toHaveLength(1)
    expect((await activate(s, owner, { device_id: c!.id, code: c!.code })).statusCode).toBe(200)
  })

  it(`${ATTEMPT_LIMIT} wrong codes in a row within the window answer 429, even with the right code, until the window passes`, async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const { order } = await buyDevice(s, me, 1)
    await pay(s, me, order.id)
    const [c] = codesOf((await runCli(s, 'ship', String(order.id), 'SF', 'SF100200303')).out)
    for (let i = 0; i < ATTEMPT_LIMIT; i++) expect((await activate(s, me, { device_id: c!.id, code: 'AAAA-BBBB-CCCC-DDDD' })).statusCode).toBe(400)
    const before = await state(s)
    const limited = await activate(s, me, { device_id: c!.id, code: c!.code })
    expect(limited.statusCode).toBe(429)
    expect(limited.body_.msg).toBe(localeText('en', 'errors.tooFrequent'))
    expect(await state(s)).toEqual(before)
    s.clock.advance(ATTEMPT_WINDOW_MS)
    expect((await activate(s, me, { device_id: c!.id, code: c!.code })).statusCode).toBe(200)
  })
})
