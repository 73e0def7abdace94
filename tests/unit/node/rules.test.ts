import { describe, expect, it } from 'vitest'
import { borrowable, dayInterest, feePool, loanLimit, ppmPercent, splitFees } from '../../../server/modules/node/rules.ts'
import { checkNodeFile, NodeFileInvalid, percentPpm } from '../../../server/modules/node/nodeFile.ts'

describe('the withdraw-fee split', () => {
  it('takes the pool share of the fees, floored', () => {
    expect(feePool(1_000_000_000n, 500_000n)).toBe(500_000_000n)
    expect(feePool(3n, 500_000n)).toBe(1n)
  })
  it('splits the pool by weight, floors to dust, and never pays more than the pool', () => {
    expect(splitFees(500_000_000n, [60_000n, 10_000n])).toEqual({ shares: [428_571_428n, 71_428_571n], dust: 1n })
    expect(splitFees(10n, [1n, 1n, 1n])).toEqual({ shares: [3n, 3n, 3n], dust: 1n })
    expect(splitFees(100n, [])).toEqual({ shares: [], dust: 100n })
    expect(splitFees(100n, [0n, 0n])).toEqual({ shares: [0n, 0n], dust: 100n })
    expect(() => splitFees(-1n, [1n])).toThrow(RangeError)
  })
  it('pays exactly the pool over random weights', () => {
    for (let i = 0; i < 500; i++) {
      const pool = BigInt(Math.floor(Math.random() * 1e12))
      const weights = Array.from({ length: 1 + Math.floor(Math.random() * 20) }, () => BigInt(Math.floor(Math.random() * 1_000_000)))
      const { shares, dust } = splitFees(pool, weights)
      expect(shares.reduce((a, s) => a + s, 0n) + dust).toBe(pool)
      expect(dust >= 0n && (weights.some((w) => w > 0n) ? dust < BigInt(weights.length) : true)).toBe(true)
    }
  })
})

describe('loans', () => {
  it('limits a loan to loan-to-value × stake less what is owed, never below 0', () => {
    expect(loanLimit(500_000_000_000n, 500_000n)).toBe(250_000_000_000n)
    expect(borrowable(500_000_000_000n, 500_000n, 200_000_000_000n)).toBe(50_000_000_000n)
    expect(borrowable(500_000_000_000n, 500_000n, 300_000_000_000n)).toBe(0n)
  })
  it('adds floor(debt × daily rate) a day', () => {
    expect(dayInterest(200_000_000_000n, 500n)).toBe(100_000_000n)
    expect(dayInterest(200_100_000_000n, 500n)).toBe(100_050_000n)
    expect(dayInterest(1999n, 500n)).toBe(0n)
  })
})

describe('terms and rates', () => {
  it('writes ppm as percent and reads percent as ppm', () => {
    expect(ppmPercent(4_000n)).toBe('0.4')
    expect(ppmPercent(500_000n)).toBe('50')
    expect(ppmPercent(500n)).toBe('0.05')
    expect(percentPpm('0.05', 'x')).toBe(500)
    expect(percentPpm('100', 'x')).toBe(1_000_000)
    expect(() => percentPpm('100.1', 'x')).toThrow(NodeFileInvalid)
    expect(() => percentPpm('0.00001', 'x')).toThrow(NodeFileInvalid)
  })
  it('refuses a node file with a bad tier', () => {
    expect(() => checkNodeFile({ tiers: [{ type: 'gold' }] })).toThrow(/elite, core or genesis/)
    expect(() => checkNodeFile({ tiers: [{ type: 'core', seats: 1, limit_num: 0 }] })).toThrow(/limit_num/)
    const ok = checkNodeFile({ tiers: [{ type: 'core', seats: 10, limit_num: 1, amount: '5000', days: 30, power: '100', level_id: 2, withdraw_rate: '6', machine_rate: '0.4' }], loan_plans: [] })
    expect(ok.tiers[0]).toMatchObject({ amount: 500_000_000_000n, withdraw_rate_ppm: 60_000, machine_rate_ppm: 4_000, airdrop_multiplier: 2 })
  })
})

describe('the node and loan screens', () => {
  it('show the share of seats taken and why a tier cannot be bought', async () => {
    const { buyBlock, seatsTakenPercent } = await import('../../../src/features/node/view.ts')
    expect(seatsTakenPercent({ total: 300, seats_left: 299 })).toBe(0)
    expect(seatsTakenPercent({ total: 300, seats_left: 150 })).toBe(50)
    expect(seatsTakenPercent({ total: 0, seats_left: 0 })).toBe(0)
    expect(buyBlock({ seats_left: 0, held: 0, limit_num: 3 })).toBe('soldOut')
    expect(buyBlock({ seats_left: 5, held: 3, limit_num: 3 })).toBe('limit')
    expect(buyBlock({ seats_left: 5, held: 2, limit_num: 3 })).toBeNull()
  })
  it('reads the capacity of a node under a plan', async () => {
    const { capacityOf } = await import('../../../src/features/loan/view.ts')
    const info = { collateral: [{ node_order_id: 4, type: 'core' as const, stake: '5000', debt: '0', capacity: [{ plan_id: 1, amount: '2500' }] }], loans: [], debt: '0', balance: '0' }
    expect(capacityOf(info, 4, 1)).toBe('2500')
    expect(capacityOf(info, 5, 1)).toBe('0')
    expect(capacityOf(undefined, 4, 1)).toBe('0')
  })
})
