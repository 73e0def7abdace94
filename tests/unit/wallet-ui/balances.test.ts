import { describe, expect, it } from 'vitest'
import type { Balances, Holdings } from '../../../contract/wallet.ts'
import { accountsOf, assetBalance, assetTotal, availableOf, debtInUsdt, frozenPartsOf, netOfDebt, otherAccount, otherAsset, totalInUsdt, WALLET_ASSETS } from '../../../src/features/wallet/balances.ts'
import { intentKeys } from '../../../src/features/wallet/intent.ts'

const B: Balances = {
  assets: [
    { asset: 'USDT', fund: { available: '100.5', frozen: '10' }, trade: { available: '0.25', frozen: '0.00000001' } },
    { asset: 'NADI', fund: { available: '3', frozen: '0' }, trade: { available: '1', frozen: '0' } },
    { asset: 'MEME', fund: { available: '2000', frozen: '0' }, trade: { available: '0', frozen: '0' } },
  ],
}

describe('wallet balances', () => {
  it('an asset totals both accounts, available and frozen, exactly', () => {
    expect(assetTotal(assetBalance(B, 'USDT'))).toBe(11_075_000_001n)
  })

  it('an asset the server did not list counts as zero', () => {
    expect(assetTotal(assetBalance({ assets: [] }, 'NADI'))).toBe(0n)
  })

  it('what an account can spend is its available bucket; unknown while loading', () => {
    expect(availableOf(B, 'USDT', 'trade')).toBe(25_000_000n)
    expect(availableOf(undefined, 'USDT', 'fund')).toBeUndefined()
  })

  it('the estimated total values NADI at the given price, in exact units', () => {
    // 110.75000001 USDT + 4 NADI × 0.3333 USDT
    expect(totalInUsdt(B, '0.3333')).toBe(11_075_000_001n + 133_320_000n)
  })

  it('MEME has no market: it is listed after the coins, held in the fund account only, and not valued in the total', () => {
    expect(WALLET_ASSETS).toEqual(['USDT', 'NADI', 'MEME'])
    expect(accountsOf('MEME')).toEqual(['fund'])
    expect(accountsOf('NADI')).toEqual(['fund', 'trade'])
    expect(assetTotal(assetBalance(B, 'MEME'))).toBe(200_000_000_000n)
    expect(totalInUsdt(B, '0.3333')).toBe(totalInUsdt({ assets: B.assets.filter((a) => a.asset !== 'MEME') }, '0.3333'))
  })

  it('the net figure is everything held (frozen included) less what open loans owe, and may go below zero', () => {
    const h: Holdings = { frozen: [{ asset: 'USDT', account: 'fund', reason: 'nodes', amount: '10' }], debts: [{ asset: 'USDT', amount: '100' }] }
    expect(debtInUsdt(h)).toBe(10_000_000_000n)
    expect(netOfDebt(B, h, '0.3333')).toBe(11_075_000_001n + 133_320_000n - 10_000_000_000n)
    expect(netOfDebt(B, { frozen: [], debts: [{ asset: 'USDT', amount: '1000' }] }, '0.3333')).toBeLessThan(0n)
    expect(netOfDebt(B, { frozen: [], debts: [] }, '0.3333')).toBe(totalInUsdt(B, '0.3333'))
  })

  it('an asset’s frozen parts are its own, none before the holdings load', () => {
    const h: Holdings = { frozen: [{ asset: 'USDT', account: 'fund', reason: 'nodes', amount: '10' }, { asset: 'NADI', account: 'fund', reason: 'pledges', amount: '3' }], debts: [] }
    expect(frozenPartsOf(h, 'NADI').map((p) => p.reason)).toEqual(['pledges'])
    expect(frozenPartsOf(undefined, 'USDT')).toEqual([])
  })

  it('swapping flips fund ↔ trade and USDT ↔ NADI', () => {
    expect(otherAccount('fund')).toBe('trade')
    expect(otherAccount('trade')).toBe('fund')
    expect(otherAsset('USDT')).toBe('NADI')
  })
})

describe('one idempotency key per intended movement', () => {
  const keys = () => {
    let n = 0
    return intentKeys(() => `k${++n}`)
  }

  it('a press that got no answer is retried with the same key, so the server applies it once', () => {
    const k = keys()
    const body = { asset: 'USDT', amount: '5' }
    expect(k.keyFor(body)).toBe('k1')
    k.settle(true)
    expect(k.keyFor({ ...body })).toBe('k1')
  })

  it('an answered press (success or refusal) ends the intent: the next press is new', () => {
    const k = keys()
    expect(k.keyFor({ a: 1 })).toBe('k1')
    k.settle(false)
    expect(k.keyFor({ a: 1 })).toBe('k2')
  })

  it('changed values are a new intent', () => {
    const k = keys()
    expect(k.keyFor({ a: 1 })).toBe('k1')
    k.settle(true)
    expect(k.keyFor({ a: 2 })).toBe('k2')
  })
})
