import { useState } from 'react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import type { MachineKind } from '../../../contract/goods.ts'
import { lang, useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { GoodsList } from '../goods/GoodsList.tsx'
import { goodsQueries } from '../goods/queries.ts'
import { DETAIL_PATH, ORDER_LIST_PATH } from '../preOrder/confirm.ts'

/** SPEC §1: the devices on sale, one tab per kind. */
const TABS = ['all', 'tablet', 'straight', 'foldable'] as const satisfies readonly (MachineKind | 'all')[]
type Tab = (typeof TABS)[number]

/** /shop: the device shop (SPEC §2), a tab per device kind. */
export default function ShopScreen() {
  useSignals()
  const t = useT()
  const [tab, setTab] = useState<Tab>('all')
  const q = useInfiniteQuery(goodsQueries.list('machine', lang.value, { kind: tab === 'all' ? undefined : tab }))

  return (
    <main className="page shop">
      <TopBar title={t('shop.title')} back records={{ href: ORDER_LIST_PATH.machine, label: t('shop.orders') }} />
      <div className="chips filter-row" role="tablist" aria-label={t('shop.title')}>
        {TABS.map((k) => (
          <button key={k} type="button" role="tab" aria-selected={k === tab} className={`chip ${k === tab ? 'gold' : ''}`} onClick={() => setTab(k)} data-testid={`shop-tab-${k}`}>
            {t(`shop.kind.${k}`)}
          </button>
        ))}
      </div>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <GoodsList q={q} hrefOf={(item) => DETAIL_PATH.machine(item.id)} empty={t('goods.empty')} testId={`shop-list-${tab}`} />
    </main>
  )
}
