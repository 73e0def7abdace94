import { useInfiniteQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { Deposit } from '../../../contract/recharge.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime, shortAddress } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { CopyButton } from '../../ui/CopyButton.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { RecordList, useChainName } from '../wallet/parts.tsx'
import { rechargeQueries } from './queries.ts'
import { depositProgress } from './selection.ts'
import { useMoneyPushes } from '../wallet/live.ts'
import { Amount } from '../../ui/Amount.tsx'

function DepositStatus({ d }: { d: Deposit }) {
  const t = useT()
  if (d.status === 'credited') return <span className="badge teal">{t('recharge.status.credited')}</span>
  if (d.status === 'dropped') return <span className="badge red">{t('recharge.status.dropped')}</span>
  const p = depositProgress(d)
  return (
    <span className="progress-wrap">
      <span className="badge gold">{t('recharge.status.confirming', { done: p.done, required: p.required })}</span>
      <span className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={p.required} aria-valuenow={p.done}>
        <span style={{ width: `${Math.round(p.ratio * 100)}%` }} />
      </span>
    </span>
  )
}

/** /recharge/list: deposits seen on chain, with their confirmations until credited. */
export default function RechargeListScreen() {
  useMoneyPushes()
  useSignals()
  const t = useT()
  const chainName = useChainName()
  const q = useInfiniteQuery(rechargeQueries.list())
  const locale = LANG_TAG[lang.value]
  return (
    <main className="page">
      <TopBar title={t('recharge.listTitle')} back />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList
        q={q}
        testId="recharge-list"
        empty={t('recharge.empty')}
        row={(d) => (
          <li key={d.id} className="record tall" data-status={d.status}>
            <div className="row between">
              <strong>
                {d.coin} <span className="muted small">{chainName(d.chain)}</span>
              </strong>
              <span className="amount in">
                +<Amount value={d.amount} measure={d.coin} />
              </span>
            </div>
            <div className="row between">
              <DepositStatus d={d} />
              <small className="muted">{formatDateTime(d.created_at, locale)}</small>
            </div>
            <div className="row gap-s muted small">
              <span>{t('records.txHash')}</span>
              <span className="mono">{shortAddress(d.tx_hash, 10, 8)}</span>
              <CopyButton text={d.tx_hash} />
            </div>
          </li>
        )}
      />
    </main>
  )
}
