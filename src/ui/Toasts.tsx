import { useSignals } from '@preact/signals-react/runtime'
import { toasts } from './toast.ts'

export function Toasts() {
  useSignals()
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.value.map((x) => (
        <div key={x.id} className={`toast ${x.kind}`}>
          {x.text}
        </div>
      ))}
    </div>
  )
}
