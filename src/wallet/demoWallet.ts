// The in-app "Demo wallet": a throwaway key kept in this browser, for people without a wallet
// extension. Test-only value — never fund it. Part of a lazily loaded chunk, so ethers is fine here.
// Dexie access stays in this file until IndexedDB access moves to src/data/.

import Dexie, { type EntityTable } from 'dexie'
import { Wallet, type TypedDataDomain, type TypedDataField } from 'ethers'
import { createEip1193Provider, type Eip1193Provider, type SignerBackend } from './eip1193.ts'

interface KeyRow {
  id: string
  privateKey: string
  createdAt: number
}

const DEMO_ID = 'demo'
const PRIVATE_KEY_RE = /^0x[0-9a-fA-F]{64}$/

type WalletDb = Dexie & { keys: EntityTable<KeyRow, 'id'> }

let db: WalletDb | undefined

function walletDb(): WalletDb {
  if (!db) {
    const d = new Dexie('nadi-wallet') as WalletDb
    d.version(1).stores({ keys: 'id' })
    db = d
  }
  return db
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

/** The demo private key (0x-hex), created on first use and kept in IndexedDB `nadi-wallet`. */
export async function loadOrCreateDemoKey(): Promise<string> {
  const d = walletDb()
  // One read-write transaction, so concurrent first calls agree on a single key.
  return d.transaction('rw', d.keys, async () => {
    const row = await d.keys.get(DEMO_ID)
    if (row && isUsableKey(row.privateKey)) return row.privateKey
    const privateKey = Wallet.createRandom().privateKey
    await d.keys.put({ id: DEMO_ID, privateKey, createdAt: Date.now() })
    return privateKey
  })
}

/** Deletes the demo key; the next loadOrCreateDemoKey makes a new one. */
export async function forgetDemoKey(): Promise<void> {
  await walletDb().keys.delete(DEMO_ID)
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
