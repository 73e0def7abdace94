import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useT } from '../../i18n/index.ts'
import { Icon } from '../../ui/Icon.tsx'
import { timeLeft } from '../orders/time.ts'
import { useServerNow } from '../../lib/countdown.ts'
import { preOrderQueries } from '../preOrder/queries.ts'

/**
 * SPEC §1 "an unpaid-order reminder" (preOrder/tips): how many orders wait for payment and how long
 * the first has before it is cancelled, leading to /orders. Only for a signed-in user; nothing when
 * nothing waits.
 */
export default function UnpaidReminder() {
  const t = useT()
  const q = useQuery(preOrderQueries.tips())
  const next = q.data?.next ?? null
  const now = useServerNow(next !== null)
  if (!q.data || q.data.count === 0) return null
  const left = next ? timeLeft(next.expires_at, now) : null
  return (
    <Link href="/orders" className="card unpaid-reminder" data-testid="unpaid-reminder" data-count={q.data.count}>
      <span className="action-icon">
        <Icon name="receipt" size={22} />
      </span>
      <span className="grow stack-s">
        <strong>{t('home.unpaidCount', { count: q.data.count })}</strong>
        <span className="small muted" data-testid="unpaid-countdown">
          {left ? t('home.unpaidNext', { time: left }) : t('home.unpaidCheck')}
        </span>
      </span>
      <Icon name="chevron" size={18} />
    </Link>
  )
}
