import { Link } from 'wouter'
import { Icon, type IconName } from './Icon.tsx'

/** One row of a card menu: icon, label, chevron; the whole row is the touch target. */
export function MenuLink({ href, icon, label }: { href: string; icon: IconName; label: string }) {
  return (
    <Link href={href} className="menu-item">
      <Icon name={icon} size={20} />
      <span className="grow">{label}</span>
      <Icon name="chevron" size={18} />
    </Link>
  )
}
