// What the rest of the app knows of the wallet chunk, without loading it: whether it is set up, and
// the wallet connected in this session. The chunk's web3-onboard hooks keep these current
// (onboard.tsx WalletWatch, mounted by WalletHost.tsx once the chunk is ready).
import { signal } from '@preact/signals-react'
import type { ConnectedWallet } from './index.ts'

/** web3-onboard is initialised: its hooks can run. */
export const walletReady = signal(false)

/** The session's primary connected wallet (account and chain as they are now); null when none. */
export const connectedWallet = signal<ConnectedWallet | null>(null)
