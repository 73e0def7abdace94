import { useSignals } from '@preact/signals-react/runtime'
import { account } from '../../api/session.ts'
import { useOutbox } from '../../data/useOutbox.ts'
import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { ACTIVATE_ACTION } from './devices/activate.ts'
import { MachinesPanel } from './devices/MachinesPanel.tsx'

/** /ming (SPEC §2): the caller's machines and their activation; the mining tabs render around MachinesPanel. */
export default function MiningScreen() {
  useSignals()
  const t = useT()
  const queue = useOutbox(account.value, ACTIVATE_ACTION)
  return (
    <main className="page">
      <TopBar title={t('device.title')} back />
      <MachinesPanel queue={queue} />
    </main>
  )
}
