import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../contract/constants.ts'
import { online } from '../api/online.ts'
import { lang, useT } from '../i18n/index.ts'
import { whenIdle } from '../lib/idle.ts'

/** Data younger than this counts as current and needs no note. */
const FRESH_MS = 60_000

/**
 * Formatters by locale, each made once. Making a locale's first one loads its ICU data: on a slow
 * phone that took longer than the rest of the home screen's first render together (issue 21's trace).
 */
const formats = new Map<string, Intl.RelativeTimeFormat>()

function formatOf(locale: string): Intl.RelativeTimeFormat {
  let f = formats.get(locale)
  if (!f) formats.set(locale, (f = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })))
  return f
}

/** How long the page waits for idle time before making a formatter anyway (a hidden tab has none). */
const FORMAT_WAIT_MS = 500

/**
 * The locale's formatter; null until it is made, which the first time is when the page is next idle:
 * a screen's first render (an offline start's cached content) never waits for ICU, and the note
 * follows a moment later.
 */
function useRelativeTimeFormat(locale: string): Intl.RelativeTimeFormat | null {
  const made = formats.get(locale) ?? null
  const [, madeNow] = useState(0)
  useEffect(() => {
    if (made) return
    let live = true
    whenIdle(() => {
      formatOf(locale)
      if (live) madeNow((n) => n + 1)
    }, FORMAT_WAIT_MS)
    return () => {
      live = false
    }
  }, [made, locale])
  return made
}

function ago(ms: number, rtf: Intl.RelativeTimeFormat): string {
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
  const rtf = useRelativeTimeFormat(LANG_TAG[lang.value])
  if (updatedAt === undefined && !isOnline) {
    return (
      <p className="freshness offline" role="status" data-testid="freshness">
        {t('net.offline')}
      </p>
    )
  }
  if (!updatedAt || (isOnline && now - updatedAt < FRESH_MS) || !rtf) return null
  const when = ago(Math.max(0, now - updatedAt), rtf)
  return (
    <p className={`freshness ${isOnline ? '' : 'offline'}`} role="status" data-testid="freshness">
      {isOnline ? t('net.updated', { when }) : t('net.offlineUpdated', { when })}
    </p>
  )
}
