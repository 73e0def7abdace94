import { Link } from 'wouter'
import { useT } from '../i18n/index.ts'

export function NotFound() {
  const t = useT()
  return (
    <main className="page center-page">
      <div className="big-emoji" aria-hidden>404</div>
      <h1>{t('notFound.title')}</h1>
      <p className="muted">{t('notFound.body')}</p>
      <Link href="/index" className="btn primary">
        {t('notFound.home')}
      </Link>
    </main>
  )
}
