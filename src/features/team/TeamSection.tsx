import { useState, type FormEvent } from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import { parseTeamSearch } from '../../../contract/teamRules.ts'
import type { TeamMember } from '../../../contract/team.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDate, groupThousands, shortAddress } from '../../lib/format.ts'
import { showFigure } from '../../lib/precision.ts'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { NameBadges } from './NameBadges.tsx'
import { teamQueries } from './queries.ts'

/** The nodes held in the caller's team, by tier (SPEC §3 Team). */
export function TeamNodesCard() {
  const t = useT()
  // The figures move with other people's purchases: opening the screen always asks.
  const info = useQuery({ ...teamQueries.info(), refetchOnMount: 'always' })
  const nodes = info.data?.nodes
  return (
    <section className="card">
      <h2>{t('team.nodesTitle')}</h2>
      {info.isPending ? (
        <Pending query={info} lines={1} />
      ) : !nodes ? (
        <LoadFailed onRetry={() => info.refetch()} />
      ) : (
        <div className="grid-3">
          {(['elite', 'core', 'genesis'] as const).map((type) => (
            <div className="stat" key={type}>
              <span className="muted small">{t(`node.type.${type}`)}</span>
              <strong data-testid={`team-nodes-${type}`}>{groupThousands(String(nodes[type]))}</strong>
            </div>
          ))}
        </div>
      )}
      <p className="muted small">{t('team.nodesHint')}</p>
    </section>
  )
}

function MemberRow({ m, locale }: { m: TeamMember; locale: string }) {
  const t = useT()
  return (
    <li className="kv" data-testid="team-member" data-id={m.id}>
      <span>
        <strong>{m.name}</strong> <NameBadges level={m.level} agent={m.advanced_agent} />
        <br />
        <small className="muted mono">
          ID {m.id} · {shortAddress(m.wallet_address)}
        </small>
        <br />
        <small className="muted">
          {t('team.generation', { n: m.generation })} · {formatDate(m.created_at, locale)}
        </small>
      </span>
      <span className="right">
        <small className="muted">{t('user.mePerformance')}</small> <span data-testid="member-me-performance">{showFigure(m.me_performance, 'USDT')}</span>
        <br />
        <small className="muted">{t('user.teamPerformance')}</small> <span data-testid="member-team-performance">{showFigure(m.team_performance, 'USDT')}</span>
        <br />
        <small className="muted">{t('user.teamNum')}</small> {groupThousands(String(m.team_num))}
      </span>
    </li>
  )
}

/** The whole team, nearest generation first, paged; or one member found by exact user ID. */
export function TeamSection() {
  useSignals()
  const t = useT()
  const [text, setText] = useState('')
  const [search, setSearch] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const q = useInfiniteQuery(teamQueries.list(search))
  const members = q.data?.pages.flatMap((p) => p.list) ?? []
  const locale = LANG_TAG[lang.value]

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    // The server's own rule, checked here first so the refusal needs no round trip.
    const parsed = parseTeamSearch(text)
    if (!parsed.ok) return setError(t(parsed.error))
    setError(null)
    setSearch(parsed.id)
  }

  function clear() {
    setText('')
    setError(null)
    setSearch(null)
  }

  return (
    <section className="card" data-testid="team-section">
      <h2>{t('team.title')}</h2>
      <p className="muted small">{t('team.intro')}</p>
      <form className="row gap-s team-search" onSubmit={onSubmit} noValidate role="search">
        <label className={`field grow${error ? ' invalid' : ''}`}>
          <span className="sr-only">{t('team.searchLabel')}</span>
          <input
            name="team-search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            inputMode="numeric"
            autoComplete="off"
            placeholder={t('team.searchLabel')}
            aria-invalid={error !== null}
            maxLength={40}
          />
        </label>
        <button className="btn" type="submit">
          {t('team.search')}
        </button>
      </form>
      {error && (
        <small className="form-error" role="alert" data-testid="team-search-error">
          {error}
        </small>
      )}
      {search !== null && (
        <button className="btn ghost block" onClick={clear}>
          {t('team.clearSearch')}
        </button>
      )}
      {q.isPending ? (
        <Pending query={q} lines={3} />
      ) : q.isError && members.length === 0 ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : members.length === 0 ? (
        <Empty text={search === null ? t('team.empty') : t('team.notFound', { id: search })} />
      ) : (
        <ul className="rows" data-testid="team-list">
          {members.map((m) => (
            <MemberRow key={m.id} m={m} locale={locale} />
          ))}
        </ul>
      )}
      {q.hasNextPage && (
        <button className="btn ghost block" disabled={q.isFetchingNextPage} onClick={() => q.fetchNextPage()}>
          {q.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
        </button>
      )}
    </section>
  )
}
