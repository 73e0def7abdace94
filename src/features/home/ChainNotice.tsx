import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { PublicConfig } from '../../../contract/common.ts'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { secondsLeft } from '../../lib/countdown.ts'
import { storage } from '../../lib/storage.ts'
import { Sheet } from '../../ui/Sheet.tsx'
import { Icon } from '../../ui/Icon.tsx'

type Notice = NonNullable<PublicConfig['chain_notice']>
const KEY = 'chain_notice_seen'

/** The chain-upgrade warning: it can be closed only after its countdown, and shows once per notice. */
export function ChainNotice({ notice }: { notice: Notice }) {
  useSignals()
  const t = useT()
  const [open, setOpen] = useState(() => storage.get(KEY) !== notice.id)
  const [endsAt] = useState(() => Date.now() + notice.countdown_seconds * 1000)
  const [now, setNow] = useState(() => Date.now())
  const left = secondsLeft(endsAt, now)

  useEffect(() => {
    if (!open || left === 0) return
    const id = setTimeout(() => setNow(Date.now()), 250)
    return () => clearTimeout(id)
  }, [open, left, now])

  if (!open) return null
  const close = () => {
    storage.set(KEY, notice.id)
    setOpen(false)
  }
  const locale = LANG_TAG[lang.value]
  return (
    <Sheet open title={t('chainNotice.title')} onClose={close} closable={left === 0} center>
      <div className="stack">
        <div className="warn-icon">
          <Icon name="warning" size={36} />
        </div>
        <p>{t('chainNotice.body', { start: formatDateTime(notice.starts_at, locale), end: formatDateTime(notice.ends_at, locale) })}</p>
        <p className="muted small">{t('chainNotice.advice')}</p>
        <button className="btn primary block" disabled={left > 0} onClick={close}>
          {left > 0 ? t('chainNotice.wait', { seconds: left }) : t('chainNotice.ok')}
        </button>
      </div>
    </Sheet>
  )
}
