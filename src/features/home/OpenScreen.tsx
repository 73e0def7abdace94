import { useEffect } from 'react'
import { useLocation } from 'wouter'
import { useT } from '../../i18n/index.ts'

const AUTO_ENTER_MS = 2500

/** The opening screen: the brand for a moment, then home. */
export default function OpenScreen() {
  const t = useT()
  const [, navigate] = useLocation()
  useEffect(() => {
    const id = setTimeout(() => navigate('/index', { replace: true }), AUTO_ENTER_MS)
    return () => clearTimeout(id)
  }, [navigate])
  return (
    <main className="open-screen">
      <img src="/favicon.svg" alt="" width={96} height={96} />
      <h1>NADI</h1>
      <p className="muted">{t('open.tagline')}</p>
      <button className="btn primary" onClick={() => navigate('/index', { replace: true })}>
        {t('open.enter')}
      </button>
    </main>
  )
}
