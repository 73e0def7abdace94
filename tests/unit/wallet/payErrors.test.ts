import { describe, expect, it } from 'vitest'
import { payErrorKey } from '../../../src/wallet/pay.ts'

describe('SPEC §8 chain messages: the wallet’s balance on chain is its own message', () => {
  it('a token transfer refused for the wallet’s balance is “insufficient chain balance”, not the platform’s “insufficient balance”', () => {
    expect(payErrorKey(new Error('execution reverted: ERC20: transfer amount exceeds balance'))).toBe('insufficientChainBalance')
    expect(payErrorKey({ code: -32000, message: 'insufficient balance for transfer' })).toBe('insufficientChainBalance')
  })

  it('no coin for gas stays “insufficient gas”', () => {
    expect(payErrorKey({ code: -32000, message: 'insufficient funds for gas * price + value' })).toBe('insufficientGas')
  })
})
