import { describe, expect, it } from 'vitest'
import { UPLOAD_KEY_PATTERN, UPLOAD_MAX_BYTES_DEFAULT, checkUpload, matchesSignature, megabytes } from '../../../contract/uploadRules.ts'

const bytes = (...b: number[]) => new Uint8Array([...b, ...new Array(12).fill(0)])

describe('upload rules (contract/uploadRules.ts)', () => {
  it('accepts JPEG, PNG, WebP and PDF from 1 byte to the limit', () => {
    for (const t of ['image/jpeg', 'image/png', 'image/webp', 'application/pdf']) expect(checkUpload(t, 1, UPLOAD_MAX_BYTES_DEFAULT)).toBeNull()
    expect(checkUpload('image/png', UPLOAD_MAX_BYTES_DEFAULT, UPLOAD_MAX_BYTES_DEFAULT)).toBeNull()
  })

  it('refuses other types, an empty file and one above the limit', () => {
    for (const t of ['image/svg+xml', 'text/html', 'image/gif', 'application/octet-stream', '', 'IMAGE/PNG']) expect(checkUpload(t, 10, 100)).toBe('type')
    expect(checkUpload('image/png', 0, 100)).toBe('empty')
    expect(checkUpload('image/png', 1.5, 100)).toBe('empty')
    expect(checkUpload('image/png', 101, 100)).toBe('tooLarge')
    expect(checkUpload('image/png', 2 ** 53 + 2, 100)).toBe('tooLarge')
    expect(checkUpload('image/png', Number.MAX_VALUE, 100)).toBe('tooLarge')
    expect(megabytes(5 * 1024 * 1024)).toBe(5)
    expect(megabytes(5 * 1024 * 1024 + 1)).toBe(6)
  })

  it('knows each type by its first bytes', () => {
    expect(matchesSignature('image/png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe(true)
    expect(matchesSignature('image/jpeg', bytes(0xff, 0xd8, 0xff, 0xe1))).toBe(true)
    expect(matchesSignature('image/webp', new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50]))).toBe(true)
    expect(matchesSignature('application/pdf', new TextEncoder().encode('%PDF-1.7\n'))).toBe(true)
    expect(matchesSignature('image/png', new TextEncoder().encode('<html><script>'))).toBe(false)
    expect(matchesSignature('image/jpeg', bytes(0x89, 0x50, 0x4e, 0x47))).toBe(false)
    expect(matchesSignature('image/webp', new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x41, 0x56, 0x45]))).toBe(false)
    expect(matchesSignature('application/pdf', new Uint8Array([]))).toBe(false)
  })

  it('keys live under a user’s prefix and purpose, random and with the type’s extension', () => {
    const re = new RegExp(UPLOAD_KEY_PATTERN)
    expect(re.test(`u/12/car_apply/${'a'.repeat(32)}.png`)).toBe(true)
    for (const k of [`u/0/car_apply/${'a'.repeat(32)}.png`, `u/12/car_apply/${'a'.repeat(31)}.png`, `u/12/car_apply/${'a'.repeat(32)}.html`, `u/12/../${'a'.repeat(32)}.png`, `x/12/car_apply/${'a'.repeat(32)}.png`]) {
      expect(re.test(k), k).toBe(false)
    }
  })
})
