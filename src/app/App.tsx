import { Activity, Suspense, useEffect, useState } from 'react'
import { IsRestoringProvider, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { persistAccount, restoredAlready } from './persist.ts'
import { useLocation } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { queryClient } from './queryClient.ts'
import { matchRoute, retryFailedScreens, type Match } from './routes.ts'
import { account, armExpiry, onExpire, signedIn } from '../api/session.ts'
import { loginExpiring, onExpiredRedirect, redirectAfterExpiry } from '../api/client.ts'
import { rememberReturn } from '../api/resume.ts'
import { signInOpen } from '../features/auth/invite.ts'
import { userQueries } from '../features/user/queries.ts'
import { captureInviteCode } from '../features/auth/invite.ts'
import { TabBar } from './TabBar.tsx'
import { Toasts } from '../ui/Toasts.tsx'
import { ConfirmHost } from '../ui/confirm.tsx'
import { WalletHost } from '../wallet/WalletHost.tsx'
import { SignInHost } from '../features/auth/SignInHost.tsx'
import { NotFound } from './NotFound.tsx'
import { Spinner } from '../ui/Spinner.tsx'
import { useT } from '../i18n/index.ts'
import { toast } from '../ui/toast.ts'
import { UpdatePrompt } from './UpdatePrompt.tsx'
import { ScreenBoundary } from './ScreenBoundary.tsx'

/** How many visited screens stay mounted (hidden) so a revisit shows them as they were. */
const KEEP_ALIVE = 6

interface Kept extends Match {
  path: string
}

function Screens() {
  useSignals()
  const t = useT()
  const [location, navigate] = useLocation()
  const match = matchRoute(location)
  // The first screen mounts in the first render, not one effect later: a cold start is one render shorter.
  const [kept, setKept] = useState<Kept[]>(() => (match && (!match.route.auth || signedIn.peek()) ? [{ ...match, path: location }] : []))
  const authed = signedIn.value
  // SPEC §2: with a token but no user name, the user is loaded; failing on a protected route sends to /.
  const user = useQuery({ ...userQueries.info(), enabled: authed })

  useEffect(() => {
    if (location === '/') {
      captureInviteCode(window.location.search)
      navigate('/index', { replace: true })
      return
    }
    window.scrollTo(0, 0)
    if (match?.route.auth && !authed && !loginExpiring.value) {
      toast.info(t('auth.signInFirst'))
      navigate('/', { replace: true })
    }
  }, [location, authed]) // eslint-disable-line react-hooks/exhaustive-deps -- match and t derive from these

  useEffect(() => {
    if (match?.route.auth && user.isError && !loginExpiring.value) navigate('/', { replace: true })
  }, [user.isError, match?.route.auth, navigate])

  // The screen of a new location is kept in the same render that shows the location, not one effect
  // later: in between, every kept screen was hidden (a blank frame), and a screen left again before
  // that later render (a quick back) mounted straight into a hidden Activity, whose effects never run,
  // so what it does on open (a notice marked read) never happened.
  const [keptFor, setKeptFor] = useState({ location, authed })
  if (keptFor.location !== location || keptFor.authed !== authed) {
    setKeptFor({ location, authed })
    if (match && (!match.route.auth || authed)) {
      setKept((prev) => {
        const rest = prev.filter((k) => k.path !== location && (!k.route.auth || authed))
        return [...rest, { ...match, path: location }].slice(-KEEP_ALIVE)
      })
    }
  }

  // An idle token runs out on its own (SPEC §9); on a protected screen that reads as an expired login.
  useEffect(() => {
    armExpiry()
    // In-app, not a page load: the app, its words and its drafts stay as they were, and the sheet
    // to sign in again is already open on the root.
    onExpiredRedirect(() => {
      navigate('/')
      signInOpen.value = true
    })
    return onExpire((was) => {
      if (!matchRoute(window.location.pathname)?.route.auth) return
      rememberReturn(was, window.location.pathname + window.location.search)
      redirectAfterExpiry()
    })
  }, []) // eslint-disable-line react-hooks/exhaustive-deps -- navigate is stable

  if (location === '/') return null
  if (!match) return <NotFound />
  return (
    <>
      {kept.map((k) => {
        const Screen = k.route.screen
        return (
          <Activity key={k.path} mode={k.path === location ? 'visible' : 'hidden'}>
            <ScreenBoundary onRetry={retryFailedScreens}>
              <Suspense fallback={<Spinner page />}>
                <Screen params={k.params} />
              </Suspense>
            </ScreenBoundary>
          </Activity>
        )
      })}
      {match.route.tab && <TabBar />}
    </>
  )
}

/** The query cache, restored from and saved to IndexedDB under the current account (DESIGN §6). */
function Providers({ children }: { children: React.ReactNode }) {
  useSignals()
  const acct = account.value
  // Only the first restore holds queries back; a later switch of account merges in the background.
  const [restoring, setRestoring] = useState(() => !restoredAlready(acct))
  useEffect(() => persistAccount(queryClient, acct, () => setRestoring(false)), [acct])
  return (
    <QueryClientProvider client={queryClient}>
      <IsRestoringProvider value={restoring}>{children}</IsRestoringProvider>
    </QueryClientProvider>
  )
}

export function App() {
  return (
    <Providers>
      <div className="app">
        <Screens />
      </div>
      <SignInHost />
      <ConfirmHost />
      <WalletHost />
      <Toasts />
      <UpdatePrompt />
    </Providers>
  )
}
