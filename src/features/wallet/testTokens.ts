// What "Get test tokens" (demo only) says once the faucet has sent: the tokens went to the connected
// wallet on the demo chains, not to the balance here — worded by what that balance actually is. Pure.
import type { Balances } from '../../../contract/wallet.ts'
import { shortAddress } from '../../lib/format.ts'
import { showAmount, units } from './amount.ts'
import { assetBalance, assetTotal } from './balances.ts'

/** POST devchain/faucet's answer: what was sent, to which address. */
export interface FaucetResult {
  chain: string
  address: string
  usdt: string
  nadi: string
}

/** The message as a locale key and its values: "so it still shows 0" only while it does. */
export function testTokensMessage(sent: FaucetResult, balances: Balances | undefined): { key: string; params: Record<string, string> } {
  const usdt = assetTotal(assetBalance(balances, 'USDT'))
  const nadi = assetTotal(assetBalance(balances, 'NADI'))
  const params = { usdt: showAmount(units(sent.usdt), 'USDT'), nadi: showAmount(units(sent.nadi), 'NADI'), address: shortAddress(sent.address) }
  if (usdt === 0n && nadi === 0n) return { key: 'assets.testTokensWhere', params }
  return { key: 'assets.testTokensWhereHeld', params: { ...params, heldUsdt: showAmount(usdt, 'USDT'), heldNadi: showAmount(nadi, 'NADI') } }
}
