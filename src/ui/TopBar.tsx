import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { useT } from '../i18n/index.ts'
import { Icon } from './Icon.tsx'

interface Props {
  title: string
  back?: boolean
  right?: ReactNode
  /** A list icon on the right leading to this screen's records. */
  records?: { href: string; label: string }
}

export function TopBar({ title, back, right, records }: Props) {
  const t = useT()
  const end = records ? (
    <Link href={records.href} className="icon-btn" aria-label={records.label}>
      <Icon name="list" />
    </Link>
  ) : (
    right
  )
  return (
    <header className="topbar">
      {back ? (
        <button className="icon-btn" onClick={() => (history.length > 1 ? history.back() : window.location.assign('/index'))} aria-label={t('common.back')}>
          <Icon name="back" />
        </button>
      ) : (
        <span className="icon-btn-space" />
      )}
      <h1>{title}</h1>
      <div className="topbar-right">{end ?? <span className="icon-btn-space" />}</div>
    </header>
  )
}
