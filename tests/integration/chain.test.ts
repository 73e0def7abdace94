// The chain gateway against real local anvil nodes (manual mining, so every block is the test's).

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Contract, HDNodeWallet, JsonRpcProvider, Network, Wallet, parseUnits } from 'ethers'
import { loadConfig } from '../../server/config.ts'
import { ChainUnavailableError, createGateway, startChainGateway, type Gateway } from '../../server/chain/gateway.ts'
import { loadArtifact } from '../../server/chain/contracts.ts'
import { freshWallet, useServers } from './support/server.ts'

const NADI_ID = 92025
const silent = { info() {}, warn() {}, error() {} }
const abi = () => loadArtifact('TestToken').abi as string[]

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('dev chains and the gateway', () => {
  let gw: Gateway
  let startMs = 0
  const providers: JsonRpcProvider[] = []

  /** A user's own wallet on a chain, outside the gateway (what a browser wallet would do). */
  function userWallet(chain: string, wallet: Wallet = freshWallet()) {
    const c = gw.chain(chain)
    const network = Network.from(c.id)
    const provider = new JsonRpcProvider(c.rpcUrl!, network, { staticNetwork: network, cacheTimeout: -1 })
    providers.push(provider)
    const signer = wallet.connect(provider)
    return { signer, usdt: new Contract(c.tokens.USDT!, abi(), signer), nadi: new Contract(c.tokens.NADI!, abi(), signer) }
  }

  beforeAll(async () => {
    const config = loadConfig({ NADI_ENV: 'test', NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual', NADI_CHAIN_ID: String(NADI_ID) })
    const t0 = performance.now()
    gw = await startChainGateway(config, silent)
    startMs = performance.now() - t0
  })

  afterAll(async () => {
    for (const p of providers) p.destroy()
    await gw?.close()
  })

  it('starts both chains on loopback in well under 5 s, answering chain ids 56 and the NADI id', async () => {
    expect(startMs).toBeLessThan(5000)
    expect(gw.isDev).toBe(true)
    expect(gw.chains().map((c) => [c.key, c.id])).toEqual([
      ['bsc', 56],
      ['nadi', NADI_ID],
    ])
    for (const c of gw.chains()) {
      expect(c.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(Number(await gw.dev!.rpc(c.key, 'eth_chainId'))).toBe(c.id)
    }
    expect(gw.chain(56).key).toBe('bsc')
  })

  it('deploys USDT and NADI with 18 decimals on both chains and funds the hot wallet', async () => {
    for (const c of gw.chains()) {
      const { usdt, nadi } = userWallet(c.key)
      expect(await usdt.getFunction('symbol')()).toBe('USDT')
      expect(await nadi.getFunction('symbol')()).toBe('NADI')
      expect(await usdt.getFunction('decimals')()).toBe(18n)
      expect(await nadi.getFunction('decimals')()).toBe(18n)
      expect(await gw.tokenBalance(c.key, 'USDT', gw.hotWalletAddress())).toBe(parseUnits('1000000', 18))
      expect(await gw.tokenBalance(c.key, 'NADI', gw.hotWalletAddress())).toBe(parseUnits('1000000', 18))
      expect(await gw.nativeBalance(c.key, gw.hotWalletAddress())).toBeGreaterThan(0n)
    }
  })

  it('the faucet gives an address tokens and native coin, spendable at once', async () => {
    const who = freshWallet().address
    await gw.faucet('nadi', who, { USDT: parseUnits('25', 18), NADI: parseUnits('7.5', 18), native: parseUnits('1', 18) })
    expect(await gw.tokenBalance('nadi', 'USDT', who)).toBe(parseUnits('25', 18))
    expect(await gw.tokenBalance('nadi', 'NADI', who)).toBe(parseUnits('7.5', 18))
    expect(await gw.nativeBalance('nadi', who)).toBe(parseUnits('1', 18))
    // The other chain is a different chain.
    expect(await gw.tokenBalance('bsc', 'USDT', who)).toBe(0n)
  })

  it('transferLogs sees a deposit with its from, to, amount, block and log index, and filters by recipient', async () => {
    const user = userWallet('bsc')
    await gw.faucet('bsc', user.signer.address, { USDT: parseUnits('100', 18), native: parseUnits('1', 18) })
    const deposit = gw.depositAddress('bsc', 41)
    const other = gw.depositAddress('bsc', 42)
    const before = await gw.blockNumber('bsc')
    // Two transfers in one block: log indexes 0 and 1, in nonce order.
    const tx1 = await user.usdt.getFunction('transfer')(deposit, parseUnits('12.5', 18))
    const tx2 = await user.usdt.getFunction('transfer')(other, 1n)
    await gw.dev!.mine('bsc')
    const head = await gw.blockNumber('bsc')
    expect(head).toBe(before + 1)

    const logs = await gw.transferLogs('bsc', 'USDT', before + 1, head, [deposit])
    expect(logs).toEqual([
      {
        chain: 'bsc',
        token: 'USDT',
        txHash: tx1.hash,
        logIndex: 0,
        blockNumber: head,
        blockHash: await gw.blockHash('bsc', head),
        from: user.signer.address,
        to: deposit,
        amount: parseUnits('12.5', 18),
      },
    ])
    const both = await gw.transferLogs('bsc', 'USDT', before + 1, head, [other.toLowerCase(), deposit])
    expect(both.map((l) => [l.to, l.logIndex, l.txHash])).toEqual([
      [deposit, 0, tx1.hash],
      [other, 1, tx2.hash],
    ])
    expect(await gw.transferLogs('bsc', 'USDT', before + 1, head, [])).toEqual([])
    expect(await gw.transferLogs('bsc', 'NADI', before + 1, head, [deposit])).toEqual([])
    expect(await gw.transferLogs('nadi', 'USDT', 0, await gw.blockNumber('nadi'), [deposit])).toEqual([])

    const r = await gw.receipt('bsc', tx1.hash)
    expect(r).toMatchObject({ status: 'success', blockNumber: head, from: user.signer.address, to: gw.chain('bsc').tokens.USDT })
    expect(r!.transfers).toEqual([logs[0]])
  })

  it('splits a long block range into calls of at most logRange blocks and still finds every transfer', async () => {
    const config = loadConfig({ NADI_ENV: 'test', NADI_CHAIN_LOG_RANGE: '2' })
    const narrow = createGateway({ networks: gw.chains(), hotWalletKey: null, depositXkey: config.chain.depositXkey, logRange: config.chain.logRange })
    try {
      const user = userWallet('nadi')
      await gw.faucet('nadi', user.signer.address, { NADI: parseUnits('10', 18), native: parseUnits('1', 18) })
      const to = freshWallet().address
      const start = (await gw.blockNumber('nadi')) + 1
      const hashes: string[] = []
      for (let i = 1; i <= 5; i++) {
        hashes.push((await user.nadi.getFunction('transfer')(to, BigInt(i))).hash as string)
        await gw.dev!.mine('nadi')
      }
      const logs = await narrow.transferLogs('nadi', 'NADI', start, start + 4, [to])
      expect(logs.map((l) => [l.txHash, l.amount, l.blockNumber])).toEqual(hashes.map((h, i) => [h, BigInt(i + 1), start + i]))
    } finally {
      await narrow.close()
    }
  })

  it('a reorg that replaces a block changes its hash and drops its transfer', async () => {
    const user = userWallet('nadi')
    await gw.faucet('nadi', user.signer.address, { USDT: parseUnits('50', 18), native: parseUnits('1', 18) })
    const deposit = gw.depositAddress('nadi', 7)
    const snap = await gw.dev!.snapshot('nadi')

    const tx = await user.usdt.getFunction('transfer')(deposit, parseUnits('50', 18))
    await gw.dev!.mine('nadi')
    const n = await gw.blockNumber('nadi')
    const seen = await gw.blockHash('nadi', n)
    expect(await gw.transferLogs('nadi', 'USDT', n, n, [deposit])).toHaveLength(1)
    await gw.dev!.mine('nadi', 2) // 3 confirmations
    expect((await gw.blockNumber('nadi')) - n + 1).toBe(3)

    // The chain rewinds past the deposit and a different block takes its height.
    expect(await gw.dev!.revert('nadi', snap)).toBe(true)
    expect(await gw.blockHash('nadi', n)).toBeNull()
    await user.usdt.getFunction('transfer')(freshWallet().address, 1n)
    await gw.dev!.mine('nadi')
    expect(await gw.blockNumber('nadi')).toBe(n)

    const replaced = await gw.blockHash('nadi', n)
    expect(replaced).toMatch(/^0x[0-9a-f]{64}$/)
    expect(replaced).not.toBe(seen) // what a watcher compares to notice the reorg
    expect(await gw.transferLogs('nadi', 'USDT', n, n, [deposit])).toEqual([])
    expect(await gw.receipt('nadi', tx.hash)).toBeNull()
    expect(await gw.tokenBalance('nadi', 'USDT', deposit)).toBe(0n)
    const header = await gw.block('nadi', n)
    expect(header!.parentHash).toBe(await gw.blockHash('nadi', n - 1))
  })

  it('sendToken: concurrent sends get distinct, consecutive nonces and all confirm', async () => {
    const recipients = Array.from({ length: 6 }, () => freshWallet().address)
    const nonces: number[] = []
    const hot = gw.hotWalletAddress()
    const hotBefore = await gw.tokenBalance('bsc', 'NADI', hot)
    const hashes = await Promise.all(
      recipients.map((to, i) => gw.sendToken('bsc', 'NADI', to, parseUnits(String(i + 1), 18), { beforeBroadcast: (tx) => void nonces.push(tx.nonce) })),
    )
    expect(new Set(hashes).size).toBe(6)
    const sorted = [...nonces].sort((a, b) => a - b)
    expect(new Set(nonces).size).toBe(6)
    expect(sorted.at(-1)! - sorted[0]!).toBe(5)

    await gw.dev!.mine('bsc')
    for (const [i, h] of hashes.entries()) {
      const r = await gw.receipt('bsc', h)
      expect(r?.status).toBe('success')
      expect(r!.transfers).toMatchObject([{ from: hot, to: recipients[i], amount: parseUnits(String(i + 1), 18), token: 'NADI' }])
      expect(await gw.tokenBalance('bsc', 'NADI', recipients[i]!)).toBe(parseUnits(String(i + 1), 18))
    }
    expect(await gw.tokenBalance('bsc', 'NADI', hot)).toBe(hotBefore - parseUnits('21', 18))
  })

  it('sendToken recovers its nonce from the chain after an error, and a hook that throws sends nothing', async () => {
    const to = freshWallet().address
    // A hook failure: nothing is broadcast and the nonce is used by the next send.
    const seen: number[] = []
    await expect(
      gw.sendToken('bsc', 'USDT', to, 1n, {
        beforeBroadcast: (tx) => {
          seen.push(tx.nonce)
          throw new Error('database is down')
        },
      }),
    ).rejects.toThrow('database is down')
    const h1 = await gw.sendToken('bsc', 'USDT', to, 2n, { beforeBroadcast: (tx) => void seen.push(tx.nonce) })
    expect(seen[1]).toBe(seen[0])

    // Someone else spends the hot wallet's next nonce behind the gateway's back.
    await gw.dev!.mine('bsc')
    const config = loadConfig({ NADI_ENV: 'test', NADI_DEV_CHAINS: '1' })
    const outside = userWallet('bsc', new Wallet(config.chain.hotWalletKey!.reveal()))
    await outside.usdt.getFunction('transfer')(to, 3n)
    await gw.dev!.mine('bsc')
    await expect(gw.sendToken('bsc', 'USDT', to, 4n)).rejects.toThrow(/nonce/i)
    const h2 = await gw.sendToken('bsc', 'USDT', to, 5n) // nonce re-read from the chain
    await gw.dev!.mine('bsc')
    expect((await gw.receipt('bsc', h1))?.status).toBe('success')
    expect((await gw.receipt('bsc', h2))?.status).toBe('success')
    expect(await gw.tokenBalance('bsc', 'USDT', to)).toBe(2n + 3n + 5n)
  })

  it('a signed transaction can be broadcast again (after a crash) without a second transfer', async () => {
    const to = freshWallet().address
    let raw = ''
    const hash = await gw.sendToken('nadi', 'NADI', to, 9n, { beforeBroadcast: (tx) => void (raw = tx.raw) })
    expect(await gw.rebroadcast('nadi', raw)).toBe(hash) // still pending
    await gw.dev!.mine('nadi')
    expect(await gw.rebroadcast('nadi', raw)).toBe(hash) // already mined
    await gw.dev!.mine('nadi')
    expect(await gw.tokenBalance('nadi', 'NADI', to)).toBe(9n)
  })

  it('sendToken rejects a bad address, a non-positive amount and more than the hot wallet holds', async () => {
    const to = freshWallet().address
    await expect(gw.sendToken('bsc', 'NADI', to, 0n)).rejects.toThrow(RangeError)
    await expect(gw.sendToken('bsc', 'NADI', '0x1234', 1n)).rejects.toThrow()
    const bad = to.slice(0, 2) + [...to.slice(2)].map((ch) => (/[a-f]/.test(ch) ? ch.toUpperCase() : /[A-F]/.test(ch) ? ch.toLowerCase() : ch)).join('')
    if (bad !== to && /[a-fA-F]/.test(to.slice(2))) await expect(gw.sendToken('bsc', 'NADI', bad, 1n)).rejects.toThrow(/checksum/i)
    await expect(gw.sendToken('bsc', 'NADI', to, parseUnits('1000000000', 18))).rejects.toMatchObject({ name: 'HotWalletBalanceError' })
  })

  it('depositAddress is deterministic per user, differs between users, and comes from the extended key', async () => {
    const a1 = gw.depositAddress('bsc', 1)
    expect(gw.depositAddress('bsc', 1)).toBe(a1)
    expect(gw.depositAddress('nadi', 1)).toBe(a1) // one key, the same address on both EVM chains
    const many = new Set(Array.from({ length: 50 }, (_, i) => gw.depositAddress('bsc', i)))
    expect(many.size).toBe(50)
    expect(many.has(gw.hotWalletAddress())).toBe(false)
    expect(() => gw.depositAddress('bsc', -1)).toThrow(RangeError)
    expect(() => gw.depositAddress('bsc', 2 ** 31)).toThrow(RangeError)

    // A root xprv and the xpub of its m/44'/60'/0'/0 give the same addresses: m/44'/60'/0'/0/<userId>.
    const root = HDNodeWallet.createRandom('', 'm')
    const xpub = root.derivePath("m/44'/60'/0'/0").neuter().extendedKey
    const byXpub = loadConfig({ NADI_ENV: 'test', NADI_DEPOSIT_XKEY: xpub })
    const byRoot = loadConfig({ NADI_ENV: 'test', NADI_DEPOSIT_XKEY: root.extendedKey })
    const g1 = createGateway({ networks: byXpub.chain.networks, hotWalletKey: null, depositXkey: byXpub.chain.depositXkey, logRange: 100 })
    const g2 = createGateway({ networks: byRoot.chain.networks, hotWalletKey: null, depositXkey: byRoot.chain.depositXkey, logRange: 100 })
    for (const id of [0, 1, 12345]) {
      const expected = root.derivePath(`m/44'/60'/0'/0/${id}`).address
      expect(g1.depositAddress('bsc', id)).toBe(expected)
      expect(g2.depositAddress('nadi', id)).toBe(expected)
    }
    await Promise.all([g1.close(), g2.close()])
  })

  it('a gateway on configured RPC URLs (production) refuses a node that answers another chain id', async () => {
    const bsc = gw.chain('bsc')
    const wrong = createGateway({ networks: [{ ...bsc, id: 57 }], hotWalletKey: null, depositXkey: null, logRange: 100 })
    await expect(wrong.blockNumber('bsc')).rejects.toMatchObject({ name: 'ChainUnavailableError', reason: 'wrong_chain' })
    await wrong.close()

    const right = createGateway({ networks: [bsc], hotWalletKey: null, depositXkey: null, logRange: 100 })
    expect(await right.blockNumber('bsc')).toBe(await gw.blockNumber('bsc'))
    expect(right.isDev).toBe(false)
    await expect(right.sendToken('bsc', 'USDT', freshWallet().address, 1n)).rejects.toThrow(/NADI_HOT_WALLET_KEY_FILE/)
    await expect(right.faucet('bsc', freshWallet().address, { USDT: 1n })).rejects.toBeInstanceOf(ChainUnavailableError)
    expect(() => right.depositAddress('bsc', 1)).toThrow(/NADI_DEPOSIT_XKEY/)
    await right.close()
  })

  it('close() ends both anvil processes', async () => {
    const pids = gw.dev!.pids
    expect(pids.every(alive)).toBe(true)
    await gw.close()
    expect(pids.some(alive)).toBe(false)
    await expect(gw.blockNumber('bsc')).rejects.toThrow(/closed/)
  })
})

describe('dev chains in the server', () => {
  const start = useServers()

  it('the server starts both chains, mines a block a second by itself, and stops the nodes when it closes', async () => {
    const s = await start({ env: { NADI_DEV_CHAINS: '1' } })
    const pids = s.gateway.dev!.pids
    expect(pids).toHaveLength(2)
    expect(pids.every(alive)).toBe(true)
    const b0 = await s.gateway.blockNumber('nadi')
    await new Promise((r) => setTimeout(r, 2200))
    expect(await s.gateway.blockNumber('nadi')).toBeGreaterThan(b0)

    // The faucet waits for its block under interval mining too.
    const who = freshWallet().address
    await s.gateway.faucet('bsc', who, { USDT: 5n })
    expect(await s.gateway.tokenBalance('bsc', 'USDT', who)).toBe(5n)

    await s.close()
    expect(pids.some(alive)).toBe(false)
  })
})
