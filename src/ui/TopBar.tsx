import type { ReactNode } from 'react'
import { useT } from '../i18n/index.ts'
import { Icon } from './Icon.tsx'

export function TopBar({ title, back, right }: { title: string; back?: boolean; right?: ReactNode }) {
  const t = useT()
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
      <div className="topbar-right">{right ?? <span className="icon-btn-space" />}</div>
    </header>
  )
}
