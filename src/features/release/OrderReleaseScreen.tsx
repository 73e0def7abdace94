import { useState } from 'react'
import { useSearch } from 'wouter'
import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { ReleaseList } from './ReleaseList.tsx'

/** The shops whose releases this screen records; SPEC names no mall release route, so gold is a tab here. */
export const ORDER_RELEASE_AREAS = ['machine', 'gold'] as const
type ReleaseArea = (typeof ORDER_RELEASE_AREAS)[number]
const isArea = (v: string | null): v is ReleaseArea => v !== null && (ORDER_RELEASE_AREAS as readonly string[]).includes(v)

/** /shop/orderRelease: the release record of device and gold orders, a tab each (`?area=gold` opens gold). */
export default function OrderReleaseScreen() {
  const t = useT()
  const asked = new URLSearchParams(useSearch()).get('area')
  const [area, setArea] = useState<ReleaseArea>(isArea(asked) ? asked : 'machine')
  return (
    <main className="page">
      <TopBar title={t('release.title')} back />
      <div className="chips filter-row" role="tablist" aria-label={t('release.title')}>
        {ORDER_RELEASE_AREAS.map((a) => (
          <button key={a} role="tab" aria-selected={a === area} className={`chip ${a === area ? 'gold' : ''}`} onClick={() => setArea(a)} data-testid={`release-tab-${a}`}>
            {t(`release.area.${a}`)}
          </button>
        ))}
      </div>
      <ReleaseList key={area} area={area} />
    </main>
  )
}
