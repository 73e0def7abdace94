import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { describe, expect, it } from 'vitest'
import { Wallet, hexlify, toUtf8Bytes, verifyMessage } from 'ethers'
import { createDemoProvider, forgetDemoKey, loadOrCreateDemoKey } from '../../../src/wallet/demoWallet.ts'
import { closeDb, DB_NAME } from '../../../src/data/db.ts'
import { resetKvMigration } from '../../../src/data/kv.ts'

describe('demo wallet', () => {
  it('the demo key persists: two loads return the same valid private key', async () => {
    const first = await loadOrCreateDemoKey()
    const second = await loadOrCreateDemoKey()
    expect(first).toMatch(/^0x[0-9a-f]{64}$/)
    expect(second).toBe(first)
  })

  it('concurrent first loads agree on one key', async () => {
    await forgetDemoKey()
    const keys = await Promise.all([loadOrCreateDemoKey(), loadOrCreateDemoKey(), loadOrCreateDemoKey()])
    expect(new Set(keys).size).toBe(1)
  })

  it('forgetDemoKey makes the next load create a different key', async () => {
    const before = await loadOrCreateDemoKey()
    await forgetDemoKey()
    const after = await loadOrCreateDemoKey()
    expect(after).not.toBe(before)
    expect(await loadOrCreateDemoKey()).toBe(after)
  })

  it('the demo provider is flagged isNadiDemo and exposes the stored key address', async () => {
    const provider = await createDemoProvider({ chainId: 92025, chains: [56, 92025] })
    const address = new Wallet(await loadOrCreateDemoKey()).address
    expect(provider.isNadiDemo).toBe(true)
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([address])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x16779')
  })

  it('the demo provider signs a personal_sign message that ethers verifies to its address', async () => {
    const provider = await createDemoProvider({ chainId: 56, chains: [56] })
    const [address] = (await provider.request({ method: 'eth_requestAccounts' })) as string[]
    const message = 'NADI wants you to sign in\nNonce: 7f3a'
    const sig = (await provider.request({ method: 'personal_sign', params: [hexlify(toUtf8Bytes(message)), address] })) as string
    expect(verifyMessage(message, sig)).toBe(address)
  })

  it('an existing demo user keeps their address: the key in the old nadi-wallet database is the one used', async () => {
    // A browser from before src/data: no 'nadi' database yet, the key in 'nadi-wallet' (table keys, row 'demo').
    closeDb()
    resetKvMigration()
    await Dexie.delete(DB_NAME)
    const old = new Wallet('0x' + '3c'.repeat(32))
    const legacy = new Dexie('nadi-wallet')
    legacy.version(1).stores({ keys: 'id' })
    await legacy.table('keys').put({ id: 'demo', privateKey: old.privateKey, createdAt: 1 })
    legacy.close()

    expect(await loadOrCreateDemoKey()).toBe(old.privateKey)
    const provider = await createDemoProvider({ chainId: 56, chains: [56] })
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([old.address])
    expect(await Dexie.exists('nadi-wallet')).toBe(false)
  })
})
