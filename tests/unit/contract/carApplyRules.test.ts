import { describe, expect, it } from 'vitest'
import { checkCarApply, cleanCarApply, isValidIdNumber, maskIdNumber, normalizeIdNumber, type CarApplyInput } from '../../../contract/carApplyRules.ts'

const ok: CarApplyInput = { goods_id: 3, name: 'Lin Mei', phone: '0912 345 678', id_number: 'A123456789', city: 'Taipei', id_front: 'u/1/car_apply/a.png', driver_licence: 'u/1/car_apply/b.png' }

describe('car application rules (contract/carApplyRules.ts), shared by the form and the server', () => {
  it('a complete form has no problem; the ID back and the remark are optional', () => {
    expect(checkCarApply(ok)).toEqual({})
    expect(checkCarApply({ ...ok, id_back: '', remark: '' })).toEqual({})
    expect(checkCarApply({ ...ok, id_back: 'u/1/car_apply/c.png', remark: 'Weekdays' })).toEqual({})
  })

  it('names every problem by field: no car, blank or too long text, a bad phone or ID number, missing documents', () => {
    expect(checkCarApply({ goods_id: null, name: ' ', phone: '', id_number: '', city: '', id_front: '', driver_licence: '' })).toEqual({
      goods_id: 'required',
      name: 'required',
      phone: 'required',
      id_number: 'required',
      city: 'required',
      id_front: 'required',
      driver_licence: 'required',
    })
    expect(checkCarApply({ ...ok, name: 'n'.repeat(41), city: 'c'.repeat(61), remark: 'r'.repeat(201) })).toEqual({ name: 'tooLong', city: 'tooLong', remark: 'tooLong' })
    expect(checkCarApply({ ...ok, phone: '12-34', id_number: 'A1' })).toEqual({ phone: 'invalid', id_number: 'invalid' })
    expect(checkCarApply({ ...ok, goods_id: 0 })).toEqual({ goods_id: 'required' })
    expect(checkCarApply({ ...ok, goods_id: 1.5 })).toEqual({ goods_id: 'required' })
  })

  it('refuses control characters and text-direction overrides in every text field', () => {
    expect(checkCarApply({ ...ok, name: 'Lin\u202eMei', city: 'Tai\npei', remark: 'a\u0000b' })).toEqual({ name: 'invalid', city: 'invalid', remark: 'invalid' })
    expect(checkCarApply({ ...ok, id_number: 'A1234\u202e5678' })).toEqual({ id_number: 'invalid' })
  })

  it('one file given for two documents is refused on the second', () => {
    expect(checkCarApply({ ...ok, driver_licence: ok.id_front })).toEqual({ driver_licence: 'repeated' })
    expect(checkCarApply({ ...ok, id_back: ok.id_front })).toEqual({ id_back: 'repeated' })
  })

  it('ID numbers: full-width folded, spaces and dashes ignored, upper case, 5–20 letters and digits', () => {
    expect(normalizeIdNumber(' ａ１２３-456 789 ')).toBe('A123456789')
    expect(isValidIdNumber('E12345678')).toBe(true)
    expect(isValidIdNumber('1234')).toBe(false)
    expect(isValidIdNumber('A'.repeat(21))).toBe(false)
    expect(isValidIdNumber('A123_4567')).toBe(false)
    expect(maskIdNumber('A123456789')).toBe('A1******89')
    expect(maskIdNumber('AB12')).toBe('AB12')
  })

  it('cleans what is kept: trimmed text, the phone and ID number normalized, no empty ID back', () => {
    expect(cleanCarApply({ ...ok, name: ' Lin Mei\u200b ', phone: '+886 (912) 345-678', id_number: 'a123-456 789', city: ' Taipei ', id_back: ' ', remark: ' hi ' })).toEqual({
      name: 'Lin Mei',
      phone: '+886912345678',
      id_number: 'A123456789',
      city: 'Taipei',
      id_front: ok.id_front,
      id_back: null,
      driver_licence: ok.driver_licence,
      remark: 'hi',
    })
  })
})
