import { useState } from 'react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { Link, useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { walletQueries } from './queries.ts'
import { amountTone, MONEY_LOG_FILTERS, signedAmount, typeLabelKey } from './moneyLog.ts'
import { RecordList } from './parts.tsx'
import { targetHref } from './earnings.ts'

const FILTERS = ['', ...MONEY_LOG_FILTERS] as const

/** /wallet/moneyLog: every posting the user can see, by type, newest first (issue 4 part 6). */
export default function MoneyLogScreen() {
  useSignals()
  const t = useT()
  const initial = new URLSearchParams(useSearch()).get('type') ?? ''
  const [type, setType] = useState<string>((FILTERS as readonly string[]).includes(initial) ? initial : '')
  const q = useInfiniteQuery(walletQueries.moneyLog(type))
  const locale = LANG_TAG[lang.value]

  return (
    <main className="page">
      <TopBar title={t('moneyLog.title')} back />
      <div className="chips filter-row" role="tablist" aria-label={t('moneyLog.filter')}>
        {FILTERS.map((code) => (
          <button key={code || 'all'} role="tab" aria-selected={code === type} className={`chip ${code === type ? 'gold' : ''}`} onClick={() => setType(code)}>
            {code ? t(typeLabelKey(code)) : t('moneyLog.all')}
          </button>
        ))}
      </div>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList
        q={q}
        testId="money-log"
        empty={t('moneyLog.empty')}
        row={(r) => {
          const what = (
            <>
              <strong>{t(typeLabelKey(r.type))}</strong>
              <small className="muted block">
                {t(`assets.${r.account}`)} · {formatDateTime(r.created_at, locale)}
              </small>
            </>
          )
          return (
            <li key={r.id} className="record" data-type={r.type}>
              {/* What produced it, when the server names it: a settlement's day, a pledge, a node… */}
              {r.link ? (
                <Link href={targetHref(r.link)} className="grow record-link" data-testid="money-log-link" title={t('moneyLog.details')}>
                  {what}
                </Link>
              ) : (
                <div className="grow">{what}</div>
              )}
              <span className={`amount ${amountTone(r.amount)}`}>
                {signedAmount(r.amount, r.asset)} <small>{r.asset}</small>
              </span>
            </li>
          )
        }}
      />
    </main>
  )
}
