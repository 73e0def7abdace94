import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { AccountKind, Asset } from '../../../contract/wallet.ts'
import { online } from '../../api/online.ts'
import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { toast } from '../../ui/toast.ts'
import { walletQueries } from './queries.ts'
import { useTransfer } from './mutations.ts'
import { ASSETS, availableOf, otherAccount } from './balances.ts'
import { checkAmount, showAmount } from './amount.ts'
import { AmountField, Chips, OfflineReason } from './parts.tsx'
import { isString, useDraft } from '../../app/drafts.ts'

/** /draw: moves an asset between the user's own fund and trade accounts (SPEC §2, §5). */
export default function TransferScreen() {
  useSignals()
  const t = useT()
  const wanted = new URLSearchParams(useSearch()).get('asset')
  // Kept through an expired login: signing in again brings the form back as typed.
  const [asset, setAsset] = useDraft<Asset>(`transfer.asset.${wanted === 'NADI' ? 'NADI' : 'USDT'}`, wanted === 'NADI' ? 'NADI' : 'USDT', (v): v is Asset => ASSETS.includes(v as Asset))
  const [from, setFrom] = useDraft<AccountKind>('transfer.from', 'fund', (v): v is AccountKind => v === 'fund' || v === 'trade')
  const to = otherAccount(from)
  const [amount, setAmount, clearAmount] = useDraft('transfer.amount', '', isString)
  const [tried, setTried] = useState(false)
  const balances = useQuery(walletQueries.balances())
  const transfer = useTransfer()
  const available = availableOf(balances.data, asset, from)
  const check = checkAmount(amount, { asset, available })
  const problem = tried && !check.ok ? check.problem : undefined
  const isOnline = online.value

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setTried(true)
    if (!check.ok || !isOnline) return
    try {
      await transfer.mutateAsync({ asset, amount: check.wire, from, to })
    } catch {
      return // the server's words are already shown
    }
    toast.success(t('transfer.success', { amount: showAmount(check.units, asset), asset, to: t(`assets.${to}`) }))
    clearAmount()
    setTried(false)
  }

  return (
    <main className="page">
      <TopBar
        title={t('transfer.title')}
        back
        records={{ href: '/draw/list', label: t('transfer.listTitle') }}
      />
      {balances.data && <Freshness updatedAt={balances.dataUpdatedAt} />}
      <form className="stack form" onSubmit={onSubmit} noValidate>
        <section className="card pair accounts" aria-label={t('transfer.direction')}>
          <div className="pair-side">
            <span className="muted small">{t('transfer.from')}</span>
            <strong data-testid="transfer-from">{t(`assets.${from}`)}</strong>
          </div>
          <button type="button" className="icon-btn swap-btn" aria-label={t('transfer.swap')} onClick={() => setFrom(to)}>
            <Icon name="transfer" />
          </button>
          <div className="pair-side right">
            <span className="muted small">{t('transfer.to')}</span>
            <strong data-testid="transfer-to">{t(`assets.${to}`)}</strong>
          </div>
        </section>
        <Chips label={t('transfer.asset')} options={ASSETS} value={asset} onPick={setAsset} />
        <AmountField label={t('transfer.amount')} value={amount} onChange={setAmount} asset={asset} max={available} available={available} problem={problem} />
        <OfflineReason />
        <button className="btn primary block" type="submit" disabled={!isOnline || transfer.isPending}>
          {transfer.isPending ? t('transfer.sending') : t('transfer.submit')}
        </button>
      </form>
    </main>
  )
}
