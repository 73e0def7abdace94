// The lazy wallet chunk: web3-onboard with injected wallets (and, in demo mode, the Demo wallet),
// ethers for signing. It is initialised through @web3-onboard/react, whose hooks (WalletWatch) keep
// the session's connected wallet current for the screens (state.ts).
import { useEffect } from 'react'
import type { InitOptions, OnboardAPI, WalletState } from '@web3-onboard/core'
import injectedModule from '@web3-onboard/injected-wallets'
import { init as initOnboard, useConnectWallet, useSetChain } from '@web3-onboard/react'
import { BrowserProvider, type Eip1193Provider as EthersEip1193 } from 'ethers'
import { LOCALE_FILE } from '../../contract/constants.ts'
import type { ConnectedWallet, ConnectOptions } from './index.ts'
import { WalletError, walletErrorKey } from './errors.ts'
import { connectedWallet } from './state.ts'

const APP_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0b0f1a"/><path d="M18 46V18h6l16 19V18h6v28h-6L24 27v19z" fill="#f5b942"/></svg>'
const DEMO_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#22d3a6"/><path d="M16 24h32v22H16zM16 24l6-8h20l6 8M38 35h6" stroke="#0b0f1a" stroke-width="4" fill="none" stroke-linejoin="round"/></svg>'

type WalletInit = InitOptions['wallets'][number]

/**
 * web3-onboard's phone layout cuts a wallet's name after two lines ("示範錢包（僅供測") and sets its
 * help box beside the wallets in a sideways-scrolling row, cut at the screen's edge. Under 768 px (its
 * own breakpoint) the wallets wrap with the help box on a line of its own, and a name takes the lines
 * it needs. Its rules are scoped by Svelte's class hashes, so ours need !important to win.
 */
const PHONE_MODAL_CSS = `@media all and (max-width: 767px) {
  .wallets-container { flex-wrap: wrap !important; overflow-x: visible !important; overflow-y: visible !important; }
  .notice-container { flex: 1 1 100% !important; min-width: 0 !important; }
  .wallet-button-container .name { max-height: none !important; overflow: visible !important; overflow-wrap: anywhere; }
}`

/** Adds PHONE_MODAL_CSS to the modal's shadow root (web3-onboard mounts it, open, when created). */
function fitModalToPhones(): void {
  const root = document.querySelector('onboard-v2')?.shadowRoot
  if (!root || root.querySelector('style[data-nadi]')) return
  const style = document.createElement('style')
  style.dataset.nadi = ''
  style.textContent = PHONE_MODAL_CSS
  root.append(style)
}

let onboard: OnboardAPI | null = null

function demoWallet(opts: ConnectOptions, label: string): WalletInit {
  return () => ({
    label,
    getIcon: async () => DEMO_ICON,
    getInterface: async () => {
      const { createDemoProvider } = await import('./demoWallet.ts')
      const provider = await createDemoProvider({ chainId: opts.chainId, chains: opts.chains.map((c) => c.id) })
      return { provider: provider as never } // web3-onboard's provider type is an EIP-1193 provider, as ours is
    },
  })
}

/** Sets web3-onboard up once (later calls only follow the language); the hooks need it first. */
export function init(opts: ConnectOptions): OnboardAPI {
  const locale = LOCALE_FILE[opts.lang]
  if (onboard) {
    onboard.state.actions.setLocale(locale)
    return onboard
  }
  const demoLabel = String((opts.modalText as { demoWallet?: unknown }).demoWallet ?? 'Demo wallet')
  const wallets: WalletInit[] = [injectedModule()]
  if (opts.demo) wallets.push(demoWallet(opts, demoLabel))
  onboard = initOnboard({
    wallets,
    chains: opts.chains.map((c) => ({ id: `0x${c.id.toString(16)}`, token: c.native_symbol, label: c.name })),
    appMetadata: { name: 'NADI', icon: APP_ICON, description: 'NADI' },
    accountCenter: { desktop: { enabled: false }, mobile: { enabled: false } },
    // No font from a third-party host: the page must work on a closed network and leak nothing.
    disableFontDownload: true,
    theme: 'dark',
    i18n: { [locale]: opts.modalText as never }, // our locale file carries web3-onboard's own key layout
    connect: { autoConnectLastWallet: false, showSidebar: true },
  })
  onboard.state.actions.setLocale(locale)
  fitModalToPhones()
  return onboard
}

/** Our view of an onboard wallet: its first account, its chain (`fallbackChainId` when it names none), signing. */
function toConnected(w: WalletState, fallbackChainId: number): ConnectedWallet {
  const account = w.accounts[0]
  if (!account) throw new WalletError('connectFailed')
  const address = account.address
  const chainId = parseInt(w.chains[0]?.id ?? '0x0', 16)
  return {
    address,
    chainId: Number.isSafeInteger(chainId) && chainId > 0 ? chainId : fallbackChainId,
    label: w.label,
    provider: w.provider,
    async sign(message: string) {
      try {
        const provider = new BrowserProvider(w.provider as unknown as EthersEip1193)
        const signer = await provider.getSigner(address)
        return await signer.signMessage(message)
      } catch (e) {
        throw new WalletError(walletErrorKey(e, 'sign'), e)
      }
    },
    async disconnect() {
      await onboard?.disconnectWallet({ label: w.label })
    },
  }
}

export async function connect(opts: ConnectOptions): Promise<ConnectedWallet> {
  const ob = init(opts)
  const [w] = await ob.connectWallet()
  if (!w) throw new WalletError('userRejected')
  return toConnected(w, opts.chainId)
}

/** The wallet of `label`, selected without the modal; null when it did not connect so. */
export async function reconnect(opts: ConnectOptions, label: string): Promise<ConnectedWallet | null> {
  const ob = init(opts)
  const [w] = await ob.connectWallet({ autoSelect: { label, disableModals: true } })
  return w && w.accounts.length > 0 ? toConnected(w, opts.chainId) : null
}

/**
 * web3-onboard's hooks, mounted for the life of the app once the chunk is set up: the primary wallet
 * and the chain it is on, as the wallet reports them (another account picked, a chain switched, a
 * disconnect), published for screens that must not load this chunk to ask.
 */
export function WalletWatch() {
  const [{ wallet }] = useConnectWallet()
  const [{ connectedChain }] = useSetChain()
  useEffect(() => {
    const chainId = connectedChain ? parseInt(connectedChain.id, 16) : 0
    connectedWallet.value = wallet && wallet.accounts.length > 0 ? toConnected(wallet, chainId) : null
  }, [wallet, connectedChain])
  return null
}

export async function disconnectAll(): Promise<void> {
  if (!onboard) return
  for (const w of onboard.state.get().wallets) await onboard.disconnectWallet({ label: w.label })
}
