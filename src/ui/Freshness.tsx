import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../contract/constants.ts'
import { online } from '../api/online.ts'
import { lang, useT } from '../i18n/index.ts'

/** Data younger than this counts as current and needs no note. */
const FRESH_MS = 60_000

function ago(ms: number, locale: string): string {
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  const s = Math.round(ms / 1000)
  if (s < 60) return rtf.format(-s, 'second')
  const m = Math.round(s / 60)
  if (m < 60) return rtf.format(-m, 'minute')
  const h = Math.round(m / 60)
  if (h < 24) return rtf.format(-h, 'hour')
  return rtf.format(-Math.round(h / 24), 'day')
}

/**
 * DESIGN §6: a screen showing cached data says so — "offline" and how old the data is — so nobody
 * mistakes an old figure for a live one. `undefined`: the screen has no data at all, and offline it
 * says only that it is offline.
 */
export function Freshness({ updatedAt }: { updatedAt: number | undefined }) {
  useSignals()
  const t = useT()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 15_000)
    return () => clearInterval(id)
  }, [])
  const isOnline = online.value
  if (updatedAt === undefined && !isOnline) {
    return (
      <p className="freshness offline" role="status" data-testid="freshness">
        {t('net.offline')}
      </p>
    )
  }
  if (!updatedAt || (isOnline && now - updatedAt < FRESH_MS)) return null
  const when = ago(Math.max(0, now - updatedAt), LANG_TAG[lang.value])
  return (
    <p className={`freshness ${isOnline ? '' : 'offline'}`} role="status" data-testid="freshness">
      {isOnline ? t('net.updated', { when }) : t('net.offlineUpdated', { when })}
    </p>
  )
}
