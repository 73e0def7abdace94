import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { ReleaseList } from './ReleaseList.tsx'

/** /car/carRelease: the release record of car orders. */
export default function CarReleaseScreen() {
  const t = useT()
  return (
    <main className="page">
      <TopBar title={t('release.carTitle')} back />
      <ReleaseList area="car" />
    </main>
  )
}
