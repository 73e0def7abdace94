// The light door to wallets, in the first load. Everything heavy (web3-onboard, ethers) is behind
// connectWallet's dynamic import, fetched the first time somebody connects.
import type { ChainInfo } from '../../contract/common.ts'
import type { LangCode } from '../../contract/constants.ts'
import { sessionStore } from '../lib/storage.ts'
import { WalletError, walletErrorKey } from './errors.ts'
import { connectedWallet, walletReady } from './state.ts'

export { WalletError, type WalletErrorKey } from './errors.ts'
export { connectedWallet } from './state.ts'

/** The wallet this sign-in was made with (its web3-onboard label), kept as long as the session's token. */
const SIGNIN_WALLET = 'signin_wallet'

export function rememberSignInWallet(label: string): void {
  sessionStore.set(SIGNIN_WALLET, label)
}

/** Whether this session has a sign-in wallet to take up again (reconnectSignInWallet). */
export function hasSignInWallet(): boolean {
  return sessionStore.get(SIGNIN_WALLET) !== null
}

export function forgetSignInWallet(): void {
  sessionStore.remove(SIGNIN_WALLET)
}

/**
 * The wallet signed in with, connected again without its picker when this page has none (a reload
 * keeps the session but not the connection): web3-onboard selects it by label with its modals off,
 * which a wallet that already granted this site answers without a prompt. Null when there is no such
 * wallet or it does not answer so; the caller then offers to connect as usual.
 */
export function reconnectSignInWallet(opts: ConnectOptions): Promise<ConnectedWallet | null> {
  if (connectedWallet.value) return Promise.resolve(connectedWallet.value)
  const label = sessionStore.get(SIGNIN_WALLET)
  if (!label) return Promise.resolve(null)
  // One at a time: web3-onboard runs one connection flow, and a second one started beside it (the
  // payment dialog and the recharge screen both ask) never settles.
  reconnecting ??= (async () => {
    try {
      const mod = (loaded = await import('./onboard.tsx'))
      knownChains = opts.chains
      mod.init(opts)
      walletReady.value = true
      return await mod.reconnect(opts, label)
    } catch {
      return null
    } finally {
      reconnecting = null
    }
  })()
  return reconnecting
}

/** The reconnection under way, if any: connectWallet waits for it rather than open a second flow. */
let reconnecting: Promise<ConnectedWallet | null> | null = null

export interface ConnectedWallet {
  address: string
  chainId: number
  label: string
  /** EIP-191 personal_sign through ethers. */
  sign(message: string): Promise<string>
  disconnect(): Promise<void>
  /** The wallet's EIP-1193 provider, for sending transactions (pay.ts). */
  provider?: unknown
}

export interface ConnectOptions {
  chains: ChainInfo[]
  chainId: number
  demo: boolean
  lang: LangCode
  /** Strings for the wallet modal in the current language. */
  modalText: Record<string, unknown>
}

let announced = false
if (typeof window !== 'undefined') {
  window.addEventListener('eip6963:announceProvider', () => (announced = true))
  window.dispatchEvent(new Event('eip6963:requestProvider'))
}

/** Whether this browser has a wallet of its own (an extension, or a wallet app's dapp browser). */
export function hasInjectedWallet(): boolean {
  return announced || typeof (window as { ethereum?: unknown }).ethereum !== 'undefined'
}

export function isMobileBrowser(): boolean {
  return /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)
}

/** Deep links that open this page inside a wallet app's dapp browser. */
export function dappBrowserLinks(url: string): { name: string; href: string }[] {
  const bare = url.replace(/^https?:\/\//, '')
  const enc = encodeURIComponent(url)
  return [
    { name: 'MetaMask', href: `https://metamask.app.link/dapp/${bare}` },
    { name: 'Trust Wallet', href: `https://link.trustwallet.com/open_url?coin_id=60&url=${enc}` },
    { name: 'OKX Wallet', href: `okx://wallet/dapp/url?dappUrl=${enc}` },
    { name: 'TokenPocket', href: `tpdapp://open?params=${encodeURIComponent(JSON.stringify({ url }))}` },
  ]
}

let loaded: typeof import('./onboard.tsx') | null = null
let knownChains: ChainInfo[] = []

/** The chains of the last connectWallet call (the Demo wallet names its RPC route by their keys). */
export function walletChains(): ChainInfo[] {
  return knownChains
}

export async function connectWallet(opts: ConnectOptions): Promise<ConnectedWallet> {
  // A tap on "connect" while the signed-in wallet is being taken up again: that one answers it, and
  // the picker opens only when it did not connect (web3-onboard runs one flow at a time).
  if (reconnecting) {
    const w = await reconnecting
    if (w) return w
  }
  knownChains = opts.chains
  // SPEC §8 "install a wallet": no EIP-1193 provider and no demo wallet to offer, so nothing to connect.
  if (!hasInjectedWallet() && !opts.demo) throw new WalletError('install')
  let mod: typeof import('./onboard.tsx')
  try {
    mod = loaded = await import('./onboard.tsx')
  } catch (e) {
    throw new WalletError('connectFailed', e)
  }
  try {
    mod.init(opts)
    walletReady.value = true
    return await mod.connect(opts)
  } catch (e) {
    // The modal closed with nothing chosen where the browser has no wallet of its own: what is missing is a wallet.
    if (e instanceof WalletError && e.key === 'userRejected' && !hasInjectedWallet()) throw new WalletError('install', e)
    throw new WalletError(walletErrorKey(e, 'connect'), e)
  }
}

/** Forgets connected wallets; never loads the wallet chunk just to find nothing connected. */
export async function disconnectWallets(): Promise<void> {
  await loaded?.disconnectAll()
}

export type { PayKey, PayRequest } from './pay.ts'

/** Sends an ERC-20 transfer from a connected wallet (lazy: ethers loads with the wallet chunk). */
export async function payFromWallet(wallet: ConnectedWallet, req: import('./pay.ts').PayRequest): Promise<string> {
  let mod: typeof import('./pay.ts')
  try {
    mod = await import('./pay.ts')
  } catch (e) {
    throw new WalletError('connectFailed', e)
  }
  return mod.payToken(wallet, req)
}

/** The SPEC §8 chain message key (chainErrors.*) of a payFromWallet failure, or null for another failure. */
export function payErrorText(e: unknown): string | null {
  const key = (e as { name?: unknown; key?: unknown } | null)?.name === 'PayError' ? (e as { key: unknown }).key : null
  return typeof key === 'string' ? `chainErrors.${key}` : null
}
