// What a money record or an earning refers to, read from what the features post (pure).
import { describe, expect, it } from 'vitest'
import { checkDay, moneyLink, positionTarget, resolveLink, sourceId } from '../../../server/modules/settlement/links.ts'

describe('moneyLink', () => {
  it('a settlement and a node fee share link to the day in their ref', () => {
    expect(moneyLink('settlement', 'settle:20522:42', { day: '2026-03-10' })).toEqual({ screen: 'earnings', day: 20522 })
    expect(moneyLink('node_fee_share', 'node:fees:20522:NADI:42', { day: '2026-03-10' })).toEqual({ screen: 'earnings', day: 20522 })
    expect(moneyLink('node_dividend', 'node:dividend:20522:USDT:42', { day: '2026-03-10' })).toEqual({ screen: 'earnings', day: 20522 })
    expect(moneyLink('settlement', 'settle:dust', null)).toBeNull()
  })

  it('a stake and its return link to the node, a pledge and its release to the pledge, a loan movement to the loan', () => {
    expect(moneyLink('node_stake', 'node:3:stake', { node: 3, order: 9 })).toEqual({ screen: 'node', node_id: 3 })
    expect(moneyLink('node_stake_return', 'node:3:return', { node: '3' })).toEqual({ screen: 'node', node_id: 3 })
    expect(moneyLink('pledge', 'pledge:7', { pledge: 7, product: 1 })).toEqual({ screen: 'pledge', pledge_id: 7 })
    expect(moneyLink('pledge.release', 'pledge:7:release', { pledge: 7 })).toEqual({ screen: 'pledge', pledge_id: 7 })
    expect(moneyLink('loan_borrow', 'loan:5:borrow', { loan: 5, node: 3 })).toEqual({ screen: 'loan', loan_id: 5 })
    expect(moneyLink('loan_repay', 'loan:5:repay:0', { loan: 5 })).toEqual({ screen: 'loan', loan_id: 5 })
    expect(moneyLink('release', 'release:20522:42:NADI', { day: '2026-03-10', plans: 2 })).toEqual({ screen: 'release' })
  })

  it('links nothing it cannot name: other reasons, missing or malformed ids', () => {
    expect(moneyLink('deposit', 'deposit:x', { tx: '0x1' })).toBeNull()
    expect(moneyLink('pledge', 'pledge:7', null)).toBeNull()
    expect(moneyLink('node_stake', 'node:3:stake', { node: -1 })).toBeNull()
    expect(moneyLink('loan_repay', 'loan:5:repay:0', { loan: '5; drop' })).toBeNull()
  })
})

describe('positions', () => {
  it('power and devices open the power log, a node its node, a pledge its pledge', () => {
    for (const kind of ['destroy', 'joint', 'trial', 'device'] as const) expect(positionTarget({ id: 11, kind, source: 'order:4' })).toEqual({ screen: 'powerLog', position_id: 11 })
    expect(positionTarget({ id: 12, kind: 'node', source: 'node:4' })).toEqual({ screen: 'node', node_id: 4 })
    expect(positionTarget({ id: 13, kind: 'pledge', source: 'pledge:9' })).toEqual({ screen: 'pledge', pledge_id: 9 })
    expect(positionTarget({ id: 14, kind: 'pledge', source: 'odd' })).toEqual({ screen: 'powerLog', position_id: 14 })
  })

  it('a node link needs its tier; an unknown node links nowhere', () => {
    expect(resolveLink({ screen: 'node', node_id: 4 }, () => 2)).toEqual({ screen: 'node', node_id: 4, tier_id: 2 })
    expect(resolveLink({ screen: 'node', node_id: 4 }, () => null)).toBeNull()
    expect(resolveLink({ screen: 'release' }, () => null)).toEqual({ screen: 'release' })
  })

  it('reads the id of a source only under its own prefix', () => {
    expect(sourceId('node:4', 'node')).toBe(4)
    expect(sourceId('pledge:4', 'node')).toBeNull()
    expect(sourceId('node:04', 'node')).toBeNull()
  })
})

describe('checkDay', () => {
  it('takes an integer day from 0 to today', () => {
    expect(checkDay('20522', 20600)).toEqual({ day: 20522 })
    expect(checkDay(' 0 ', 20600)).toEqual({ day: 0 })
    expect(checkDay('20600', 20600)).toEqual({ day: 20600 })
  })

  it('names what is wrong: not an integer, or out of range', () => {
    for (const bad of ['', 'x', '1.5', '1e3', '0x10', '2026-03-10']) expect(checkDay(bad, 20600)).toMatchObject({ key: 'errors.earningsDayInvalid' })
    expect(checkDay('-1', 20600)).toEqual({ key: 'errors.earningsDayRange', params: { day: '-1', today: 20600 } })
    expect(checkDay('20601', 20600)).toMatchObject({ key: 'errors.earningsDayRange' })
  })
})
