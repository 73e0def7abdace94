// What the wallet screen shows of the balances, computed on exact units. Pure.
import type { AccountKind, Asset, AssetBalance, Balances, FrozenPart, HeldAsset, Holdings } from '../../../contract/wallet.ts'
import { units } from './amount.ts'

/** The coins: what moves between accounts, trades and exchanges. */
export const ASSETS: readonly Asset[] = ['USDT', 'NADI']
/** What the wallet screen lists: the coins, then MEME, the airdrop token. */
export const WALLET_ASSETS: readonly HeldAsset[] = [...ASSETS, 'MEME']
export const ACCOUNTS: readonly AccountKind[] = ['fund', 'trade']
/** The accounts an asset can be in: MEME is credited to the fund account and never moves to trade. */
export const accountsOf = (asset: HeldAsset): readonly AccountKind[] => (asset === 'MEME' ? ['fund'] : ACCOUNTS)
const SCALE = 100_000_000n

export const otherAccount = (a: AccountKind): AccountKind => (a === 'fund' ? 'trade' : 'fund')
export const otherAsset = (a: Asset): Asset => (a === 'USDT' ? 'NADI' : 'USDT')

/** One asset's row; zeros for an asset the server did not list (a new user has no accounts yet). */
export function assetBalance(b: Balances | undefined, asset: HeldAsset): AssetBalance {
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

/** The whole wallet in USDT at a NADI price (USDT per NADI, a wire amount), truncated to whole units. MEME has no market, so no price: it is left out. */
export function totalInUsdt(b: Balances, nadiPrice: string): bigint {
  return assetTotal(assetBalance(b, 'USDT')) + (assetTotal(assetBalance(b, 'NADI')) * units(nadiPrice)) / SCALE
}

/** One asset's frozen parts (what each frozen amount is for), in the server's order. */
export function frozenPartsOf(h: Holdings | undefined, asset: HeldAsset): FrozenPart[] {
  return h?.frozen.filter((p) => p.asset === asset) ?? []
}

/** What open loans owe, in USDT units (loans are lent in USDT). */
export function debtInUsdt(h: Holdings): bigint {
  return h.debts.reduce((sum, d) => sum + (d.asset === 'USDT' ? units(d.amount) : 0n), 0n)
}

/** The wallet's net worth in USDT: everything held (frozen included) less what open loans owe; may be negative. */
export function netOfDebt(b: Balances, h: Holdings, nadiPrice: string): bigint {
  return totalInUsdt(b, nadiPrice) - debtInUsdt(h)
}
