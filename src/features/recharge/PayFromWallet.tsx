import { useEffect, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { RechargeAddress } from '../../../contract/recharge.ts'
import { lang, subtree, useT } from '../../i18n/index.ts'
import { shortAddress } from '../../lib/format.ts'
import { Icon } from '../../ui/Icon.tsx'
import { connectedWallet, connectWallet, hasSignInWallet, payErrorText, payFromWallet, reconnectSignInWallet, WalletError, type ConnectedWallet } from '../../wallet/index.ts'
import { commonQueries } from '../common/queries.ts'
import { userQueries } from '../user/queries.ts'
import { useChainName } from '../wallet/parts.tsx'

const AMOUNT_RE = /^(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,8})?$/

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/**
 * "Pay from my connected wallet": the wallet connected in this session (at sign-in, by a payment) is
 * used as it is, across a change of chain or coin, else connected here as in sign-in; then it switches
 * to the chain and sends the transfer to the deposit address. Another account than the signed-in one
 * is said so: its deposit still lands in this account, the address being this user's.
 */
export function PayFromWallet({ a }: { a: RechargeAddress }) {
  useSignals()
  const t = useT()
  const chainName = useChainName()
  const qc = useQueryClient()
  const config = useQuery(commonQueries.config())
  const user = useQuery(userQueries.info())
  const [picked, setWallet] = useState<ConnectedWallet | null>(null)
  const wallet = connectedWallet.value ?? picked
  const signedIn = user.data?.wallet_address
  const [busy, setBusy] = useState<'connecting' | 'sending' | null>(null)
  const [amount, setAmount] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [hash, setHash] = useState<string | null>(null)
  const cfg = config.data
  const chain = chainName(a.chain)
  const native = cfg?.chains.find((c) => c.id === a.chain_id)?.native_symbol ?? ''

  // After a reload: the wallet signed in with, taken up again without its picker when it answers so.
  useEffect(() => {
    if (!cfg || connectedWallet.peek() || !hasSignInWallet()) return
    let live = true
    setBusy('connecting')
    void reconnectSignInWallet({ chains: cfg.chains, chainId: a.chain_id, demo: cfg.demo, lang: lang.value, modalText: subtree('onboard') }).then((w) => {
      if (!live) return
      if (w) setWallet(w)
      setBusy((b) => (b === 'connecting' ? null : b))
    })
    return () => {
      live = false
      // Only the reconnection's own "connecting": a send under way keeps its state.
      setBusy((b) => (b === 'connecting' ? null : b))
    }
  }, [cfg, a.chain_id])

  const explain = (e: unknown) => {
    const key = payErrorText(e)
    if (key) return t(key, { coin: native, chain })
    if (e instanceof WalletError) return t(`wallet.${e.key}`)
    return t('chainErrors.transferFailed')
  }

  async function connect() {
    if (!cfg) return
    setError(null)
    setBusy('connecting')
    try {
      setWallet(await connectWallet({ chains: cfg.chains, chainId: a.chain_id, demo: cfg.demo, lang: lang.value, modalText: subtree('onboard') }))
    } catch (e) {
      setError(explain(e))
    } finally {
      setBusy(null)
    }
  }

  async function send() {
    if (!wallet) return
    const v = amount.trim()
    if (!AMOUNT_RE.test(v) || !/[1-9]/.test(v)) {
      setError(t('recharge.payAmountInvalid'))
      return
    }
    setError(null)
    setBusy('sending')
    try {
      const h = await payFromWallet(wallet, { chainId: a.chain_id, token: a.token, to: a.address, amount: v })
      setHash(h)
      setAmount('')
      void qc.invalidateQueries({ queryKey: ['recharge', 'list'] })
    } catch (e) {
      setError(explain(e))
    } finally {
      setBusy(null)
    }
  }

  return (
    <section className="card stack" data-testid="pay-from-wallet">
      {!wallet ? (
        <button type="button" className="btn primary block" disabled={!cfg || busy !== null} onClick={connect} data-testid="pay-connect">
          <Icon name="wallet" size={20} />
          {busy === 'connecting' ? t('recharge.payConnecting') : t('recharge.payFromWallet')}
        </button>
      ) : (
        <>
          <p className="muted small" data-testid="pay-from">
            {t('recharge.payFrom', { address: shortAddress(wallet.address) })}
          </p>
          {signedIn && !same(signedIn, wallet.address) && (
            <p className="callout small" role="note" data-testid="pay-other-account">
              {t('recharge.payOtherAccount', { actual: shortAddress(wallet.address), expected: shortAddress(signedIn) })}
            </p>
          )}
          <label className="field">
            <span>{t('recharge.payAmount', { coin: a.coin })}</span>
            <input
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              data-testid="pay-amount"
              disabled={busy !== null}
            />
          </label>
          <button type="button" className="btn primary block" disabled={busy !== null || !amount.trim()} onClick={send} data-testid="pay-send">
            {busy === 'sending' ? t('recharge.paySending') : t('recharge.paySend', { coin: a.coin })}
          </button>
        </>
      )}
      {error && (
        <p className="callout error" role="alert" data-testid="pay-error">
          {error}
        </p>
      )}
      {hash && (
        <div className="callout" role="status" data-testid="pay-sent">
          <p>{t('recharge.paySent')}</p>
          <p className="small">
            {t('recharge.payTx')}: <span className="mono" data-testid="pay-hash">{hash}</span>
          </p>
          <Link href="/recharge/list" className="btn ghost small" data-testid="pay-track">
            {t('recharge.payTrack')}
          </Link>
        </div>
      )}
    </section>
  )
}
