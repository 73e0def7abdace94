import { useInfiniteQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { Withdrawal } from '../../../contract/withdraw.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime, shortAddress } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { CopyButton } from '../../ui/CopyButton.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { showAmount, units } from '../wallet/amount.ts'
import { RecordList, useChainName } from '../wallet/parts.tsx'
import { withdrawQueries } from './queries.ts'
import { statusKey, statusTone } from './status.ts'
import { useMoneyPushes } from '../wallet/live.ts'
import { Amount } from '../../ui/Amount.tsx'

const TONE_CLASS = { pending: 'gold', done: 'teal', failed: 'red' } as const

function Row({ w }: { w: Withdrawal }) {
  const t = useT()
  const chainName = useChainName()
  return (
    <li className="record tall" data-status={w.status}>
      <div className="row between">
        <strong>
          {w.coin} <span className="muted small">{chainName(w.chain)}</span>
        </strong>
        <span className="amount out">
          -<Amount value={w.amount} measure={w.coin} />
        </span>
      </div>
      <div className="row between">
        <span className={`badge ${TONE_CLASS[statusTone(w.status)]}`} data-testid="withdraw-status">
          {t(statusKey(w.status))}
          {w.status === 'broadcast' && ` ${Math.min(w.confirmations, w.required)}/${w.required}`}
        </span>
        <small className="muted">{formatDateTime(w.created_at, LANG_TAG[lang.value])}</small>
      </div>
      <div className="row gap-s muted small">
        <span>{t('withdraw.to')}</span>
        <span className="mono">{shortAddress(w.address)}</span>
        <span className="grow" />
        <span>
          {t('withdraw.fee')} {showAmount(units(w.fee), w.coin)}
        </span>
      </div>
      {w.tx_hash && (
        <div className="row gap-s muted small">
          <span>{t('records.txHash')}</span>
          <span className="mono">{shortAddress(w.tx_hash, 10, 8)}</span>
          <CopyButton text={w.tx_hash} />
        </div>
      )}
      {w.status === 'failed' && <p className="small muted">{t('withdraw.refunded')}</p>}
    </li>
  )
}

/** /withdraw/list: withdrawals with their state (SPEC §4) and transaction hash. */
export default function WithdrawListScreen() {
  useMoneyPushes()
  useSignals()
  const t = useT()
  const q = useInfiniteQuery(withdrawQueries.list())
  return (
    <main className="page">
      <TopBar title={t('withdraw.listTitle')} back />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList q={q} testId="withdraw-list" empty={t('withdraw.empty')} row={(w) => <Row key={w.id} w={w} />} />
    </main>
  )
}
