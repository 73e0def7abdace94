import { Component, type ReactNode } from 'react'
import { Link } from 'wouter'
import { useT } from '../i18n/index.ts'
import { isCodeLoadFailure } from '../lib/screenCode.ts'

/**
 * What a screen that cannot be shown says instead of a blank page: its code is not saved on this
 * phone (offline before it was ever fetched), or the screen failed. A retry, and the way home.
 */
function ScreenUnavailable({ codeMissing, onRetry }: { codeMissing: boolean; onRetry: () => void }) {
  const t = useT()
  return (
    <main className="page center-page" data-testid="screen-unavailable" data-reason={codeMissing ? 'not-saved' : 'failed'}>
      <h1>{t(codeMissing ? 'net.screenNotSaved' : 'net.screenFailed')}</h1>
      <p className="muted">{t(codeMissing ? 'net.screenNotSavedBody' : 'net.screenFailedBody')}</p>
      <button type="button" className="btn primary" onClick={onRetry}>
        {t('common.retry')}
      </button>
      <Link href="/index" className="btn ghost">
        {t('notFound.home')}
      </Link>
    </main>
  )
}

interface State {
  error: unknown
}

interface Props {
  children: ReactNode
  /** Before the screen renders again on the user's retry (routes.ts retryFailedScreens). */
  onRetry: () => void
}

/** Around each screen (App.tsx): one screen that cannot render never blanks the app. */
export class ScreenBoundary extends Component<Props, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error }
  }

  override componentDidCatch(error: unknown) {
    if (!isCodeLoadFailure(error)) console.error('nadi: a screen failed to render', error)
  }

  private retry = () => {
    this.props.onRetry()
    this.setState({ error: null })
  }

  override render() {
    const { error } = this.state
    if (error === null) return this.props.children
    return <ScreenUnavailable codeMissing={isCodeLoadFailure(error)} onRetry={this.retry} />
  }
}
