import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { Wallet, hexlify, toUtf8Bytes, verifyMessage } from 'ethers'
import { createDemoProvider, forgetDemoKey, loadOrCreateDemoKey } from '../../../src/wallet/demoWallet.ts'

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
})
