// The airdrop multiplier of a user's nodes, the airdrop and fund commands' words (pure).
import { describe, expect, it } from 'vitest'
import { heldOn, highestMultiplier, type HeldNode } from '../../../server/modules/node/airdrop.ts'
import { airdropAmount, airdropRef, parseAirdrop, parseUserList } from '../../../server/modules/airdrop/rules.ts'
import { parseFund } from '../../../server/modules/settlement/funding.ts'

const node = (n: Partial<HeldNode>): HeldNode => ({ multiplier: 2, status: 'active', startDay: 101, endDay: 371, ...n })

describe('the airdrop multiplier', () => {
  it('is 1 without a node, and the highest multiplier among the nodes held that day', () => {
    expect(highestMultiplier([], 200)).toBe(1)
    expect(highestMultiplier([node({}), node({ multiplier: 3 }), node({ multiplier: 1 })], 200)).toBe(3)
  })

  it('counts a node from the day it is paid (the day before it mines) to the last day of its term', () => {
    const n = node({ startDay: 101, endDay: 371 })
    expect(heldOn(n, 99)).toBe(false)
    expect(heldOn(n, 100)).toBe(true)
    expect(heldOn(n, 370)).toBe(true)
    expect(heldOn(n, 371)).toBe(false)
  })

  it('counts a returned node for the days of its term, never an unpaid or cancelled one', () => {
    expect(highestMultiplier([node({ status: 'returned' })], 200)).toBe(2)
    expect(highestMultiplier([node({ status: 'pending', startDay: null, endDay: null })], 200)).toBe(1)
    expect(highestMultiplier([node({ status: 'cancelled' })], 200)).toBe(1)
  })

  it('doubles the amount per user, and keys each credit by airdrop and user', () => {
    expect(airdropAmount(10n, 2)).toBe(20n)
    expect(airdropAmount(10n, 1)).toBe(10n)
    expect(airdropRef('launch', 42n)).toBe('airdrop:launch:42')
  })
})

describe('airdrop words', () => {
  it('takes an id, an asset of the ledger, an amount, and optional users and day', () => {
    expect(parseAirdrop(['launch', 'NADI', '1.5'])).toEqual({ id: 'launch', asset: 'NADI', perUser: 150_000_000n, users: 'all', day: null })
    expect(parseAirdrop(['launch', 'NADI', '1', '--users', 'u.txt', '--day', '2026-03-10'])).toEqual({ id: 'launch', asset: 'NADI', perUser: 100_000_000n, users: { file: 'u.txt' }, day: Date.UTC(2026, 2, 10) / 86_400_000 })
    expect(parseAirdrop(['--users', 'all', 'launch', 'USDT', '1'])).toMatchObject({ asset: 'USDT', users: 'all' })
    expect(parseAirdrop(['meme-1', 'MEME', '100'])).toMatchObject({ id: 'meme-1', asset: 'MEME', perUser: 10_000_000_000n })
  })

  it('refuses an asset the ledger does not know, naming the ones it does, and every malformed word', () => {
    expect(parseAirdrop(['m', 'DOGE', '1'])).toEqual({ problem: 'airdrop: DOGE is not an asset of the ledger (USDT, NADI, MEME)' })
    for (const args of [[], ['a', 'NADI'], ['a b', 'NADI', '1'], ['a', 'NADI', '0'], ['a', 'NADI', '1e3'], ['a', 'NADI', '1', '--day', '2026-13-01'], ['a', 'NADI', '1', '--users'], ['a', 'NADI', '1', '--force']]) {
      expect(parseAirdrop(args), args.join(' ')).toHaveProperty('problem')
    }
  })

  it('reads a user list of ids and addresses, skipping blanks and comments, naming the lines it cannot read', () => {
    expect(parseUserList(`# list\n42\n\n0xAbCdEf0123456789abcdef0123456789ABCDEF01 # her\n`)).toEqual([{ id: 42n }, { address: '0xabcdef0123456789abcdef0123456789abcdef01' }])
    expect(parseUserList('42\nbob\n0x12\n')).toEqual({ problem: 'airdrop: not a user id or wallet address — line 2: bob; line 3: 0x12' })
    expect(parseUserList('# nobody\n')).toEqual({ problem: 'airdrop: the user list names no user' })
  })
})

describe('fund words', () => {
  it('takes a funding account, the asset it pays and a positive amount', () => {
    expect(parseFund(['mining', 'NADI', '10'])).toEqual({ name: 'mining', asset: 'NADI', amount: 1_000_000_000n })
    expect(parseFund(['loans', 'USDT', '0.00000001'])).toEqual({ name: 'loans', asset: 'USDT', amount: 1n })
  })

  it('names what is wrong', () => {
    expect(parseFund(['fee_pool', 'NADI', '1'])).toEqual({ problem: 'fund: fee_pool is not a funding account (mining, savings, releases, loans)' })
    expect(parseFund(['toString', 'NADI', '1'])).toHaveProperty('problem')
    expect(parseFund(['savings', 'USDT', '1'])).toEqual({ problem: 'fund: the savings account pays NADI, not USDT' })
    expect(parseFund(['mining', 'NADI', '99999999999'])).toHaveProperty('problem')
  })
})
