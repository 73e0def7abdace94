// The app's one transport (transport.ts) in the browser: the page's origin, Web Storage, and the
// server key built in by vite.config.ts. The sealing half is imported only once the envelope is on.
import { sessionStore, storage } from '../lib/storage.ts'
import { createTransport, type SocketProof, type Transport } from './transport.ts'

let transport: Transport | null = null

export function appTransport(): Transport {
  if (transport) return transport
  const origin = window.location.origin
  const fetchApi = (input: URL, init: RequestInit) => fetch(input, init)
  transport = createTransport({
    origin,
    fetch: fetchApi,
    storage,
    // The handshake beside the token it is bound to, in session storage.
    sealed: () => import('./sealed.ts').then((m) => m.createSealedSender({ origin, fetch: fetchApi, storage: sessionStore, now: Date.now, serverKey: __NADI_SERVER_KEY__ })),
  })
  return transport
}

/** The socket URL's proof for this token when the envelope is on; null (at once) when it is not. */
export function socketProof(token: string): Promise<SocketProof> | null {
  const tr = appTransport()
  return tr.on ? tr.sealed().then((s) => s.socketProof(token)) : null
}
