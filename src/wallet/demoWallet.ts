// The in-app "Demo wallet": a throwaway key kept in this browser, for people without a wallet
// extension. Test-only value — never fund it. Part of a lazily loaded chunk, so ethers is fine here.
// Its key is kept through src/data (kv 'demo-wallet-key'); src/data moves a key from the old
// 'nadi-wallet' database there on first use, so an existing demo user keeps their address.

import { Wallet, type TypedDataDomain, type TypedDataField } from 'ethers'
import { kvDelete, kvUpdate } from '../data/index.ts'
import { createEip1193Provider, type Eip1193Provider, type SignerBackend } from './eip1193.ts'

/** The kv entry of the demo key: one per browser, the wallet everyone calls "demo". */
const DEMO_KEY_ID = 'demo-wallet-key'
const PRIVATE_KEY_RE = /^0x[0-9a-fA-F]{64}$/

interface DemoKey {
  privateKey: string
  createdAt: number
}

function isUsableKey(v: unknown): v is string {
  if (typeof v !== 'string' || !PRIVATE_KEY_RE.test(v)) return false
  try {
    new Wallet(v) // rejects zero / out-of-range scalars
    return true
  } catch {
    return false
  }
}

/** The demo private key (0x-hex), created on first use and kept in this browser's IndexedDB. */
export async function loadOrCreateDemoKey(): Promise<string> {
  // One read-write transaction, so concurrent first calls (even from two tabs) agree on a single key.
  const stored = await kvUpdate<DemoKey>(DEMO_KEY_ID, (current) =>
    current && isUsableKey(current.privateKey) ? current : { privateKey: Wallet.createRandom().privateKey, createdAt: Date.now() },
  )
  return stored.privateKey
}

/** Deletes the demo key; the next loadOrCreateDemoKey makes a new one. */
export async function forgetDemoKey(): Promise<void> {
  await kvDelete(DEMO_KEY_ID)
}

export type DemoProvider = Eip1193Provider & { isNadiDemo: true }

export async function createDemoProvider(opts: {
  chainId: number
  chains: number[]
  /** Optional forwarder for read methods (eth_call, eth_getBalance…); without it they fail with 4200. */
  rpc?: (chainId: number, method: string, params: unknown[]) => Promise<unknown>
}): Promise<DemoProvider> {
  const wallet = new Wallet(await loadOrCreateDemoKey())
  const backend: SignerBackend = {
    address: async () => wallet.address,
    signMessage: (message) => wallet.signMessage(message),
    signTypedData: (domain, types, value) =>
      wallet.signTypedData(
        domain as TypedDataDomain,
        types as Record<string, TypedDataField[]>,
        value as Record<string, unknown>,
      ),
  }
  const provider = createEip1193Provider(backend, {
    chainId: opts.chainId,
    chains: opts.chains,
    ...(opts.rpc ? { rpc: opts.rpc } : {}),
  })
  return Object.assign(provider, { isNadiDemo: true as const })
}
