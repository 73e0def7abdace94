// Injected EIP-1193 wallet for Playwright end-to-end tests.
//
// The page gets `window.ethereum` (isMetaMask) and an EIP-6963 announcement from an init script;
// every `request()` goes through an exposed binding to Node, where the provider core of the app
// (src/wallet/eip1193.ts) answers with a real ethers Wallet. Events (accountsChanged,
// chainChanged) are pushed back to the page before the request that caused them resolves.

import type { BrowserContext, Page } from 'playwright-core'
import { Wallet, type TypedDataDomain, type TypedDataField } from 'ethers'
import { randomUUID } from 'node:crypto'
import { createEip1193Provider, ProviderRpcError, RPC_ERROR, toProviderRpcError, type SignerBackend } from '../../../src/wallet/eip1193.ts'

export interface TestWallet {
  address: string
  wallet: Wallet
  /** Every request the page made, in order, including rejected ones. */
  calls: { method: string; params: unknown }[]
  /** The next call of `method` fails with 4001 (user rejected). Calls stack: two calls reject twice. */
  rejectNext(method: string): void
  /** Takes the wallet out of documents loaded from now on (a returning user opening the app without it). */
  remove(): Promise<void>
}

export interface InjectTestWalletOptions {
  /** Defaults to a fresh random key, so tests never share an account by accident. */
  privateKey?: string
  /** Chain selected at start; defaults to the NADI chain (server default NADI_CHAIN_ID 92025). */
  chainId?: number
  /** Chains wallet_switchEthereumChain accepts; defaults to BNB Smart Chain (56) and the NADI chain. */
  chains?: number[]
  /** Forwarder for the methods the wallet does not answer itself; without it they fail with 4200. */
  rpc?: (chainId: number, method: string, params: unknown[]) => Promise<unknown>
}

export const TEST_WALLET_NAME = 'Test Wallet'
export const TEST_WALLET_RDNS = 'io.metamask'
const DEFAULT_CHAIN_ID = 92_025
const DEFAULT_CHAINS = [56, DEFAULT_CHAIN_ID]
const ICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#f6851b"/><text x="16" y="21" font-size="14" text-anchor="middle" fill="#fff" font-family="sans-serif">TW</text></svg>',
  )

type WireResult =
  | { ok: true; result: unknown; chainId: string }
  | { ok: false; error: { code: number; message: string; data?: unknown }; chainId: string }

interface PageSetup {
  bindingName: string
  emitName: string
  info: { uuid: string; name: string; icon: string; rdns: string }
}

/** Keeps only what survives structured cloning to the page (no bigint, functions, cycles). */
function plain(v: unknown): unknown {
  if (v === undefined) return undefined
  try {
    return JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? '0x' + x.toString(16) : x)))
  } catch {
    return String(v)
  }
}

// Runs in the page (every frame) before any page script. Must be self-contained.
function pageScript({ bindingName, emitName, info }: PageSetup): void {
  type Listener = (...args: unknown[]) => void
  const w = window as unknown as Record<string, unknown>
  const call = w[bindingName] as (req: { method: string; params: unknown }) => Promise<WireResult>
  const listeners = new Map<string, Set<Listener>>()
  let connected = false
  let chainId: string | null = null
  let selectedAddress: string | null = null

  const emit = (ev: string, args: unknown[]): void => {
    for (const fn of [...(listeners.get(ev) ?? [])]) {
      try {
        fn(...args)
      } catch (err) {
        console.error(err)
      }
    }
  }

  /** Entry point for events pushed from Node; `chainBefore` is the chain id before this event. */
  const receive = (ev: string, args: unknown[], chainBefore: string): void => {
    if (!connected) {
      connected = true
      chainId = chainBefore
      emit('connect', [{ chainId: chainBefore }])
    }
    if (ev === 'chainChanged' && typeof args[0] === 'string') chainId = args[0]
    if (ev === 'accountsChanged' && Array.isArray(args[0])) selectedAddress = (args[0][0] as string | undefined) ?? null
    emit(ev, args)
  }

  const rpcError = (code: number, message: string, data?: unknown): Error => {
    const err = new Error(message) as Error & { code: number; data?: unknown }
    err.name = 'ProviderRpcError'
    err.code = code
    if (data !== undefined) err.data = data
    return err
  }

  const provider = {
    isMetaMask: true,
    isNadiTestWallet: true,
    get chainId(): string | null {
      return chainId
    },
    get selectedAddress(): string | null {
      return selectedAddress
    },
    isConnected: (): boolean => connected,
    async request(args: { method: string; params?: unknown }): Promise<unknown> {
      if (!args || typeof args !== 'object' || typeof args.method !== 'string') {
        throw rpcError(-32600, 'Expected a request of the form { method, params }')
      }
      const res = await call({ method: args.method, params: args.params })
      chainId = res.chainId
      if (!connected) {
        connected = true
        emit('connect', [{ chainId: res.chainId }])
      }
      if (!res.ok) throw rpcError(res.error.code, res.error.message, res.error.data)
      if ((args.method === 'eth_requestAccounts' || args.method === 'eth_accounts') && Array.isArray(res.result)) {
        selectedAddress = (res.result[0] as string | undefined) ?? null
      }
      return res.result
    },
    /** Legacy MetaMask API. */
    enable(): Promise<unknown> {
      return provider.request({ method: 'eth_requestAccounts' })
    },
    on(ev: string, fn: Listener) {
      let set = listeners.get(ev)
      if (!set) listeners.set(ev, (set = new Set()))
      set.add(fn)
      return provider
    },
    once(ev: string, fn: Listener) {
      const wrapped: Listener = (...a) => {
        provider.removeListener(ev, wrapped)
        fn(...a)
      }
      return provider.on(ev, wrapped)
    },
    removeListener(ev: string, fn: Listener) {
      listeners.get(ev)?.delete(fn)
      return provider
    },
    off(ev: string, fn: Listener) {
      return provider.removeListener(ev, fn)
    },
    removeAllListeners(ev?: string) {
      if (ev === undefined) listeners.clear()
      else listeners.delete(ev)
      return provider
    },
  }

  Object.defineProperty(window, emitName, { value: receive, configurable: false, enumerable: false, writable: false })
  Object.defineProperty(window, 'ethereum', { value: provider, configurable: true, enumerable: true, writable: true })

  const detail = Object.freeze({ info: Object.freeze({ ...info }), provider })
  const announce = (): void => {
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  }
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
}

function isPage(target: Page | BrowserContext): target is Page {
  return typeof (target as Page).mainFrame === 'function'
}

/**
 * Installs the test wallet on a page or on every page of a context. Call before `page.goto`.
 * Chain and authorization state is shared by every page of the target, like a real extension.
 */
export async function injectTestWallet(
  target: Page | BrowserContext,
  opts: InjectTestWalletOptions = {},
): Promise<TestWallet> {
  const wallet = new Wallet(opts.privateKey ?? Wallet.createRandom().privateKey)
  const chainId = opts.chainId ?? DEFAULT_CHAIN_ID
  const calls: TestWallet['calls'] = []
  const rejections = new Map<string, number>()
  const id = randomUUID()
  const setup: PageSetup = {
    bindingName: `__nadiTestWallet_${id.replaceAll('-', '')}`,
    emitName: `__nadiTestWalletEmit_${id.replaceAll('-', '')}`,
    info: { uuid: id, name: TEST_WALLET_NAME, icon: ICON, rdns: TEST_WALLET_RDNS },
  }

  const backend: SignerBackend = {
    address: async () => wallet.address,
    signMessage: (message) => wallet.signMessage(message),
    signTypedData: (domain, types, value) =>
      wallet.signTypedData(
        domain as TypedDataDomain,
        types as Record<string, TypedDataField[]>,
        value as Record<string, unknown>,
      ),
    // With a forwarder the wallet also sends transactions: filled (nonce, gas, price) and broadcast
    // through it, signed here by the ethers Wallet, as a browser wallet signs with its own key.
    ...(opts.rpc
      ? {
          async sendTransaction(tx: Record<string, unknown>, txChain: number): Promise<string> {
            const rpc = opts.rpc!
            const call = { from: wallet.address, to: tx.to, data: tx.data ?? tx.input, value: tx.value }
            const [nonce, gas, gasPrice] = await Promise.all([
              rpc(txChain, 'eth_getTransactionCount', [wallet.address, 'pending']),
              tx.gas ?? rpc(txChain, 'eth_estimateGas', [call]),
              rpc(txChain, 'eth_gasPrice', []),
            ])
            const raw = await wallet.signTransaction({
              type: 0,
              chainId: txChain,
              to: typeof tx.to === 'string' ? tx.to : null,
              data: typeof call.data === 'string' ? call.data : '0x',
              value: typeof tx.value === 'string' ? BigInt(tx.value) : 0n,
              nonce: Number(BigInt(nonce as string)),
              gasLimit: BigInt(gas as string),
              gasPrice: BigInt(gasPrice as string),
            })
            return (await rpc(txChain, 'eth_sendRawTransaction', [raw])) as string
          },
        }
      : {}),
  }
  const core = createEip1193Provider(backend, {
    chainId,
    chains: [chainId, ...(opts.chains ?? DEFAULT_CHAINS)],
    ...(opts.rpc ? { rpc: opts.rpc } : {}),
  })
  let currentChain = '0x' + chainId.toString(16)

  // Events go to every open page of the target; the request that caused them awaits the delivery,
  // so the page sees e.g. chainChanged before wallet_switchEthereumChain resolves.
  const deliveries = new Set<Promise<unknown>>()
  const deliver = (ev: string, args: unknown[], chainBefore: string): void => {
    const pages = isPage(target) ? [target] : target.pages()
    for (const page of pages) {
      const p = page
        .evaluate(
          ([name, e, a, c]) => {
            const fn = (window as unknown as Record<string, unknown>)[name]
            if (typeof fn === 'function') (fn as (ev: string, args: unknown[], chainBefore: string) => void)(e, a, c)
          },
          [setup.emitName, ev, plain(args) as unknown[], chainBefore] as const,
        )
        .catch(() => undefined) // page closed or navigating: nothing to notify
      deliveries.add(p)
      void p.finally(() => deliveries.delete(p))
    }
  }
  core.on('chainChanged', (hex) => {
    const before = currentChain
    currentChain = String(hex)
    deliver('chainChanged', [hex], before)
  })
  core.on('accountsChanged', (accounts) => deliver('accountsChanged', [accounts], currentChain))

  const answer = async (req: unknown): Promise<WireResult> => {
    const { method, params } = (typeof req === 'object' && req !== null ? req : {}) as { method?: unknown; params?: unknown }
    const m = typeof method === 'string' ? method : ''
    calls.push({ method: m, params })
    try {
      const pending = rejections.get(m) ?? 0
      if (pending > 0) {
        if (pending === 1) rejections.delete(m)
        else rejections.set(m, pending - 1)
        throw new ProviderRpcError(RPC_ERROR.USER_REJECTED, 'User rejected the request.')
      }
      const result = await core.request({ method: m, params: params as unknown[] | Record<string, unknown> | undefined })
      return { ok: true, result: plain(result), chainId: currentChain }
    } catch (err) {
      const e = toProviderRpcError(err)
      return {
        ok: false,
        error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: plain(e.data) } : {}) },
        chainId: currentChain,
      }
    } finally {
      await Promise.all([...deliveries])
    }
  }

  const binding = await target.exposeBinding(setup.bindingName, (_source, req: unknown) => answer(req))
  // Sent as source text with a `__name` shim: runners that transpile with esbuild's keepNames (tsx)
  // wrap inner functions in a helper that does not exist in the page.
  const script = await target.addInitScript({
    content: `(() => { const __name = (f) => f; (${pageScript.toString()})(${JSON.stringify(setup)}) })()`,
  })

  return {
    address: wallet.address,
    wallet,
    calls,
    rejectNext(method: string) {
      rejections.set(method, (rejections.get(method) ?? 0) + 1)
    },
    async remove() {
      await script.dispose()
      await binding.dispose()
    },
  }
}
