// Chain settings: what production needs, what a server without chains still does, and the unit rule.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { HDNodeWallet, Wallet } from 'ethers'
import { loadConfig } from '../../server/config.ts'
import { AmountError, dust, toLedgerUnits, toTokenUnits } from '../../server/chain/units.ts'
import { ChainUnavailableError } from '../../server/chain/gateway.ts'
import { useServers } from './support/server.ts'

const USDT_BSC = '0x55d398326f99059fF775485246999027B3197955'

describe('chain settings', () => {
  it('come from the environment per chain, with 3 confirmations by default', () => {
    const c = loadConfig({
      NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example',
      NADI_CHAIN_BSC_RPC_URL: 'https://bsc.example/rpc',
      NADI_CHAIN_BSC_USDT_ADDRESS: USDT_BSC.toLowerCase(),
      NADI_CHAIN_NADI_CONFIRMATIONS: '12',
      NADI_CHAIN_ID: '777',
    })
    expect(c.chain.devChains).toBe(false)
    expect(c.chain.networks).toEqual([
      { id: 56, key: 'bsc', name: 'BNB Smart Chain', nativeSymbol: 'BNB', rpcUrl: 'https://bsc.example/rpc', confirmations: 3, tokens: { USDT: USDT_BSC, NADI: null, MEME: null } },
      { id: 777, key: 'nadi', name: 'NADI Chain', nativeSymbol: 'NADI', rpcUrl: null, confirmations: 12, tokens: { USDT: null, NADI: null, MEME: null } },
    ])
    // The public list the app's config shows stays as it was.
    expect(c.chains).toEqual([
      { id: 56, key: 'bsc', name: 'BNB Smart Chain', nativeSymbol: 'BNB' },
      { id: 777, key: 'nadi', name: 'NADI Chain', nativeSymbol: 'NADI' },
    ])
    expect(c.chain.hotWalletKey).toBeNull()
    expect(c.chain.depositXkey).toBeNull()
  })

  it('dev chains are on in demo development, off in tests unless asked, and refused in production', () => {
    expect(loadConfig({ NADI_ENV: 'development' }).chain.devChains).toBe(true)
    expect(loadConfig({ NADI_ENV: 'development', NADI_DEMO: '0' }).chain.devChains).toBe(false)
    expect(loadConfig({ NADI_ENV: 'test' }).chain.devChains).toBe(false)
    expect(loadConfig({ NADI_ENV: 'test', NADI_DEV_CHAINS: '1' }).chain.devChains).toBe(true)
    expect(() => loadConfig({ NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example', NADI_DEV_CHAINS: '1' })).toThrow(/not allowed in production/)
    const dev = loadConfig({ NADI_ENV: 'development' }).chain
    expect(dev.devBlockTime).toBe(1)
    expect(dev.hotWalletKey?.source).toMatch(/dev/)
    expect(loadConfig({ NADI_ENV: 'test', NADI_DEV_BLOCK_TIME: 'manual' }).chain.devBlockTime).toBe('manual')
  })

  it('reject a bad address, URL, key or extended key with the variable named', () => {
    const bad = (env: Record<string, string>, re: RegExp) => expect(() => loadConfig({ NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example', ...env })).toThrow(re)
    const mixed = USDT_BSC.replace('d', 'D')
    bad({ NADI_CHAIN_BSC_USDT_ADDRESS: mixed }, /NADI_CHAIN_BSC_USDT_ADDRESS/)
    bad({ NADI_CHAIN_NADI_RPC_URL: 'ws://x' }, /NADI_CHAIN_NADI_RPC_URL/)
    bad({ NADI_HOT_WALLET_KEY: '0x1234' }, /NADI_HOT_WALLET_KEY/)
    bad({ NADI_HOT_WALLET_KEY_FILE: '/nonexistent/key' }, /NADI_HOT_WALLET_KEY_FILE/)
    bad({ NADI_DEPOSIT_XKEY: 'xpub-nonsense' }, /NADI_DEPOSIT_XKEY/)
    // An xpub at the wrong depth (the root's public key cannot derive hardened paths).
    bad({ NADI_DEPOSIT_XKEY: HDNodeWallet.createRandom('', 'm').neuter().extendedKey }, /depth 0/)
    bad({ NADI_CHAIN_BSC_CONFIRMATIONS: '0' }, /NADI_CHAIN_BSC_CONFIRMATIONS/)
  })

  it('read the hot wallet key from a file and never print it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-key-'))
    try {
      const w = Wallet.createRandom()
      fs.writeFileSync(path.join(dir, 'hot'), `${w.privateKey.slice(2)}\n`)
      const c = loadConfig({ NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example', NADI_HOT_WALLET_KEY_FILE: path.join(dir, 'hot') })
      expect(c.chain.hotWalletKey!.reveal()).toBe(w.privateKey)
      const printed = `${JSON.stringify(c, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))} ${inspect(c, { depth: 9 })} ${String(c.chain.hotWalletKey)}`
      expect(printed).not.toContain(w.privateKey.slice(2))
      expect(() => loadConfig({ NADI_ENV: 'production', NADI_PUBLIC_URL: 'https://app.nadi.example', NADI_HOT_WALLET_KEY_FILE: path.join(dir, 'hot'), NADI_HOT_WALLET_KEY: w.privateKey })).toThrow(/not both/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a server without chains configured', () => {
  const start = useServers()

  it('starts, serves the other features, and says which setting a chain call needs', async () => {
    const s = await start({ env: { NADI_DEV_CHAINS: '0' } })
    expect((await s.get('/api/v1/common/config')).statusCode).toBe(200)
    expect(s.gateway.isDev).toBe(false)
    expect(s.gateway.missing('bsc', ['rpc', 'USDT', 'hotWallet', 'depositKey'])).toEqual([
      'NADI_CHAIN_BSC_RPC_URL',
      'NADI_CHAIN_BSC_USDT_ADDRESS',
      'NADI_HOT_WALLET_KEY_FILE',
      'NADI_DEPOSIT_XKEY',
    ])
    await expect(s.gateway.blockNumber('bsc')).rejects.toThrow(/NADI_CHAIN_BSC_RPC_URL/)
    await expect(s.gateway.blockNumber('bsc')).rejects.toBeInstanceOf(ChainUnavailableError)
    expect(() => s.gateway.require('nadi', ['NADI'])).toThrow(/NADI_CHAIN_NADI_NADI_ADDRESS/)
    expect(() => s.gateway.depositAddress('bsc', 1)).toThrow(/NADI_DEPOSIT_XKEY/)
    expect(() => s.gateway.chain('eth')).toThrow(/unknown chain/)
  })

  it('refuses to start with NADI_CHAIN_REQUIRED=1', async () => {
    await expect(start({ env: { NADI_DEV_CHAINS: '0', NADI_CHAIN_REQUIRED: '1' } })).rejects.toThrow(/NADI_CHAIN_BSC_RPC_URL/)
  })
})

describe('token units ↔ ledger units (1e-8)', () => {
  it('convert exactly both ways when nothing is lost', () => {
    expect(toLedgerUnits(10n ** 18n)).toBe(100_000_000n)
    expect(toLedgerUnits(12_345_678_900_000_000_000n)).toBe(1_234_567_890n)
    expect(toTokenUnits(1n)).toBe(10n ** 10n)
    expect(toTokenUnits(150_000_000n)).toBe(1_500_000_000_000_000_000n)
    expect(toLedgerUnits(toTokenUnits(987_654_321n))).toBe(987_654_321n)
    expect(toLedgerUnits(0n)).toBe(0n)
  })

  it('refuse an amount with wei below 1e-8 unless the caller floors it (deposits), and negatives always', () => {
    const v = 10n ** 18n + 1n
    expect(() => toLedgerUnits(v)).toThrow(AmountError)
    expect(toLedgerUnits(v, 'floor')).toBe(100_000_000n)
    expect(dust(v)).toBe(1n)
    expect(toLedgerUnits(9_999_999_999n, 'floor')).toBe(0n)
    expect(() => toLedgerUnits(-1n, 'floor')).toThrow(AmountError)
    expect(() => toTokenUnits(-1n)).toThrow(AmountError)
  })
})
