import { Link, useLocation } from 'wouter'
import { useT } from '../i18n/index.ts'
import { Icon, type IconName } from '../ui/Icon.tsx'

const TABS: { to: string; icon: IconName; label: string }[] = [
  { to: '/index', icon: 'home', label: 'tabs.home' },
  { to: '/notice', icon: 'bell', label: 'tabs.notice' },
  { to: '/trade', icon: 'trade', label: 'tabs.trade' },
  { to: '/wallet', icon: 'wallet', label: 'tabs.wallet' },
  { to: '/user', icon: 'user', label: 'tabs.user' },
]

export function TabBar() {
  const t = useT()
  const [location] = useLocation()
  return (
    <nav className="tabbar" aria-label={t('tabs.label')}>
      {TABS.map((tab) => {
        const active = location === tab.to || location.startsWith(`${tab.to}/`)
        return (
          <Link key={tab.to} href={tab.to} className={active ? 'tab active' : 'tab'} aria-current={active ? 'page' : undefined}>
            <Icon name={tab.icon} />
            <span>{t(tab.label)}</span>
          </Link>
        )
      })}
    </nav>
  )
}
