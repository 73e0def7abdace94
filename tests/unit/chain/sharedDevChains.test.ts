import { describe, expect, it } from 'vitest'
import { getCreateAddress } from 'ethers'
import type { ChainSettings } from '../../../server/config.ts'
import { FAUCET_MAX_WEI, faucetBody, parseFaucetRequest, parseManifest } from '../../../server/chain/sharedDevChains.ts'

const DEPLOYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const token = (nonce: number) => getCreateAddress({ from: DEPLOYER, nonce })
const tokens = { USDT: token(0), NADI: token(1), MEME: token(2) }
const network = (key: string, id: number): ChainSettings => ({ key, id, name: key, nativeSymbol: 'ETH', rpcUrl: null, confirmations: 3, tokens: { USDT: null, NADI: null, MEME: null } })
const NETWORKS = [network('bsc', 56), network('nadi', 92025)]
const manifest = () => ({
  blockTime: 1,
  hotWallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  chains: [
    { key: 'bsc', id: 56, rpcUrl: 'http://127.0.0.1:40001', pid: 101, tokens },
    { key: 'nadi', id: 92025, rpcUrl: 'http://127.0.0.1:40002', pid: 102, tokens },
  ],
})

describe('the chains process’s manifest, as a server reads it', () => {
  it('gives each configured chain its node and the token addresses the chains process deployed', () => {
    const m = parseManifest(manifest(), NETWORKS)
    expect(m.chains.map((c) => [c.key, c.id, c.rpcUrl, c.tokens.NADI])).toEqual([
      ['bsc', 56, 'http://127.0.0.1:40001', tokens.NADI],
      ['nadi', 92025, 'http://127.0.0.1:40002', tokens.NADI],
    ])
    expect([m.blockTime, m.hotWallet]).toEqual([1, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'])
  })

  it('is refused, saying what is wrong, when it does not fit this server’s chains', () => {
    const with_ = (edit: (m: ReturnType<typeof manifest>) => void) => {
      const m = manifest()
      edit(m)
      return () => parseManifest(m, NETWORKS)
    }
    expect(with_((m) => (m.chains[1]!.id = 777))).toThrow('the chains process answered a manifest this server cannot use: it runs nadi as chain 777, this server has 92025 (NADI_CHAIN_ID must be the same for both)')
    expect(with_((m) => m.chains.pop())).toThrow(/it runs no chain "nadi"/)
    expect(with_((m) => (m.chains[0]!.rpcUrl = 'ws://127.0.0.1:1'))).toThrow(/bsc has no http\(s\) node URL/)
    expect(with_((m) => (m.chains[0]!.tokens = { ...tokens, USDT: '0x12' }))).toThrow(/bsc has no USDT address/)
    expect(with_((m) => ((m as { blockTime: unknown }).blockTime = -1))).toThrow(/blockTime/)
    expect(() => parseManifest('<html>', NETWORKS)).toThrow(/no list of chains/)
  })
})

describe('a faucet request to the chains process', () => {
  const keys = new Set(['bsc', 'nadi'])
  const to = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

  it('reads back what a server sends', () => {
    const amounts = { USDT: 10n ** 21n, NADI: 10n ** 21n, native: 10n ** 18n }
    expect(parseFaucetRequest(faucetBody('nadi', to, amounts), keys)).toEqual({ chain: 'nadi', to, amounts })
    expect(parseFaucetRequest({ chain: 'bsc', to: to.toLowerCase() }, keys)).toEqual({ chain: 'bsc', to, amounts: {} })
  })

  it('refuses an unknown chain, a bad address, an amount that is not whole wei or is past the cap, and unknown fields', () => {
    expect(parseFaucetRequest({ chain: 'eth', to }, keys)).toEqual({ error: 'chain must be one of bsc, nadi' })
    expect(parseFaucetRequest({ chain: 'bsc', to: '0x12' }, keys)).toEqual({ error: 'to must be an address' })
    for (const usdt of ['-1', '1.5', '1e18', 5, (FAUCET_MAX_WEI + 1n).toString()]) {
      expect(parseFaucetRequest({ chain: 'bsc', to, usdt }, keys)).toEqual({ error: `usdt must be a whole number of wei from 0 to ${FAUCET_MAX_WEI}` })
    }
    expect(parseFaucetRequest({ chain: 'bsc', to, meme: '1' }, keys)).toEqual({ error: 'unknown field "meme"' })
    expect(parseFaucetRequest([], keys)).toEqual({ error: 'expected a JSON object {chain, to, usdt?, nadi?, native?}' })
  })
})
