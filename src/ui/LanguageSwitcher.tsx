import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_CODES, LANG_NAME, LANG_SHORT } from '../../contract/constants.ts'
import { lang, setLang, useT } from '../i18n/index.ts'
import { Icon } from './Icon.tsx'
import { Sheet } from './Sheet.tsx'
import { toast } from './toast.ts'

export function LanguageSwitcher() {
  useSignals()
  const t = useT()
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  return (
    <>
      <button className="chip" onClick={() => setOpen(true)} aria-label={t('lang.switch')} title={LANG_NAME[lang.value]}>
        <Icon name="globe" size={18} />
        <span>{LANG_SHORT[lang.value]}</span>
      </button>
      <Sheet open={open} onClose={() => setOpen(false)} title={t('lang.title')}>
        <ul className="choice-list" role="listbox" aria-label={t('lang.title')}>
          {LANG_CODES.map((code) => (
            <li key={code}>
              <button
                role="option"
                aria-selected={code === lang.value}
                className={code === lang.value ? 'choice selected' : 'choice'}
                disabled={busy}
                onClick={async () => {
                  setBusy(true)
                  try {
                    await setLang(code)
                    setOpen(false)
                  } catch {
                    toast.error(t('errors.loadFailedRetry'))
                  } finally {
                    setBusy(false)
                  }
                }}
              >
                {LANG_NAME[code]}
              </button>
            </li>
          ))}
        </ul>
      </Sheet>
    </>
  )
}
