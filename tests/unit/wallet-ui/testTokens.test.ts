// What "Get test tokens" says after sending (src/features/wallet/testTokens.ts): worded by the balance here.
import { describe, expect, it } from 'vitest'
import type { Balances } from '../../../contract/wallet.ts'
import { testTokensMessage } from '../../../src/features/wallet/testTokens.ts'

const SENT = { chain: 'nadi', address: '0x1111111111111111111111111111111111111111', usdt: '1000', nadi: '1000' }
const holding = (usdt: string, nadi: string): Balances => ({
  assets: [
    { asset: 'USDT', fund: { available: usdt, frozen: '0' }, trade: { available: '0', frozen: '0' } },
    { asset: 'NADI', fund: { available: '0', frozen: '0' }, trade: { available: '0', frozen: nadi } },
  ],
})

describe('the test tokens message', () => {
  it('says the balance here still shows 0 only while it does', () => {
    expect(testTokensMessage(SENT, holding('0', '0'))).toEqual({ key: 'assets.testTokensWhere', params: { usdt: '1,000', nadi: '1,000', address: '0x1111…1111' } })
    expect(testTokensMessage(SENT, undefined).key).toBe('assets.testTokensWhere')
  })

  it('names what the balance here holds once it holds something (frozen or in the trade account too)', () => {
    expect(testTokensMessage(SENT, holding('1000', '2.5'))).toEqual({
      key: 'assets.testTokensWhereHeld',
      params: { usdt: '1,000', nadi: '1,000', address: '0x1111…1111', heldUsdt: '1,000', heldNadi: '2.5' },
    })
  })
})
