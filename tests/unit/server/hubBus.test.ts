// The socket hub over a bus (server/ws/hub.ts, server/roles/bus.ts): two hubs on one shared bus relay
// each other's pushes to their own sockets; what arrives from another process is checked against its
// stream; a gap resends a snapshot where the stream has one and reconnects the socket where not.

import { EventEmitter } from 'node:events'
import type { WebSocket } from 'ws'
import { describe, expect, it } from 'vitest'
import type { AuthUser } from '../../../server/http/types.ts'
import { LocalBus, type Bus, type GapHandler } from '../../../server/roles/bus.ts'
import { pushRefusal, streamOfTopic } from '../../../server/ws/frames.ts'
import { busPublisher, Hub, MISSED_UPDATES, SERVICE_RESTART, type StreamFamily } from '../../../server/ws/hub.ts'

const WS = { maxSubscriptions: 50, maxMessagesPerSecond: 1000, heartbeatMs: 30_000, maxPayload: 4096 }

/** The part of a ws socket the hub uses; what it was sent, and how it was closed. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1
  readyState = 1
  sent: unknown[] = []
  closed: number | null = null
  send(text: string) {
    this.sent.push(text === 'pong' ? text : JSON.parse(text))
  }
  close(code: number) {
    this.closed = code
    this.readyState = 3
    this.emit('close')
  }
  ping() {}
  terminate() {}
  say(frame: unknown) {
    this.emit('message', Buffer.from(JSON.stringify(frame)), false)
  }
}

/**
 * A bus between hubs of "different processes" in one test: shared, every payload crossing as JSON
 * text (as through PostgreSQL), delivered synchronously; gap() plays a lost connection.
 */
class CrossBus {
  private readonly subs = new Set<{ topic: string; fn: (p: unknown) => void; onGap?: GapHandler }>()
  /** Each process's view of the bus. */
  side(): Bus {
    return {
      shared: true,
      publish: (topic, payload) => {
        const text = JSON.stringify(payload)
        for (const s of [...this.subs]) if (s.topic === topic) s.fn(JSON.parse(text))
      },
      subscribe: (topic, fn, onGap) => {
        const s = { topic, fn, onGap }
        this.subs.add(s)
        return () => void this.subs.delete(s)
      },
      close: async () => {},
    }
  }
  /** A raw payload arriving on a topic, as a foreign NOTIFY would. */
  inject(topic: string, payload: unknown) {
    for (const s of [...this.subs]) if (s.topic === topic) s.fn(payload)
  }
  gap(topic: string) {
    for (const s of [...this.subs]) if (s.topic === topic) s.onGap?.()
  }
  topics(): string[] {
    return [...this.subs].map((s) => s.topic).sort()
  }
}

const user = (id: number): AuthUser => ({ id, sessionId: id * 10 }) as AuthUser

const book = (seqId: number) => ({ asks: [['1.5', '2']], bids: [], ts: 1, seqId, prevSeqId: seqId - 1, checksum: 7 })
const bookPush = (seqId: number, instId = 'NADI-USDT') => ({ arg: { channel: 'books', instId }, action: 'update', data: [book(seqId)] })

function hubOn(bus: Bus, log: string[] = []): Hub {
  const hub = new Hub(WS, () => 0, undefined, { bus, log: { warn: (o) => void log.push((o as { why: string }).why) } })
  const snapshots: StreamFamily = {
    private: false,
    matches: (s) => s === 'books:NADI-USDT',
    onSubscribe: (conn) => conn.send({ arg: { channel: 'books', instId: 'NADI-USDT' }, action: 'snapshot', data: [{ ...book(1), prevSeqId: -1 }] }),
  }
  hub.register(snapshots)
  hub.register({ private: true, matches: (s) => s === 'user@update_order' })
  return hub
}

function socketOn(hub: Hub, u: AuthUser | null, streams: string[]): FakeSocket {
  const s = new FakeSocket()
  hub.attach(s as unknown as WebSocket, u)
  s.say({ method: 'SUBSCRIBE', params: streams, id: 1 })
  s.sent = []
  return s
}

describe('pushRefusal: a push from another process must be one of its stream', () => {
  it('accepts the pushes the server makes', () => {
    expect(pushRefusal('books:NADI-USDT', bookPush(2))).toBeNull()
    expect(pushRefusal('user@update_order#4', { arg: { channel: 'user@update_order' }, action: 'update', data: [{}] })).toBeNull()
    expect(pushRefusal('ranking', { arg: { channel: 'ranking' }, action: 'update', data: [] })).toBeNull()
    expect(pushRefusal('candle1m:NADI-USDT', { arg: { channel: 'candle1m', instId: 'NADI-USDT' }, action: 'snapshot', data: [] })).toBeNull()
  })

  it.each([
    ['not an object', [1], 'not an object'],
    ['another action', { ...bookPush(2), action: 'delete' }, 'action is neither snapshot nor update'],
    ['no data list', { ...bookPush(2), data: {} }, 'data is not a list'],
    ['no arg', { action: 'update', data: [] }, 'no arg'],
    ['another channel', { ...bookPush(2), arg: { channel: 'trades', instId: 'NADI-USDT' } }, 'channel is not books'],
    ['another market', bookPush(2, 'BTC-USDT'), 'instId is not NADI-USDT'],
    ['a book without its checksum', { ...bookPush(2), data: [{ ...book(2), checksum: 'x' }] }, 'a book item without its levels, seqId, prevSeqId or checksum'],
    ['a book with unreadable levels', { ...bookPush(2), data: [{ ...book(2), asks: [['abc', '1']] }] }, 'a book item without its levels, seqId, prevSeqId or checksum'],
  ])('refuses %s', (_name, frame, why) => {
    expect(pushRefusal('books:NADI-USDT', frame)).toBe(why)
  })

  it('a private stream carries no instId, and its topic names its owner', () => {
    expect(pushRefusal('user@balance#4', { arg: { channel: 'user@balance', instId: 'X' }, action: 'update', data: [] })).toBe('an instId on a stream without one')
    expect(streamOfTopic('user@balance#4')).toBe('user@balance')
    expect(streamOfTopic('books:NADI-USDT')).toBe('books:NADI-USDT')
  })
})

describe('Hub over a bus', () => {
  it('a push published on one process reaches the subscribed sockets of another, in order, and a private push only its owner', () => {
    const cross = new CrossBus()
    const a = hubOn(cross.side())
    const b = hubOn(cross.side())
    const onB = socketOn(b, user(7), ['books:NADI-USDT', 'user@update_order'])
    const otherOnB = socketOn(b, user(8), ['user@update_order'])
    const onA = socketOn(a, null, ['books:NADI-USDT'])
    for (let n = 2; n <= 5; n++) a.publish('books:NADI-USDT', bookPush(n))
    a.publishToUser(7, 'user@update_order', { arg: { channel: 'user@update_order' }, action: 'update', data: [{ ordId: '1' }] })
    expect(onB.sent.map((f) => (f as { data: { seqId?: number }[] }).data[0]!.seqId ?? 'order')).toEqual([2, 3, 4, 5, 'order'])
    expect(onA.sent).toHaveLength(4)
    expect(otherOnB.sent).toEqual([])
  })

  it('a process with no sockets (jobs, engine) publishes through the bus as a hub would, and builds every push', () => {
    const cross = new CrossBus()
    const api = hubOn(cross.side())
    const jobs = busPublisher(cross.side())
    const s = socketOn(api, user(7), ['user@update_order'])
    const frame = { arg: { channel: 'user@update_order' }, action: 'update', data: [{ ordId: '9' }] }
    jobs.publishToUser(7, 'user@update_order', frame)
    jobs.publishToUser(8, 'user@update_order', frame)
    expect(s.sent).toEqual([frame])
    expect(jobs.listening?.('user@update_order', 8)).toBe(true)
  })

  it('subscribes a topic on the bus while a socket here wants it, and lets it go after the last one leaves', () => {
    const cross = new CrossBus()
    const hub = hubOn(cross.side())
    const s1 = socketOn(hub, user(7), ['books:NADI-USDT', 'user@update_order'])
    const s2 = socketOn(hub, null, ['books:NADI-USDT'])
    expect(cross.topics()).toEqual(['books:NADI-USDT', 'user@update_order#7'])
    s1.close(1000)
    expect(cross.topics()).toEqual(['books:NADI-USDT'])
    s2.say({ method: 'UNSUBSCRIBE', params: ['books:NADI-USDT'], id: 2 })
    expect(cross.topics()).toEqual([])
  })

  it('across processes every push is built (a subscriber may be elsewhere); in one process only a listened one', () => {
    expect(hubOn(new CrossBus().side()).listening('user@balance', 3)).toBe(true)
    const local = hubOn(new LocalBus())
    expect(local.listening('books:NADI-USDT')).toBe(false)
    socketOn(local, null, ['books:NADI-USDT'])
    expect(local.listening('books:NADI-USDT')).toBe(true)
  })

  it('a malformed push from the bus reaches no socket: it is logged and the book is sent afresh', () => {
    const cross = new CrossBus()
    const log: string[] = []
    const hub = hubOn(cross.side(), log)
    const s = socketOn(hub, null, ['books:NADI-USDT'])
    cross.inject('books:NADI-USDT', bookPush(2, 'BTC-USDT'))
    expect(log).toEqual(['instId is not NADI-USDT'])
    expect(s.sent).toEqual([{ arg: { channel: 'books', instId: 'NADI-USDT' }, action: 'snapshot', data: [{ ...book(1), prevSeqId: -1 }] }])
  })

  it('after a gap a stream with a snapshot gets it again; one without one has its socket reconnect', () => {
    const cross = new CrossBus()
    const hub = hubOn(cross.side())
    const s = socketOn(hub, user(7), ['books:NADI-USDT', 'user@update_order'])
    cross.gap('books:NADI-USDT')
    expect(s.sent).toEqual([{ arg: { channel: 'books', instId: 'NADI-USDT' }, action: 'snapshot', data: [{ ...book(1), prevSeqId: -1 }] }])
    expect(s.closed).toBeNull()
    cross.gap('user@update_order#7')
    expect(s.closed).toBe(MISSED_UPDATES)
  })

  it("while a stream's state is not known here its pushes are held back, and its subscribers get one snapshot once it is", () => {
    const cross = new CrossBus()
    const hub = new Hub(WS, () => 0, undefined, { bus: cross.side() })
    // A mirror of the book: known at seqId 1, then lost (a rebuilt engine, a gap), then known at 9.
    let known = true
    let seq = 1
    const waiting: (() => void)[] = []
    const whenKnown = (fn: () => void) => (known ? fn() : waiting.push(fn))
    hub.register({
      private: false,
      matches: (s) => s === 'books:NADI-USDT',
      live: () => known,
      onSubscribe: (conn) => whenKnown(() => conn.send({ arg: { channel: 'books', instId: 'NADI-USDT' }, action: 'snapshot', data: [{ ...book(seq), prevSeqId: -1 }] })),
    })
    const s = new FakeSocket()
    hub.attach(s as unknown as WebSocket, null)
    s.say({ method: 'SUBSCRIBE', params: ['books:NADI-USDT'], id: 1 })
    const seqs = () => s.sent.flatMap((f) => ('action' in (f as object) ? [`${(f as { action: string }).action} ${(f as { data: { seqId: number }[] }).data[0]!.seqId}`] : []))
    hub.publish('books:NADI-USDT', bookPush(2))
    known = false
    for (let n = 6; n <= 8; n++) hub.publish('books:NADI-USDT', bookPush(n))
    expect(seqs()).toEqual(['snapshot 1', 'update 2'])
    known = true
    seq = 8
    for (const fn of waiting.splice(0)) fn()
    hub.publish('books:NADI-USDT', bookPush(9))
    expect(seqs()).toEqual(['snapshot 1', 'update 2', 'snapshot 8', 'update 9'])
  })

  it('a stream name no bus could carry is refused as unknown, whatever a family matches', () => {
    const hub = hubOn(new LocalBus())
    hub.register({ private: false, matches: (s) => s.startsWith('Odd ') })
    const s = new FakeSocket()
    hub.attach(s as unknown as WebSocket, null)
    s.say({ method: 'SUBSCRIBE', params: ['Odd stream'], id: 1 })
    expect(s.sent).toEqual([{ id: 1, error: { code: 404, msg: 'unknown stream Odd stream' } }])
  })
})

describe('Hub.stop', () => {
  it('closes every socket with 1012 (service restart), so the app reconnects to another process at once', () => {
    const hub = hubOn(new LocalBus())
    const sockets = [socketOn(hub, null, ['books:NADI-USDT']), socketOn(hub, user(1), ['user@update_order'])]
    hub.stop()
    expect(SERVICE_RESTART).toBe(1012)
    expect(sockets.map((s) => s.closed)).toEqual([1012, 1012])
    expect(hub.connectionCount).toBe(0)
  })
})
