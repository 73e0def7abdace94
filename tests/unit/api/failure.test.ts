import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CODE } from '../../../contract/constants.ts'
import { ApiFailure, failureMessage, failureReason, httpFailureText, type FailedOperation } from '../../../src/api/failure.ts'

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

describe('SPEC §8: the words for an HTTP answer that is not a 200', () => {
  const answer = (status: number, code: number | null = null, msg: string | null = null) => httpFailureText({ status, code, msg }, t)

  it('401 with body code 200 asks to enter through an invite code; another 401 is an expired login', () => {
    expect(answer(401, 200, 'whatever')).toBe('Please enter through an invite code')
    expect(answer(401, 401, null)).toBe('Login expired, please sign in again')
  })

  it('403 is “no permission”, whatever the server said', () => {
    expect(answer(403, 403, 'Forbidden by rule 7')).toBe('No permission')
  })

  it('5xx is “server error, try again later”, never the server’s text', () => {
    expect(answer(500, 500, 'TypeError: x is undefined')).toBe('Server error, please try again later')
    expect(answer(503)).toBe('Server error, please try again later')
  })

  it('400 is the server’s message', () => {
    expect(answer(400, 40_001, 'The minimum withdrawal is 1 NADI')).toBe('The minimum withdrawal is 1 NADI')
    expect(answer(400)).toBe('Request failed')
  })

  it('any other status is “request failed”, with the server’s reason beneath it when it gave one', () => {
    expect(answer(404, 404, 'Order not found')).toBe('Request failed\nOrder not found')
    expect(answer(409, 409, null)).toBe('Request failed')
    expect(answer(418)).toBe('Request failed')
  })

  it('a 200 leaves the wording to its body code', () => {
    expect(answer(200, 500, 'x')).toBeNull()
  })

  it('an operation’s failure keeps the server’s reason alone after its name', () => {
    expect(failureMessage('addressDelete', new ApiFailure('Request failed\nThis address does not exist', CODE.NOT_FOUND, 404, 'This address does not exist'), t)).toBe('Could not delete the address: This address does not exist')
  })
})
