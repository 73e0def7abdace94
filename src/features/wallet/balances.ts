// What the wallet screen shows of the balances, computed on exact units. Pure.
import type { AccountKind, Asset, AssetBalance, Balances } from '../../../contract/wallet.ts'
import { units } from './amount.ts'

export const ASSETS: readonly Asset[] = ['USDT', 'NADI']
export const ACCOUNTS: readonly AccountKind[] = ['fund', 'trade']
const SCALE = 100_000_000n

export const otherAccount = (a: AccountKind): AccountKind => (a === 'fund' ? 'trade' : 'fund')
export const otherAsset = (a: Asset): Asset => (a === 'USDT' ? 'NADI' : 'USDT')

/** One asset's row; zeros for an asset the server did not list (a new user has no accounts yet). */
export function assetBalance(b: Balances | undefined, asset: Asset): AssetBalance {
  return b?.assets.find((x) => x.asset === asset) ?? { asset, fund: { available: '0', frozen: '0' }, trade: { available: '0', frozen: '0' } }
}

/** What an account can spend of an asset, in units; undefined while the balances are not known. */
export function availableOf(b: Balances | undefined, asset: Asset, account: AccountKind): bigint | undefined {
  return b ? units(assetBalance(b, asset)[account].available) : undefined
}

/** Everything the user holds of an asset: both accounts, available and frozen. */
export function assetTotal(a: AssetBalance): bigint {
  return units(a.fund.available) + units(a.fund.frozen) + units(a.trade.available) + units(a.trade.frozen)
}

/** The whole wallet in USDT at a NADI price (USDT per NADI, a wire amount), truncated to whole units. */
export function totalInUsdt(b: Balances, nadiPrice: string): bigint {
  return assetTotal(assetBalance(b, 'USDT')) + (assetTotal(assetBalance(b, 'NADI')) * units(nadiPrice)) / SCALE
}
