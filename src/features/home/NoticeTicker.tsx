import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import type { NoticeItem } from '../../../contract/notice.ts'
import { useT } from '../../i18n/index.ts'
import { Icon } from '../../ui/Icon.tsx'
import { signedIn } from '../../api/session.ts'
import { signInOpen } from '../auth/invite.ts'

const ROTATE_MS = 3500

export function NoticeTicker({ items }: { items: NoticeItem[] }) {
  const t = useT()
  const [i, setI] = useState(0)
  useEffect(() => {
    if (items.length < 2) return
    const id = setInterval(() => setI((x) => (x + 1) % items.length), ROTATE_MS)
    return () => clearInterval(id)
  }, [items.length])
  const item = items[i % Math.max(1, items.length)]
  if (!item) return null
  // Notices are a signed-in screen (SPEC §2): a visitor's tap asks them to sign in first.
  const href = `/notice/detail/${item.id}`
  return (
    <div className="ticker" role="marquee" aria-label={t('home.noticeTicker')}>
      <Icon name="speaker" size={18} />
      {signedIn.value ? (
        <Link href={href} className="ticker-text" key={item.id}>
          {item.title}
        </Link>
      ) : (
        <button className="ticker-text" key={item.id} onClick={() => (signInOpen.value = true)}>
          {item.title}
        </button>
      )}
      <Icon name="chevron" size={16} />
    </div>
  )
}
