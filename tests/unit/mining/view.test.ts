// What the mining screens compute beside the server's figures (src/features/mining/view.ts): the
// destroy/joint amount check, the power preview — which must equal what the server will grant — and
// the SPEC §4 status wording.
import { describe, expect, it } from 'vitest'
import { destroyPower, destroyStatus, giftPower, jointPower } from '../../../server/modules/mining/rules.ts'
import { checkMiningAmount, destroyStatusWord, orderBody, previewPower, releasedPercent, releaseRule, timesToPpm } from '../../../src/features/mining/view.ts'

const U = 100_000_000n
const terms = { nadi_price: '0.25', destroy_multiplier: '3', joint_multiplier: '2', gift_percent: '10' }

describe('mining forms', () => {
  it('preview the power an amount buys: amount × multiplier, plus the gift on top', () => {
    expect(previewPower('destroy', 200n * U, terms)).toEqual({ power: 600n * U, gift: 60n * U, total: 660n * U })
    // 10 USDT at 0.25 USDT per NADI is 40 NADI's worth, × 2.
    expect(previewPower('joint', 10n * U, terms)).toEqual({ power: 80n * U, gift: 8n * U, total: 88n * U })
    expect(previewPower('joint', 10n * U, { ...terms, nadi_price: '0' })).toBeNull()
    expect(previewPower('destroy', U, { ...terms, destroy_multiplier: 'x' })).toBeNull()
    expect(previewPower('destroy', U, { ...terms, gift_percent: '' })).toBeNull()
  })

  it('the preview floors exactly as the server grants, whatever the amount, price and terms', () => {
    let seed = 42
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
    for (let i = 0; i < 500; i++) {
      const amount = BigInt(rand(1_000_000_000)) * BigInt(1 + rand(1000))
      const multPpm = BigInt(rand(10_000_000) + 1)
      const giftPpm = BigInt(rand(10_000_001)) // up to 1000 %, as NADI_POWER_GIFT_PPM allows
      const price = BigInt(rand(1_000_000_000) + 1)
      const t = {
        nadi_price: (Number(price) / 1e8).toFixed(8),
        destroy_multiplier: (Number(multPpm) / 1e6).toFixed(6),
        joint_multiplier: (Number(multPpm) / 1e6).toFixed(6),
        gift_percent: (Number(giftPpm) / 1e4).toFixed(4),
      }
      const d = destroyPower(amount, multPpm)
      expect(previewPower('destroy', amount, t)).toEqual({ power: d, gift: giftPower(d, giftPpm), total: d + giftPower(d, giftPpm) })
      const j = jointPower(amount, price, multPpm)
      expect(previewPower('joint', amount, t)?.total).toBe(j + giftPower(j, giftPpm))
    }
  })

  it('reads multipliers with up to 6 decimals', () => {
    expect(timesToPpm('3')).toBe(3_000_000n)
    expect(timesToPpm('2.5')).toBe(2_500_000n)
    expect(timesToPpm('0.000001')).toBe(1n)
    for (const bad of ['', '-1', '1.0000001', '01', 'x', '1e3']) expect(timesToPpm(bad)).toBeNull()
  })

  it('refuses below the minimum with the server’s own sentence, and too many decimals, zero and above the balance', () => {
    const rules = { min: 100n * U, available: 1_000n * U }
    expect(checkMiningAmount('destroy', '99.99', rules)).toEqual({ ok: false, problem: { key: 'errors.destroyMin', params: { amount: '100' } } })
    expect(checkMiningAmount('joint', '9', { min: 10n * U, available: rules.available })).toEqual({ ok: false, problem: { key: 'errors.jointMin', params: { amount: '10' } } })
    expect(checkMiningAmount('destroy', '100.123456789', rules)).toMatchObject({ ok: false, problem: { key: 'money.amountDecimals' } })
    expect(checkMiningAmount('destroy', '1000.00000001', rules)).toMatchObject({ ok: false, problem: { key: 'money.amountAboveAvailable', params: { asset: 'NADI' } } })
    expect(checkMiningAmount('joint', '2000', rules)).toMatchObject({ ok: false, problem: { key: 'money.amountAboveAvailable', params: { asset: 'USDT' } } })
    expect(checkMiningAmount('destroy', '', rules)).toMatchObject({ ok: false, problem: { key: 'money.amountRequired' } })
    expect(checkMiningAmount('destroy', '0', rules)).toMatchObject({ ok: false, problem: { key: 'money.amountZero' } })
    expect(checkMiningAmount('destroy', '-5', rules)).toMatchObject({ ok: false, problem: { key: 'money.amountNegative' } })
    expect(checkMiningAmount('destroy', '100,5', rules)).toEqual({ ok: true, units: 10_050_000_000n, wire: '100.5' })
    expect(checkMiningAmount('destroy', '100', rules)).toEqual({ ok: true, units: 100n * U, wire: '100' })
    // Terms or balances still loading: only the shape of the amount is checked.
    expect(checkMiningAmount('destroy', '5', { min: undefined, available: undefined })).toMatchObject({ ok: true })
  })
})

describe('mining records', () => {
  it('word SPEC §4 statuses: 1 trial, 2 paused, 3 permanent, anything else unknown', () => {
    expect([1, 2, 3, 4, 0, 99].map(destroyStatusWord)).toEqual(['trial', 'paused', 'permanent', 'unknown', 'unknown', 'unknown'])
    // The server's codes, read back through the screen's wording.
    expect(destroyStatusWord(destroyStatus('trial', 'active'))).toBe('trial')
    expect(destroyStatusWord(destroyStatus('destroy', 'paused'))).toBe('paused')
    expect(destroyStatusWord(destroyStatus('joint', 'active'))).toBe('permanent')
    expect(destroyStatusWord(destroyStatus('device', 'active'))).toBe('unknown')
  })

  it('show how much of a position is released; none for power that does not run out', () => {
    expect(releasedPercent({ released: '3.3', remaining: '656.7' })).toBe(0.5)
    expect(releasedPercent({ released: '660', remaining: '0' })).toBe(100)
    expect(releasedPercent({ released: '0', remaining: '0' })).toBe(0)
    expect(releasedPercent({ released: '12', remaining: null })).toBeNull()
  })

  it('a joint order names the quote whose locked price it previewed, so the server honours that price; a destroy order only its amount', () => {
    const quote = { quote_id: 'q-1' }
    expect(orderBody('joint', '10', quote)).toEqual({ amount: '10', quote_id: 'q-1' })
    expect(orderBody('destroy', '200', undefined)).toEqual({ amount: '200' })
  })

  it('say why trial power pays more a day: it releases whole over its days, bought power a percent a day', () => {
    expect(releaseRule({ type: 'trial', days: 7, release_percent: '14.2858' })).toEqual(['mining.rule.trial', { days: 7 }])
    expect(releaseRule({ type: 'destroy', days: null, release_percent: '0.5' })).toEqual(['mining.rule.bought', { percent: '0.5' }])
    expect(releaseRule({ type: 'joint', days: null, release_percent: '0.5' })).toEqual(['mining.rule.bought', { percent: '0.5' }])
    expect(releaseRule({ type: 'node', days: null, release_percent: '0.4' })).toEqual(['mining.rule.held', { percent: '0.4' }])
  })
})
