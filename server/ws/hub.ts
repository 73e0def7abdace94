import type { WebSocket } from 'ws'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.ts'
import type { AuthUser } from '../http/types.ts'
import type { AckFrame, ErrorFrame } from '../../contract/socket.ts'
import { LocalBus, topicFamily, type Bus } from '../roles/bus.ts'
import type { Publisher } from '../exchange/exchange.ts'
import { pushRefusal, streamOfTopic, userTopic } from './frames.ts'

/**
 * A family of streams an area publishes (books:*, tickers:*, user@*…). Areas register theirs; a
 * SUBSCRIBE to a stream no family claims is refused, so the protocol never promises data nobody sends.
 */
export interface StreamFamily {
  /** True when this family serves the stream name. */
  matches(stream: string): boolean
  /** Private families (user@…) need a signed-in connection and only ever reach their owner. */
  private: boolean
  /** Called after a subscription is acknowledged, e.g. to send a snapshot. */
  onSubscribe?(conn: Connection, stream: string): void
  /**
   * False while this process does not know where the stream stands (a mirror waiting for its base
   * after the bus lost messages): its pushes would follow a state no subscriber was sent. They are
   * held back; every subscriber gets the snapshot once it is known (onSubscribe), and pushes after it.
   */
  live?(stream: string): boolean
}

export interface Connection {
  readonly id: number
  readonly user: AuthUser | null
  send(frame: unknown): void
}

type FrameId = number | string | null

const ERR = { badRequest: 400, unauthorized: 401, unknownStream: 404, tooMany: 429 } as const
/** Close code for a connection whose sign-in ended; the app reconnects signed out (or with its new token). */
export const SESSION_ENDED = 4001
/** Close code for a connection that missed pushes of a stream with no snapshot to resend: the app
 * reconnects, and a reconnect refreshes every screen (SPEC §9). */
export const MISSED_UPDATES = 4002
/**
 * Close code for every connection when this process stops (RFC 6455's 1012, service restart): the app
 * reconnects at once, with jitter, and through a load balancer reaches another process (docs/deploy.md).
 * Not 1001 (going away), which the app takes as final (SPEC §9): its screens would stay without live
 * data after a restart, alone or behind a balancer, until something subscribed anew.
 */
export const SERVICE_RESTART = 1012

export interface HubOptions {
  /** Where pushes go and come from (LocalBus: this process only). */
  bus?: Bus
  /** Told of pushes from another process that were refused. */
  log?: { warn(obj: unknown, msg?: string): void }
}

function isId(v: unknown): v is number | string {
  return (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'string' && v.length <= 64)
}

/**
 * The sockets of this process. Pushes are published to the bus, and what the bus brings — this
 * process's pushes and every other's — is sent to the subscribed sockets here: each process relays
 * the same pushes, in the order they were published.
 */
export class Hub {
  private readonly families: StreamFamily[] = []
  /** stream → connections; private streams are keyed per user as `stream#userId` (the bus topic). */
  private readonly subscribers = new Map<string, Set<Conn>>()
  /** Keys whose pushes are held back until their state is known again (StreamFamily.live). */
  private readonly held = new Set<string>()
  /** The bus subscription of each key with subscribers here. */
  private readonly onBus = new Map<string, () => void>()
  private readonly bus: Bus
  private readonly conns = new Set<Conn>()
  private nextId = 1
  private heartbeat: NodeJS.Timeout | null = null

  constructor(
    private readonly cfg: Config['ws'],
    private readonly now: () => number = Date.now,
    /** Which signed-in sessions are still valid: a connection whose session was revoked or expired is closed. */
    private readonly liveSessions?: (ids: number[]) => Promise<Set<number>>,
    private readonly opts: HubOptions = {},
  ) {
    this.bus = opts.bus ?? new LocalBus()
  }

  register(family: StreamFamily): void {
    this.families.push(family)
  }

  get connectionCount(): number {
    return this.conns.size
  }

  start(): void {
    // Server-side pings find dead peers that never closed (phones that lost the network).
    this.heartbeat = setInterval(() => {
      for (const c of this.conns) {
        if (!c.alive) {
          c.socket.terminate()
          continue
        }
        c.alive = false
        c.socket.ping()
      }
      void this.sweepSessions()
    }, this.cfg.heartbeatMs)
    this.heartbeat.unref()
  }

  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat)
    for (const c of this.conns) c.socket.close(SERVICE_RESTART, 'server restarting')
  }

  /** Closes the connections of a session that ended (sign-out): its private streams stop at once. */
  closeSession(sessionId: number): void {
    for (const c of this.conns) if (c.user?.sessionId === sessionId) c.socket.close(SESSION_ENDED, 'session ended')
  }

  /** Closes the connections whose session is no longer valid (revoked elsewhere, or expired). */
  async sweepSessions(): Promise<void> {
    if (!this.liveSessions) return
    const ids = [...new Set([...this.conns].flatMap((c) => (c.user ? [c.user.sessionId] : [])))]
    if (ids.length === 0) return
    try {
      const live = await this.liveSessions(ids)
      for (const id of ids) if (!live.has(id)) this.closeSession(id)
    } catch {
      // The check runs again at the next heartbeat.
    }
  }

  /**
   * Whether a stream (a user's private one, given the user) has a subscriber. Across processes nobody
   * here can tell (the subscriber may be on another), so the answer is yes.
   */
  listening(stream: string, userId?: number): boolean {
    if (this.bus.shared) return true
    return (this.subscribers.get(userId === undefined ? stream : userTopic(stream, userId))?.size ?? 0) > 0
  }

  /** Sends a frame to every subscriber of a public stream, in every process. */
  publish(stream: string, frame: unknown): void {
    this.bus.publish(stream, frame)
  }

  /** Sends a frame on a private stream to its owner's connections only, in every process. */
  publishToUser(userId: number, stream: string, frame: unknown): void {
    this.bus.publish(userTopic(stream, userId), frame)
  }

  /** What the bus brought for a key: one text, sent to each subscriber here. */
  private deliver(key: string, frame: unknown): void {
    const set = this.subscribers.get(key)
    if (!set || set.size === 0) return
    const stream = streamOfTopic(key)
    const live = this.families.find((f) => f.matches(stream))?.live
    if (live) {
      // Held back while the stream's state is not known here; its subscribers are sent the snapshot
      // once it is (once per spell: pushes held after the first change nothing).
      if (!live(stream)) {
        if (!this.held.has(key)) {
          this.held.add(key)
          this.missed(key)
        }
        return
      }
      this.held.delete(key)
    }
    // In one process the frame is this process's own object; from another it is input, checked.
    const refused = this.bus.shared ? pushRefusal(key, frame) : null
    if (refused !== null) {
      this.opts.log?.warn({ topic: key, why: refused }, 'socket push from the bus refused')
      return this.missed(key)
    }
    const text = JSON.stringify(frame)
    for (const c of set) c.sendText(text)
  }

  /**
   * Pushes of a key may have been lost on the way: its subscribers here get where things stand again
   * (the family's snapshot, e.g. a book with prevSeqId -1 that the app's book restarts from), or, for a
   * stream with no snapshot, a reconnect, after which the app refreshes what it shows.
   */
  private missed(key: string): void {
    const set = this.subscribers.get(key)
    if (!set) return
    const stream = streamOfTopic(key)
    const family = this.families.find((f) => f.matches(stream))
    for (const c of [...set]) {
      if (family?.onSubscribe) family.onSubscribe(c, stream)
      else c.socket.close(MISSED_UPDATES, 'missed updates')
    }
  }

  /** Adds a connection to a key's subscribers; the first one here subscribes the key on the bus. */
  private join(key: string, conn: Conn): void {
    conn.subscriptions.add(key)
    let set = this.subscribers.get(key)
    if (!set) this.subscribers.set(key, (set = new Set()))
    set.add(conn)
    if (!this.onBus.has(key)) {
      this.onBus.set(
        key,
        this.bus.subscribe(key, (frame) => this.deliver(key, frame), () => this.missed(key)),
      )
    }
  }

  /** Removes a connection from a key's subscribers; the last one here unsubscribes the key on the bus. */
  private leave(key: string, conn: Conn): void {
    conn.subscriptions.delete(key)
    const set = this.subscribers.get(key)
    if (!set?.delete(conn) || set.size > 0) return
    this.subscribers.delete(key)
    this.onBus.get(key)?.()
    this.onBus.delete(key)
  }

  attach(socket: WebSocket, user: AuthUser | null): Conn {
    const conn = new Conn(this.nextId++, socket, user)
    this.conns.add(conn)
    socket.on('pong', () => (conn.alive = true))
    socket.on('message', (data, isBinary) => {
      conn.alive = true
      if (isBinary) return
      this.onText(conn, data.toString())
    })
    socket.on('close', () => this.detach(conn))
    socket.on('error', () => this.detach(conn))
    return conn
  }

  private detach(conn: Conn): void {
    if (!this.conns.delete(conn)) return
    for (const key of [...conn.subscriptions]) this.leave(key, conn)
  }

  private onText(conn: Conn, text: string): void {
    if (!conn.allow(this.now(), this.cfg.maxMessagesPerSecond)) {
      // A flood gets one error a second, never a close: a good client that burst briefly stays connected.
      if (conn.shouldWarn(this.now())) conn.send(error(null, ERR.tooMany, 'too many messages'))
      return
    }
    if (text === 'ping') {
      conn.sendText('pong')
      return
    }
    let frame: unknown
    try {
      frame = JSON.parse(text)
    } catch {
      return // malformed frames are ignored (SPEC §7)
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return
    const f = frame as Record<string, unknown>
    const id: FrameId = isId(f.id) ? f.id : null
    switch (f.method) {
      case 'GET_TIME':
        conn.send(ack(id, this.now()))
        return
      case 'SUBSCRIBE':
      case 'UNSUBSCRIBE': {
        const params = f.params
        if (!Array.isArray(params) || params.length === 0 || params.length > 10 || !params.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 64)) {
          conn.send(error(id, ERR.badRequest, 'params must be 1–10 stream names'))
          return
        }
        if (f.method === 'SUBSCRIBE') this.subscribe(conn, id, params as string[])
        else this.unsubscribe(conn, id, params as string[])
        return
      }
      default:
        return
    }
  }

  private subscribe(conn: Conn, id: FrameId, streams: string[]): void {
    const accepted: { stream: string; family: StreamFamily; key: string }[] = []
    for (const stream of streams) {
      const family = this.families.find((f) => f.matches(stream))
      // A name no bus could carry is no stream, whatever a family's pattern says.
      if (!family || topicFamily(stream) === null) return conn.send(error(id, ERR.unknownStream, `unknown stream ${stream}`))
      if (family.private && !conn.user) return conn.send(error(id, ERR.unauthorized, `${stream} needs a signed-in connection`))
      accepted.push({ stream, family, key: family.private ? userTopic(stream, conn.user!.id) : stream }) // private implies a user, checked above
    }
    const fresh = accepted.filter((a) => !conn.subscriptions.has(a.key))
    if (conn.subscriptions.size + fresh.length > this.cfg.maxSubscriptions) {
      return conn.send(error(id, ERR.tooMany, `at most ${this.cfg.maxSubscriptions} subscriptions`))
    }
    for (const a of fresh) this.join(a.key, conn)
    conn.send(ack(id, null))
    for (const a of fresh) a.family.onSubscribe?.(conn, a.stream)
  }

  private unsubscribe(conn: Conn, id: FrameId, streams: string[]): void {
    for (const stream of streams) {
      const own = conn.user ? userTopic(stream, conn.user.id) : null
      const key = own !== null && conn.subscriptions.has(own) ? own : stream
      if (conn.subscriptions.has(key)) this.leave(key, conn)
    }
    conn.send(ack(id, null))
  }
}

/**
 * @fastify/websocket's preClose for a hub's server: the hub stops first, closing its sockets with 1012,
 * then the socket server, which refuses upgrades from then on (503: a balancer sends them elsewhere).
 * The plugin's own preClose would close every socket with no code (1005), which the app takes as final.
 */
export function stopHubFirst(hub: Hub): (this: FastifyInstance, done: () => void) => void {
  return function (done) {
    hub.stop()
    this.websocketServer.close(() => done())
  }
}

/**
 * The publishing half of a hub, for a process with no sockets of its own (the engine, the jobs): its
 * pushes reach the hubs of the other processes through the bus, as a hub's would.
 */
export function busPublisher(bus: Bus): Publisher {
  return {
    publish: (stream, frame) => bus.publish(stream, frame),
    publishToUser: (userId, stream, frame) => bus.publish(userTopic(stream, userId), frame),
    listening: () => true,
  }
}

const ack = (id: FrameId, result: unknown): AckFrame => ({ id, result })
const error = (id: FrameId, code: number, msg: string): ErrorFrame => ({ id, error: { code, msg } })

class Conn implements Connection {
  alive = true
  readonly subscriptions = new Set<string>()
  private windowStart = 0
  private count = 0
  private lastWarn = 0

  constructor(
    readonly id: number,
    readonly socket: WebSocket,
    readonly user: AuthUser | null,
  ) {}

  allow(now: number, perSecond: number): boolean {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now
      this.count = 0
    }
    return ++this.count <= perSecond
  }

  shouldWarn(now: number): boolean {
    if (now - this.lastWarn < 1000) return false
    this.lastWarn = now
    return true
  }

  send(frame: unknown): void {
    this.sendText(JSON.stringify(frame))
  }

  sendText(text: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(text)
  }
}
