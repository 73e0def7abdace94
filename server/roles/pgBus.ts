// The bus across processes on PostgreSQL (./bus.ts says what a bus is). One `pg` client per process
// both LISTENs and NOTIFYs: its death is an event (reconnect, then tell every subscriber it may have
// missed messages), and the messages one process publishes leave in one session, in order.
//
// - A topic family is one channel, nadi_<family>, LISTENed while this process has a subscriber of it.
// - Messages published in one tick go out as one statement (one round trip, one transaction, whose
//   notifications PostgreSQL delivers in the order they were sent).
// - A message too big for NOTIFY (8,000 bytes) is written to bus_messages in the same statement that
//   notifies its row id; receivers read it back before delivering anything after it, so order holds.
//   Rows older than keepMs are deleted by the processes that write them.
// - Every envelope carries its publisher's sequence on the channel: a receiver that sees it jump
//   (the publisher's connection was down, a statement failed) reports a gap for the family.
// - What arrives is validated (./bus.ts parseEnvelope): anyone with access to the database can NOTIFY,
//   so a malformed message is dropped and logged, never delivered, never a crash.

import crypto from 'node:crypto'
import os from 'node:os'
import pg from 'pg'
import type { FastifyBaseLogger } from 'fastify'
import { familyOf, LocalBus, NOTIFY_LIMIT_BYTES, parseEnvelope, parseStoredPayload, SequenceTracker, type Bus, type GapHandler } from './bus.ts'

export interface PgBusOptions {
  /** The database (postgres:// URL): processes on one database share its buses. */
  url: string
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>
  /** Names the session in pg_stat_activity: `nadi bus <name> pid … on <host>` (the role, e.g. api). */
  name?: string
  now?: () => number
  /** A liveness query every this many ms; unanswered for 3 × this, the connection counts as lost (5 s). */
  pingEveryMs?: number
  /** First wait before reconnecting; doubles up to 5 s (100 ms). */
  reconnectMs?: number
  /** How long a big message's row is kept for late readers (60 s). */
  keepMs?: number
}

interface Sub {
  fn: (payload: unknown) => void
  onGap?: GapHandler
}

/** What arrived, waiting its turn: a payload, a big one being read, or a gap to report first. */
type Inbound = { kind: 'message'; topic: string; ready: boolean; payload?: unknown } | { kind: 'gap'; topic: string | null; family: string }

interface Outgoing {
  channel: string
  topic: string
  /** The envelope's text, or, for a big message, its text up to the row id (completed by the statement). */
  text: string
  /** A big message's payload for its row. */
  stored?: string
}

const channelOf = (family: string) => `nadi_${family}`
const MAX_RECONNECT_MS = 5_000

export class PgBus implements Bus {
  readonly shared = true
  /** Random per process start: receivers tell publishers apart by it. */
  readonly origin = crypto.randomBytes(8).toString('hex')
  private readonly subs = new Map<string, Set<Sub>>()
  /** Subscribed topics per family: a family's channel is listened while it has any. */
  private readonly families = new Map<string, number>()
  private readonly sent = new Map<string, number>()
  private readonly seen = new SequenceTracker()
  private readonly inbox: Inbound[] = []
  private outbox: Outgoing[] = []
  private client: pg.Client | null = null
  /** Each connection's events carry its number: those of a connection given up are ignored. */
  private gen = 0
  private lostOnce = false
  private closed = false
  private backoff: number
  private connected: { promise: Promise<void>; resolve: () => void }
  private readonly timers: NodeJS.Timeout[] = []
  private reconnectTimer: NodeJS.Timeout | null = null
  private wroteRows = false
  /** The connection's last statement: the next waits for it (a pg client runs one at a time). */
  private tail: Promise<unknown> = Promise.resolve()
  private lastWarn = 0
  private quietWarnings = 0
  private readonly now: () => number
  private readonly pingEveryMs: number
  private readonly keepMs: number

  constructor(private readonly opts: PgBusOptions) {
    this.now = opts.now ?? Date.now
    this.pingEveryMs = opts.pingEveryMs ?? 5_000
    this.keepMs = opts.keepMs ?? 60_000
    this.backoff = opts.reconnectMs ?? 100
    this.connected = deferred()
    this.connect()
    const ping = setInterval(() => this.ping(), this.pingEveryMs)
    const clean = setInterval(() => this.cleanRows(), Math.max(1_000, this.keepMs / 2))
    ping.unref()
    clean.unref()
    this.timers.push(ping, clean)
  }

  publish(topic: string, payload: unknown): void {
    const channel = channelOf(familyOf(topic))
    // The number is spent even when the message cannot leave: receivers then see the gap.
    const s = (this.sent.get(channel) ?? 0) + 1
    this.sent.set(channel, s)
    if (this.closed) return
    if (!this.client) {
      this.warn({ topic }, 'bus: not connected, a message is dropped (receivers are told of the gap)')
      return
    }
    const text = JSON.stringify({ o: this.origin, s, t: topic, p: payload })
    if (Buffer.byteLength(text) <= NOTIFY_LIMIT_BYTES) this.outbox.push({ channel, topic, text })
    else this.outbox.push({ channel, topic, text: JSON.stringify({ o: this.origin, s, t: topic }).slice(0, -1) + ',"r":', stored: JSON.stringify(payload) })
    if (this.outbox.length === 1) queueMicrotask(() => this.flush())
  }

  subscribe(topic: string, fn: (payload: unknown) => void, onGap?: GapHandler): () => void {
    const family = familyOf(topic)
    const sub: Sub = { fn, onGap }
    let set = this.subs.get(topic)
    if (!set) {
      this.subs.set(topic, (set = new Set()))
      const n = (this.families.get(family) ?? 0) + 1
      this.families.set(family, n)
      if (n === 1) this.command(`LISTEN ${channelOf(family)}`)
    }
    set.add(sub)
    return () => {
      if (!set.delete(sub) || set.size > 0 || this.subs.get(topic) !== set) return
      this.subs.delete(topic)
      const n = (this.families.get(family) ?? 1) - 1
      if (n > 0) return void this.families.set(family, n)
      this.families.delete(family)
      this.seen.forget(channelOf(family))
      this.command(`UNLISTEN ${channelOf(family)}`)
    }
  }

  /** Resolves once connected and every LISTEN asked for so far is in place: messages published after it arrive. */
  async settled(): Promise<void> {
    for (;;) {
      await this.connected.promise
      const c = this.client
      if (this.closed) return
      if (!c) continue
      try {
        await this.query(c, 'SELECT 1')
        return
      } catch {
        // Lost meanwhile: wait for the next connection.
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const t of this.timers) clearInterval(t)
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    this.flush()
    const c = this.client
    this.client = null
    this.gen++
    this.subs.clear()
    this.connected.resolve()
    if (!c) return
    // What was published before the close leaves first (a connection that hangs is not waited for long).
    let timer: NodeJS.Timeout | undefined
    await Promise.race([this.tail, new Promise((r) => (timer = setTimeout(r, 2_000)))])
    clearTimeout(timer)
    await c.end().catch(() => {})
  }

  // ── Connection ───────────────────────────────────────────────────────────────────────────────

  private connect(): void {
    const id = ++this.gen
    this.tail = Promise.resolve()
    const appName = ['nadi bus', this.opts.name, `pid ${process.pid} on ${os.hostname()}`].filter(Boolean).join(' ').slice(0, 63)
    const c = new pg.Client({ connectionString: this.opts.url, application_name: appName, keepAlive: true })
    c.on('error', (err) => this.lost(id, c, err))
    c.on('end', () => this.lost(id, c))
    c.on('notification', (n) => {
      if (id === this.gen) this.receive(n.channel, n.payload ?? '')
    })
    c.connect()
      .then(async () => {
        for (const family of this.families.keys()) await this.query(c, `LISTEN ${channelOf(family)}`)
        if (id !== this.gen) return
        this.client = c
        this.backoff = this.opts.reconnectMs ?? 100
        if (this.lostOnce) {
          this.opts.log.info({ origin: this.origin }, 'bus: reconnected; subscribers re-read what they may have missed')
          for (const family of this.families.keys()) this.inbox.push({ kind: 'gap', topic: null, family })
          this.drain()
        }
        this.connected.resolve()
      })
      .catch((err: unknown) => this.lost(id, c, err))
  }

  private lost(id: number, c: pg.Client, err?: unknown): void {
    if (id !== this.gen || this.closed) return
    this.gen++
    this.client = null
    this.lostOnce = true
    this.connected = deferred()
    c.removeAllListeners('notification')
    c.on('error', () => {})
    c.end().catch(() => {})
    // A big message being read on the dead connection is lost: it becomes a gap of its topic.
    for (const [i, e] of this.inbox.entries()) if (e.kind === 'message' && !e.ready) this.inbox[i] = { kind: 'gap', topic: e.topic, family: familyOf(e.topic) }
    this.drain()
    // Channels heard again after the reconnect start over (the reconnect itself is the gap reported).
    for (const family of this.families.keys()) this.seen.forget(channelOf(family))
    this.opts.log.warn({ err, retryMs: this.backoff }, 'bus: connection lost; reconnecting')
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null
      if (!this.closed) this.connect()
    }, this.backoff)
    this.backoff = Math.min(this.backoff * 2, MAX_RECONNECT_MS)
  }

  /** Statements leave one after another, in the order asked: the order of what this process publishes. */
  private query<R extends pg.QueryResultRow = pg.QueryResultRow>(c: pg.Client, text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    const result = this.tail.then(() => c.query<R>(text, values))
    this.tail = result.catch(() => {})
    return result
  }

  private ping(): void {
    const c = this.client
    if (!c) return
    const id = this.gen
    const timer = setTimeout(() => this.lost(id, c, new Error(`no answer to a ping within ${3 * this.pingEveryMs} ms`)), 3 * this.pingEveryMs)
    this.query(c, 'SELECT 1').then(
      () => clearTimeout(timer),
      (err: unknown) => {
        clearTimeout(timer)
        this.lost(id, c, err)
      },
    )
  }

  /** A LISTEN/UNLISTEN now if connected; a connection made later listens to the families then wanted. */
  private command(sql: string): void {
    const c = this.client
    if (!c) return
    const id = this.gen
    this.query(c, sql).catch((err: unknown) => this.lost(id, c, err))
  }

  // ── Sending ──────────────────────────────────────────────────────────────────────────────────

  private flush(): void {
    const out = this.outbox
    this.outbox = []
    const c = this.client
    if (!c || out.length === 0) return
    const failed = (err: unknown) => this.opts.log.error({ err, messages: out.length }, 'bus: publishing failed; receivers are told of the gap')
    // Statements queue on the client in order: a run of small messages is one, each big one is one.
    for (let i = 0; i < out.length; ) {
      const m = out[i]!
      if (m.stored !== undefined) {
        this.wroteRows = true
        this.query(c, 
          `WITH m AS (INSERT INTO bus_messages (topic, payload, created_at) VALUES ($1, $2, $3) RETURNING id)
           SELECT pg_notify($4, $5 || CAST(m.id AS TEXT) || '}') FROM m`,
          [m.topic, m.stored, this.now(), m.channel, m.text],
        ).catch(failed)
        i++
        continue
      }
      let j = i
      while (j < out.length && out[j]!.stored === undefined) j++
      const run = out.slice(i, j)
      // An aggregate over unnest calls pg_notify row by row, in the arrays' order.
      this.query(c, 'SELECT count(pg_notify(c, p)) FROM unnest($1::text[], $2::text[]) AS m(c, p)', [run.map((r) => r.channel), run.map((r) => r.text)]).catch(failed)
      i = j
    }
  }

  private cleanRows(): void {
    const c = this.client
    if (!c || !this.wroteRows) return
    this.wroteRows = false
    this.query(c, 'DELETE FROM bus_messages WHERE created_at < $1', [this.now() - this.keepMs]).catch((err: unknown) => this.opts.log.warn({ err }, 'bus: cleaning old messages failed'))
  }

  // ── Receiving ────────────────────────────────────────────────────────────────────────────────

  private receive(channel: string, text: string): void {
    const family = channel.slice('nadi_'.length)
    if (!channel.startsWith('nadi_') || !this.families.has(family)) return
    const parsed = parseEnvelope(text, family)
    if (!parsed.ok) {
      this.warn({ channel, why: parsed.why, text: text.slice(0, 200) }, 'bus: a malformed message was dropped')
      return
    }
    const env = parsed.env
    const seen = this.seen.see(channel, env.o, env.s)
    if (seen === 'repeat') return
    if (seen === 'gap') this.inbox.push({ kind: 'gap', topic: null, family })
    if (this.subs.has(env.t)) {
      if ('p' in env) this.inbox.push({ kind: 'message', topic: env.t, ready: true, payload: env.p })
      else this.fetch(env.t, env.r)
    }
    this.drain()
  }

  /** A big message: read from its row; anything arriving meanwhile waits behind it. */
  private fetch(topic: string, row: number): void {
    const entry: Inbound = { kind: 'message', topic, ready: false }
    this.inbox.push(entry)
    const c = this.client
    if (!c) return void Object.assign(entry, { kind: 'gap', family: familyOf(topic) })
    this.query<{ payload: string }>(c, 'SELECT payload FROM bus_messages WHERE id = $1', [row]).then(
      (r) => {
        const payload = r.rows[0] ? parseStoredPayload(r.rows[0].payload) : null
        if (payload === null) {
          this.warn({ topic, row }, 'bus: a big message is gone or unreadable; its topic re-reads')
          Object.assign(entry, { kind: 'gap', family: familyOf(topic) })
        } else Object.assign(entry, { ready: true, payload })
        this.drain()
      },
      () => {
        // The connection's loss turns this entry into a gap (lost()).
      },
    )
  }

  private drain(): void {
    while (this.inbox.length > 0) {
      const e = this.inbox[0]!
      if (e.kind === 'message' && !e.ready) return
      this.inbox.shift()
      if (e.kind === 'message') {
        for (const sub of [...(this.subs.get(e.topic) ?? [])]) this.call(() => sub.fn(e.payload))
        continue
      }
      for (const [topic, set] of this.subs) {
        if (e.topic === null ? familyOf(topic) !== e.family : topic !== e.topic) continue
        for (const sub of [...set]) if (sub.onGap) this.call(sub.onGap)
      }
    }
  }

  /** A subscriber that throws is logged; the others and the bus go on. */
  private call(fn: () => void): void {
    try {
      fn()
    } catch (err) {
      this.opts.log.error({ err }, 'bus: a subscriber failed')
    }
  }

  /** At most one warning a second; the ones held back are counted in the next. */
  private warn(obj: Record<string, unknown>, msg: string): void {
    const now = Date.now()
    if (now - this.lastWarn < 1_000) {
      this.quietWarnings++
      return
    }
    this.lastWarn = now
    this.opts.log.warn({ ...obj, heldBack: this.quietWarnings }, msg)
    this.quietWarnings = 0
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

/**
 * The bus of a process: its own (LocalBus) when it works alone (--role all), PostgreSQL's
 * LISTEN/NOTIFY shared with the other role processes on the database otherwise.
 */
export function busOf(config: { role: string; databaseUrl: string | null }, log: PgBusOptions['log']): Bus {
  if (config.role === 'all') return new LocalBus()
  if (config.databaseUrl === null) throw new Error(`--role ${config.role} needs PostgreSQL (NADI_DATABASE_URL)`)
  return new PgBus({ url: config.databaseUrl, log, name: config.role })
}
