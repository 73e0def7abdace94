import { lazy, Suspense } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { lang, useT, withStrings } from '../../i18n/index.ts'
import { signedIn } from '../../api/session.ts'
import { groupThousands } from '../../lib/format.ts'
import { showFigure } from '../../lib/precision.ts'
import { LanguageSwitcher } from '../../ui/LanguageSwitcher.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { commonQueries } from '../common/queries.ts'
import { noticeQueries } from '../notice/queries.ts'
import { signInOpen } from '../auth/invite.ts'
import { BannerCarousel } from './BannerCarousel.tsx'
import { NoticeTicker } from './NoticeTicker.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Shortcuts } from './Shortcuts.tsx'

// Signed-in users only, and drawn once its data is in: its code loads beside the first screen, not in it.
const UnpaidReminder = lazy(() => import('./UnpaidReminder.tsx'))
// Drawn after the config arrives, and rarely: its code and words come beside the first screen too. Its
// code not on the phone and no network, the warning waits for a later start rather than fail home.
const ChainNotice = lazy(() =>
  withStrings(() => import('./ChainNotice.tsx')).then(
    (m) => ({ default: m.ChainNotice }),
    () => ({ default: () => null }),
  ),
)

export default function HomeScreen() {
  useSignals()
  const t = useT()
  const banners = useQuery(commonQueries.banners(lang.value))
  const info = useQuery(commonQueries.mainInfo())
  const notices = useQuery(noticeQueries.latest(lang.value))
  const config = useQuery(commonQueries.config())
  const m = info.data

  return (
    <main className="page with-tabbar home">
      <header className="home-head">
        <div className="brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>NADI</span>
        </div>
        <div className="row gap-s">
          <LanguageSwitcher />
          {signedIn.value ? (
            <Link href="/user" className="chip" aria-label={t('tabs.user')}>
              <Icon name="user" size={18} />
            </Link>
          ) : (
            <button className="chip gold" onClick={() => (signInOpen.value = true)}>
              <Icon name="wallet" size={18} />
              <span>{t('wallet.connect')}</span>
            </button>
          )}
        </div>
      </header>

      {info.data && <Freshness updatedAt={info.dataUpdatedAt} />}
      <BannerCarousel banners={banners.data} loading={banners.isPending} />

      <NoticeTicker items={notices.data?.list ?? []} />

      {signedIn.value && (
        <Suspense fallback={null}>
          <UnpaidReminder />
        </Suspense>
      )}
      <Shortcuts />

      <section className="card stats" aria-label={t('home.statsTitle')}>
        <div className="stat wide">
          <span className="muted small">{t('home.nadiPrice')}</span>
          <strong className="big">
            {m ? showFigure(m.nadi_price, 'price') : '—'} <small>USDT</small>
          </strong>
          {m?.nadi_price_source === 'reference' && (
            <span className="muted small" data-testid="price-reference">
              {t('home.priceReference')}
            </span>
          )}
        </div>
        <div className="stat">
          <span className="muted small">{t('home.members')}</span>
          <strong>{m ? groupThousands(String(m.member_count)) : '—'}</strong>
        </div>
        <div className="stat">
          <span className="muted small">{t('home.newToday')}</span>
          <strong>{m ? groupThousands(String(m.new_members_today)) : '—'}</strong>
        </div>
        <div className="stat">
          <span className="muted small">{t('home.notices')}</span>
          <strong>{m ? m.notice_count : '—'}</strong>
        </div>
      </section>

      <section className="card intro">
        <h2>{t('home.introTitle')}</h2>
        <p className="muted" data-testid="home-intro">
          {t(signedIn.value ? 'home.introBodyMember' : 'home.introBody')}
        </p>
        {signedIn.value ? (
          <Link href="/user" className="btn primary block">
            <Icon name="team" size={20} />
            {t('home.inviteFriends')}
          </Link>
        ) : (
          <button className="btn primary block" onClick={() => (signInOpen.value = true)}>
            <Icon name="wallet" size={20} />
            {t('home.getStarted')}
          </button>
        )}
      </section>

      {/* The warning waits while an invite link's sign-in sheet is open, then shows. */}
      {config.data?.chain_notice && !signInOpen.value && (
        <Suspense fallback={null}>
          <ChainNotice notice={config.data.chain_notice} />
        </Suspense>
      )}
    </main>
  )
}
