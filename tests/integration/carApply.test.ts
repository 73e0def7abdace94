// Car applications over HTTP (issue 10 part 5): car/apply takes a car of the car shop, the
// applicant's details and their uploaded documents; every refusal answers in the caller's language
// and changes nothing (no application, no upload marked used); an operator moves an application
// submitted → reviewing → approved | rejected through `server/cli.ts car …`, and car/applyList shows it.

import { describe, expect, it } from 'vitest'
import { ROOT_CODE, T0, idemKey, useServers, type Res, type SignedIn, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import { PDF, PNG, presign, uploaded } from './support/uploads.ts'
import type { CarApplication } from '../../contract/car.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { GoodsItem } from '../../contract/goods.ts'
import { translate } from '../../server/i18n.ts'
import { main as cli } from '../../server/cli.ts'
import { statement } from '../../server/db/query/types.ts'
import { numbers } from '../support/rows.ts'

const start = useServers()
const en = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)
const doc = (field: string) => en(`fields.${field}`)

async function runCli(s: TestServer, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
  // A writing command runs inside the server holding the data folder, which the CLI says first.
  return { code, out, err: err.replace(/^\(run inside .*\n/, '') }
}

const apply = (s: TestServer, who: SignedIn, body: unknown, opts: { lang?: string; key?: string } = {}) =>
  s.post<CarApplication>('/api/v1/car/apply', body, { token: who.token, idempotencyKey: opts.key ?? idemKey(), lang: opts.lang ?? 'EN' })
const list = (s: TestServer, who: SignedIn, query = '') => s.get<PagedList<CarApplication>>(`/api/v1/car/applyList${query}`, { token: who.token, lang: 'EN' })

async function carIds(s: TestServer): Promise<number[]> {
  const res = await s.get<PagedList<GoodsItem>>('/api/v1/car/goodsList?page_size=50')
  expect(res.statusCode).toBe(200)
  const ids = res.body_.data.list.map((g) => g.id)
  expect(ids.length).toBeGreaterThan(0)
  return ids
}

/** A user with a valid application ready to send: their documents uploaded, a car chosen. */
async function ready(s: TestServer, who?: SignedIn) {
  const me = who ?? (await s.signIn(ROOT_CODE))
  const [car] = await carIds(s)
  const body = {
    goods_id: car!,
    name: '  Lin Mei ',
    phone: '+886 912-345-678',
    id_number: 'a123 456-789',
    city: ' Taipei ',
    id_front: await uploaded(s, me),
    id_back: await uploaded(s, me),
    driver_licence: await uploaded(s, me, PDF, 'application/pdf'),
    remark: ' Weekday pick-up, please ',
  }
  return { me, body }
}

/** Every application and upload row: a refused request changes neither. */
const state = async (s: TestServer) => ({
  applications: (await s.ctx.sql.all(statement<Record<string, unknown>>('SELECT * FROM car_applications ORDER BY id'))).map((r) => numbers(r)),
  uploads: (await s.ctx.sql.all(statement<Record<string, unknown>>('SELECT * FROM uploads ORDER BY key'))).map((r) => numbers(r)),
})

function refused(res: Res, status: number, msg: string, label = '') {
  expect(res.statusCode, `${label} ${res.body}`).toBe(status)
  expect(res.body_, label).toEqual({ code: status, msg, data: null })
}

describe('POST /api/v1/car/apply', () => {
  it('submits an application with the details cleaned, the car named in the caller’s language and the documents taken', async () => {
    const s = await start()
    const { me, body } = await ready(s)
    const res = await apply(s, me, body)
    expect(res.statusCode, res.body).toBe(200)
    const a = res.body_.data
    const car = (await s.get<{ name: string; cover: string }>(`/api/v1/car/goodsDetail?id=${body.goods_id}`, { lang: 'EN' })).body_.data
    expect(a).toEqual({
      id: a.id,
      goods_id: body.goods_id,
      goods_name: car.name,
      cover: car.cover,
      name: 'Lin Mei',
      phone: '+886912345678',
      id_number: 'A1******89',
      city: 'Taipei',
      remark: 'Weekday pick-up, please',
      documents: { id_front: body.id_front, id_back: body.id_back, driver_licence: body.driver_licence },
      status: 'submitted',
      reason: null,
      created_at: T0,
      updated_at: T0,
    })
    expect((await s.ctx.sql.get(statement<{ id_number: unknown }>('SELECT id_number FROM car_applications WHERE id = ?'), a.id))?.id_number).toBe('A123456789')
    expect(await s.count('SELECT count(*) FROM uploads WHERE used_by = ? AND used_at = ?', a.id, T0)).toBe(3)
    // The list in another language names the car in it.
    const tw = await s.get<PagedList<CarApplication>>('/api/v1/car/applyList', { token: me.token, lang: 'TW' })
    const twName = (await s.get<{ name: string }>(`/api/v1/car/goodsDetail?id=${body.goods_id}`, { lang: 'TW' })).body_.data.name
    expect(tw.body_.data).toEqual({ total: 1, list: [{ ...a, goods_name: twName }] })
  })

  it('the ID back is optional; a repeated Idempotency-Key answers the first application and makes no second', async () => {
    const s = await start()
    const { me, body } = await ready(s)
    const { id_back: _, remark: __, ...least } = body
    const key = idemKey()
    const first = await apply(s, me, least, { key })
    expect(first.statusCode, first.body).toBe(200)
    expect(first.body_.data.documents.id_back).toBeNull()
    expect(first.body_.data.remark).toBe('')
    const again = await apply(s, me, least, { key })
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body_).toEqual(first.body_)
    expect(await s.count('SELECT count(*) FROM car_applications')).toBe(1)
  })

  it('refuses missing or bad details, each with its own message and no change', async () => {
    const s = await start()
    const { me, body } = await ready(s)
    const before = await state(s)
    const without = (field: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== field))
    const cases: [string, unknown, number, string][] = [
      ['no car', without('goods_id'), 400, en('errors.carRequired')],
      ['no name', without('name'), 400, en('errors.applicantNameRequired')],
      ['blank name', { ...body, name: ' \u200b ' }, 400, en('errors.applicantNameRequired')],
      ['name too long', { ...body, name: 'x'.repeat(41) }, 400, en('errors.applicantNameTooLong', { max: 40 })],
      ['name with a newline', { ...body, name: 'Lin\nMei' }, 400, en('errors.applicantNameInvalid')],
      ['name with a direction override', { ...body, name: 'Lin \u202eieM' }, 400, en('errors.applicantNameInvalid')],
      ['name not text', { ...body, name: 42 }, 400, en('errors.invalidField', { field: en('fields.applicantName') })],
      ['no phone', without('phone'), 400, en('errors.phoneInvalid', { min: 6, max: 20 })],
      ['bad phone', { ...body, phone: '12-34' }, 400, en('errors.phoneInvalid', { min: 6, max: 20 })],
      ['letters in phone', { ...body, phone: '0912abc678' }, 400, en('errors.phoneInvalid', { min: 6, max: 20 })],
      ['no ID number', without('id_number'), 400, en('errors.idNumberRequired')],
      ['blank ID number', { ...body, id_number: '   ' }, 400, en('errors.idNumberRequired')],
      ['short ID number', { ...body, id_number: 'A12' }, 400, en('errors.idNumberInvalid', { min: 5, max: 20 })],
      ['ID number with a symbol', { ...body, id_number: 'A1234/5678' }, 400, en('errors.idNumberInvalid', { min: 5, max: 20 })],
      ['ID number with a tab', { ...body, id_number: 'A1234\t5678' }, 400, en('errors.idNumberInvalid', { min: 5, max: 20 })],
      ['no city', without('city'), 400, en('errors.cityRequired')],
      ['city too long', { ...body, city: 'c'.repeat(61) }, 400, en('errors.cityTooLong', { max: 60 })],
      ['city with a control character', { ...body, city: 'Tai\u0007pei' }, 400, en('errors.cityInvalid')],
      ['city with an isolate', { ...body, city: '\u2066Taipei' }, 400, en('errors.cityInvalid')],
      ['no ID front', without('id_front'), 400, en('errors.documentRequired', { document: doc('id_front') })],
      ['no driver licence', without('driver_licence'), 400, en('errors.documentRequired', { document: doc('driver_licence') })],
      ['one file for two documents', { ...body, driver_licence: body.id_front }, 400, en('errors.documentRepeated', { document: doc('driver_licence') })],
      ['not a key', { ...body, id_front: '../../etc/passwd' }, 400, en('errors.invalidField', { field: doc('id_front') })],
      ['remark too long', { ...body, remark: 'r'.repeat(201) }, 400, en('errors.remarkTooLong', { max: 200 })],
      ['remark past the schema bound', { ...body, remark: 'r'.repeat(801) }, 400, en('errors.remarkTooLong', { max: 200 })],
      ['city past the schema bound', { ...body, city: 'c'.repeat(241) }, 400, en('errors.cityTooLong', { max: 60 })],
      ['remark with a newline', { ...body, remark: 'line\nbreak' }, 400, en('errors.remarkInvalid')],
    ]
    for (const [label, b, status, msg] of cases) refused(await apply(s, me, b), status, msg, label)
    // In the caller's language.
    const tw = await apply(s, me, without('id_number'), { lang: 'TW' })
    expect(tw.body_.msg).toBe(translate('TW', 'errors.idNumberRequired'))
    expect(await state(s)).toEqual(before)
  })

  it('refuses a car that is not one: unknown, a device, a car taken off sale — 404, no change', async () => {
    const s = await start()
    const { me, body } = await ready(s)
    const device = (await s.get<PagedList<GoodsItem>>('/api/v1/machine/goodsList')).body_.data.list[0]!
    const before = await state(s)
    refused(await apply(s, me, { ...body, goods_id: 999_999 }), 404, en('errors.goodsNotFound'), 'unknown')
    refused(await apply(s, me, { ...body, goods_id: device.id }), 404, en('errors.goodsNotFound'), 'a device')
    await s.ctx.sql.run(statement('UPDATE products SET active = 0 WHERE id = ?'), body.goods_id)
    refused(await apply(s, me, body), 404, en('errors.goodsNotFound'), 'off sale')
    refused(await apply(s, me, { ...body, goods_id: 0 }), 400, en('errors.invalidField', { field: en('fields.goods_id') }), 'id 0')
    expect(await state(s)).toEqual(before)
  })

  it('refuses documents that are not the caller’s, not uploaded, for another purpose or already used — no change', async () => {
    const s = await start()
    const { me, body } = await ready(s)
    const other = await s.signIn(ROOT_CODE)
    const theirs = await uploaded(s, other)
    const notUploaded = (await presign(s, me, { purpose: 'car_apply', content_type: 'image/png', size: PNG.length })).body_.data.key
    const missing = body.id_front.replace(/[0-9a-f]{32}/, '0'.repeat(32))
    // A file of the caller uploaded for another purpose (none other exists yet: written as one would be).
    const elsewhere = `u/${me.userId}/avatar/${'a'.repeat(32)}.png`
    await s.ctx.sql.run(statement("INSERT INTO uploads (key, user_id, purpose, content_type, size, store, created_at, expires_at, uploaded_at) VALUES (?, ?, 'avatar', 'image/png', ?, 'local', ?, ?, ?)"), elsewhere, me.userId, PNG.length, T0, T0 + 600_000, T0)
    const before = await state(s)
    refused(await apply(s, me, { ...body, id_front: theirs }), 404, en('errors.documentNotFound', { document: doc('id_front') }), 'another user’s')
    refused(await apply(s, me, { ...body, id_back: missing }), 404, en('errors.documentNotFound', { document: doc('id_back') }), 'no such key')
    refused(await apply(s, me, { ...body, driver_licence: notUploaded }), 409, en('errors.documentNotUploaded', { document: doc('driver_licence') }), 'not uploaded')
    refused(await apply(s, me, { ...body, id_front: elsewhere }), 400, en('errors.documentWrongPurpose', { document: doc('id_front') }), 'another purpose')
    expect(await state(s)).toEqual(before)

    // Used in an application: a second application with one of its files is refused, nothing taken.
    expect((await apply(s, me, body)).statusCode).toBe(200)
    const after = await state(s)
    const fresh = { ...body, id_back: await uploaded(s, me), driver_licence: await uploaded(s, me) }
    const withFresh = await state(s)
    refused(await apply(s, me, fresh), 409, en('errors.documentUsed', { document: doc('id_front') }), 'used')
    expect(await state(s)).toEqual(withFresh)
    expect(after.applications).toEqual(withFresh.applications)
    // The other user cannot use them either (they are not theirs).
    refused(await apply(s, other, { ...body, id_front: await uploaded(s, other), id_back: undefined, driver_licence: body.driver_licence }), 404, en('errors.documentNotFound', { document: doc('driver_licence') }))
  })

  it('two requests racing for one file: one application gets it, the other is refused and takes nothing', async () => {
    const s = await start()
    const { me, body } = await ready(s)
    const b2 = { ...body, id_back: await uploaded(s, me), driver_licence: await uploaded(s, me) }
    const [r1, r2] = await Promise.all([apply(s, me, body), apply(s, me, b2)])
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 409])
    expect(await s.count('SELECT count(*) FROM car_applications')).toBe(1)
    const loser = r1.statusCode === 409 ? body : b2
    expect(await s.count('SELECT count(*) FROM uploads WHERE used_by IS NOT NULL')).toBe(3)
    expect(await s.count('SELECT count(*) FROM uploads WHERE used_by IS NULL AND key IN (?, ?)', loser.id_back, loser.driver_licence)).toBe(2)
  })

  it('refuses more applications waiting than the limit (409); a decided one frees a place', async () => {
    const s = await start({ env: { NADI_CAR_APPLY_MAX_OPEN: '2' } })
    const me = await s.signIn(ROOT_CODE)
    const ids: number[] = []
    for (let i = 0; i < 2; i++) {
      const { body } = await ready(s, me)
      const r = await apply(s, me, body)
      expect(r.statusCode).toBe(200)
      ids.push(r.body_.data.id)
    }
    const { body } = await ready(s, me)
    const before = await state(s)
    refused(await apply(s, me, body), 409, en('errors.carApplyLimit', { max: 2 }))
    expect(await state(s)).toEqual(before)
    // Another user has their own places.
    const other = await ready(s)
    expect((await apply(s, other.me, other.body)).statusCode).toBe(200)
    // The operator rejects one: the same files now make an application.
    expect((await runCli(s, 'car', 'reject', String(ids[0]), 'Blurred', 'photo')).code).toBe(0)
    expect((await apply(s, me, body)).statusCode).toBe(200)
  })

  it('the OpenAPI document lists the upload and car application calls', async () => {
    const s = await start()
    const doc = JSON.parse((await s.inject({ method: 'GET', url: '/api/docs/json' })).body) as { paths: Record<string, Record<string, unknown>> }
    expect(Object.keys(doc.paths['/api/v1/common/generateR2PresignedUrl'] ?? {})).toContain('post')
    expect(Object.keys(doc.paths['/api/v1/car/apply'] ?? {})).toContain('post')
    expect(Object.keys(doc.paths['/api/v1/car/applyList'] ?? {})).toContain('get')
    expect(Object.keys(doc.paths['/api/v1/common/uploadFile'] ?? {})).toContain('get')
  })

  it('a visitor is refused (401)', async () => {
    const s = await start()
    const { body } = await ready(s)
    refused(await s.post('/api/v1/car/apply', body, { lang: 'EN', idempotencyKey: idemKey() }), 401, en('errors.loginRequired'))
    refused(await s.get('/api/v1/car/applyList', { lang: 'EN' }), 401, en('errors.loginRequired'))
  })
})

describe('the operator moves applications (server/cli.ts car …) and car/applyList shows them', () => {
  it('submitted → reviewing → approved; another submitted → rejected with its reason; wrong moves are refused', async () => {
    const s = await start()
    const { me, body } = await ready(s)
    const a = (await apply(s, me, body)).body_.data
    const second = await ready(s, me)
    const b = (await apply(s, me, second.body)).body_.data

    const listed = await runCli(s, 'car', 'list')
    expect(listed.code).toBe(0)
    expect(listed.out).toContain(`#${a.id}  submitted  user ${me.userId}`)
    expect(listed.out).toContain(`#${b.id}  submitted`)
    expect(listed.out).toContain(body.id_front)

    expect(await runCli(s, 'car', 'review', String(a.id))).toMatchObject({ code: 0, out: `car application #${a.id} reviewing\n` })
    expect((await list(s, me)).body_.data.list.find((x) => x.id === a.id)?.status).toBe('reviewing')
    expect(await runCli(s, 'car', 'review', String(a.id))).toMatchObject({ code: 1, err: `car review: car application #${a.id} is reviewing, not submitted\n` })
    expect(await runCli(s, 'car', 'approve', String(a.id))).toMatchObject({ code: 0, out: `car application #${a.id} approved\n` })
    expect(await runCli(s, 'car', 'reject', String(a.id), 'too', 'late')).toMatchObject({ code: 1, err: `car reject: car application #${a.id} is approved, not submitted or reviewing\n` })

    expect((await runCli(s, 'car', 'reject', String(b.id))).code).toBe(2)
    expect(await runCli(s, 'car', 'reject', String(b.id), 'The', 'licence', 'photo', 'is', 'blurred')).toMatchObject({ code: 0, out: `car application #${b.id} rejected: The licence photo is blurred\n` })
    expect((await runCli(s, 'car', 'approve', '999')).err).toBe('car approve: no car application #999\n')
    expect((await runCli(s, 'car', 'approve', 'x1')).code).toBe(2)
    expect((await runCli(s, 'car', 'list', '--status', 'nope')).code).toBe(2)

    const all = (await list(s, me)).body_.data
    expect(all.total).toBe(2)
    expect(all.list.map((x) => [x.id, x.status, x.reason])).toEqual([
      [b.id, 'rejected', 'The licence photo is blurred'],
      [a.id, 'approved', null],
    ])
    expect((await list(s, me, '?status=approved')).body_.data).toMatchObject({ total: 1, list: [{ id: a.id }] })
    expect((await list(s, me, '?page=2&page_size=1')).body_.data).toMatchObject({ total: 2, list: [{ id: a.id }] })
    expect((await runCli(s, 'car', 'list')).out).toBe('no car applications (submitted, reviewing)\n')
    expect((await runCli(s, 'car', 'list', '--status', 'all')).out).toContain('reason: The licence photo is blurred')
    // Nobody else sees them.
    expect((await list(s, await s.signIn(ROOT_CODE))).body_.data).toEqual({ total: 0, list: [] })
  })
})
