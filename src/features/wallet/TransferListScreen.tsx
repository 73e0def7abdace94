import { useInfiniteQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { walletQueries } from './queries.ts'
import { RecordList } from './parts.tsx'
import { Amount } from '../../ui/Amount.tsx'

/** /draw/list: transfers between the user's own accounts, newest first. */
export default function TransferListScreen() {
  useSignals()
  const t = useT()
  const q = useInfiniteQuery(walletQueries.transferList())
  const locale = LANG_TAG[lang.value]
  return (
    <main className="page">
      <TopBar title={t('transfer.listTitle')} back />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList
        q={q}
        testId="transfer-list"
        empty={t('transfer.empty')}
        row={(r) => (
          <li key={r.id} className="record">
            <div className="grow">
              <strong>{t('transfer.route', { from: t(`assets.${r.from}`), to: t(`assets.${r.to}`) })}</strong>
              <small className="muted block">{formatDateTime(r.created_at, locale)}</small>
            </div>
            <span className="amount mono">
              <Amount value={r.amount} measure={r.asset} />
            </span>
          </li>
        )}
      />
    </main>
  )
}
