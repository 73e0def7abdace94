import { describe, expect, it } from 'vitest'
import { checkText, isValidPhone, maskPhone, normalizePhone, textLength, trimText } from '../../../contract/addressRules.ts'

describe('phone', () => {
  it('masks the middle four digits of a list phone number', () => {
    expect(maskPhone('13812345678')).toBe('138****5678')
    expect(maskPhone('0912345678')).toBe('091****678')
    expect(maskPhone('+886912345678')).toBe('+8869****5678')
  })

  it('masks after removing the spaces and dashes people type', () => {
    expect(maskPhone('138 1234-5678')).toBe('138****5678')
  })

  it('leaves a number too short to mask as typed, without separators', () => {
    expect(maskPhone('12-345')).toBe('12345')
  })

  it('accepts an optional + and 6 to 20 digits, separators ignored', () => {
    for (const ok of ['123456', '+8613812345678', '(02) 2345-6789', '1'.repeat(20)]) expect(isValidPhone(ok), ok).toBe(true)
    for (const bad of ['', '12345', '1'.repeat(21), '138abc45678', '++123456', '123+456']) expect(isValidPhone(bad), bad).toBe(false)
    expect(normalizePhone(' +1 (555) 123-4567 ')).toBe('+15551234567')
  })

  it('folds full-width digits and counts characters as people do', () => {
    expect(normalizePhone('＋８８６ ９１２ ３４５ ６７８')).toBe('+886912345678')
    expect(textLength('王小明')).toBe(3)
    expect(textLength('👍🏽')).toBe(2)
  })

  it('refuses a phone longer than 40 characters as typed, whatever its digits', () => {
    expect(isValidPhone(`123${'-'.repeat(35)}456`)).toBe(false)
    expect(isValidPhone(`123${'-'.repeat(34)}456`)).toBe(true)
  })
})

describe('address text fields', () => {
  it('a field made only of whitespace and zero-width characters is empty', () => {
    for (const blank of ['', '   ', '\u200b', ' \u200b\u200c\u200d\u2060\ufeff ', '\u3000']) expect(checkText(blank, 100), JSON.stringify(blank)).toBe('required')
  })

  it('control characters and text-direction overrides are refused, wherever they are', () => {
    const bad = ['a\nb', 'a\tb', 'a\u0000b', 'a\u007fb', 'a\u0085b', 'Taipei \u202eXSS', 'a\u2066b\u2069', 'a\u200eb', 'a\u200fb', 'a\u061cb', '\u202a']
    for (const s of bad) expect(checkText(s, 100), JSON.stringify(s)).toBe('invalid')
  })

  it('ordinary text in every script passes, zero-width joiners inside words included; edges are trimmed', () => {
    for (const ok of ['王小明', '台北市信義區', 'Nguyễn Văn A', 'กรุงเทพฯ', 'می‌خواهم', '👨‍👩‍👧 family', "O'Brien-Smith, Apt. 3"]) expect(checkText(ok, 100), ok).toBeNull()
    expect(trimText('\u200b  王小明 \ufeff')).toBe('王小明')
  })

  it('counts the length after trimming', () => {
    expect(checkText(` ${'a'.repeat(40)} \u200b`, 40)).toBeNull()
    expect(checkText('a'.repeat(41), 40)).toBe('tooLong')
  })
})
