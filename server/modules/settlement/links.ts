// What a money record or an earning refers to (issue 11 part 7: "every earning in the money log
// links to the position and day that produced it"). Pure: read from a posting's reason, ref and meta,
// or from a position's kind and source, as the features that post them write them:
//
//   settlement        settle:<day>:<user>               → that day's earnings
//   node_fee_share    node:fees:<day>:<asset>:<user>    → that day's earnings (the fee shares are lines of it)
//   node_dividend     node:dividend:<day>:<asset>:<user> → that day's earnings (so are the dividends)
//   node_stake, node_stake_return   meta.node           → the node
//   pledge, pledge.release          meta.pledge         → the pledge
//   loan_borrow, loan_repay         meta.loan           → the loan
//   release           release:<day>:<user>:<asset>:<plan> → the release records
//
// A node's screen is its tier's, so a node target needs the tier: the caller looks it up (nodeTarget).
import type { MoneyTarget, PositionKind } from '../../../contract/wallet.ts'

/** A target still to resolve: a node named by its id only. */
export type LinkRef = Exclude<MoneyTarget, { screen: 'node' }> | { screen: 'node'; node_id: number }

const DAY_REF = /^(?:settle|node:fees|node:dividend):(\d{1,9}):/
const idIn = (meta: unknown, key: string): number | null => {
  if (!meta || typeof meta !== 'object') return null
  const v = (meta as Record<string, unknown>)[key]
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^[1-9]\d{0,15}$/.test(v) ? Number(v) : NaN
  return Number.isSafeInteger(n) && n > 0 ? n : null
}

/** The link of a posting the user sees in the money log, or null when it refers to nothing to open. */
export function moneyLink(reason: string, ref: string, meta: unknown): LinkRef | null {
  switch (reason) {
    case 'settlement':
    case 'node_fee_share':
    case 'node_dividend': {
      const m = DAY_REF.exec(ref)
      return m ? { screen: 'earnings', day: Number(m[1]) } : null
    }
    case 'node_stake':
    case 'node_stake_return': {
      const node = idIn(meta, 'node')
      return node === null ? null : { screen: 'node', node_id: node }
    }
    case 'pledge':
    case 'pledge.release': {
      const pledge = idIn(meta, 'pledge')
      return pledge === null ? null : { screen: 'pledge', pledge_id: pledge }
    }
    case 'loan_borrow':
    case 'loan_repay': {
      const loan = idIn(meta, 'loan')
      return loan === null ? null : { screen: 'loan', loan_id: loan }
    }
    case 'release':
      return { screen: 'release' }
    default:
      return null
  }
}

/** The number after `<prefix>:` in a position's source ('pledge:7' → 7), or null. */
export function sourceId(source: string, prefix: string): number | null {
  const m = /^([a-z]+):([1-9]\d{0,15})$/.exec(source)
  return m && m[1] === prefix ? Number(m[2]) : null
}

/** Where a position is shown: the power log for power and devices, its node, its pledge. */
export function positionTarget(p: { id: number; kind: PositionKind; source: string }): LinkRef {
  if (p.kind === 'node') {
    const node = sourceId(p.source, 'node')
    if (node !== null) return { screen: 'node', node_id: node }
  }
  if (p.kind === 'pledge') {
    const pledge = sourceId(p.source, 'pledge')
    if (pledge !== null) return { screen: 'pledge', pledge_id: pledge }
  }
  return { screen: 'powerLog', position_id: p.id }
}

/** A node link with its tier; null when the node is unknown (no screen to open). */
export function resolveLink(link: LinkRef, tierOf: (nodeId: number) => number | null): MoneyTarget | null {
  if (link.screen !== 'node') return link
  const tier = tierOf(link.node_id)
  return tier === null ? null : { screen: 'node', node_id: link.node_id, tier_id: tier }
}

export type DayCheck = { day: number } | { key: 'errors.earningsDayInvalid' | 'errors.earningsDayRange'; params: Record<string, string | number> }

/**
 * A day asked for on the wire: an integer (days since 1970-01-01 UTC) from 0 to today. Whether it is
 * settled is the service's question.
 */
export function checkDay(text: string, today: number): DayCheck {
  const t = text.trim()
  if (!/^-?\d{1,12}$/.test(t)) return { key: 'errors.earningsDayInvalid', params: { day: text.slice(0, 32) } }
  const day = Number(t)
  if (day < 0 || day > today) return { key: 'errors.earningsDayRange', params: { day: t, today } }
  return { day }
}
