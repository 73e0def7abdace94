// Where an earning leads (issue 11 part 7): the server names what a money record or an earning line
// refers to (contract MoneyTarget); this maps it to the app's routes, and names each line. Pure.
import type { EarningLine, MoneyTarget } from '../../../contract/wallet.ts'

/** The day's earnings screen of a settled UTC day (days since 1970-01-01). */
export const earningsHref = (day: number) => `/wallet/earnings/${day}`

/**
 * The route showing a target. A node's screen is its tier's detail (which lists the caller's nodes
 * of that tier); a pledge's is its release log (/pledge/detail/{id} is the product one pledges in).
 */
export function targetHref(target: MoneyTarget): string {
  switch (target.screen) {
    case 'earnings':
      return earningsHref(target.day)
    case 'powerLog':
      return '/mingLog'
    case 'node':
      return `/node/detail/${target.tier_id}`
    case 'pledge':
      return `/pledge/releaseLog/${target.pledge_id}`
    case 'loan':
      return '/loan'
    case 'release':
      return '/shop/orderRelease'
  }
}

/** The locale key naming a line: a node's fee share, or the kind of position that earned it. */
export const lineLabelKey = (line: Pick<EarningLine, 'kind' | 'reason'>) =>
  line.reason === 'node_fee_share' ? 'earnings.feeShare' : line.reason === 'node_dividend' ? 'earnings.dividend' : `earnings.kind.${line.kind}`
