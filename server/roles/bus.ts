// Live data across processes (issue 19): what one process publishes — a market's book update, a
// user's order update — reaches the subscribers of every process. The socket hub (server/ws/hub.ts)
// publishes only through a Bus and delivers only what its Bus brings, so every process, the
// publisher's own included, relays the same messages in the same order.
//
// LocalBus is one process (role all, on either backend): a synchronous call of each subscriber, so
// a push leaves in the order and the tick it was published, as before there was a bus. PgBus
// (./pgBus.ts) carries messages through PostgreSQL's LISTEN/NOTIFY; the envelope it sends and the
// checks it makes of what it receives are here, pure, so they are tested without a database.

/** Called when messages of a topic may have been missed: the subscriber re-reads where things stand. */
export type GapHandler = () => void

export interface Bus {
  /** Sends payload (JSON-serializable) to the topic's subscribers in every process, this one included. */
  publish(topic: string, payload: unknown): void
  /** Receives the topic's messages in the order they were published; returns the unsubscribe. */
  subscribe(topic: string, fn: (payload: unknown) => void, onGap?: GapHandler): () => void
  /** True when other processes publish and receive through this bus: nobody here can tell who listens. */
  readonly shared: boolean
  close(): Promise<void>
}

/**
 * A topic is its family (lower-case letters and digits: `books`, `candle1m`, `user`, `ranking`) and
 * an optional rest after `:`, `@` or `#` (`books:NADI-USDT`, `user@update_order#42`). The family is
 * the unit of transport (one NOTIFY channel per family); the whole topic is the unit of delivery.
 */
const TOPIC_RE = /^([a-z][a-z0-9]{0,30})(?:[:@#][\x21-\x7e]{0,120})?$/

/** The topic's family, or null for a name that is not a topic. */
export function topicFamily(topic: string): string | null {
  return TOPIC_RE.exec(topic)?.[1] ?? null
}

/** Same as topicFamily, for topics this process makes: a bad one is a programming error. */
export function familyOf(topic: string): string {
  const family = topicFamily(topic)
  if (family === null) throw new RangeError(`not a bus topic: ${JSON.stringify(topic)}`)
  return family
}

export class LocalBus implements Bus {
  readonly shared = false
  private readonly topics = new Map<string, Set<(payload: unknown) => void>>()

  publish(topic: string, payload: unknown): void {
    const fns = this.topics.get(topic)
    if (!fns) return
    // A subscriber that unsubscribes another during delivery must not skip or repeat anyone.
    for (const fn of [...fns]) fn(payload)
  }

  subscribe(topic: string, fn: (payload: unknown) => void): () => void {
    familyOf(topic)
    // Each call is its own subscription, even of the same function (as an event emitter's listeners).
    const own = (payload: unknown) => fn(payload)
    let fns = this.topics.get(topic)
    if (!fns) this.topics.set(topic, (fns = new Set()))
    fns.add(own)
    return () => {
      fns.delete(own)
      if (fns.size === 0 && this.topics.get(topic) === fns) this.topics.delete(topic)
    }
  }

  async close(): Promise<void> {
    this.topics.clear()
  }
}

// ── The envelope PgBus sends ──────────────────────────────────────────────────────────────────

/**
 * One message on a family's channel. o: the publishing bus (random per process start); s: its
 * sequence on this channel (1, 2, …) — a receiver that sees s jump knows it missed messages; t: the
 * topic; p: the payload, or r: the bus_messages row holding it when it is too big for a NOTIFY.
 */
export type Envelope = { o: string; s: number; t: string } & ({ p: unknown } | { r: number })

/** NOTIFY refuses payloads of 8,000 bytes or more; beyond this a message goes through bus_messages. */
export const NOTIFY_LIMIT_BYTES = 7_500

const ORIGIN_RE = /^[0-9a-f]{8,32}$/

/**
 * A notification's text as an envelope of the channel's family, or why it is refused: it comes from
 * outside the process (any session of the database can NOTIFY), so nothing in it is trusted.
 */
export function parseEnvelope(text: string, family: string): { ok: true; env: Envelope } | { ok: false; why: string } {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    return { ok: false, why: 'not JSON' }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, why: 'not an object' }
  const e = v as Record<string, unknown>
  if (typeof e.o !== 'string' || !ORIGIN_RE.test(e.o)) return { ok: false, why: 'bad origin' }
  if (!Number.isSafeInteger(e.s) || (e.s as number) < 1) return { ok: false, why: 'bad sequence' }
  if (typeof e.t !== 'string' || topicFamily(e.t) !== family) return { ok: false, why: `topic not of ${family}` }
  const hasP = 'p' in e
  const hasR = 'r' in e
  if (hasP === hasR) return { ok: false, why: 'needs exactly one of payload and row' }
  if (hasR && (!Number.isSafeInteger(e.r) || (e.r as number) < 1)) return { ok: false, why: 'bad row id' }
  if (hasP && (typeof e.p !== 'object' || e.p === null)) return { ok: false, why: 'payload is not an object or array' }
  return { ok: true, env: e as Envelope }
}

/** A big message's payload read back from its row: JSON of an object or array, else null. */
export function parseStoredPayload(text: string): object | null {
  try {
    const v: unknown = JSON.parse(text)
    return typeof v === 'object' && v !== null ? v : null
  } catch {
    return null
  }
}

/**
 * Where each publisher on a channel stands, to find what was missed. A publisher's first message
 * seen sets its place (a receiver that starts listening late has missed nothing it could have had);
 * a jump past the next number is a gap; a number already seen is a repeat and is dropped.
 */
export class SequenceTracker {
  private readonly last = new Map<string, number>()

  /** 'next' (deliver), 'gap' (deliver, but messages before it were missed) or 'repeat' (drop). */
  see(channel: string, origin: string, seq: number): 'next' | 'gap' | 'repeat' {
    const key = `${channel} ${origin}`
    const before = this.last.get(key)
    if (before !== undefined && seq <= before) return 'repeat'
    this.last.set(key, seq)
    return before === undefined || seq === before + 1 ? 'next' : 'gap'
  }

  /** A channel listened to afresh starts over: what was sent while nobody listened is a gap already reported. */
  forget(channel: string): void {
    for (const key of this.last.keys()) if (key.startsWith(`${channel} `)) this.last.delete(key)
  }
}
