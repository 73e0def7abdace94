import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { signedIn } from '../../api/session.ts'
import { matchRoute } from '../../app/routes.ts'
import { useT } from '../../i18n/index.ts'
import { Icon, type IconName } from '../../ui/Icon.tsx'
import { signInOpen } from '../auth/invite.ts'

/** Every area home leads to; one shows only once its screen is in the route table. */
const SHORTCUTS: { to: string; icon: IconName; label: string }[] = [
  { to: '/shop', icon: 'phone', label: 'home.go.shop' },
  { to: '/mall', icon: 'gold', label: 'home.go.mall' },
  { to: '/cars', icon: 'car', label: 'home.go.cars' },
  { to: '/orders', icon: 'receipt', label: 'home.go.orders' },
  { to: '/trade', icon: 'trade', label: 'home.go.trade' },
  { to: '/wallet', icon: 'wallet', label: 'home.go.wallet' },
  { to: '/recharge', icon: 'deposit', label: 'home.go.recharge' },
  { to: '/ming', icon: 'power', label: 'home.go.mining' },
  { to: '/node', icon: 'node', label: 'home.go.node' },
  { to: '/pledge', icon: 'savings', label: 'home.go.pledge' },
  { to: '/user', icon: 'team', label: 'home.go.team' },
  { to: '/ranking', icon: 'trophy', label: 'home.go.ranking' },
  { to: '/activity', icon: 'flag', label: 'home.go.activity' },
]

/** The shortcut grid on home: the shops, orders and money screens. A visitor is asked to sign in first. */
export function Shortcuts() {
  useSignals()
  const t = useT()
  const authed = signedIn.value
  const items = SHORTCUTS.filter((s) => matchRoute(s.to) !== null)
  return (
    <nav className="shortcuts" aria-label={t('home.shortcuts')} data-testid="home-shortcuts">
      {items.map((s) => {
        const body = (
          <>
            <span className="action-icon">
              <Icon name={s.icon} size={22} />
            </span>
            <span>{t(s.label)}</span>
          </>
        )
        return authed ? (
          <Link key={s.to} href={s.to} className="shortcut" data-testid={`shortcut-${s.to.slice(1)}`}>
            {body}
          </Link>
        ) : (
          <button key={s.to} type="button" className="shortcut" onClick={() => (signInOpen.value = true)} data-testid={`shortcut-${s.to.slice(1)}`}>
            {body}
          </button>
        )
      })}
    </nav>
  )
}
