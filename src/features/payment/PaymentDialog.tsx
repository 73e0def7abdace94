import { useEffect, useReducer, useRef } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import type { PayOrder } from '../../../contract/orders.ts'
import { online } from '../../api/online.ts'
import { lang, subtree, useT } from '../../i18n/index.ts'
import { shortAddress } from '../../lib/format.ts'
import { Sheet } from '../../ui/Sheet.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { connectedWallet, connectWallet, payFromWallet, reconnectSignInWallet, type ConnectedWallet } from '../../wallet/index.ts'
import { commonQueries } from '../common/queries.ts'
import { ordersQueries } from '../orders/queries.ts'
import { userQueries } from '../user/queries.ts'
import { showAmount, units } from '../wallet/amount.ts'
import { availableOf } from '../wallet/balances.ts'
import { Chips, OfflineReason, SummaryRow, useChainName } from '../wallet/parts.tsx'
import { walletQueries } from '../wallet/queries.ts'
import { outcomeUnknown, usePayByBalance, usePayOnChain } from './mutations.ts'
import { canUseBalance, flowErrorOf, initialFlow, reduce, shortfall, stepsShown, stepStatuses, targetOf, viewOf, type FlowError, type FlowEvent, type WalletAt } from './paymentFlow.ts'
import { clearPendingTx, loadPendingTx, savePendingTx } from './pendingTx.ts'
import { paymentQueries } from './queries.ts'
import { authorizeWallet } from './walletAuth.ts'

const at = (w: ConnectedWallet | null): WalletAt | null => (w ? { address: w.address, chainId: w.chainId } : null)

export interface PaymentDialogProps {
  order: PayOrder
  onClose: () => void
  /** Once, when the order is paid (from balance at once, on chain after its confirmations). */
  onPaid?: (order: PayOrder) => void
}

/**
 * The payment dialog of SPEC §2/§4: the six steps of the payment flow in a visible list, from the
 * fund balance when it covers the order, else by an ERC-20 transfer from the user's own wallet.
 * The step logic is paymentFlow.ts; this component does the calls and draws the state.
 */
export function PaymentDialog({ order, onClose, onPaid }: PaymentDialogProps) {
  useSignals()
  const t = useT()
  const chainName = useChainName()
  const isOnline = online.value
  // The wallet connected in this session (at sign-in, or an earlier payment) pays without the picker again.
  const known = connectedWallet.value
  const [state, send] = useReducer(reduce, order, (o) => initialFlow(o, loadPendingTx(o.id), at(known)))
  const dispatch = (e: FlowEvent) => send(e)
  const wallet = useRef<ConnectedWallet | null>(known)
  const lastOrder = useRef(order)
  const running = useRef(false)
  const action = useRef<HTMLElement>(null)

  const config = useQuery(commonQueries.config())
  const balances = useQuery(walletQueries.balances())
  const user = useQuery(userQueries.info())
  const targets = useQuery(paymentQueries.payTargets(order.id))
  const watching = state.step === 'waitConfirmation' && !state.paid && !state.error
  const detail = useQuery({ ...ordersQueries.detail(order.id, watching), enabled: watching })
  const payByBalance = usePayByBalance()
  const payOnChain = usePayOnChain()

  const cfg = config.data
  const target = targetOf(state)
  const chainInfo = cfg?.chains.find((c) => c.id === target?.chain_id)
  const ctx = { coin: chainInfo?.native_symbol ?? '', chain: target ? chainName(target.chain) : '' }
  const view = viewOf(state)
  const statuses = stepStatuses(state)

  const available = availableOf(balances.data, order.asset, 'fund')
  useEffect(() => {
    if (available !== undefined) send({ type: 'balanceLoaded', available })
    else if (balances.isError) send({ type: 'balanceFailed' })
  }, [available, balances.isError])

  useEffect(() => {
    if (known) wallet.current = known
    send({ type: 'walletKnown', wallet: at(known) })
  }, [known])

  const expected = user.data?.wallet_address
  const payTargets = targets.data?.targets
  useEffect(() => {
    if (expected !== undefined && payTargets) send({ type: 'context', expected, targets: payTargets })
  }, [expected, payTargets])

  useEffect(() => {
    if (detail.data) {
      lastOrder.current = detail.data
      send({ type: 'progress', order: detail.data })
    }
  }, [detail.data])

  const paidReported = useRef(false)
  useEffect(() => {
    if (state.paid && !paidReported.current) {
      paidReported.current = true
      clearPendingTx(order.id)
      onPaid?.(lastOrder.current)
    }
  }, [state.paid, order.id, onPaid])

  const message = (e: FlowError) => ('text' in e ? e.text : t(e.key, { ...ctx, ...e.params }))

  async function doPayBalance() {
    dispatch({ type: 'payBalance' })
    try {
      const o = await payByBalance.mutateAsync(order.id)
      lastOrder.current = o
      dispatch({ type: 'balancePaid', order: o })
    } catch (e) {
      dispatch({ type: 'balanceRefused', error: flowErrorOf(e, ctx) })
    }
  }

  async function doConnect() {
    if (!cfg) return
    dispatch({ type: 'connect' })
    try {
      const chainId = payTargets?.[0]?.chain_id ?? cfg.login_chain_id
      const w = await connectWallet({ chains: cfg.chains, chainId, demo: cfg.demo, lang: lang.value, modalText: subtree('onboard') })
      wallet.current = w
      dispatch({ type: 'connected', address: w.address, chainId: w.chainId })
    } catch (e) {
      dispatch({ type: 'connectFailed', error: flowErrorOf(e, ctx) })
    }
  }

  // After a reload the session has no wallet connected: the one signed in with is taken up again
  // without its picker, once; only if it does not answer is the user asked to connect.
  const reconnectTried = useRef(false)
  useEffect(() => {
    if (view.kind !== 'connect' || !cfg || reconnectTried.current) return
    reconnectTried.current = true
    dispatch({ type: 'connect' })
    const chainId = payTargets?.[0]?.chain_id ?? cfg.login_chain_id
    void reconnectSignInWallet({ chains: cfg.chains, chainId, demo: cfg.demo, lang: lang.value, modalText: subtree('onboard') }).then((w) => {
      if (!w) return dispatch({ type: 'connectSkipped' })
      wallet.current = w
      dispatch({ type: 'connected', address: w.address, chainId: w.chainId })
    })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arriving at the connect step
  }, [view.kind, cfg])

  async function doApprove() {
    const w = wallet.current
    if (!w || !target) return
    dispatch({ type: 'approve' })
    try {
      const now = await authorizeWallet(w, target.chain_id)
      dispatch({ type: 'approved', ...now })
    } catch (e) {
      dispatch({ type: 'approveFailed', error: flowErrorOf(e, ctx) })
    }
  }

  async function doSubmit(txHash: string) {
    const chain = state.chain
    if (!chain) return
    try {
      const o = await payOnChain.mutateAsync({ id: order.id, chain, tx_hash: txHash })
      clearPendingTx(order.id)
      lastOrder.current = o
      dispatch({ type: 'submitted', order: o })
    } catch (e) {
      const unknown = outcomeUnknown(e)
      if (!unknown) clearPendingTx(order.id)
      dispatch({ type: 'submitFailed', error: flowErrorOf(e, ctx), outcomeUnknown: unknown })
    }
  }

  async function doSend() {
    const w = wallet.current
    if (!w || !target) return
    dispatch({ type: 'send' })
    let txHash: string
    try {
      txHash = await payFromWallet(w, { chainId: target.chain_id, token: target.token, to: target.to, amount: order.total })
    } catch (e) {
      dispatch({ type: 'sendFailed', error: flowErrorOf(e, ctx) })
      return
    }
    savePendingTx(order.id, { chain: target.chain, txHash })
    dispatch({ type: 'sent', txHash })
    await doSubmit(txHash)
  }

  // Steps that need no decision run by themselves: the wallet's authorization prompt, and handing the
  // server a hash it has not acknowledged yet. Offline they wait for the network.
  useEffect(() => {
    if (!isOnline || running.current) return
    let job: (() => Promise<void>) | null = null
    if (view.kind === 'approve') job = doApprove
    else if (view.kind === 'submit' && state.txHash) {
      const h = state.txHash
      job = async () => {
        dispatch({ type: 'submit' })
        await doSubmit(h)
      }
    }
    if (!job) return
    running.current = true
    void job().finally(() => (running.current = false))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per arrival at these views, not per render
  }, [view.kind, isOnline])

  // What the flow waits for (a network to choose, "Pay", a retry) is brought into the sheet's view: on
  // a phone the step list above it fills the first screen (issue 33: the chips sat below the fold).
  useEffect(() => {
    action.current?.scrollIntoView({ block: 'nearest' })
  }, [view.kind])

  function retry() {
    if (state.step === 'checkBalance' && state.available === null) void balances.refetch()
    dispatch({ type: 'retry' })
  }

  const locked = state.busy && (state.step === 'processPayment' || (state.step === 'checkBalance' && state.method === 'balance'))
  const needsContext = state.step === 'checkAuthorization' && state.busy && (targets.isError || user.isError)
  const canPickChain = (payTargets?.length ?? 0) > 1 && !state.busy && !state.txHash && (state.step === 'checkAuthorization' || state.step === 'processPayment') && !state.error
  const short = shortfall(state)
  const total = `${showAmount(units(order.total), order.asset)} ${order.asset}`

  return (
    <Sheet open title={t('payment.title')} onClose={onClose} closable={!locked}>
      <div className="stack payment" data-testid="payment-dialog" data-step={state.step} data-view={view.kind} data-paid={state.paid ? 'true' : 'false'}>
        <section className="callout rules" data-testid="payment-order">
          <SummaryRow label={t('payment.order')}>{order.title}</SummaryRow>
          <SummaryRow label={t('orders.orderNo')}>
            <span className="mono small">{order.order_no}</span>
          </SummaryRow>
          <SummaryRow label={t('payment.total')} strong>
            <span data-testid="payment-total">{total}</span>
          </SummaryRow>
        </section>

        <ol className="pay-steps" aria-label={t('payment.stepsLabel')}>
          {stepsShown(state).map((id, i) => {
            const st = statuses[id]
            return (
              <li key={id} className={`pay-step ${st}`} data-testid={`payment-step-${id}`} data-status={st} aria-current={st === 'current' || st === 'failed' ? 'step' : undefined}>
                <span className="pay-step-mark" aria-hidden>
                  {st === 'done' ? '✓' : st === 'failed' ? '!' : i + 1}
                </span>
                <span className="pay-step-body">
                  <span>{t(`payment.steps.${id}`)}</span>
                  <span className="sr-only">{t(`payment.stepStatus.${st}`)}</span>
                  {st === 'failed' && state.error && (
                    <small className="pay-step-error" role="alert" data-testid="payment-error">
                      {message(state.error)}
                    </small>
                  )}
                </span>
              </li>
            )
          })}
        </ol>

        <section className="pay-action" aria-live="polite" ref={action}>
          {view.kind === 'paid' && (
            <div className="stack">
              <p className="callout pay-success" role="status" data-testid="payment-success">
                {t('payment.paid', { total })}
              </p>
              <button type="button" className="btn primary block" onClick={onClose} data-testid="payment-done">
                {t('payment.done')}
              </button>
            </div>
          )}

          {needsContext && (
            <button type="button" className="btn ghost block" onClick={() => void Promise.all([targets.refetch(), user.refetch()])} data-testid="payment-reload">
              {t('errors.loadFailedRetry')}
            </button>
          )}

          {(view.kind === 'loading' || view.kind === 'approving' || view.kind === 'approve') && !needsContext && (
            <div className="muted row gap-s" data-testid="payment-wait">
              <Spinner />
              <span>{view.kind === 'loading' ? t('common.loading') : t('payment.approveInWallet')}</span>
            </div>
          )}

          {(view.kind === 'payOptions' || view.kind === 'payingBalance') && (
            <div className="stack">
              <SummaryRow label={t('payment.fundBalance')}>
                <span data-testid="payment-balance">
                  {available === undefined ? '—' : showAmount(available, order.asset)} {order.asset}
                </span>
              </SummaryRow>
              {short ? (
                <>
                  <p className="callout" role="note" data-testid="payment-insufficient">
                    {message(short)}
                  </p>
                  <button type="button" className="btn primary block" disabled={!isOnline} onClick={() => dispatch({ type: 'useWallet' })} data-testid="payment-use-wallet">
                    {t('payment.payFromWallet')}
                  </button>
                </>
              ) : (
                <>
                  <button type="button" className="btn primary block" disabled={!isOnline || view.kind === 'payingBalance'} onClick={doPayBalance} data-testid="payment-pay-balance">
                    {view.kind === 'payingBalance' ? t('payment.paying') : t('payment.payFromBalance', { total })}
                  </button>
                  <button type="button" className="btn ghost block" disabled={!isOnline || view.kind === 'payingBalance'} onClick={() => dispatch({ type: 'useWallet' })} data-testid="payment-use-wallet">
                    {t('payment.payFromWalletInstead')}
                  </button>
                </>
              )}
            </div>
          )}

          {(view.kind === 'connect' || view.kind === 'connecting') && (
            <div className="stack">
              {expected && <p className="muted small">{t('payment.ownWalletOnly', { address: shortAddress(expected) })}</p>}
              <button type="button" className="btn primary block" disabled={!isOnline || !cfg || view.kind === 'connecting'} onClick={doConnect} data-testid="payment-connect">
                {view.kind === 'connecting' ? t('wallet.connecting') : t('wallet.connect')}
              </button>
            </div>
          )}

          {canPickChain && payTargets && (
            <div data-testid="payment-chains">
              <Chips label={t('payment.chooseChain')} options={payTargets.map((x) => x.chain)} value={state.chain ?? undefined} onPick={(chain) => dispatch({ type: 'chooseChain', chain })} name={chainName} />
            </div>
          )}

          {(view.kind === 'send' || view.kind === 'sending' || view.kind === 'submit' || view.kind === 'submitting') && target && (
            <div className="stack">
              <section className="callout rules">
                <SummaryRow label={t('payment.amount')}>{total}</SummaryRow>
                <SummaryRow label={t('payment.network')}>{chainName(target.chain)}</SummaryRow>
                {state.wallet && (
                  <SummaryRow label={t('payment.from')}>
                    <span className="mono">{shortAddress(state.wallet.address)}</span>
                  </SummaryRow>
                )}
                <SummaryRow label={t('payment.to')}>
                  <span className="mono">{shortAddress(target.to)}</span>
                </SummaryRow>
              </section>
              {view.kind === 'send' || view.kind === 'sending' ? (
                <button type="button" className="btn primary block" disabled={!isOnline || view.kind === 'sending'} onClick={doSend} data-testid="payment-send">
                  {view.kind === 'sending' ? t('payment.confirmInWallet') : t('payment.payNow', { total })}
                </button>
              ) : (
                <div className="muted row gap-s" data-testid="payment-wait">
                  <Spinner />
                  <span>{t('payment.submitting')}</span>
                </div>
              )}
            </div>
          )}

          {view.kind === 'confirming' && (
            <div className="stack" data-testid="payment-confirming">
              <p className="row between">
                <span>{t('payment.waitingConfirmations')}</span>
                <strong className="mono" data-testid="payment-confirmations">
                  {view.confirmations} / {view.required}
                </strong>
              </p>
              <span className="progress pay-progress" aria-hidden>
                <span style={{ width: `${view.required > 0 ? Math.min(100, (view.confirmations / view.required) * 100) : 0}%` }} />
              </span>
              <p className="muted small">{t('payment.canClose')}</p>
            </div>
          )}

          {state.txHash && !state.paid && (
            <p className="small muted pay-tx">
              {t('recharge.payTx')}:{' '}
              <span className="mono" data-testid="payment-tx">
                {state.txHash}
              </span>
            </p>
          )}

          {view.kind === 'failed' && view.canRetry && (
            <button type="button" className="btn primary block" disabled={!isOnline} onClick={retry} data-testid="payment-retry">
              {state.step === 'checkAuthorization' ? t('payment.connectAgain') : t('common.retry')}
            </button>
          )}

          {canUseBalance(state) && (
            <button type="button" className="btn ghost block" onClick={() => dispatch({ type: 'useBalance' })} data-testid="payment-use-balance">
              {t('payment.payFromBalanceInstead')}
            </button>
          )}
        </section>
        <OfflineReason />
      </div>
    </Sheet>
  )
}
