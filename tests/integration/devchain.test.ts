// The demo-only chain routes: the Demo wallet's JSON-RPC proxy (a whitelist of read and broadcast
// methods, nothing that controls the node) and the test-token faucet (signed in, rate-limited).
// Neither exists without dev chains, and production refuses dev chains.

import { describe, expect, it } from 'vitest'
import { Interface, JsonRpcProvider, Network, parseUnits } from 'ethers'
import { loadConfig } from '../../server/config.ts'
import { FAUCET_PER_MINUTE } from '../../server/modules/devchain/routes.ts'
import { ROOT_CODE, freshWallet, useServers, type TestServer } from './support/server.ts'

const start = useServers({ env: { NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: '0' } })
const RPC = '/api/v1/devchain/rpc'
const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)'])

const rpc = (s: TestServer, chain: string, method: string, params: unknown[] = [], id: unknown = 1) =>
  s.inject({ method: 'POST', url: `${RPC}/${chain}`, payload: { jsonrpc: '2.0', id, method, params } })

describe('devchain rpc proxy', () => {
  it('answers the whitelisted methods from the local node and refuses everything else', async () => {
    const s = await start()
    const chainId = await rpc(s, 'bsc', 'eth_chainId')
    expect(chainId.statusCode).toBe(200)
    expect(JSON.parse(chainId.body)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x38' })
    // By chain id as well as by key.
    expect(JSON.parse((await rpc(s, String(s.gateway.chain('nadi').id), 'eth_chainId', [], 'a')).body)).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      result: '0x' + s.gateway.chain('nadi').id.toString(16),
    })
    const block = JSON.parse((await rpc(s, 'bsc', 'eth_blockNumber')).body) as { result: string }
    expect(block.result).toMatch(/^0x[0-9a-f]+$/)

    // Node controls, unlocked-account sends, signing on the node, filters: refused, and nothing moved.
    const rich = s.gateway.hotWalletAddress()
    for (const [method, params] of [
      ['anvil_setBalance', [rich, '0x1']],
      ['evm_mine', []],
      ['eth_sendTransaction', [{ from: rich, to: freshWallet().address, value: '0x1' }]],
      ['eth_sign', [rich, '0x00']],
      ['eth_accounts', []],
      ['debug_traceTransaction', ['0x' + '00'.repeat(32)]],
      ['eth_getLogs', [{}]],
    ] as const) {
      const res = await rpc(s, 'bsc', method, [...params])
      expect(res.statusCode, method).toBe(403)
      expect(JSON.parse(res.body), method).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32601 } })
    }
    expect(JSON.parse((await rpc(s, 'bsc', 'eth_blockNumber')).body)).toEqual(block)

    // Malformed: not JSON-RPC 2.0, no method, params not a list, a batch, an unknown chain, too large.
    const bad = [
      { jsonrpc: '1.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: { a: 1 } },
      { jsonrpc: '2.0', id: { x: 1 }, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', extra: true },
      [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }],
    ]
    for (const payload of bad) {
      const res = await s.inject({ method: 'POST', url: `${RPC}/bsc`, payload })
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } })
    }
    expect((await rpc(s, 'eth', 'eth_chainId')).statusCode).toBe(404)
    // Not JSON at all: 415, never a 502 blaming the node; broken JSON is a parse error.
    for (const [type, payload] of [
      ['text/plain', 'eth_chainId'],
      ['application/x-www-form-urlencoded', 'method=eth_chainId'],
      ['application/xml', '<call/>'],
    ] as const) {
      const res = await s.inject({ method: 'POST', url: `${RPC}/bsc`, headers: { 'content-type': type }, payload })
      expect(res.statusCode, type).toBe(415)
      expect(JSON.parse(res.body), type).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
    }
    const broken = await s.inject({ method: 'POST', url: `${RPC}/bsc`, headers: { 'content-type': 'application/json' }, payload: '{"jsonrpc":' })
    expect(broken.statusCode).toBe(400)
    expect(JSON.parse(broken.body)).toMatchObject({ error: { code: -32700 } })
    const huge = await rpc(s, 'bsc', 'eth_call', [{ data: '0x' + 'ab'.repeat(40_000) }, 'latest'])
    expect(huge.statusCode).toBe(413)
  })

  it('lets a wallet outside the node sign and broadcast through it (what the Demo wallet does)', async () => {
    const s = await start()
    const url = await s.listen()
    const network = Network.from(56)
    const provider = new JsonRpcProvider(`${url}${RPC}/bsc`, network, { staticNetwork: network, batchMaxCount: 1, cacheTimeout: -1 })
    try {
      const w = freshWallet().connect(provider)
      await s.gateway.faucet('bsc', w.address, { native: parseUnits('1', 18) })
      const to = freshWallet().address
      const tx = await w.sendTransaction({ to, value: parseUnits('0.25', 18) })
      const r = await s.gateway.waitForReceipt('bsc', tx.hash, 10_000)
      expect(r?.status).toBe('success')
      expect(await s.gateway.nativeBalance('bsc', to)).toBe(parseUnits('0.25', 18))
      expect((await provider.getTransactionReceipt(tx.hash))?.status).toBe(1)
      // A revert comes back as the node's JSON-RPC error, with its data.
      const usdt = s.gateway.chain('bsc').tokens.USDT!
      expect(await provider.call({ to: usdt, data: ERC20.encodeFunctionData('balanceOf', [to]) })).toBe('0x' + '00'.repeat(32))
    } finally {
      provider.destroy()
    }
  })
})

describe('devchain faucet', () => {
  it('sends test USDT, NADI and gas to the signed-in user, a few times a minute', async () => {
    const s = await start()
    expect((await s.post('/api/v1/devchain/faucet', { chain: 'bsc' })).statusCode).toBe(401)
    const me = await s.signIn(ROOT_CODE)
    const o = { token: me.token, lang: 'EN' }
    const res = await s.post<{ address: string }>('/api/v1/devchain/faucet', { chain: 'bsc' }, o)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.body_.data.address).toBe(me.address)
    expect(await s.gateway.tokenBalance('bsc', 'USDT', me.address)).toBe(parseUnits('1000', 18))
    expect(await s.gateway.tokenBalance('bsc', 'NADI', me.address)).toBe(parseUnits('1000', 18))
    expect(await s.gateway.nativeBalance('bsc', me.address)).toBeGreaterThanOrEqual(parseUnits('1', 18))

    // To another address on the other chain.
    const other = freshWallet().address
    expect((await s.post('/api/v1/devchain/faucet', { chain: 'nadi', address: other.toLowerCase() }, o)).statusCode).toBe(200)
    expect(await s.gateway.tokenBalance('nadi', 'NADI', other)).toBe(parseUnits('1000', 18))

    // Bad input moves nothing and does not count.
    for (const body of [{ chain: 'eth' }, { chain: 'bsc', address: '0x1234' }, { chain: 'bsc', address: 'not an address' }, {}, { chain: 'bsc', amount: 5 }]) {
      expect((await s.post('/api/v1/devchain/faucet', body, o)).statusCode, JSON.stringify(body)).toBe(400)
    }
    // A few a minute per chain (one tap asks each chain once): past that, 429 saying when to come back.
    for (let i = 1; i < FAUCET_PER_MINUTE; i++) expect((await s.post('/api/v1/devchain/faucet', { chain: 'bsc', address: other }, o)).statusCode).toBe(200)
    s.clock.advance(15_000)
    const limited = await s.post<null>('/api/v1/devchain/faucet', { chain: 'bsc', address: other }, o)
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['retry-after']).toBe('45')
    expect(limited.body_.msg).toBe('Too many test token requests: try again in 45 s')
    expect((await s.post('/api/v1/devchain/faucet', { chain: 'nadi' }, o)).statusCode).toBe(200)
    // Per user: another user still may.
    const them = await s.signIn(ROOT_CODE)
    expect((await s.post('/api/v1/devchain/faucet', { chain: 'bsc' }, { token: them.token })).statusCode).toBe(200)
    // A minute later the first user may again.
    s.clock.advance(46_000)
    expect((await s.post('/api/v1/devchain/faucet', { chain: 'bsc', address: other }, o)).statusCode).toBe(200)
  })
})

describe('without dev chains', () => {
  it('neither route exists, and production refuses dev chains', async () => {
    const s = await start({ env: { NADI_DEV_CHAINS: '0' } })
    const me = await s.signIn(ROOT_CODE)
    expect((await rpc(s, 'bsc', 'eth_chainId')).statusCode).toBe(404)
    expect((await s.post('/api/v1/devchain/faucet', { chain: 'bsc' }, { token: me.token })).statusCode).toBe(404)
    expect(s.app.printRoutes().includes('devchain')).toBe(false)
    expect(loadConfig({ NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example' }).chain.devChains).toBe(false)
    expect(() => loadConfig({ NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example', NADI_DEV_CHAINS: '1' })).toThrow(/not allowed in production/)
  })
})
