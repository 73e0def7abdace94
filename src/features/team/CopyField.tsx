import { useState } from 'react'
import { useT } from '../../i18n/index.ts'
import { copyText } from '../../lib/clipboard.ts'
import { Icon } from '../../ui/Icon.tsx'
import { toast } from '../../ui/toast.ts'

/**
 * A copy button that, when the browser refuses the clipboard (SPEC §8 "copy failed, copy manually"),
 * says so and puts the text in a selected field the user can copy from by hand.
 */
export function CopyField({ text, label, testId }: { text: string; label: string; testId: string }) {
  const t = useT()
  const [failed, setFailed] = useState(false)
  return (
    <>
      <button
        className="copy-btn"
        data-testid={`${testId}-copy`}
        aria-label={label}
        onClick={async () => {
          const ok = await copyText(text)
          setFailed(!ok)
          if (ok) toast.success(t('common.copied'))
        }}
      >
        <Icon name="copy" size={18} />
      </button>
      {failed && (
        <div className="copy-manual" role="alert" data-testid={`${testId}-manual`}>
          <small className="form-error">{t('team.copyManually')}</small>
          <input className="mono" readOnly value={text} aria-label={label} autoFocus onFocus={(e) => e.currentTarget.select()} />
        </div>
      )}
    </>
  )
}
