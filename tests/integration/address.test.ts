import { describe, expect, it } from 'vitest'
import { ROOT_CODE, T0, idemKey, localeText, useServers, type Res, type SignedIn, type TestServer } from './support/server.ts'
import type { Address } from '../../contract/address.ts'
import { statement } from '../../server/db/query/types.ts'
import { numbers } from '../support/rows.ts'

const start = useServers()

const BASE = '/api/v1/address'
const LANGS = [
  ['EN', 'en'],
  ['TW', 'tw'],
] as const

/** A valid form; `over` changes or (with undefined) removes fields. */
function form(over: Record<string, unknown> = {}): Record<string, unknown> {
  const f: Record<string, unknown> = { name: 'Chen Mei', phone: '0912-345-678', area: 'Taipei City, Da’an District', address: 'No. 1, Sec. 4, Roosevelt Rd., 3F', is_default: false, ...over }
  for (const k of Object.keys(f)) if (f[k] === undefined) delete f[k]
  return f
}

/** The address calls as one signed-in user. */
function as(s: TestServer, me: SignedIn, lang = 'EN') {
  const o = { token: me.token, lang }
  return {
    list: () => s.get<Address[]>(`${BASE}/addressList`, o),
    detail: (id: number | string) => s.get<Address>(`${BASE}/addressDetail?id=${id}`, o),
    getDefault: () => s.get<Address | null>(`${BASE}/getDefaultAddress`, o),
    add: (body: unknown, key?: string) => s.post<Address>(`${BASE}/addAddress`, body, { ...o, ...(key ? { idempotencyKey: key } : {}) }),
    edit: (body: unknown, key?: string) => s.post<Address>(`${BASE}/editAddress`, body, { ...o, ...(key ? { idempotencyKey: key } : {}) }),
    setDefault: (body: unknown, key?: string) => s.post<null>(`${BASE}/setDefaultAddress`, body, { ...o, ...(key ? { idempotencyKey: key } : {}) }),
    remove: (body: unknown, key?: string) => s.post<null>(`${BASE}/deleteAddress`, body, { ...o, ...(key ? { idempotencyKey: key } : {}) }),
  }
}

/** Adds an address and answers its id, one second after the previous one so "newest" is clear. */
async function addOk(s: TestServer, me: SignedIn, over: Record<string, unknown> = {}): Promise<number> {
  s.clock.advance(1000)
  const res = await as(s, me).add(form(over))
  if (res.statusCode !== 200) throw new Error(`addAddress answered ${res.statusCode}: ${res.body}`)
  return res.body_.data.id
}

/** Every address row, to prove a refused request changed nothing. */
const snapshot = async (s: TestServer) => (await s.ctx.sql.all(statement<Record<string, unknown>>('SELECT * FROM addresses ORDER BY id'))).map((r) => numbers(r))
const rowsOf = (s: TestServer, userId: number) => s.count('SELECT COUNT(*) FROM addresses WHERE user_id = ?', userId)
const defaultsOf = (s: TestServer, userId: number) => s.count('SELECT COUNT(*) FROM addresses WHERE user_id = ? AND is_default = 1', userId)
const defaultIdOf = (s: TestServer, userId: number) => s.count('SELECT id FROM addresses WHERE user_id = ? AND is_default = 1', userId)

/** A locale text with its {{params}} filled, as the server fills them. */
function text(file: string, key: string, params: Record<string, string | number> = {}): string {
  return localeText(file, key).replace(/\{\{\s*(\w+)\s*\}\}/g, (_, n: string) => String(params[n] ?? ''))
}
const invalidField = (file: string, field: string) => text(file, 'errors.invalidField', { field: localeText(file, `fields.${field}`) })
const PHONE = { min: 6, max: 20 }

function expectRefused(res: Res, status: number, msg: string, label: string) {
  expect(res.statusCode, label).toBe(status)
  expect(res.body_, label).toEqual({ code: status, msg, data: null })
}

/** The invariant the address book keeps: a user with addresses has exactly one default, else none. */
async function expectOneDefault(s: TestServer, userId: number, label = '') {
  expect(await defaultsOf(s, userId), label).toBe(await rowsOf(s, userId) > 0 ? 1 : 0)
}

describe('POST /api/v1/address/addAddress', () => {
  it('saves an address for the caller and answers it with trimmed text, the full normalized phone and timestamps', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const res = await as(s, me).add(form({ name: '  Chen Mei  ', phone: ' +886 (912) 345-678 ', area: '\tTaipei City ', address: ' No. 1, 3F ' }))
    expect(res.statusCode).toBe(200)
    const id = res.body_.data.id
    expect(res.body_).toEqual({
      code: 200,
      msg: localeText('en', 'api.ok'),
      data: { id, name: 'Chen Mei', phone: '+886912345678', area: 'Taipei City', address: 'No. 1, 3F', is_default: true, created_at: T0, updated_at: T0 },
    })
    expect(numbers(await s.ctx.sql.get(statement<{ user_id: unknown; name: unknown; phone: unknown; area: unknown; address: unknown; is_default: unknown }>('SELECT user_id, name, phone, area, address, is_default FROM addresses WHERE id = ?'), id))).toEqual({
      user_id: me.userId,
      name: 'Chen Mei',
      phone: '+886912345678',
      area: 'Taipei City',
      address: 'No. 1, 3F',
      is_default: 1,
    })
  })

  it('the first address becomes the default even when is_default is false; later ones do not unless asked', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const first = await as(s, me).add(form({ is_default: false }))
    expect(first.body_.data.is_default).toBe(true)
    const second = await as(s, me).add(form({ is_default: false }))
    expect(second.body_.data.is_default).toBe(false)
    expect(await defaultIdOf(s, me.userId)).toBe(first.body_.data.id)
  })

  it('is_default true on a new address moves the default to it and takes the flag off the old one', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const old = await addOk(s, me)
    const res = await as(s, me).add(form({ is_default: true }))
    expect(res.body_.data.is_default).toBe(true)
    expect(await defaultIdOf(s, me.userId)).toBe(res.body_.data.id)
    expect((await as(s, me).detail(old)).body_.data).toMatchObject({ is_default: false, updated_at: T0 + 1000 })
    await expectOneDefault(s, me.userId)
  })

  it('is_default may be left out: it means false', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await addOk(s, me)
    const res = await as(s, me).add(form({ is_default: undefined }))
    expect(res.statusCode).toBe(200)
    expect(res.body_.data.is_default).toBe(false)
  })

  it('a phone is stored as an optional + and its digits: spaces, dashes, dots, brackets and full-width forms are folded', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    for (const [typed, stored] of [
      ['0912345678', '0912345678'],
      ['(02) 2345-6789', '0223456789'],
      ['+1 (555) 010-9999', '+15550109999'],
      ['+60 12.345.6789', '+60123456789'],
      ['＋８８６ ９１２ ３４５ ６７８', '+886912345678'],
      ['123456', '123456'],
      ['+12345678901234567890', '+12345678901234567890'],
    ] as const) {
      const res = await as(s, me).add(form({ phone: typed }))
      expect(res.statusCode, typed).toBe(200)
      expect(res.body_.data.phone, typed).toBe(stored)
    }
  })

  it('a name, area and address at their limits (40, 100, 200 characters after trimming; an emoji or CJK character counts once) are accepted', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const res = await as(s, me).add(form({ name: ` ${'陳'.repeat(39)}😀 `, area: `${'a'.repeat(100)}  `, address: '路'.repeat(200) }))
    expect(res.statusCode).toBe(200)
    expect(Array.from(res.body_.data.name)).toHaveLength(40)
    expect(res.body_.data.area).toBe('a'.repeat(100))
    expect(res.body_.data.address).toBe('路'.repeat(200))
  })

  it('a user keeps at most 20 addresses: the 21st is refused with 409 and a message naming the limit; after a delete one fits again', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const ids: number[] = []
    for (let i = 0; i < 20; i++) ids.push(await addOk(s, me, { name: `R${i}` }))
    const before = await snapshot(s)
    for (const [lang, file] of LANGS) {
      const res = await as(s, me, lang).add(form({ name: 'one too many' }))
      expectRefused(res, 409, text(file, 'errors.addressLimit', { max: 20 }), lang)
    }
    expect(await snapshot(s)).toEqual(before)
    // Another user is not affected by my limit.
    const other = await s.signIn(ROOT_CODE)
    expect((await as(s, other).add(form())).statusCode).toBe(200)

    expect((await as(s, me).remove({ id: ids[5] })).statusCode).toBe(200)
    expect((await as(s, me).add(form())).statusCode).toBe(200)
    expect(await rowsOf(s, me.userId)).toBe(20)
  })

  it('two adds sent at once at 19 addresses: one is saved, the other gets the 409, never 21', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    for (let i = 0; i < 19; i++) await addOk(s, me)
    const results = await Promise.all([as(s, me).add(form()), as(s, me).add(form())])
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(await rowsOf(s, me.userId)).toBe(20)
  })

  it('the same Idempotency-Key sent twice creates one address; the second answer is the replay of the first', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    const first = await as(s, me).add(form(), key)
    const second = await as(s, me).add(form(), key)
    expect(first.statusCode).toBe(200)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    expect(second.statusCode).toBe(200)
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(second.body).toBe(first.body)
    expect(await rowsOf(s, me.userId)).toBe(1)
    // A new key is a new address.
    expect((await as(s, me).add(form(), idemKey())).headers['idempotent-replayed']).toBeUndefined()
    expect(await rowsOf(s, me.userId)).toBe(2)
  })
})

describe('address input rules (SPEC §5)', () => {
  /** Bad forms and the message each must get, for addAddress and editAddress alike. */
  const BAD: [label: string, over: Record<string, unknown>, msg: (file: string) => string][] = [
    // Missing fields say what to fill in.
    ['missing name', { name: undefined }, (f) => localeText(f, 'errors.addressNameRequired')],
    ['missing phone', { phone: undefined }, (f) => text(f, 'errors.phoneInvalid', PHONE)],
    ['missing area', { area: undefined }, (f) => localeText(f, 'errors.areaRequired')],
    ['missing address', { address: undefined }, (f) => localeText(f, 'errors.addressDetailRequired')],
    // Blank after trimming is missing too.
    ['empty name', { name: '' }, (f) => localeText(f, 'errors.addressNameRequired')],
    ['blank name', { name: '   ' }, (f) => localeText(f, 'errors.addressNameRequired')],
    ['full-width-space name', { name: '\u3000\u3000' }, (f) => localeText(f, 'errors.addressNameRequired')],
    ['blank phone', { phone: '  ' }, (f) => text(f, 'errors.phoneInvalid', PHONE)],
    ['blank area', { area: '\t \n' }, (f) => localeText(f, 'errors.areaRequired')],
    ['blank address', { address: ' ' }, (f) => localeText(f, 'errors.addressDetailRequired')],
    ['area of only a zero-width space', { area: '\u200b' }, (f) => localeText(f, 'errors.areaRequired')],
    ['name of zero-width characters', { name: ' \u200c\u200d\ufeff ' }, (f) => localeText(f, 'errors.addressNameRequired')],
    // Control characters and text-direction overrides: the field's own message.
    ['name with a newline', { name: 'Wang\nFang' }, (f) => localeText(f, 'errors.addressNameInvalid')],
    ['name with a NUL', { name: 'Wang\u0000Fang' }, (f) => localeText(f, 'errors.addressNameInvalid')],
    ['area with a right-to-left override', { area: 'Taipei \u202egpj.exe' }, (f) => localeText(f, 'errors.areaInvalid')],
    ['area with a bidi isolate', { area: '\u2066Taipei\u2069' }, (f) => localeText(f, 'errors.areaInvalid')],
    ['address with a tab', { address: 'No. 1\tFloor 2' }, (f) => localeText(f, 'errors.addressDetailInvalid')],
    ['address with a C1 control', { address: 'No. 1\u0085' }, (f) => localeText(f, 'errors.addressDetailInvalid')],
    // Phones that are not an optional + and 6–20 digits.
    ['5-digit phone', { phone: '12-345' }, (f) => text(f, 'errors.phoneInvalid', PHONE)],
    ['21-digit phone', { phone: '1'.repeat(21) }, (f) => text(f, 'errors.phoneInvalid', PHONE)],
    ['phone with letters', { phone: '0912abc678' }, (f) => text(f, 'errors.phoneInvalid', PHONE)],
    ['phone with + inside', { phone: '0912+345678' }, (f) => text(f, 'errors.phoneInvalid', PHONE)],
    ['phone with two +', { phone: '++886912345678' }, (f) => text(f, 'errors.phoneInvalid', PHONE)],
    ['phone of only +', { phone: '+' }, (f) => text(f, 'errors.phoneInvalid', PHONE)],
    ['phone padded past 40 characters', { phone: `0912${' '.repeat(40)}345678` }, (f) => text(f, 'errors.phoneInvalid', PHONE)],
    // Oversized text names the limit.
    ['41-character name', { name: 'n'.repeat(41) }, (f) => text(f, 'errors.addressNameTooLong', { max: 40 })],
    ['101-character area', { area: '區'.repeat(101) }, (f) => text(f, 'errors.areaTooLong', { max: 100 })],
    ['201-character address', { address: 'x'.repeat(201) }, (f) => text(f, 'errors.addressDetailTooLong', { max: 200 })],
    ['10 000-character address', { address: 'x'.repeat(10_000) }, (f) => text(f, 'errors.addressDetailTooLong', { max: 200 })],
    // Wrong types name the field.
    ['number for name', { name: 123 }, (f) => invalidField(f, 'recipientName')],
    ['number for phone', { phone: 912345678 }, (f) => invalidField(f, 'phone')],
    ['null area', { area: null }, (f) => invalidField(f, 'area')],
    ['array for address', { address: ['No. 1'] }, (f) => invalidField(f, 'addressDetail')],
    ['string for is_default', { is_default: 'true' }, (f) => invalidField(f, 'is_default')],
    ['number for is_default', { is_default: 1 }, (f) => invalidField(f, 'is_default')],
  ]

  it('addAddress refuses each bad form with 400 and the localized message that names the problem, and saves nothing', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await addOk(s, me)
    const before = await snapshot(s)
    for (const [label, over, msg] of BAD) {
      for (const [lang, file] of LANGS) {
        expectRefused(await as(s, me, lang).add(form(over)), 400, msg(file), `${label} (${lang})`)
      }
    }
    expect(await snapshot(s)).toEqual(before)
    expect(await rowsOf(s, me.userId)).toBe(1)
  })

  it('editAddress refuses each bad form with 400 and the same messages, and changes nothing', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const id = await addOk(s, me)
    await addOk(s, me)
    const before = await snapshot(s)
    for (const [label, over, msg] of BAD) {
      for (const [lang, file] of LANGS) {
        expectRefused(await as(s, me, lang).edit({ ...form(over), id, is_default: over.is_default ?? true }), 400, msg(file), `${label} (${lang})`)
      }
    }
    expect(await snapshot(s)).toEqual(before)
  })

  it('a body that is not a JSON object is refused with 400 naming the request body', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const before = await snapshot(s)
    for (const [lang, file] of LANGS) {
      for (const json of ['[]', '"name"', '42', 'null']) {
        const res = await s.post(`${BASE}/addAddress`, json, { token: me.token, lang, headers: { 'content-type': 'application/json' } })
        expectRefused(res, 400, invalidField(file, 'body'), `${json} (${lang})`)
      }
      expectRefused(await s.post(`${BASE}/addAddress`, undefined, { token: me.token, lang }), 400, invalidField(file, 'body'), `no body (${lang})`)
    }
    expect(await snapshot(s)).toEqual(before)
  })
})

describe('ids that are not a positive integer', () => {
  // Bodies are strict: a string id is refused even when it holds digits.
  const BAD_BODY_IDS: [string, unknown][] = [
    ['missing', undefined],
    ['0', 0],
    ['-1', -1],
    ['1.5', 1.5],
    ['"1" (a string)', '1'],
    ['null', null],
    ['2^53', 2 ** 53],
  ]

  it('editAddress, setDefaultAddress and deleteAddress refuse them with 400 naming the ID, and change nothing', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const id = await addOk(s, me)
    await addOk(s, me)
    const before = await snapshot(s)
    const api = (lang: string) => as(s, me, lang)
    for (const [label, badId] of BAD_BODY_IDS) {
      for (const [lang, file] of LANGS) {
        const msg = invalidField(file, 'id')
        const withId = (b: Record<string, unknown>) => (badId === undefined ? b : { ...b, id: badId })
        expectRefused(await api(lang).edit(withId(form())), 400, msg, `edit ${label} (${lang})`)
        expectRefused(await api(lang).setDefault(withId({})), 400, msg, `setDefault ${label} (${lang})`)
        expectRefused(await api(lang).remove(withId({})), 400, msg, `delete ${label} (${lang})`)
      }
    }
    expect(await snapshot(s)).toEqual(before)
    expect(await defaultIdOf(s, me.userId)).toBe(id)
  })

  it('addressDetail refuses ?id= 0, -1, 1.5, abc, empty or missing with 400 naming the ID', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await addOk(s, me)
    for (const [lang, file] of LANGS) {
      for (const id of ['0', '-1', '1.5', 'abc', '']) {
        expectRefused(await as(s, me, lang).detail(id), 400, invalidField(file, 'id'), `${id} (${lang})`)
      }
      expectRefused(await s.get(`${BASE}/addressDetail`, { token: me.token, lang }), 400, invalidField(file, 'id'), `missing (${lang})`)
    }
  })
})

describe('GET /api/v1/address/addressList, addressDetail and getDefaultAddress', () => {
  it('the list holds the caller’s addresses, the default first, then newest first', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    expect((await as(s, me).list()).body_).toEqual({ code: 200, msg: localeText('en', 'api.ok'), data: [] })
    const a = await addOk(s, me)
    const b = await addOk(s, me)
    const c = await addOk(s, me)
    expect((await as(s, me).list()).body_.data.map((x) => x.id)).toEqual([a, c, b])
    await as(s, me).setDefault({ id: b })
    const list = (await as(s, me).list()).body_.data
    expect(list.map((x) => [x.id, x.is_default])).toEqual([
      [b, true],
      [c, false],
      [a, false],
    ])
  })

  it('addressDetail answers one address exactly as the list shows it', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await addOk(s, me)
    const id = await addOk(s, me, { name: 'Lin Wei', phone: '+66 81 234 5678', area: 'Bangkok', address: '99 Sukhumvit Rd' })
    const res = await as(s, me).detail(id)
    expect(res.statusCode).toBe(200)
    expect(res.body_.data).toEqual({ id, name: 'Lin Wei', phone: '+66812345678', area: 'Bangkok', address: '99 Sukhumvit Rd', is_default: false, created_at: T0 + 2000, updated_at: T0 + 2000 })
    expect((await as(s, me).list()).body_.data.find((x) => x.id === id)).toEqual(res.body_.data)
  })

  it('addressDetail of an id that does not exist answers 404 with a localized message', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    for (const [lang, file] of LANGS) expectRefused(await as(s, me, lang).detail(999_999), 404, localeText(file, 'errors.addressNotFound'), lang)
  })

  it('getDefaultAddress answers null without addresses, then the default', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const none = await as(s, me).getDefault()
    expect(none.statusCode).toBe(200)
    expect(none.body_.data).toBeNull()
    const a = await addOk(s, me)
    const b = await addOk(s, me)
    expect((await as(s, me).getDefault()).body_.data?.id).toBe(a)
    await as(s, me).setDefault({ id: b })
    const res = await as(s, me).getDefault()
    expect(res.body_.data).toEqual((await as(s, me).detail(b)).body_.data)
    expect(res.body_.data?.is_default).toBe(true)
  })
})

describe('POST /api/v1/address/editAddress', () => {
  it('replaces the fields, normalizes the phone, moves updated_at and keeps created_at', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const id = await addOk(s, me)
    s.clock.advance(60_000)
    const res = await as(s, me).edit({ id, name: ' Wang Fang ', phone: '+81 90-1234-5678', area: 'Tokyo', address: '1-2-3 Shibuya', is_default: true })
    expect(res.statusCode).toBe(200)
    expect(res.body_.data).toEqual({ id, name: 'Wang Fang', phone: '+819012345678', area: 'Tokyo', address: '1-2-3 Shibuya', is_default: true, created_at: T0 + 1000, updated_at: T0 + 61_000 })
    expect((await as(s, me).detail(id)).body_.data).toEqual(res.body_.data)
  })

  it('is_default true moves the default to the edited address', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const a = await addOk(s, me)
    const b = await addOk(s, me)
    const res = await as(s, me).edit({ ...form(), id: b, is_default: true })
    expect(res.body_.data.is_default).toBe(true)
    expect(await defaultIdOf(s, me.userId)).toBe(b)
    expect((await as(s, me).detail(a)).body_.data.is_default).toBe(false)
    await expectOneDefault(s, me.userId)
  })

  it('is_default false (or left out) never takes the flag off the default: it moves only to another address', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const a = await addOk(s, me)
    const b = await addOk(s, me)
    expect((await as(s, me).edit({ ...form({ name: 'Renamed' }), id: a, is_default: false })).body_.data).toMatchObject({ name: 'Renamed', is_default: true })
    expect((await as(s, me).edit({ ...form({ is_default: undefined }), id: a })).body_.data.is_default).toBe(true)
    expect((await as(s, me).edit({ ...form(), id: b, is_default: false })).body_.data.is_default).toBe(false)
    expect(await defaultIdOf(s, me.userId)).toBe(a)
    await expectOneDefault(s, me.userId)
  })

  it('an id that does not exist answers 404 and changes nothing', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await addOk(s, me)
    const before = await snapshot(s)
    for (const [lang, file] of LANGS) expectRefused(await as(s, me, lang).edit({ ...form(), id: 999_999 }), 404, localeText(file, 'errors.addressNotFound'), lang)
    expect(await snapshot(s)).toEqual(before)
  })
})

describe('one default at all times', () => {
  it('setDefaultAddress moves the flag in one step; setting the current default again changes nothing', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const a = await addOk(s, me)
    const b = await addOk(s, me)
    s.clock.advance(5000)
    const res = await as(s, me).setDefault({ id: b })
    expect(res.statusCode).toBe(200)
    expect(res.body_.data).toBeNull()
    expect(await defaultIdOf(s, me.userId)).toBe(b)
    expect((await as(s, me).detail(a)).body_.data).toMatchObject({ is_default: false, updated_at: T0 + 7000 })
    expect((await as(s, me).detail(b)).body_.data).toMatchObject({ is_default: true, updated_at: T0 + 7000 })
    const before = await snapshot(s)
    s.clock.advance(5000)
    expect((await as(s, me).setDefault({ id: b })).statusCode).toBe(200)
    expect(await snapshot(s)).toEqual(before)
  })

  it('setDefaultAddress of an id that does not exist answers 404 and leaves the default where it was', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const a = await addOk(s, me)
    for (const [lang, file] of LANGS) expectRefused(await as(s, me, lang).setDefault({ id: 999_999 }), 404, localeText(file, 'errors.addressNotFound'), lang)
    expect(await defaultIdOf(s, me.userId)).toBe(a)
  })

  it('deleting the default makes the newest remaining address the default', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const a = await addOk(s, me)
    const b = await addOk(s, me)
    const c = await addOk(s, me)
    await as(s, me).setDefault({ id: b })
    const res = await as(s, me).remove({ id: b })
    expect(res.statusCode).toBe(200)
    expect(res.body_.data).toBeNull()
    expect(await defaultIdOf(s, me.userId)).toBe(c)
    expect((await as(s, me).list()).body_.data.map((x) => [x.id, x.is_default])).toEqual([
      [c, true],
      [a, false],
    ])
  })

  it('deleting an address that is not the default leaves the default where it is', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const a = await addOk(s, me)
    const b = await addOk(s, me)
    await as(s, me).remove({ id: b })
    expect(await defaultIdOf(s, me.userId)).toBe(a)
    expect(await rowsOf(s, me.userId)).toBe(1)
    expect((await as(s, me).detail(b)).statusCode).toBe(404)
  })

  it('deleting the last address leaves none and no default; the next one added is the default again', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const a = await addOk(s, me)
    await as(s, me).remove({ id: a })
    expect(await rowsOf(s, me.userId)).toBe(0)
    expect((await as(s, me).getDefault()).body_.data).toBeNull()
    const b = await addOk(s, me, { is_default: false })
    expect(await defaultIdOf(s, me.userId)).toBe(b)
  })

  it('deleteAddress of an id that does not exist answers 404 and changes nothing', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await addOk(s, me)
    const before = await snapshot(s)
    for (const [lang, file] of LANGS) expectRefused(await as(s, me, lang).remove({ id: 999_999 }), 404, localeText(file, 'errors.addressNotFound'), lang)
    expect(await snapshot(s)).toEqual(before)
  })

  it('holds after every step of a mixed run of adds, edits, set-defaults and deletes', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const api = as(s, me)
    const ids: number[] = []
    const check = async (step: string) => {
      await expectOneDefault(s, me.userId, step)
      const list = (await api.list()).body_.data
      const def = (await api.getDefault()).body_.data
      expect(list.filter((x) => x.is_default).length, step).toBe(list.length > 0 ? 1 : 0)
      expect(def?.id ?? null, step).toBe(list.length > 0 ? list[0]?.id : null)
    }
    await check('empty')
    for (let i = 0; i < 6; i++) {
      ids.push(await addOk(s, me, { is_default: i % 3 === 2 }))
      await check(`add ${i}`)
    }
    for (const id of [ids[1], ids[4], ids[0]]) {
      await api.setDefault({ id })
      await check(`setDefault ${id}`)
    }
    await api.edit({ ...form(), id: ids[3], is_default: true })
    await check('edit to default')
    await api.edit({ ...form(), id: ids[3], is_default: false })
    await check('edit default with false')
    for (const id of [ids[3], ids[5], ids[0], ids[2], ids[1], ids[4]]) {
      await api.remove({ id })
      await check(`delete ${id}`)
    }
    expect(await rowsOf(s, me.userId)).toBe(0)
  })

  it('concurrent first adds of a new user still end with exactly one default', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => as(s, me).add(form({ name: `R${i}` }))))
    expect(results.every((r) => r.statusCode === 200)).toBe(true)
    expect(results.filter((r) => r.body_.data.is_default)).toHaveLength(1)
    expect(await rowsOf(s, me.userId)).toBe(8)
    await expectOneDefault(s, me.userId)
  })

  it('each action is one transaction: a failure after the old default lost its flag puts everything back', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const a = await addOk(s, me)
    const b = await addOk(s, me, { name: 'Fails to become default' })
    // Fault injection: the step that gives an address the flag fails, after the old default was cleared.
    const faults =
      s.ctx.sql.dialect === 'postgres'
        ? [
            `CREATE FUNCTION fail_injected() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$`,
            `CREATE TRIGGER fail_insert BEFORE INSERT ON addresses FOR EACH ROW WHEN (NEW.name = 'Fails') EXECUTE FUNCTION fail_injected()`,
            `CREATE TRIGGER fail_flag BEFORE UPDATE OF is_default ON addresses FOR EACH ROW WHEN (NEW.is_default = 1 AND NEW.name LIKE 'Fails%') EXECUTE FUNCTION fail_injected()`,
          ]
        : [
            `CREATE TRIGGER fail_insert BEFORE INSERT ON addresses WHEN NEW.name = 'Fails' BEGIN SELECT RAISE(ABORT, 'injected'); END`,
            `CREATE TRIGGER fail_flag BEFORE UPDATE OF is_default ON addresses WHEN NEW.is_default = 1 AND NEW.name LIKE 'Fails%' BEGIN SELECT RAISE(ABORT, 'injected'); END`,
          ]
    for (const f of faults) await s.ctx.sql.run(statement(f))
    const before = await snapshot(s)
    expect((await as(s, me).add(form({ name: 'Fails', is_default: true }))).statusCode).toBe(500)
    expect(await snapshot(s)).toEqual(before)
    expect((await as(s, me).setDefault({ id: b })).statusCode).toBe(500)
    expect(await snapshot(s)).toEqual(before)
    // Deleting the default hands the flag to b, which fails: the delete is undone too.
    expect((await as(s, me).remove({ id: a })).statusCode).toBe(500)
    expect(await snapshot(s)).toEqual(before)
    expect(await defaultIdOf(s, me.userId)).toBe(a)
  })

  it('the database itself refuses a second default for one user', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await addOk(s, me)
    await expect(
      s.ctx.sql.run(statement("INSERT INTO addresses (user_id, name, phone, area, address, is_default, created_at, updated_at) VALUES (?, 'x', '123456', 'a', 'b', 1, 0, 0)"), me.userId),
    ).rejects.toThrow(/unique constraint/i) // SQLite: "UNIQUE constraint failed", PostgreSQL: "violates unique constraint"
  })
})

describe('each user sees and changes only their own addresses', () => {
  it('lists and the default show only the caller’s own addresses', async () => {
    const s = await start()
    const alice = await s.signIn(ROOT_CODE)
    const bob = await s.signIn(ROOT_CODE)
    const a1 = await addOk(s, alice)
    const a2 = await addOk(s, alice)
    const b1 = await addOk(s, bob)
    expect((await as(s, alice).list()).body_.data.map((x) => x.id)).toEqual([a1, a2])
    expect((await as(s, bob).list()).body_.data.map((x) => x.id)).toEqual([b1])
    expect((await as(s, bob).getDefault()).body_.data?.id).toBe(b1)
    // Bob's first address became his default without touching Alice's.
    expect(await defaultIdOf(s, alice.userId)).toBe(a1)
  })

  it('another user’s id answers 404 exactly like a missing one on detail, edit, set-default and delete, and nothing changes', async () => {
    const s = await start()
    const alice = await s.signIn(ROOT_CODE)
    const bob = await s.signIn(ROOT_CODE)
    await addOk(s, alice)
    const alicesOther = await addOk(s, alice)
    await addOk(s, bob)
    const before = await snapshot(s)
    const missing = 999_999
    for (const [lang, file] of LANGS) {
      const bobApi = as(s, bob, lang)
      const attempts: [string, (id: number) => Promise<Res>][] = [
        ['detail', (id) => bobApi.detail(id)],
        ['edit', (id) => bobApi.edit({ ...form({ name: 'Mallory' }), id, is_default: true })],
        ['setDefault', (id) => bobApi.setDefault({ id })],
        ['delete', (id) => bobApi.remove({ id })],
      ]
      for (const [label, call] of attempts) {
        const foreign = await call(alicesOther)
        const absent = await call(missing)
        expectRefused(foreign, 404, localeText(file, 'errors.addressNotFound'), `${label} (${lang})`)
        expect(foreign.body, `${label} (${lang})`).toBe(absent.body)
      }
    }
    expect(await snapshot(s)).toEqual(before)
    expect((await as(s, alice).detail(alicesOther)).body_.data.name).toBe('Chen Mei')
  })
})

describe('queued (offline) changes replay safely', () => {
  it('a repeated deleteAddress with its key is answered with the first success, not a 404', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const id = await addOk(s, me)
    const key = idemKey()
    const first = await as(s, me).remove({ id }, key)
    const retry = await as(s, me).remove({ id }, key)
    expect(first.statusCode).toBe(200)
    expect(retry.statusCode).toBe(200)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.body).toBe(first.body)
  })

  it('a repeated editAddress and setDefaultAddress with their keys apply once', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const a = await addOk(s, me)
    const b = await addOk(s, me)
    const editKey = idemKey()
    const edited = await as(s, me).edit({ ...form({ name: 'Once' }), id: b }, editKey)
    s.clock.advance(1000)
    const replayed = await as(s, me).edit({ ...form({ name: 'Once' }), id: b }, editKey)
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    expect(replayed.body).toBe(edited.body)
    expect((await as(s, me).detail(b)).body_.data.updated_at).toBe(edited.body_.data.updated_at)

    const setKey = idemKey()
    await as(s, me).setDefault({ id: b }, setKey)
    await as(s, me).setDefault({ id: a }) // the user changes their mind meanwhile
    const late = await as(s, me).setDefault({ id: b }, setKey)
    expect(late.headers['idempotent-replayed']).toBe('true')
    expect(await defaultIdOf(s, me.userId)).toBe(a)
  })
})

describe('sign-in and documentation', () => {
  it('every address call needs a token: without one it answers 401 and changes nothing', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const id = await addOk(s, me)
    const before = await snapshot(s)
    const calls: [string, () => Promise<Res>][] = [
      ['addressList', () => s.get(`${BASE}/addressList`)],
      ['addressDetail', () => s.get(`${BASE}/addressDetail?id=${id}`)],
      ['getDefaultAddress', () => s.get(`${BASE}/getDefaultAddress`)],
      ['addAddress', () => s.post(`${BASE}/addAddress`, form())],
      ['editAddress', () => s.post(`${BASE}/editAddress`, { ...form(), id })],
      ['setDefaultAddress', () => s.post(`${BASE}/setDefaultAddress`, { id })],
      ['deleteAddress', () => s.post(`${BASE}/deleteAddress`, { id })],
      ['deleteAddress (expired token)', () => s.post(`${BASE}/deleteAddress`, { id }, { token: 'x'.repeat(43) })],
    ]
    for (const [label, call] of calls) {
      const res = await call()
      expect(res.statusCode, label).toBe(401)
      expect(res.body_.code, label).toBe(401)
    }
    expect(await snapshot(s)).toEqual(before)
  })

  it('the seven address paths are in the OpenAPI document', async () => {
    const s = await start()
    const doc = JSON.parse((await s.inject({ method: 'GET', url: '/api/docs/json' })).body) as { paths: Record<string, Record<string, unknown>> }
    const paths = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith(BASE))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.slice(BASE.length + 1)}`))
      .sort()
    expect(paths).toEqual([
      'GET addressDetail',
      'GET addressList',
      'GET getDefaultAddress',
      'POST addAddress',
      'POST deleteAddress',
      'POST editAddress',
      'POST setDefaultAddress',
    ])
  })
})
