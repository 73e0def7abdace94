// The money log names every reason the server posts, and an earning leads to its day and position (pure).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { KNOWN_TYPES, MONEY_LOG_FILTERS, typeLabelKey } from '../../../src/features/wallet/moneyLog.ts'
import { earningsHref, lineLabelKey, targetHref } from '../../../src/features/wallet/earnings.ts'

type Tree = { [k: string]: string | Tree }
const LOCALES = ['tw', 'en', 'zh', 'jp', 'ko', 'th', 'pt', 'id', 'vn', 'ms']
const root = new URL('../../../', import.meta.url).pathname
const dict = (l: string) => JSON.parse(fs.readFileSync(path.join(root, 'locales', `${l}.json`), 'utf8')) as Tree
const lookup = (d: Tree, key: string) => key.split('.').reduce<string | Tree | undefined>((n, k) => (typeof n === 'object' ? n[k] : undefined), d)

/** The literal reasons of the ledger calls in server/ (what `grep -rn "reason: '" server/modules` finds, postings only). */
function postedReasons(): Set<string> {
  const out = new Set<string>()
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (p.endsWith('.ts')) {
        const text = fs.readFileSync(p, 'utf8')
        for (const m of text.matchAll(/ledger\.(?:transfer|post|freeze|unfreeze|settleFrozen)\(/g)) {
          const r = /reason: '([a-z_.:-]+)'/.exec(text.slice(m.index, m.index + 400))
          if (r) out.add(r[1]!)
        }
      }
    }
  }
  walk(path.join(root, 'server'))
  return out
}

describe('money log types', () => {
  it('names every reason the server posts with its own words, in all ten languages', () => {
    const reasons = postedReasons()
    expect(reasons.size).toBeGreaterThan(15)
    expect([...reasons].filter((r) => !(KNOWN_TYPES as readonly string[]).includes(r))).toEqual([])
    for (const l of LOCALES) {
      const d = dict(l)
      expect(KNOWN_TYPES.map(typeLabelKey).filter((k) => typeof lookup(d, k) !== 'string'), l).toEqual([])
    }
  })

  it('a reason with a dot has a key of its own (a dot would nest the locale tree)', () => {
    expect(typeLabelKey('pledge.release')).toBe('moneyLog.type.pledge_release')
    expect(typeLabelKey('pledge')).toBe('moneyLog.type.pledge')
  })

  it('has a chip for the settlement', () => {
    expect(MONEY_LOG_FILTERS).toContain('settlement')
  })
})

describe('where an earning leads', () => {
  it('a settlement opens its day; a position its power log, node tier, or pledge log', () => {
    expect(targetHref({ screen: 'earnings', day: 20522 })).toBe('/wallet/earnings/20522')
    expect(earningsHref(0)).toBe('/wallet/earnings/0')
    expect(targetHref({ screen: 'powerLog', position_id: 5 })).toBe('/mingLog')
    expect(targetHref({ screen: 'node', node_id: 4, tier_id: 2 })).toBe('/node/detail/2')
    expect(targetHref({ screen: 'pledge', pledge_id: 9 })).toBe('/pledge/releaseLog/9')
    expect(targetHref({ screen: 'loan', loan_id: 3 })).toBe('/loan')
    expect(targetHref({ screen: 'release' })).toBe('/shop/orderRelease')
  })

  it('names a line by its kind, a fee share and a dividend as such, in all ten languages', () => {
    const kinds = ['device', 'destroy', 'joint', 'trial', 'node', 'pledge'] as const
    expect(lineLabelKey({ kind: 'node', reason: 'node_fee_share' })).toBe('earnings.feeShare')
    expect(lineLabelKey({ kind: 'node', reason: 'node_dividend' })).toBe('earnings.dividend')
    expect(lineLabelKey({ kind: 'trial', reason: 'settlement' })).toBe('earnings.kind.trial')
    const keys = [...kinds.map((kind) => lineLabelKey({ kind, reason: 'settlement' })), 'earnings.feeShare', 'earnings.dividend', 'earnings.title', 'earnings.settledAt', 'earnings.total', 'earnings.empty', 'earnings.position', 'earnings.open', 'moneyLog.details']
    for (const l of LOCALES) expect(keys.filter((k) => typeof lookup(dict(l), k) !== 'string'), l).toEqual([])
  })
})
