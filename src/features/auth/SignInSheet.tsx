import { useEffect, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useLocation } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { ApiFailure } from '../../api/client.ts'
import { online } from '../../api/online.ts'
import { lang, subtree, useT } from '../../i18n/index.ts'
import { shortAddress } from '../../lib/format.ts'
import { Sheet } from '../../ui/Sheet.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { toast } from '../../ui/toast.ts'
import { connectWallet, dappBrowserLinks, hasInjectedWallet, isMobileBrowser, WalletError, type ConnectedWallet } from '../../wallet/index.ts'
import { commonQueries } from '../common/queries.ts'
import { isRegistered, useSignIn } from './mutations.ts'
import { signInChainId } from './signInChain.ts'
import { isValidInviteCode, normalizeInviteCode, pendingInvite, signInOpen } from './invite.ts'

type Step = 'start' | 'connecting' | 'connected' | 'signing'

function errorText(e: unknown, t: (k: string) => string): string {
  if (e instanceof WalletError) return t(`wallet.${e.key}`)
  if (e instanceof ApiFailure) return e.message
  return t('wallet.signFailed')
}

export function SignInSheet() {
  useSignals()
  const t = useT()
  const config = useQuery({ ...commonQueries.config(), enabled: signInOpen.value })
  const [step, setStep] = useState<Step>('start')
  const [wallet, setWallet] = useState<ConnectedWallet | null>(null)
  const [registered, setRegistered] = useState<boolean | null>(null)
  const [code, setCode] = useState(pendingInvite.value)
  const [error, setError] = useState<string | null>(null)
  const signIn = useSignIn()
  const [, navigate] = useLocation()
  const open = signInOpen.value

  useEffect(() => {
    if (open) setCode((c) => c || pendingInvite.value)
  }, [open])

  const close = () => {
    signInOpen.value = false
    setError(null)
    if (step !== 'connected') setStep('start')
  }

  const cfg = config.data
  const noWalletOnPhone = !hasInjectedWallet() && isMobileBrowser()
  // Signatures are never queued (DESIGN §6): offline, signing in waits, and says why.
  const offline = !online.value

  async function connect() {
    if (!cfg) return
    setError(null)
    setStep('connecting')
    try {
      const w = await connectWallet({ chains: cfg.chains, chainId: cfg.login_chain_id, demo: cfg.demo, lang: lang.value, modalText: subtree('onboard') })
      setWallet(w)
      setRegistered(await isRegistered(w.address))
      setStep('connected')
    } catch (e) {
      setError(errorText(e, t))
      setStep(wallet ? 'connected' : 'start')
    }
  }

  async function sign() {
    if (!wallet) return
    const invite = normalizeInviteCode(code)
    if (registered === false && !isValidInviteCode(invite)) {
      setError(t('auth.inviteInvalid'))
      return
    }
    setError(null)
    setStep('signing')
    try {
      const chainId = cfg ? signInChainId(wallet.chainId, cfg.chains, cfg.login_chain_id) : wallet.chainId
      const { resumeAt } = await signIn.mutateAsync({ wallet, code: registered ? '' : invite, chainId })
      toast.success(t('auth.welcome'))
      if (resumeAt) navigate(resumeAt)
      signInOpen.value = false
      setStep('start')
      setWallet(null)
    } catch (e) {
      // 401 with body code 200: the server wants an invite code for this address.
      if (e instanceof ApiFailure && e.status === 401 && e.code === 401) setRegistered(false)
      setError(errorText(e, t))
      setStep('connected')
    }
  }

  return (
    <Sheet open={open} onClose={close} title={t('auth.title')} closable={step !== 'signing'}>
      {step === 'start' || step === 'connecting' ? (
        <div className="stack">
          <p className="muted">{t('auth.intro')}</p>
          {noWalletOnPhone && (
            <div className="callout">
              <strong>{t('wallet.noWalletTitle')}</strong>
              <p className="muted small">{t('wallet.noWalletBody')}</p>
              <div className="link-grid">
                {dappBrowserLinks(window.location.href).map((l) => (
                  <a key={l.name} className="btn ghost small" href={l.href} rel="noopener">
                    {l.name}
                  </a>
                ))}
              </div>
            </div>
          )}
          {cfg?.demo && <p className="muted small">{t('wallet.demoHint')}</p>}
          <button className="btn primary block" disabled={!cfg || step === 'connecting' || offline} onClick={connect}>
            <Icon name="wallet" size={20} />
            {step === 'connecting' ? t('wallet.connecting') : t('wallet.connect')}
          </button>
          {offline && <p className="muted small">{t('common.offlineDisabled')}</p>}
        </div>
      ) : (
        <div className="stack">
          <div className="kv">
            <span className="muted">{t('auth.connectedAs')}</span>
            <span className="mono">{wallet ? shortAddress(wallet.address) : ''}</span>
          </div>
          {registered === false && (
            <label className="field">
              <span>{t('auth.inviteLabel')}</span>
              <input
                value={code}
                onChange={(e) => setCode(e.target.value.toUpperCase())}
                placeholder={t('auth.invitePlaceholder')}
                autoCapitalize="characters"
                autoComplete="off"
                spellCheck={false}
                maxLength={16}
                inputMode="text"
                name="invite"
              />
              <small className="muted">{t('auth.inviteHelp')}</small>
            </label>
          )}
          <button className="btn primary block" disabled={step === 'signing' || offline} onClick={sign}>
            {step === 'signing' ? t('auth.signing') : registered === false ? t('auth.registerAndSign') : t('auth.sign')}
          </button>
          {step === 'signing' && <p className="muted small center">{t('auth.confirmInWallet')}</p>}
          <button className="btn ghost block" disabled={step === 'signing'} onClick={connect}>
            {t('auth.switchWallet')}
          </button>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </Sheet>
  )
}
