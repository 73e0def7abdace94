import { lazy, Suspense } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { walletReady } from './state.ts'

// The same chunk connectWallet loads: mounting it never fetches the wallet code on its own.
const WalletWatch = lazy(() => import('./onboard.tsx').then((m) => ({ default: m.WalletWatch })))

/** Runs the wallet chunk's hooks once somebody has connected (or tried to): nothing before. */
export function WalletHost() {
  useSignals()
  if (!walletReady.value) return null
  return (
    <Suspense fallback={null}>
      <WalletWatch />
    </Suspense>
  )
}
