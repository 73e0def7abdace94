import { useEffect, useState, type ComponentType } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { online } from '../../api/online.ts'
import { t, withStrings } from '../../i18n/index.ts'
import { toast } from '../../ui/toast.ts'
import { signInOpen } from './invite.ts'

/**
 * The sign-in sheet's code (and the wallet's light door it reaches) is fetched the first time the
 * sheet opens, with the strings it needs, instead of being parsed before the first screen paints.
 * Signing in needs the network anyway; the service worker has the chunk by then on a phone that was
 * online and idle once.
 */
export function SignInHost() {
  useSignals()
  const open = signInOpen.value
  const [Sheet, setSheet] = useState<ComponentType | null>(null)

  useEffect(() => {
    if (!open || Sheet) return
    let live = true
    withStrings(() => import('./SignInSheet.tsx')).then(
      (m) => live && setSheet(() => m.SignInSheet),
      () => {
        if (!live) return
        signInOpen.value = false
        toast.error(online.peek() ? t('errors.loadFailedRetry') : t('common.offlineDisabled'))
      },
    )
    return () => {
      live = false
    }
  }, [open, Sheet])

  return Sheet ? <Sheet /> : null
}
