import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CODE } from '../../../contract/constants.ts'
import { ApiFailure, failureMessage, failureReason, type FailedOperation } from '../../../src/api/failure.ts'

type Tree = { [k: string]: string | Tree }
const words = (lang: string) => JSON.parse(fs.readFileSync(new URL(`../../../locales/${lang}.json`, import.meta.url), 'utf8')) as Tree
/** The app's lookup over one locale file: a dotted key, `{{name}}` placeholders; the key itself when missing. */
const translator = (lang: string) => {
  const tree = words(lang)
  return (key: string, params: Record<string, string | number> = {}) => {
    const v = key.split('.').reduce<string | Tree | undefined>((n, k) => (typeof n === 'object' ? n[k] : undefined), tree)
    return typeof v === 'string' ? v.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params[p] ?? '')) : key
  }
}
const t = translator('en')

const OPERATIONS: FailedOperation[] = ['addressList', 'addressDetail', 'addressAdd', 'addressEdit', 'addressDelete', 'addressSetDefault', 'cancelOrder', 'nodeDetail']

describe('SPEC §8: each failing operation says which one failed and why', () => {
  it('the reason is the server’s own words for a refusal (4xx or an error code)', () => {
    expect(failureMessage('addressDelete', new ApiFailure('This address does not exist', CODE.NOT_FOUND, 404), t)).toBe('Could not delete the address: This address does not exist')
    expect(failureMessage('cancelOrder', new ApiFailure('This order can no longer be cancelled', 400, 200), t)).toBe('Could not cancel the order: This order can no longer be cancelled')
  })

  it('"System error" for a 5xx, a body that is not the envelope, or a failure that is not the API’s', () => {
    expect(failureReason(new ApiFailure('Server error, please try again later', 500, 500), t)).toBe('System error')
    expect(failureReason(new ApiFailure('Request failed', CODE.SERVER, 200), t)).toBe('System error')
    expect(failureReason(new TypeError('x is undefined'), t)).toBe('System error')
    expect(failureMessage('nodeDetail', new ApiFailure('Bad Gateway', 502, 502), t)).toBe('Could not load the node details: System error')
  })

  it('no answer at all keeps the network’s message, which says what the user can do', () => {
    expect(failureMessage('addressSetDefault', new ApiFailure('Network error, please check your connection', CODE.SERVER, 0), t)).toBe(
      'Could not set the default address: Network error, please check your connection',
    )
  })

  it('every operation has its own message, different from the others, in all ten languages', () => {
    for (const lang of ['tw', 'en', 'zh', 'jp', 'ko', 'th', 'pt', 'id', 'vn', 'ms']) {
      const tl = translator(lang)
      const texts = OPERATIONS.map((op) => failureMessage(op, new ApiFailure('R', 400, 400), tl))
      expect(new Set(texts).size).toBe(OPERATIONS.length)
      for (const m of texts) expect(m).not.toContain('errors.')
      expect(failureReason(new Error('boom'), tl)).toBe(tl('errors.systemError'))
    }
    expect(failureMessage('addressDelete', new ApiFailure('地址不存在', 404, 404), translator('tw'))).toBe('刪除地址失敗：地址不存在')
  })
})
