import { describe, expect, it } from 'vitest'
import { AMOUNT_MAX } from '../../../contract/money.ts'
import { boughtPower, destroyPower, destroyStatus, giftPower, jointPower, miningPause, periodAmount, positionStatus, powerFits, ppmPercent, ppmTimes, usdtValue } from '../../../server/modules/mining/rules.ts'

const U = 100_000_000n

describe('mining arithmetic', () => {
  it('power is the amount × the multiplier; joint power is the USDT’s NADI worth × the multiplier', () => {
    expect(destroyPower(200n * U, 3_000_000n)).toBe(600n * U)
    expect(jointPower(10n * U, U / 4n, 2_000_000n)).toBe(80n * U)
    expect(() => jointPower(1n, 0n, 1n)).toThrow(RangeError)
    expect(giftPower(600n * U, 100_000n)).toBe(60n * U)
    expect(usdtValue(200n * U, U / 4n)).toBe(50n * U)
  })
  it('a period pays floor(base × rate), capped by what remains — the settlement’s formula, without overflow', () => {
    expect(periodAmount(660n * U, 5_000n, 660n * U)).toBe(330_000_000n)
    expect(periodAmount(660n * U, 5_000n, 1n)).toBe(1n)
    expect(periodAmount(3n, 333_333n, null)).toBe(0n)
    expect(periodAmount(9_000_000_000_000_000_000n, 1_000_000n, null)).toBe(9_000_000_000_000_000_000n)
  })
  it('SPEC §4 statuses: 1 trial, 2 paused, 3 permanent, 4 unknown', () => {
    expect(destroyStatus('trial', 'active')).toBe(1)
    expect(destroyStatus('destroy', 'paused')).toBe(2)
    expect(destroyStatus('joint', 'ended')).toBe(3)
    expect(destroyStatus('device', 'active')).toBe(4)
  })
  it('mining is paused exactly while the settlement is stopped: the reward pool short, or another pool stopping the day', () => {
    const dayStart = (d: number) => d * 86_400_000
    expect(miningPause(null, dayStart)).toBeNull()
    expect(miningPause({ day: 20_000, account: 'mining' }, dayStart)).toEqual({ reason: 'reward_pool', since: 20_000 * 86_400_000 })
    expect(miningPause({ day: 20_001, account: 'savings' }, dayStart)).toEqual({ reason: 'settlement', since: 20_001 * 86_400_000 })
  })
  it('while paused, active power reads paused (destroy status 2) and ended power stays ended; trial stays trial', () => {
    const pause = { reason: 'reward_pool' as const, since: 0 }
    expect(positionStatus('active', pause)).toBe('paused')
    expect(positionStatus('active', null)).toBe('active')
    expect(positionStatus('ended', pause)).toBe('ended')
    expect(destroyStatus('destroy', positionStatus('active', pause))).toBe(2)
    expect(destroyStatus('destroy', positionStatus('active', null))).toBe(3)
    expect(destroyStatus('trial', positionStatus('active', pause))).toBe(1)
  })
  it('multipliers and percents print without trailing zeros', () => {
    expect(ppmTimes(3_000_000n)).toBe('3')
    expect(ppmTimes(2_500_000n)).toBe('2.5')
    expect(ppmPercent(5_000n)).toBe('0.5')
    expect(ppmPercent(100_000n)).toBe('10')
  })
})

describe('power an order may buy', () => {
  const U = 100_000_000n
  const terms = { destroyMultiplierPpm: 3_000_000n, jointMultiplierPpm: 2_000_000n, giftPpm: 100_000n }

  it('is the multiplied amount plus the gift, as the payment grants it', () => {
    expect(boughtPower('destroy', 100n * U, 10_000_000n, terms)).toEqual({ power: 300n * U, gift: 30n * U })
    // 10 USDT at 0.1 USDT per NADI is 100 NADI, × 2.
    expect(boughtPower('joint', 10n * U, 10_000_000n, terms)).toEqual({ power: 200n * U, gift: 20n * U })
  })

  it('fits the ledger for the largest amount at the default multipliers and a 0.1 USDT price', () => {
    expect(powerFits('destroy', AMOUNT_MAX / 4n, 10_000_000n, terms)).toBe(true)
    expect(powerFits('destroy', AMOUNT_MAX, 10_000_000n, terms)).toBe(false)
  })

  it('refuses a joint amount whose power at a low price would pass the largest amount', () => {
    // 1,000,000 USDT at 0.0001 USDT per NADI is 1e10 NADI: ×2 ×1.1 is far past a billion.
    expect(powerFits('joint', 1_000_000n * U, 10_000n, terms)).toBe(false)
    expect(powerFits('joint', 1_000n * U, 10_000n, terms)).toBe(true)
  })

  it('refuses a valid amount that a 100× multiplier with a 10× gift would take past int64', () => {
    const extreme = { destroyMultiplierPpm: 100_000_000n, jointMultiplierPpm: 100_000_000n, giftPpm: 10_000_000n }
    expect(powerFits('destroy', AMOUNT_MAX, 10_000_000n, extreme)).toBe(false)
  })
})
