// "The outbox changed": told to listeners in this tab and, through a BroadcastChannel, in the
// app's other tabs. Dexie-free, so subscribing costs nothing before the database is needed.

const CHANNEL = 'nadi-outbox'
const listeners = new Set<() => void>()
let channel: BroadcastChannel | null | undefined

function notifyLocal() {
  for (const fn of [...listeners]) {
    try {
      fn()
    } catch (e) {
      console.error(e)
    }
  }
}

/** Only in a browser page: in node (tests) an open channel would just keep the process alive. */
function getChannel(): BroadcastChannel | null {
  if (channel !== undefined) return channel
  channel = null
  if (typeof window !== 'undefined' && typeof BroadcastChannel !== 'undefined') {
    try {
      channel = new BroadcastChannel(CHANNEL)
      channel.onmessage = notifyLocal
    } catch {
      channel = null
    }
  }
  return channel
}

/** Runs `fn` after every change to the outbox (any account, this tab or another). */
export function subscribeOutbox(fn: () => void): () => void {
  getChannel()
  listeners.add(fn)
  return () => {
    listeners.delete(fn)
  }
}

export function emitOutboxChange(): void {
  notifyLocal()
  getChannel()?.postMessage(1)
}
