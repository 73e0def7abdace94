// The dev chains as a process of their own (server/chain/devChainsProcess.ts) and the gateways of the
// servers that share them (NADI_DEV_CHAINS_URL, server/chain/sharedDevChains.ts), in process: every
// gateway sees the chains process's nodes and tokens; faucets asked by two servers at once all land,
// since only the chains process mints; a server whose chain ids differ, or with no chains process to
// ask, does not start; and a bad faucet request changes nothing.

import { afterAll, describe, expect, it } from 'vitest'
import { Wallet, parseUnits } from 'ethers'
import { loadConfig } from '../../server/config.ts'
import { serveDevChains, type ChainsProcess } from '../../server/chain/devChainsProcess.ts'
import { startChainGateway, type Gateway } from '../../server/chain/gateway.ts'
import { attachDevChains } from '../../server/chain/sharedDevChains.ts'
import { freePort } from './support/child.ts'

const silent = { info: () => {}, warn: () => {}, error: () => {} }
const opened: { close(): Promise<void> }[] = []
afterAll(async () => {
  for (const o of opened.reverse()) await o.close()
})

const serverConfig = (url: string, env: Record<string, string> = {}) => loadConfig({ NADI_ENV: 'test', NADI_DEV_CHAINS_URL: url, ...env }, process.cwd())

async function chainsProcess(): Promise<ChainsProcess> {
  const config = loadConfig({ NADI_ENV: 'test', NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: '0' }, process.cwd())
  const p = await serveDevChains(config.chain, silent, { host: '127.0.0.1', port: 0 })
  opened.push(p)
  return p
}

async function gatewayOf(url: string): Promise<Gateway> {
  const gw = await startChainGateway(serverConfig(url), silent)
  opened.push(gw)
  return gw
}

describe('dev chains shared by several servers', () => {
  it('every server reads the chains process’s nodes and tokens, and faucets asked by two servers at once all land', { timeout: 60_000 }, async () => {
    const chains = await chainsProcess()
    const [a, b] = [await gatewayOf(chains.url), await gatewayOf(chains.url)]
    for (const gw of [a, b]) {
      expect(gw.isDev).toBe(true)
      expect(gw.chains().map((c) => [c.key, c.id, c.rpcUrl, c.tokens])).toEqual(chains.manifest.chains.map((c) => [c.key, c.id, c.rpcUrl, c.tokens]))
    }
    // The hot wallet the servers sign withdrawals with is the one the chains process funded.
    expect(await a.tokenBalance('nadi', 'USDT', a.hotWalletAddress())).toBeGreaterThan(0n)

    const users = Array.from({ length: 6 }, () => Wallet.createRandom().address)
    const each = { USDT: parseUnits('7', 18), NADI: parseUnits('3', 18), native: parseUnits('1', 18) }
    await Promise.all(users.map((u, i) => (i % 2 === 0 ? a : b).faucet('bsc', u, each)))
    for (const u of users) {
      expect([await b.tokenBalance('bsc', 'USDT', u), await b.tokenBalance('bsc', 'NADI', u), await b.nativeBalance('bsc', u)]).toEqual([each.USDT, each.NADI, each.native])
    }
  })

  it('a bad faucet request is refused by the chains process and mints nothing', async () => {
    const chains = await chainsProcess()
    const gw = await gatewayOf(chains.url)
    const to = Wallet.createRandom().address
    const post = (body: unknown) => fetch(`${chains.url}/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const refused = await post({ chain: 'bsc', to, usdt: '10000000000000000000000001' })
    expect([refused.status, await refused.json()]).toEqual([400, { error: 'usdt must be a whole number of wei from 0 to 1000000000000000000000000' }])
    expect((await post({ chain: 'eth', to })).status).toBe(400)
    expect((await fetch(`${chains.url}/faucet`, { method: 'POST', body: 'not json' })).status).toBe(400)
    expect(await gw.tokenBalance('bsc', 'USDT', to)).toBe(0n)
  })

  it('a server whose NADI chain id differs does not start, naming it; nor one with no chains process to ask', { timeout: 30_000 }, async () => {
    const chains = await chainsProcess()
    await expect(startChainGateway(serverConfig(chains.url, { NADI_CHAIN_ID: '777' }), silent)).rejects.toThrow(
      'the chains process answered a manifest this server cannot use: it runs nadi as chain 92025, this server has 777 (NADI_CHAIN_ID must be the same for both)',
    )
    const nobody = `http://127.0.0.1:${await freePort()}`
    await expect(attachDevChains(serverConfig(nobody).chain, silent, 500)).rejects.toThrow(`NADI_DEV_CHAINS_URL: no chains process answers at ${nobody}`)
  })
})
