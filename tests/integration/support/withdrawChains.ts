// The chains of the tests that kill a server in the middle of a withdrawal: two anvil nodes the test
// owns (they outlive the servers it kills), mined by hand, with the dev hot wallet funded; a gateway
// of the test's own to read them; and the environment that points a server child at them.

import { Wallet, parseUnits } from 'ethers'
import { devDepositXpub, devHotWalletKey } from '../../../server/config.ts'
import { startDevChains, type DevChains } from '../../../server/chain/devChains.ts'
import { createGateway, type Gateway } from '../../../server/chain/gateway.ts'

export const NADI_ID = 92025
/** The hot wallet that signs every withdrawal. */
export const HOT = new Wallet(devHotWalletKey()).address

export async function startWithdrawChains(): Promise<{ chains: DevChains; gw: Gateway }> {
  const chains = await startDevChains({
    chains: [
      { key: 'bsc', id: 56 },
      { key: 'nadi', id: NADI_ID },
    ],
    blockTime: 'manual',
    fund: [{ address: HOT, native: parseUnits('100', 18), NADI: parseUnits('1000', 18) }],
  })
  const gw = createGateway({
    networks: chains.chains.map((c) => ({ id: c.id, key: c.key, name: c.key, nativeSymbol: 'ETH', rpcUrl: c.rpcUrl, confirmations: 3, tokens: c.tokens })),
    hotWalletKey: null,
    depositXkey: null,
    logRange: 1000,
    dev: chains,
  })
  return { chains, gw }
}

/** A server's settings for these chains and the hot wallet. */
export function withdrawChainsEnv(chains: DevChains): Record<string, string> {
  const env: Record<string, string> = {
    NADI_CHAIN_ID: String(NADI_ID),
    NADI_HOT_WALLET_KEY: devHotWalletKey(),
    NADI_DEPOSIT_XKEY: devDepositXpub(),
  }
  for (const c of chains.chains) {
    const p = `NADI_CHAIN_${c.key.toUpperCase()}_`
    Object.assign(env, { [`${p}RPC_URL`]: c.rpcUrl, [`${p}USDT_ADDRESS`]: c.tokens.USDT, [`${p}NADI_ADDRESS`]: c.tokens.NADI })
  }
  return env
}
