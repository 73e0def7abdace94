import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { RechargeAddress } from '../../../contract/recharge.ts'
import { useT } from '../../i18n/index.ts'
import { shortAddress } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { CopyButton } from '../../ui/CopyButton.tsx'
import { LoadFailed, Pending } from '../../ui/States.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { toast } from '../../ui/toast.ts'
import { Chips, SummaryRow, useChainName } from '../wallet/parts.tsx'
import { rechargeQueries } from './queries.ts'
import { CHAINS, COINS, pickChain, selectionFromSearch, selectionProblem, type Selection } from './selection.ts'
import { QrCode } from './QrCode.tsx'
import { PayFromWallet } from './PayFromWallet.tsx'
import { useMoneyPushes } from '../wallet/live.ts'

function DepositAddress({ a }: { a: RechargeAddress }) {
  const t = useT()
  const chainName = useChainName()
  const chain = chainName(a.chain)
  return (
    <section className="card deposit" data-testid="deposit">
      <h2>{t('recharge.addressTitle', { coin: a.coin, chain })}</h2>
      <div className="qr-box">
        <QrCode text={a.address} label={t('recharge.qrLabel', { coin: a.coin, chain })} />
      </div>
      <p className="mono deposit-address" data-testid="deposit-address">
        {a.address}
      </p>
      <div className="center">
        <CopyButton text={a.address} label={t('recharge.copyAddress')} />
      </div>
      <SummaryRow label={t('recharge.network')}>
        {chain} <span className="muted">({a.chain_id})</span>
      </SummaryRow>
      <SummaryRow label={t('recharge.tokenContract')}>
        <span className="row gap-s">
          {shortAddress(a.token)}
          <CopyButton text={a.token} />
        </span>
      </SummaryRow>
      <SummaryRow label={t('recharge.arrival')}>{t('recharge.confirmations', { count: a.confirmations })}</SummaryRow>
      <p className="warn-note" role="note">
        <Icon name="warning" size={18} />
        <span>{t('recharge.warning', { coin: a.coin, chain })}</span>
      </p>
    </section>
  )
}

/** /recharge: a coin, then a chain (SPEC §5), then the user's own deposit address with its QR code. */
export default function RechargeScreen() {
  useMoneyPushes()
  useSignals()
  const t = useT()
  const chainName = useChainName()
  const search = useSearch()
  const [sel, setSel] = useState<Selection>(() => selectionFromSearch(search))
  const problem = selectionProblem(sel)
  const q = useQuery({ ...rechargeQueries.address(sel.coin ?? 'USDT', sel.chain ?? 'bsc'), enabled: problem === null })

  return (
    <main className="page">
      <TopBar
        title={t('recharge.title')}
        back
        records={{ href: '/recharge/list', label: t('recharge.listTitle') }}
      />
      <div className="stack form">
        <Chips label={t('recharge.coin')} options={COINS} value={sel.coin} onPick={(coin) => setSel((s) => ({ ...s, coin }))} />
        <Chips
          label={t('recharge.chain')}
          options={CHAINS}
          value={sel.chain}
          name={chainName}
          onPick={(chain) => {
            const r = pickChain(sel, chain)
            if (r.problem) toast.info(t(r.problem))
            else setSel(r.selection)
          }}
        />
      </div>
      {problem ? (
        <p className="callout hint" role="status" data-testid="recharge-hint">
          {t(problem)}
        </p>
      ) : q.isPending ? (
        <Pending query={q} lines={6} />
      ) : q.isError && !q.data ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : q.data ? (
        <>
          <Freshness updatedAt={q.dataUpdatedAt} />
          <DepositAddress a={q.data} />
          <PayFromWallet key={`${q.data.coin}-${q.data.chain}`} a={q.data} />
        </>
      ) : null}
    </main>
  )
}
