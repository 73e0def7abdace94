import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { MachinesPanel } from './devices/MachinesPanel.tsx'

/** /ming (SPEC §2): the caller's machines and their activation; the mining tabs render around MachinesPanel. */
export default function MiningScreen() {
  const t = useT()
  return (
    <main className="page">
      <TopBar title={t('device.title')} back />
      <MachinesPanel />
    </main>
  )
}
