import { useSignals } from '@preact/signals-react/runtime'
import { getSocket, type SocketState } from '../../api/socket.ts'
import { useT } from '../../i18n/index.ts'

/** Whether live data is flowing; while it is not, the screens poll instead. */
export function useSocketLive(): boolean {
  useSignals()
  return getSocket().state.value === 'connected'
}

const SHOWN: Partial<Record<SocketState, string>> = {
  connecting: 'trade.socket.connecting',
  reconnecting: 'trade.socket.reconnecting',
  error: 'trade.socket.error',
}

/** A discreet line while the live feed is not up (SPEC §4 socket states); nothing once it is. */
export function SocketNote() {
  useSignals()
  const t = useT()
  const state = getSocket().state.value
  const key = SHOWN[state]
  if (!key) return null
  return (
    <p className={`socket-note ${state}`} role="status" data-testid="socket-state" data-state={state}>
      <span className="socket-dot" aria-hidden />
      {t(key)}
    </p>
  )
}
