import { signal, type ReadonlySignal } from '@preact/signals-react'
import type { PushFrame } from '../../contract/socket.ts'
import { getToken, signedIn } from './session.ts'
import { online } from './online.ts'
import { socketProof } from './appTransport.ts'
import type { SocketProof } from './transport.ts'
import { watchServerClock } from './serverClock.ts'

// The app's real-time socket (DESIGN §5) with the connection states and timers of SPEC §4 and §9.
// Everything that touches the outside (socket class, timers, clock, network state) is injected so the
// state machine can be driven by fake timers and a fake socket.

export type SocketState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting' | 'error'

/** SPEC §9. */
export const SOCKET_TIMING = {
  connectTimeoutMs: 10_000,
  heartbeatMs: 30_000,
  pongTimeoutMs: 10_000,
  networkCheckMs: 60_000,
  silenceMs: 120_000,
  backoffFirstMs: 1_000,
  backoffMaxMs: 60_000,
  /** After a server's restart (close 1012) the next connect waits a random part of this, not the backoff. */
  restartJitterMs: 1_000,
  maxAttempts: 10,
  stableMs: 300_000,
  idleCloseMs: 30_000,
  requestTimeoutMs: 10_000,
} as const
export type SocketTiming = { -readonly [K in keyof typeof SOCKET_TIMING]: number }

/** Close codes after which the client stays down (SPEC §9): normal, going away, no status. */
export const FINAL_CLOSE_CODES: readonly number[] = [1000, 1001, 1005]
/**
 * Close code of a server process that stops (server/ws/hub.ts): another process behind the same
 * address (a load balancer) or the same one restarted takes the connection. The client reconnects at
 * once, after a random wait of up to restartJitterMs so that a process's thousands of sockets do not
 * all arrive at the next one in the same instant; its streams are subscribed again on the new socket.
 */
export const SERVICE_RESTART = 1012

/** The part of the browser WebSocket this client uses; the DOM class fits it as is. */
export interface SocketLike {
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((ev: Event) => void) | null
  onmessage: ((ev: MessageEvent) => void) | null
  onclose: ((ev: CloseEvent) => void) | null
  onerror: ((ev: Event) => void) | null
}
export type SocketCtor = new (url: string) => SocketLike

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  now(): number
}

// Looked up on every call, not captured at import, so fake timers installed later still apply.
const globalTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
}

function windowNetwork(onChange: (online: boolean) => void): () => void {
  if (typeof window === 'undefined' || typeof window.addEventListener !== 'function') return () => {}
  const up = () => onChange(true)
  const down = () => onChange(false)
  window.addEventListener('online', up)
  window.addEventListener('offline', down)
  return () => {
    window.removeEventListener('online', up)
    window.removeEventListener('offline', down)
  }
}

export interface SocketClientOptions {
  /**
   * The socket URL for a token (null: anonymous, public streams only); asked afresh for every connect.
   * A promise when it must be signed first (the envelope's proof, which takes a handshake).
   */
  url: (token: string | null) => string | Promise<string>
  token?: () => string | null
  WebSocket?: SocketCtor
  timers?: Timers
  /** Whether the app believes it is online; checked before every connect and every network check. */
  online?: () => boolean
  /** Tells the client when the network comes and goes; window 'online'/'offline' by default. */
  watchNetwork?: (onChange: (online: boolean) => void) => () => void
  timing?: Partial<SocketTiming>
  /** A number in [0, 1) for the jitter; Math.random by default. */
  random?: () => number
}

export class SocketRequestError extends Error {
  constructor(
    message: string,
    /** The server's error code; 0 for a timeout or a lost connection. */
    readonly code: number,
  ) {
    super(message)
    this.name = 'SocketRequestError'
  }
}

export type PushListener<T = unknown> = (push: PushFrame<T>) => void

export interface SocketClient {
  readonly state: ReadonlySignal<SocketState>
  onState(fn: (state: SocketState) => void): () => void
  /** Reference-counted: the first listener of a stream subscribes on the wire, the last one leaving unsubscribes. */
  subscribe<T = unknown>(stream: string, onPush: PushListener<T>): () => void
  /** UNSUBSCRIBE then SUBSCRIBE, so the server sends a fresh snapshot (a book that lost its sequence). */
  resubscribe(stream: string): void
  /** Resolves with the ack's result; rejects on an error frame, a lost connection or a timeout. */
  request<T = unknown>(method: string, params?: unknown[]): Promise<T>
  /** GET_TIME: the server's clock in ms. */
  serverTime(): Promise<number>
  /** A new connection with the current token (sign-in/out), live streams subscribed again. */
  reconnect(): void
  /** Closes for good and forgets every listener (tests, teardown). */
  destroy(): void
}

interface Pending {
  frame: string
  sent: boolean
  resolve(result: unknown): void
  reject(err: Error): void
  timer: unknown
}

type FrameId = number

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The stream a push belongs to: `channel:instId` for public streams, the channel alone for user@…. */
export function pushStream(frame: unknown): string | null {
  if (!isRecord(frame) || !isRecord(frame.arg)) return null
  const { channel, instId } = frame.arg
  if (typeof channel !== 'string' || channel === '') return null
  if (frame.action !== 'snapshot' && frame.action !== 'update') return null
  if (!Array.isArray(frame.data)) return null
  if (channel.startsWith('user@')) return channel
  return typeof instId === 'string' && instId !== '' ? `${channel}:${instId}` : channel
}

const PRIVATE_PREFIX = 'user@'
/** The server refuses a whole SUBSCRIBE when one stream in it is refused, and takes at most 10 names. */
function batches(streams: string[]): string[][] {
  const out: string[][] = []
  for (const group of [streams.filter((s) => !s.startsWith(PRIVATE_PREFIX)), streams.filter((s) => s.startsWith(PRIVATE_PREFIX))]) {
    for (let i = 0; i < group.length; i += 10) out.push(group.slice(i, i + 10))
  }
  return out
}

export function createSocketClient(opts: SocketClientOptions): SocketClient {
  const T: SocketTiming = { ...SOCKET_TIMING, ...opts.timing }
  const timers = opts.timers ?? globalTimers
  const tokenOf = opts.token ?? (() => null)
  const isOnline = opts.online ?? (() => true)
  const random = opts.random ?? Math.random
  const watchNetwork = opts.watchNetwork ?? windowNetwork
  const Ctor = (): SocketCtor => opts.WebSocket ?? globalThis.WebSocket

  const state = signal<SocketState>('disconnected')
  const stateListeners = new Set<(s: SocketState) => void>()
  const listeners = new Map<string, Set<{ fn: PushListener }>>()
  const pending = new Map<FrameId, Pending>()
  /** Acks of our own SUBSCRIBE/UNSUBSCRIBE frames: known ids, nothing waits on them. */
  const internalIds = new Set<FrameId>()

  let ws: SocketLike | null = null
  /** A connect waiting for its URL; dropping the socket abandons it. */
  let preparing: object | null = null
  let open = false
  let nextId = 1
  let attempts = 0
  /** Down because the app is offline: coming back online reconnects, unlike a final close. */
  let offline = false
  let destroyed = false
  let lastMessageAt = 0
  let unwatchNetwork: (() => void) | null = null
  let dispatching = false
  const resubscribeQueue = new Set<string>()

  let connectTimer: unknown = null
  let heartbeatTimer: unknown = null
  let pongTimer: unknown = null
  let stableTimer: unknown = null
  let reconnectTimer: unknown = null
  let idleTimer: unknown = null
  let networkTimer: unknown = null

  const clear = (h: unknown) => {
    if (h !== null) timers.clearTimeout(h)
    return null
  }

  function setState(s: SocketState) {
    if (state.value === s) return
    state.value = s
    for (const fn of stateListeners) fn(s)
  }

  /** Something still needs the socket: a live stream or an unanswered request. */
  const wanted = () => listeners.size > 0 || pending.size > 0

  function send(text: string): boolean {
    if (!ws || !open) return false
    try {
      ws.send(text)
      return true
    } catch {
      return false // a socket closing under us; its close event does the rest
    }
  }

  function sendFrame(method: 'SUBSCRIBE' | 'UNSUBSCRIBE', streams: string[]) {
    for (const params of batches(streams)) {
      const id = nextId++
      if (send(JSON.stringify({ method, params, id }))) internalIds.add(id)
    }
  }

  /** Drops the current socket without letting its close event steer the state machine. */
  function dropSocket(code?: number, reason?: string) {
    preparing = null
    connectTimer = clear(connectTimer)
    heartbeatTimer = clear(heartbeatTimer)
    pongTimer = clear(pongTimer)
    stableTimer = clear(stableTimer)
    const s = ws
    ws = null
    open = false
    internalIds.clear()
    for (const [id, p] of pending) {
      // Sent on this socket, its answer is lost with it; unsent requests wait for the next socket.
      if (p.sent) {
        pending.delete(id)
        timers.clearTimeout(p.timer)
        p.reject(new SocketRequestError('socket closed', 0))
      }
    }
    if (!s) return
    s.onopen = s.onmessage = s.onerror = null
    s.onclose = null
    try {
      s.close(code, reason)
    } catch {
      /* already closed */
    }
  }

  function startWatching() {
    if (!unwatchNetwork) unwatchNetwork = watchNetwork(onNetwork)
    if (networkTimer === null) networkTimer = timers.setTimeout(networkCheck, T.networkCheckMs)
  }

  function stopWatching() {
    networkTimer = clear(networkTimer)
  }

  function connect() {
    if (destroyed || ws || preparing) return
    reconnectTimer = clear(reconnectTimer)
    startWatching()
    if (ws || preparing) return // the network watch reports at once and may have connected already
    if (!isOnline()) {
      goOffline()
      return
    }
    // Reading the token can expire it, and the sign-out that follows reconnects from inside this call.
    const url = opts.url(tokenOf())
    if (ws || preparing || destroyed) return
    offline = false
    setState(attempts > 0 ? 'reconnecting' : 'connecting')
    if (typeof url === 'string') {
      openSocket(url)
      return
    }
    const attempt = {}
    preparing = attempt
    // The connect timeout covers the signing too: a handshake that hangs is a connect that failed.
    connectTimer = timers.setTimeout(() => {
      connectTimer = null
      failed()
    }, T.connectTimeoutMs)
    url.then(
      (u) => {
        if (preparing !== attempt) return
        preparing = null
        connectTimer = clear(connectTimer)
        openSocket(u)
      },
      () => {
        if (preparing !== attempt) return
        failed()
      },
    )
  }

  function openSocket(url: string) {
    let s: SocketLike
    try {
      s = new (Ctor())(url)
    } catch {
      scheduleReconnect()
      return
    }
    ws = s
    connectTimer = timers.setTimeout(() => {
      connectTimer = null
      failed()
    }, T.connectTimeoutMs)
    s.onopen = () => {
      if (ws !== s) return
      open = true
      connectTimer = clear(connectTimer)
      lastMessageAt = timers.now()
      setState('connected')
      stableTimer = timers.setTimeout(() => {
        stableTimer = null
        attempts = 0
      }, T.stableMs)
      scheduleHeartbeat()
      if (listeners.size > 0) sendFrame('SUBSCRIBE', [...listeners.keys()])
      for (const p of pending.values()) if (!p.sent) p.sent = send(p.frame)
      armIdle()
    }
    s.onmessage = (ev) => {
      if (ws === s) onMessage(ev.data)
    }
    s.onclose = (ev) => {
      if (ws !== s) return
      if (FINAL_CLOSE_CODES.includes(ev.code)) {
        dropSocket()
        reconnectTimer = clear(reconnectTimer)
        setState('disconnected')
        return
      }
      if (ev.code === SERVICE_RESTART) {
        dropSocket()
        scheduleReconnect(Math.floor(random() * T.restartJitterMs))
        return
      }
      failed()
    }
    s.onerror = () => {
      /* a close event follows */
    }
  }

  /** The socket died or never opened: back off and try again. */
  function failed() {
    dropSocket(4000, 'dead')
    scheduleReconnect()
  }

  /** `soon`: the wait after a server's restart, which leaves the backoff where it was. */
  function scheduleReconnect(soon?: number) {
    if (destroyed) return
    reconnectTimer = clear(reconnectTimer)
    if (!wanted()) {
      setState('disconnected')
      stopWatching()
      return
    }
    if (!isOnline()) {
      goOffline()
      return
    }
    if (attempts >= T.maxAttempts) {
      setState('error')
      return
    }
    const delay = soon ?? nextBackoff()
    setState('reconnecting')
    reconnectTimer = timers.setTimeout(() => {
      reconnectTimer = null
      connect()
    }, delay)
  }

  function nextBackoff(): number {
    const delay = Math.min(T.backoffFirstMs * 2 ** attempts, T.backoffMaxMs)
    attempts++
    return delay
  }

  function goOffline() {
    dropSocket(1000, 'offline')
    reconnectTimer = clear(reconnectTimer)
    offline = true
    setState('disconnected')
  }

  function onNetwork(up: boolean) {
    if (destroyed) return
    if (!up) {
      if (ws || reconnectTimer !== null || state.value !== 'disconnected') goOffline()
      return
    }
    if ((offline || state.value === 'error') && wanted()) {
      attempts = 0
      connect()
    }
  }

  function networkCheck() {
    networkTimer = null
    if (destroyed) return
    if (!isOnline()) {
      if (ws || reconnectTimer !== null || state.value === 'error') goOffline()
    } else if (offline && wanted()) {
      attempts = 0
      connect()
    } else if (open && timers.now() - lastMessageAt >= T.silenceMs) {
      ping()
    }
    // The check keeps running while there is anything to watch over.
    if (wanted() || ws || offline) networkTimer = timers.setTimeout(networkCheck, T.networkCheckMs)
  }

  function scheduleHeartbeat() {
    heartbeatTimer = timers.setTimeout(() => {
      heartbeatTimer = null
      if (!open) return
      ping()
      scheduleHeartbeat()
    }, T.heartbeatMs)
  }

  function ping() {
    if (!send('ping')) return
    if (pongTimer === null) {
      pongTimer = timers.setTimeout(() => {
        pongTimer = null
        failed()
      }, T.pongTimeoutMs)
    }
  }

  function armIdle() {
    idleTimer = clear(idleTimer)
    if (wanted()) return
    idleTimer = timers.setTimeout(() => {
      idleTimer = null
      if (wanted()) return
      dropSocket(1000, 'idle')
      reconnectTimer = clear(reconnectTimer)
      offline = false
      attempts = 0
      stopWatching()
      setState('disconnected')
    }, T.idleCloseMs)
  }

  function onMessage(data: unknown) {
    // Any frame, even one we cannot read, proves the connection is alive.
    lastMessageAt = timers.now()
    pongTimer = clear(pongTimer)
    if (typeof data !== 'string' || data === 'pong') return
    let frame: unknown
    try {
      frame = JSON.parse(data)
    } catch {
      return
    }
    if (!isRecord(frame)) return
    if ('arg' in frame) {
      const stream = pushStream(frame)
      const set = stream === null ? undefined : listeners.get(stream)
      if (!set) return
      dispatching = true
      for (const l of [...set]) {
        if (!set.has(l)) continue // unsubscribed by an earlier listener of this very push
        try {
          l.fn(frame as unknown as PushFrame) // shape checked by pushStream; data items are the listener's to check
        } catch (err) {
          // One broken screen must not starve the others of pushes; the error still surfaces.
          queueMicrotask(() => {
            throw err
          })
        }
      }
      dispatching = false
      const again = [...resubscribeQueue]
      resubscribeQueue.clear()
      for (const st of again) resubscribeNow(st)
      return
    }
    const id = frame.id
    if (typeof id !== 'number') return
    if (internalIds.delete(id)) return
    const p = pending.get(id)
    if (!p) return
    if ('error' in frame) {
      const e = frame.error
      const code = isRecord(e) && typeof e.code === 'number' ? e.code : 0
      const msg = isRecord(e) && typeof e.msg === 'string' ? e.msg : 'socket error'
      settle(id, p)
      p.reject(new SocketRequestError(msg, code))
    } else if ('result' in frame) {
      settle(id, p)
      p.resolve(frame.result)
    }
  }

  function settle(id: FrameId, p: Pending) {
    pending.delete(id)
    timers.clearTimeout(p.timer)
    armIdle()
  }

  /** A new call from the app: a socket that gave up ('error') or was closed for good tries again. */
  function wake() {
    idleTimer = clear(idleTimer)
    if (ws || preparing || reconnectTimer !== null) return
    if (state.value === 'error') attempts = 0
    connect()
  }

  function subscribe<T>(stream: string, onPush: PushListener<T>): () => void {
    if (destroyed) return () => {}
    const entry = { fn: onPush as PushListener } // the push's data is T by the stream's contract
    let set = listeners.get(stream)
    const fresh = !set
    if (!set) listeners.set(stream, (set = new Set()))
    set.add(entry)
    if (fresh && open) sendFrame('SUBSCRIBE', [stream])
    wake()
    let done = false
    return () => {
      if (done) return
      done = true
      const s = listeners.get(stream)
      if (!s?.delete(entry) || s.size > 0) return
      listeners.delete(stream)
      if (open) sendFrame('UNSUBSCRIBE', [stream])
      armIdle()
    }
  }

  function resubscribe(stream: string) {
    // Several books on one stream see the same gap in the same push: one resubscribe is enough.
    if (dispatching) resubscribeQueue.add(stream)
    else resubscribeNow(stream)
  }

  function resubscribeNow(stream: string) {
    if (!open || !listeners.has(stream)) return
    sendFrame('UNSUBSCRIBE', [stream])
    sendFrame('SUBSCRIBE', [stream])
  }

  function request<T>(method: string, params?: unknown[]): Promise<T> {
    if (destroyed) return Promise.reject(new SocketRequestError('socket client destroyed', 0))
    return new Promise<T>((resolve, reject) => {
      const id = nextId++
      const frame = JSON.stringify(params === undefined ? { method, id } : { method, params, id })
      const p: Pending = {
        frame,
        sent: false,
        resolve: resolve as (r: unknown) => void, // the caller names the result type of its method
        reject,
        timer: timers.setTimeout(() => {
          if (pending.get(id) !== p) return
          settle(id, p)
          reject(new SocketRequestError(`${method} timed out`, 0))
        }, T.requestTimeoutMs),
      }
      pending.set(id, p)
      p.sent = send(frame)
      wake()
    })
  }

  async function serverTime(): Promise<number> {
    const t = await request<unknown>('GET_TIME')
    if (typeof t !== 'number' || !Number.isFinite(t)) throw new SocketRequestError('bad GET_TIME answer', 0)
    return t
  }

  function reconnect() {
    if (destroyed) return
    const had = ws !== null || preparing !== null || reconnectTimer !== null || state.value !== 'disconnected' || offline
    dropSocket(1000, 'reconnect')
    reconnectTimer = clear(reconnectTimer)
    attempts = 0
    if (wanted()) connect()
    else if (had) {
      stopWatching()
      setState('disconnected')
    }
  }

  function destroy() {
    destroyed = true
    dropSocket(1000, 'destroyed')
    reconnectTimer = clear(reconnectTimer)
    idleTimer = clear(idleTimer)
    stopWatching()
    unwatchNetwork?.()
    unwatchNetwork = null
    for (const [id, p] of pending) {
      settle(id, p)
      p.reject(new SocketRequestError('socket client destroyed', 0))
    }
    idleTimer = clear(idleTimer)
    listeners.clear()
    setState('disconnected')
    stateListeners.clear()
  }

  return {
    state,
    onState(fn) {
      stateListeners.add(fn)
      return () => stateListeners.delete(fn)
    },
    subscribe,
    resubscribe,
    request,
    serverTime,
    reconnect,
    destroy,
  }
}

/**
 * `/ws` on the page's own host, wss under https; the token as a query parameter (DESIGN §5), with the
 * envelope on followed by its proof (handshake, timestamp, sign: docs/envelope.md).
 */
export function socketUrl(token: string | null, loc: Pick<Location, 'protocol' | 'host'> = window.location, proof?: SocketProof): string {
  const base = `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`
  if (!token) return base
  return `${base}?${new URLSearchParams({ token, ...proof }).toString()}`
}

let appClient: SocketClient | null = null

/** The app's one socket, made on first use; follows sign-in and sign-out. */
export function getSocket(): SocketClient {
  if (appClient) return appClient
  const client = createSocketClient({
    url: (token) => {
      const proof = token ? socketProof(token) : null
      return proof ? proof.then((p) => socketUrl(token, window.location, p)) : socketUrl(token)
    },
    token: () => getToken(),
    online: () => online.value,
    // The online signal already follows window online/offline (startOnlineWatch) and the server's reachability.
    watchNetwork: (onChange) => online.subscribe(onChange),
  })
  let first = true
  signedIn.subscribe(() => {
    if (first) first = false
    else client.reconnect() // private user@ streams belong to whoever is signed in now
  })
  // GET_TIME on every connection: countdowns run on the server's clock (serverClock.ts).
  watchServerClock(client)
  appClient = client
  return client
}
