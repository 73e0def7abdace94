import { useEffect, useId, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { useT } from '../i18n/index.ts'
import { Icon } from './Icon.tsx'

interface Props {
  open: boolean
  title: string
  onClose: () => void
  children: ReactNode
  /** A centred dialog instead of a bottom sheet. */
  center?: boolean
  /** While false, neither the overlay nor the close button nor Escape closes it. */
  closable?: boolean
}

export function Sheet({ open, title, onClose, children, center, closable = true }: Props) {
  const t = useT()
  const titleId = useId()
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closable && onClose()
    window.addEventListener('keydown', onKey)
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      window.removeEventListener('keydown', onKey)
      document.body.style.overflow = overflow
    }
  }, [open, closable, onClose])
  if (!open) return null
  return createPortal(
    <div className={`overlay ${center ? 'center' : ''}`} onClick={() => closable && onClose()}>
      <div className="sheet" role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()}>
        <header className="sheet-head">
          <h2 id={titleId}>{title}</h2>
          {closable && (
            <button className="icon-btn" onClick={onClose} aria-label={t('common.close')}>
              <Icon name="close" />
            </button>
          )}
        </header>
        <div className="sheet-body">{children}</div>
      </div>
    </div>,
    document.body,
  )
}
