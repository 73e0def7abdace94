import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { useT } from '../i18n/index.ts'
import { applyUpdate, updateReady } from './sw.ts'

/** Fixed just above the tab bar (or the bottom edge where there is none), centred like a toast. */
const PLACE = {
  position: 'fixed',
  left: 0,
  right: 0,
  bottom: 'calc(var(--tabbar-h) + var(--safe-b, 0px) + 12px)',
  margin: '0 auto',
  zIndex: 20,
} as const

/**
 * "Update available — Reload / Later": a new version is waiting. Nothing changes until the user
 * reloads; "Later" hides it, and the new version starts with the next launch.
 */
export function UpdatePrompt() {
  useSignals()
  const t = useT()
  const [later, setLater] = useState(false)
  if (!updateReady.value || later) return null
  return (
    <div className="toast update-prompt" role="status" aria-live="polite" style={PLACE}>
      <div className="update-prompt-text">
        <strong>{t('sw.updateTitle')}</strong>
        <span>{t('sw.updateBody')}</span>
      </div>
      <button type="button" className="btn small ghost" onClick={() => setLater(true)}>
        {t('sw.later')}
      </button>
      <button type="button" className="btn small primary" onClick={() => void applyUpdate()}>
        {t('sw.reload')}
      </button>
    </div>
  )
}
