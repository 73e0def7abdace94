import { useEffect, useState } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { Link, useLocation } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { AssetBalance, FrozenPart, Holdings } from '../../../contract/wallet.ts'
import { useT } from '../../i18n/index.ts'
import { showFigure } from '../../lib/precision.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { MenuLink } from '../../ui/MenuLink.tsx'
import { Icon, type IconName } from '../../ui/Icon.tsx'
import { LoadFailed, Pending } from '../../ui/States.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { commonQueries } from '../common/queries.ts'
import { walletQueries } from './queries.ts'
import { WALLET_ASSETS, accountsOf, assetBalance, assetTotal, debtInUsdt, frozenPartsOf, netOfDebt, totalInUsdt } from './balances.ts'
import { showAmount, units } from './amount.ts'
import { ExchangeSheet } from './ExchangeSheet.tsx'
import { post } from '../../api/client.ts'
import { toast } from '../../ui/toast.ts'
import { useMoneyPushes } from './live.ts'
import { testTokensMessage, type FaucetResult } from './testTokens.ts'

/** Demo only: test tokens from the dev chains' faucet to the signed-in wallet, on every chain. */
function TestTokens() {
  const t = useT()
  const config = useQuery(commonQueries.config())
  const balances = useQuery(walletQueries.balances())
  const faucet = useMutation({
    mutationFn: async () => {
      let sent: FaucetResult | null = null
      for (const c of config.data?.chains ?? []) sent = await post<FaucetResult>('devchain/faucet', { chain: c.key })
      return sent
    },
    onSuccess: () => toast.success(t('assets.testTokensDone')),
  })
  const sent = faucet.data
  const said = sent ? testTokensMessage(sent, balances.data) : null
  if (!config.data?.demo) return null
  return (
    <section className="card test-tokens stack" data-testid="test-tokens">
      <p className="warn-note" role="note">
        <Icon name="warning" size={18} />
        <span>{t('assets.testTokensNote')}</span>
      </p>
      <button type="button" className="btn ghost block" disabled={faucet.isPending} onClick={() => faucet.mutate()} data-testid="test-tokens-get">
        {faucet.isPending ? t('assets.testTokensSending') : t('assets.testTokens')}
      </button>
      {/* Stays on the card (a toast is gone in seconds): a refusal says why, and a 429 when to try again. */}
      {faucet.isError && (
        <p className="form-error" role="alert" data-testid="test-tokens-error">
          {faucet.error.message}
        </p>
      )}
      {sent && said && (
        // The faucet pays the connected wallet, not the balance here: say so, and lead on to recharge.
        <div className="callout stack" role="status" data-testid="test-tokens-sent">
          <span>{t(said.key, said.params)}</span>
          <Link href="/recharge" className="btn primary block" data-testid="test-tokens-recharge">
            {t('assets.testTokensRecharge')}
          </Link>
        </div>
      )}
    </section>
  )
}

function Action({ icon, label, href, onClick }: { icon: IconName; label: string; href?: string; onClick?: () => void }) {
  const inner = (
    <>
      <span className="action-icon">
        <Icon name={icon} />
      </span>
      <span>{label}</span>
    </>
  )
  return href ? (
    <Link href={href} className="action">
      {inner}
    </Link>
  ) : (
    <button type="button" className="action" onClick={onClick}>
      {inner}
    </button>
  )
}

/** What an asset's frozen amounts are for: one row per reason and account (issue 33). */
function FrozenParts({ asset, parts }: { asset: AssetBalance['asset']; parts: FrozenPart[] }) {
  const t = useT()
  if (parts.length === 0) return null
  return (
    <div className="frozen-parts" data-testid={`frozen-parts-${asset}`}>
      <span className="muted small">{t('assets.frozenFor')}</span>
      <ul>
        {parts.map((p) => (
          <li key={`${p.reason}-${p.account}`} className="row between small" data-reason={p.reason} data-account={p.account}>
            <span>
              {t(`assets.frozenReason.${p.reason}`)} <span className="muted">· {t(`assets.${p.account}`)}</span>
            </span>
            <span className="mono">{showAmount(units(p.amount), asset)}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** The loan debt, and the net worth it leaves, under the total; nothing without an open loan. */
function DebtLines({ holdings, total }: { holdings: Holdings; total: bigint | undefined }) {
  const t = useT()
  const debt = debtInUsdt(holdings)
  if (debt === 0n) return null
  return (
    <dl className="debt-lines small">
      <div className="row between">
        <dt>
          <Link href="/loan">{t('assets.loanDebt')}</Link>
        </dt>
        <dd className="mono" data-testid="wallet-debt">
          −{showAmount(debt, 'USDT')} USDT
        </dd>
      </div>
      <div className="row between">
        <dt>{t('assets.netOfDebt')}</dt>
        <dd className="mono strong" data-testid="wallet-net">
          {total === undefined ? '—' : `${total < 0n ? '−' : ''}${showAmount(total < 0n ? -total : total, 'USDT')}`} USDT
        </dd>
      </div>
    </dl>
  )
}

function AssetCard({ balance, parts }: { balance: AssetBalance; parts: FrozenPart[] }) {
  const t = useT()
  return (
    <section className="card asset-card" data-asset={balance.asset} aria-label={balance.asset}>
      <div className="row between">
        <h2 className="asset-name">{balance.asset}</h2>
        <strong className="mono" data-testid={`total-${balance.asset}`}>
          {showAmount(assetTotal(balance), balance.asset)}
        </strong>
      </div>
      <div className="acct-grid" role="table" aria-label={balance.asset}>
        <div role="row" className="acct-head muted small">
          <span role="columnheader">{t('assets.account')}</span>
          <span role="columnheader">{t('assets.available')}</span>
          <span role="columnheader">{t('assets.frozen')}</span>
        </div>
        {accountsOf(balance.asset).map((a) => (
          <div role="row" key={a} data-account={a}>
            <span role="rowheader">{t(`assets.${a}`)}</span>
            <span role="cell" className="mono" data-testid={`available-${balance.asset}-${a}`}>
              {showAmount(units(balance[a].available), balance.asset)}
            </span>
            <span role="cell" className="mono muted">
              {showAmount(units(balance[a].frozen), balance.asset)}
            </span>
          </div>
        ))}
      </div>
      <FrozenParts asset={balance.asset} parts={parts} />
      {balance.asset === 'MEME' && <p className="small muted">{t('assets.memeNote')}</p>}
    </section>
  )
}

export default function WalletScreen() {
  useMoneyPushes()
  useSignals()
  const t = useT()
  const [location] = useLocation()
  const q = useQuery(walletQueries.balances())
  const info = useQuery(commonQueries.mainInfo())
  const holdings = useQuery(walletQueries.holdings())
  const [exchanging, setExchanging] = useState(false)
  const b = q.data

  // The records screen is the next one most users open: fetched now, it is there offline too.
  useEffect(() => {
    void import('./MoneyLogScreen.tsx')
  }, [])

  return (
    <main className="page with-tabbar">
      <TopBar
        title={t('assets.title')}
        records={{ href: '/wallet/moneyLog', label: t('moneyLog.title') }}
      />
      {b && <Freshness updatedAt={q.dataUpdatedAt} />}
      {q.isPending ? (
        <Pending query={q} lines={8} />
      ) : q.isError || !b ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : (
        <>
          <section className="card wallet-total">
            <span className="muted small">{t('assets.totalEstimate')}</span>
            <strong className="big mono" data-testid="wallet-total">
              {info.data ? showAmount(totalInUsdt(b, info.data.nadi_price), 'USDT') : '—'} <small>USDT</small>
            </strong>
            {info.data && (
              <span className="muted small">
                {t(info.data.nadi_price_source === 'reference' ? 'assets.priceNoteReference' : 'assets.priceNote', { price: showFigure(info.data.nadi_price, 'price') })}
              </span>
            )}
            {holdings.data && <DebtLines holdings={holdings.data} total={info.data ? netOfDebt(b, holdings.data, info.data.nadi_price) : undefined} />}
          </section>

          <nav className="wallet-actions" aria-label={t('assets.actions')}>
            <Action icon="deposit" label={t('assets.recharge')} href="/recharge" />
            <Action icon="withdraw" label={t('assets.withdraw')} href="/withdraw" />
            <Action icon="transfer" label={t('assets.transfer')} href="/draw" />
            <Action icon="exchange" label={t('assets.exchange')} onClick={() => setExchanging(true)} />
          </nav>

          {WALLET_ASSETS.map((asset) => (
            <AssetCard key={asset} balance={assetBalance(b, asset)} parts={frozenPartsOf(holdings.data, asset)} />
          ))}

          <TestTokens />

          <nav className="card menu" aria-label={t('assets.records')}>
            <MenuLink href="/wallet/moneyLog" icon="list" label={t('moneyLog.title')} />
            <MenuLink href="/recharge/list" icon="deposit" label={t('recharge.listTitle')} />
            <MenuLink href="/withdraw/list" icon="withdraw" label={t('withdraw.listTitle')} />
            <MenuLink href="/draw/list" icon="transfer" label={t('transfer.listTitle')} />
          </nav>
        </>
      )}
      {/* Closed when the screen is left: a kept-alive screen must not leave its sheet over the next one. */}
      <ExchangeSheet open={exchanging && location === '/wallet'} onClose={() => setExchanging(false)} balances={b} />
    </main>
  )
}
