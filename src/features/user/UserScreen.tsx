import { lazy, Suspense, useState } from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { useLocation } from 'wouter'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDate, groupThousands, shortAddress } from '../../lib/format.ts'
import { showFigure } from '../../lib/precision.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { MenuLink } from '../../ui/MenuLink.tsx'
import { CopyButton } from '../../ui/CopyButton.tsx'
import { LanguageSwitcher } from '../../ui/LanguageSwitcher.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { Empty, LoadFailed, Pending, Skeleton } from '../../ui/States.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { confirmed } from '../../ui/confirm.tsx'
import { useSignOut } from '../auth/mutations.ts'
import { account } from '../../api/session.ts'
import { listOutbox } from '../../data/index.ts'
import { userQueries } from './queries.ts'
import { CopyField } from '../team/CopyField.tsx'
import { NameBadges } from '../team/NameBadges.tsx'
import { TeamNodesCard, TeamSection } from '../team/TeamSection.tsx'

// The QR encoder is drawn only when asked for: its code stays out of the user centre's chunk.
const QrCode = lazy(() => import('../recharge/QrCode.tsx').then((m) => ({ default: m.QrCode })))

export function inviteLink(code: string, origin = window.location.origin): string {
  return `${origin}/?code=${encodeURIComponent(code)}`
}

export default function UserScreen() {
  useSignals()
  const t = useT()
  const [, navigate] = useLocation()
  // Team counts and performance move with other people's actions: opening the screen always asks.
  const info = useQuery({ ...userQueries.info(), refetchOnMount: 'always' })
  const team = useInfiniteQuery(userQueries.zhiList())
  const signOut = useSignOut()
  const [showQr, setShowQr] = useState(false)
  const u = info.data
  const locale = LANG_TAG[lang.value]
  const members = team.data?.pages.flatMap((p) => p.list) ?? []

  async function onSignOut() {
    const waiting = (await listOutbox(account.value)).length
    const body = waiting > 0 ? t('user.signOutPending', { count: waiting }) : t('user.signOutBody')
    if (!(await confirmed({ title: t('user.signOutTitle'), body, confirmText: t('user.signOut'), danger: true }))) return
    await signOut.mutateAsync().catch(() => undefined)
    navigate('/index', { replace: true })
  }

  return (
    <main className="page with-tabbar">
      <TopBar title={t('user.title')} right={<LanguageSwitcher />} />
      {info.data && <Freshness updatedAt={info.dataUpdatedAt} />}
      {info.isPending ? (
        <Pending query={info} lines={5} />
      ) : info.isError || !u ? (
        <LoadFailed onRetry={() => info.refetch()} />
      ) : (
        <>
          <section className="card profile">
            <div className="avatar" aria-hidden>
              {u.name.slice(-2)}
            </div>
            <div className="grow">
              <div className="row gap-s">
                <strong>{u.name}</strong>
                <NameBadges level={u.level} agent={u.advanced_agent} />
              </div>
              <div className="row gap-s muted mono small">
                <span data-testid="wallet-address">{shortAddress(u.wallet_address)}</span>
                <CopyButton text={u.wallet_address} />
              </div>
              <div className="muted small" data-testid="user-id">
                ID {u.id}
              </div>
            </div>
          </section>
          {u.advanced_agent && (
            <p className="card small" data-testid="agent-grants">
              <span className="badge teal">{t('team.agent')}</span> {t('team.agentGrants', { level: u.level })}
            </p>
          )}

          <section className="card invite">
            <h2>{t('user.inviteTitle')}</h2>
            <div className="kv">
              <span className="muted">{t('user.inviteCode')}</span>
              <span className="row gap-s">
                <strong className="mono" data-testid="invite-code">
                  {u.code}
                </strong>
                <CopyField text={u.code} label={t('team.copyCode')} testId="invite-code" />
              </span>
            </div>
            <div className="kv">
              <span className="muted">{t('user.inviteLink')}</span>
              <span className="row gap-s ellipsis">
                <span className="mono small ellipsis" data-testid="invite-link">
                  {inviteLink(u.code)}
                </span>
                <CopyField text={inviteLink(u.code)} label={t('team.copyLink')} testId="invite-link" />
              </span>
            </div>
            <button className="btn ghost block" aria-expanded={showQr} onClick={() => setShowQr((v) => !v)} data-testid="invite-qr-toggle">
              {showQr ? t('team.hideQr') : t('team.showQr')}
            </button>
            {showQr && (
              <div className="qr-box" data-testid="invite-qr">
                <Suspense fallback={<Skeleton lines={4} />}>
                  <QrCode text={inviteLink(u.code)} label={t('team.qrAlt')} />
                </Suspense>
                <p className="muted small">{t('team.qrHint')}</p>
              </div>
            )}
          </section>

          <section className="card">
            <h2>{t('user.teamTitle')}</h2>
            <div className="grid-2">
              <div className="stat">
                <span className="muted small">{t('user.zhiNum')}</span>
                <strong data-testid="zhi-num">{groupThousands(String(u.zhi_num))}</strong>
              </div>
              <div className="stat">
                <span className="muted small">{t('user.teamNum')}</span>
                <strong data-testid="team-num">{groupThousands(String(u.team_num))}</strong>
              </div>
            </div>
            <div className="grid-3">
              <div className="stat">
                <span className="muted small">{t('user.mePerformance')}</span>
                <strong>{showFigure(u.me_performance, 'USDT')}</strong>
              </div>
              <div className="stat">
                <span className="muted small">{t('user.zhiPerformance')}</span>
                <strong>{showFigure(u.zhi_performance, 'USDT')}</strong>
              </div>
              <div className="stat">
                <span className="muted small">{t('user.teamPerformance')}</span>
                <strong>{showFigure(u.team_performance, 'USDT')}</strong>
              </div>
            </div>
            <p className="muted small">{t('user.performanceUnit')}</p>
          </section>

          <section className="card">
            <h2>{t('user.directList')}</h2>
            {team.isPending ? (
              <Pending query={team} lines={3} />
            ) : team.isError && members.length === 0 ? (
              <LoadFailed onRetry={() => team.refetch()} />
            ) : members.length === 0 ? (
              <Empty text={t('user.directEmpty')} />
            ) : (
              <ul className="rows" data-testid="direct-list">
                {members.map((m) => (
                  <li key={m.id} className="kv">
                    <span>
                      <strong>{m.name}</strong> <NameBadges level={m.level} agent={m.advanced_agent} />
                      <br />
                      <span className="mono small muted">
                        ID {m.id} · {shortAddress(m.wallet_address)}
                      </span>
                      <br />
                      <small className="muted">{formatDate(m.created_at, locale)}</small>
                    </span>
                    <span className="right">
                      <small className="muted">{t('user.teamNum')}</small> {m.team_num}
                      <br />
                      <small className="muted">{t('user.mePerformance')}</small> {showFigure(m.me_performance, 'USDT')}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {team.hasNextPage && (
              <button className="btn ghost block" disabled={team.isFetchingNextPage} onClick={() => team.fetchNextPage()}>
                {team.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
              </button>
            )}
          </section>

          <TeamNodesCard />
          <TeamSection />

          <nav className="card menu" aria-label={t('user.menu')}>
            <MenuLink href="/wallet" icon="wallet" label={t('assets.title')} />
            <MenuLink href="/orders" icon="list" label={t('orders.title')} />
            <MenuLink href="/node" icon="node" label={t('node.title')} />
            <MenuLink href="/shop/orderRelease" icon="receipt" label={t('release.title')} />
            <MenuLink href="/address" icon="pin" label={t('address.title')} />
          </nav>

          <button className="btn ghost block danger-text" onClick={onSignOut} disabled={signOut.isPending}>
            <Icon name="logout" size={20} />
            {t('user.signOut')}
          </button>
        </>
      )}
    </main>
  )
}
