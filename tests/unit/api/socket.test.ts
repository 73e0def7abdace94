import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSocketClient, pushStream, SERVICE_RESTART, socketUrl, SOCKET_TIMING, type SocketClient, type SocketLike, type SocketState, type SocketTiming } from '../../../src/api/socket.ts'
import { subscribeBook, type LocalBook } from '../../../src/api/socketBook.ts'
import { bookChecksum } from '../../../contract/bookChecksum.ts'
import type { BookLevel } from '../../../contract/trade.ts'

/** A WebSocket the test plays the server of: it records what the client sends and delivers frames. */
class FakeSocket implements SocketLike {
  static all: FakeSocket[] = []
  sent: string[] = []
  closedWith: { code: number | undefined; reason: string | undefined } | null = null
  onopen: ((ev: Event) => void) | null = null
  onmessage: ((ev: MessageEvent) => void) | null = null
  onclose: ((ev: CloseEvent) => void) | null = null
  onerror: ((ev: Event) => void) | null = null

  constructor(readonly url: string) {
    FakeSocket.all.push(this)
  }
  send(data: string) {
    this.sent.push(data)
  }
  close(code?: number, reason?: string) {
    this.closedWith = { code, reason }
  }
  // The server's side.
  open() {
    this.onopen?.({} as Event)
  }
  receive(data: unknown) {
    this.onmessage?.({ data } as MessageEvent)
  }
  push(channel: string, instId: string | undefined, data: unknown[], action: 'snapshot' | 'update' = 'update') {
    this.receive(JSON.stringify({ arg: instId === undefined ? { channel } : { channel, instId }, action, data }))
  }
  drop(code: number) {
    this.onerror?.({} as Event)
    this.onclose?.({ code } as CloseEvent)
  }
  frames(): Record<string, unknown>[] {
    return this.sent.filter((s) => s !== 'ping').map((s) => JSON.parse(s) as Record<string, unknown>)
  }
  pings(): number {
    return this.sent.filter((s) => s === 'ping').length
  }
  /** SUBSCRIBE/UNSUBSCRIBE frames as "SUBSCRIBE books:NADI-USDT". */
  subs(): string[] {
    return this.frames()
      .filter((f) => f.method === 'SUBSCRIBE' || f.method === 'UNSUBSCRIBE')
      .map((f) => `${String(f.method)} ${(f.params as string[]).join(',')}`)
  }
  /** Acknowledges every frame sent so far that has an id, as the server would. */
  ackAll() {
    for (const f of this.frames()) if (typeof f.id === 'number') this.receive(JSON.stringify({ id: f.id, result: null }))
  }
}

const last = (): FakeSocket => {
  const s = FakeSocket.all.at(-1)
  if (!s) throw new Error('no socket was created')
  return s
}

let token: string | null
let isOnline: boolean
let network: ((online: boolean) => void) | null
let states: SocketState[]
const clients: SocketClient[] = []

function makeClient(timing: Partial<SocketTiming> = {}, random?: () => number): SocketClient {
  const client = createSocketClient({
    url: (t) => (t ? `ws://nadi.test/ws?token=${t}` : 'ws://nadi.test/ws'),
    token: () => token,
    WebSocket: FakeSocket,
    online: () => isOnline,
    watchNetwork: (fn) => {
      network = fn
      return () => (network = null)
    },
    timing,
    random,
  })
  client.onState((s) => states.push(s))
  clients.push(client)
  return client
}

/** A client with one live stream on an open socket. */
function connected(stream = 'books:NADI-USDT', onPush = vi.fn()) {
  const client = makeClient()
  const off = client.subscribe(stream, onPush)
  last().open()
  return { client, off, onPush, socket: last() }
}

beforeEach(() => {
  vi.useFakeTimers()
  FakeSocket.all = []
  token = null
  isOnline = true
  network = null
  states = []
})

afterEach(() => {
  for (const c of clients.splice(0)) c.destroy()
  vi.useRealTimers()
})

describe('connecting', () => {
  it('the first subscription opens the socket and subscribes once it is open', () => {
    const client = makeClient()
    expect(FakeSocket.all).toHaveLength(0) // nothing is opened before something needs it
    client.subscribe('books:NADI-USDT', () => {})
    expect(client.state.value).toBe('connecting')
    expect(last().url).toBe('ws://nadi.test/ws')
    expect(last().sent).toEqual([])
    last().open()
    expect(client.state.value).toBe('connected')
    expect(last().frames()).toEqual([{ method: 'SUBSCRIBE', params: ['books:NADI-USDT'], id: expect.any(Number) }])
    expect(states).toEqual(['connecting', 'connected'])
  })

  it('the token goes in the URL, and reconnect() follows a new token with every live stream', () => {
    token = 'aaa'
    const { client, socket } = connected('user@update_order')
    client.subscribe('books:NADI-USDT', () => {})
    expect(socket.url).toBe('ws://nadi.test/ws?token=aaa')
    token = 'bbb'
    client.reconnect()
    expect(socket.closedWith?.code).toBe(1000)
    expect(last()).not.toBe(socket)
    expect(last().url).toBe('ws://nadi.test/ws?token=bbb')
    last().open()
    // Public and private streams go in separate frames: the server refuses a whole frame for one refused stream.
    expect(last().subs().sort()).toEqual(['SUBSCRIBE books:NADI-USDT', 'SUBSCRIBE user@update_order'])
  })

  it('the app connects to /ws on its own host, wss under https, with the token escaped', () => {
    expect(socketUrl(null, { protocol: 'https:', host: 'nadi.app' })).toBe('wss://nadi.app/ws')
    expect(socketUrl('a+b/c', { protocol: 'http:', host: '192.168.1.5:3000' })).toBe('ws://192.168.1.5:3000/ws?token=a%2Bb%2Fc')
  })

  it('with the envelope on the token is followed by its proof: handshake, timestamp and sign', () => {
    const url = new URL(socketUrl('tok', { protocol: 'https:', host: 'nadi.app' }, { handshake: 'h'.repeat(22), timestamp: '1700000000000', sign: 's'.repeat(43) }))
    expect(Object.fromEntries(url.searchParams)).toEqual({ token: 'tok', handshake: 'h'.repeat(22), timestamp: '1700000000000', sign: 's'.repeat(43) })
  })

  it('a URL that must be signed first opens the socket once signed, and is signed afresh for every reconnect', async () => {
    token = 'tok'
    let signed = 0
    const client = createSocketClient({
      url: (t) => Promise.resolve(`ws://nadi.test/ws?token=${t}&sign=${++signed}`),
      token: () => token,
      WebSocket: FakeSocket,
      online: () => true,
      watchNetwork: () => () => {},
    })
    clients.push(client)
    client.subscribe('user@update_order', () => {})
    expect(FakeSocket.all).toHaveLength(0)
    expect(client.state.value).toBe('connecting')
    await vi.advanceTimersByTimeAsync(0)
    expect(last().url).toBe('ws://nadi.test/ws?token=tok&sign=1')
    last().open()
    last().drop(1006)
    await vi.advanceTimersByTimeAsync(SOCKET_TIMING.backoffFirstMs)
    expect(FakeSocket.all.map((f) => f.url)).toEqual(['ws://nadi.test/ws?token=tok&sign=1', 'ws://nadi.test/ws?token=tok&sign=2'])
  })

  it('a URL that cannot be signed (no handshake) backs off and tries again', async () => {
    token = 'tok'
    let fail = true
    const client = createSocketClient({
      url: (t) => (fail ? Promise.reject(new Error('handshake refused')) : Promise.resolve(`ws://nadi.test/ws?token=${t}`)),
      token: () => token,
      WebSocket: FakeSocket,
      online: () => true,
      watchNetwork: () => () => {},
    })
    clients.push(client)
    client.subscribe('books:NADI-USDT', () => {})
    await vi.advanceTimersByTimeAsync(0)
    expect(FakeSocket.all).toHaveLength(0)
    expect(client.state.value).toBe('reconnecting')
    fail = false
    await vi.advanceTimersByTimeAsync(SOCKET_TIMING.backoffFirstMs)
    expect(last().url).toBe('ws://nadi.test/ws?token=tok')
  })

  it('a sign-out while the signed URL is on its way wins: the late URL is never opened', async () => {
    token = 'tok'
    let resolveSlow: (u: string) => void = () => {}
    const slow = createSocketClient({
      url: (t) => (t ? new Promise<string>((r) => (resolveSlow = r)) : 'ws://nadi.test/ws'),
      token: () => token,
      WebSocket: FakeSocket,
      online: () => true,
      watchNetwork: () => () => {},
    })
    clients.push(slow)
    slow.subscribe('books:NADI-USDT', () => {})
    const pendingResolve = resolveSlow
    token = null
    slow.reconnect()
    pendingResolve('ws://nadi.test/ws?token=tok&late=1')
    await vi.advanceTimersByTimeAsync(0)
    expect(FakeSocket.all.map((f) => f.url).filter((u) => u.includes('late'))).toEqual([])
    expect(last().url).toBe('ws://nadi.test/ws')
  })

  it('a socket that does not open within 10 s is given up and retried', () => {
    const client = makeClient()
    client.subscribe('books:NADI-USDT', () => {})
    const first = last()
    vi.advanceTimersByTime(SOCKET_TIMING.connectTimeoutMs - 1)
    expect(first.closedWith).toBeNull()
    vi.advanceTimersByTime(1)
    expect(first.closedWith).not.toBeNull()
    expect(client.state.value).toBe('reconnecting')
    vi.advanceTimersByTime(1000)
    expect(FakeSocket.all).toHaveLength(2)
    last().open()
    expect(client.state.value).toBe('connected')
  })

  it('an open socket is not timed out by the connect timer', () => {
    const { client, socket } = connected()
    vi.advanceTimersByTime(SOCKET_TIMING.connectTimeoutMs + 1)
    expect(socket.closedWith).toBeNull()
    expect(client.state.value).toBe('connected')
  })
})

describe('heartbeat', () => {
  it('sends a text ping every 30 s and stays up while pongs come back', () => {
    const { client, socket } = connected()
    vi.advanceTimersByTime(SOCKET_TIMING.heartbeatMs - 1)
    expect(socket.pings()).toBe(0)
    vi.advanceTimersByTime(1)
    expect(socket.pings()).toBe(1)
    vi.advanceTimersByTime(9_999)
    socket.receive('pong')
    vi.advanceTimersByTime(SOCKET_TIMING.heartbeatMs)
    expect(socket.pings()).toBe(2)
    socket.receive('pong')
    vi.advanceTimersByTime(SOCKET_TIMING.pongTimeoutMs * 3)
    expect(socket.closedWith).toBeNull()
    expect(client.state.value).toBe('connected')
  })

  it('a ping without any answer within 10 s closes the socket and reconnects', () => {
    const { client, socket } = connected()
    vi.advanceTimersByTime(SOCKET_TIMING.heartbeatMs + SOCKET_TIMING.pongTimeoutMs - 1)
    expect(socket.closedWith).toBeNull()
    vi.advanceTimersByTime(1)
    expect(socket.closedWith).not.toBeNull()
    expect(client.state.value).toBe('reconnecting')
    vi.advanceTimersByTime(1000)
    expect(FakeSocket.all).toHaveLength(2)
  })

  it('any message, not only pong, counts as the answer', () => {
    const { socket } = connected()
    vi.advanceTimersByTime(SOCKET_TIMING.heartbeatMs + 5_000)
    socket.push('tickers', 'NADI-USDT', [{}])
    vi.advanceTimersByTime(6_000)
    expect(socket.closedWith).toBeNull()
  })

  it('after 120 s without any message a ping goes out, and no answer is a dead socket', () => {
    // The regular heartbeat pushed out of the way so only the silence rule is left to act.
    const client = makeClient({ heartbeatMs: 3_600_000 })
    client.subscribe('books:NADI-USDT', () => {})
    const socket = last()
    socket.open()
    vi.advanceTimersByTime(60_000)
    socket.receive('{"id":999,"result":null}') // silence restarts here, at 60 s
    vi.advanceTimersByTime(60_000) // network check at 120 s: 60 s of silence
    expect(socket.pings()).toBe(0)
    vi.advanceTimersByTime(60_000 * 1) // check at 180 s: 120 s of silence
    expect(socket.pings()).toBe(1)
    vi.advanceTimersByTime(SOCKET_TIMING.pongTimeoutMs)
    expect(socket.closedWith).not.toBeNull()
    expect(client.state.value).toBe('reconnecting')
  })
})

describe('reconnecting', () => {
  it('backs off 1, 2, 4 … 60 s, gives up after 10 attempts, and a later subscribe tries again', () => {
    const client = makeClient()
    client.subscribe('books:NADI-USDT', () => {})
    const delays: number[] = []
    last().drop(1006)
    for (;;) {
      const before = FakeSocket.all.length
      let waited = 0
      while (FakeSocket.all.length === before && waited < 600_000) {
        vi.advanceTimersByTime(250)
        waited += 250
      }
      if (FakeSocket.all.length === before) break
      delays.push(waited)
      expect(client.state.value).toBe('reconnecting')
      last().drop(1006)
    }
    expect(delays).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60, 60].map((s) => s * 1000))
    expect(client.state.value).toBe('error')
    expect(FakeSocket.all).toHaveLength(11)

    client.subscribe('tickers:NADI-USDT', () => {})
    expect(FakeSocket.all).toHaveLength(12)
    expect(client.state.value).toBe('connecting') // the attempts start over
    last().open()
    expect(client.state.value).toBe('connected')
    expect(last().subs().sort()).toEqual(['SUBSCRIBE books:NADI-USDT,tickers:NADI-USDT'])
  })

  it('5 min connected resets the attempts; a shorter stay does not', () => {
    const client = makeClient()
    client.subscribe('books:NADI-USDT', () => {})
    last().drop(1006) // attempt 1 after 1 s
    vi.advanceTimersByTime(1000)
    last().drop(1006) // attempt 2 after 2 s
    vi.advanceTimersByTime(2000)
    const keepAlive = (ms: number) => {
      for (let t = 0; t < ms; t += 10_000) {
        vi.advanceTimersByTime(10_000)
        last().receive('pong')
      }
    }
    last().open()
    keepAlive(SOCKET_TIMING.stableMs - 10_000)
    last().drop(1006)
    const before = FakeSocket.all.length
    vi.advanceTimersByTime(3999)
    expect(FakeSocket.all).toHaveLength(before) // not reset: the third attempt waits 4 s
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(before + 1)

    last().open()
    keepAlive(SOCKET_TIMING.stableMs)
    last().drop(1006)
    vi.advanceTimersByTime(1000)
    expect(FakeSocket.all).toHaveLength(before + 2) // reset: back to 1 s
  })

  it.each([1000, 1001, 1005])('close code %i does not reconnect, until the app subscribes anew', (code) => {
    const { client, socket } = connected()
    client.subscribe('trades:NADI-USDT', () => {})
    socket.drop(code)
    expect(client.state.value).toBe('disconnected')
    vi.advanceTimersByTime(600_000)
    expect(FakeSocket.all).toHaveLength(1)
    client.subscribe('tickers:NADI-USDT', () => {})
    expect(FakeSocket.all).toHaveLength(2)
    last().open()
    expect(last().subs()).toEqual(['SUBSCRIBE books:NADI-USDT,trades:NADI-USDT,tickers:NADI-USDT'])
  })

  it('close code 1006 reconnects after 1 s and subscribes every live stream again', () => {
    const { client, socket } = connected()
    const offTrades = client.subscribe('trades:NADI-USDT', () => {})
    client.subscribe('user@balance', () => {})
    offTrades()
    socket.drop(1006)
    expect(client.state.value).toBe('reconnecting')
    vi.advanceTimersByTime(999)
    expect(FakeSocket.all).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(2)
    expect(client.state.value).toBe('reconnecting')
    last().open()
    expect(client.state.value).toBe('connected')
    expect(last().subs()).toEqual(['SUBSCRIBE books:NADI-USDT', 'SUBSCRIBE user@balance'])
  })

  it('close code 1012 (a server process restarting) reconnects within the jitter, not the backoff, and subscribes every live stream again', () => {
    const client = makeClient({}, () => 0.25)
    client.subscribe('books:NADI-USDT', () => {})
    client.subscribe('user@balance', () => {})
    last().open()
    last().drop(SERVICE_RESTART)
    expect(client.state.value).toBe('reconnecting')
    vi.advanceTimersByTime(0.25 * SOCKET_TIMING.restartJitterMs - 1)
    expect(FakeSocket.all).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(2)
    last().open()
    expect(client.state.value).toBe('connected')
    expect(last().subs()).toEqual(['SUBSCRIBE books:NADI-USDT', 'SUBSCRIBE user@balance'])
  })

  it('the sockets of a restarting process come back spread over the jitter window', () => {
    const waits = [0, 0.5, 0.999].map((r) => {
      const before = FakeSocket.all.length
      makeClient({}, () => r).subscribe('books:NADI-USDT', () => {})
      const socket = last()
      socket.open()
      socket.drop(SERVICE_RESTART)
      let waited = 0
      while (FakeSocket.all.length === before + 1) {
        vi.advanceTimersByTime(1)
        waited++
      }
      return waited
    })
    expect(waits).toEqual([1, 500, 999]) // a timer of 0 ms fires on the first tick
  })

  it('a restart leaves the backoff where it was: a reconnect that then fails waits the backoff', () => {
    const client = makeClient({}, () => 0)
    client.subscribe('books:NADI-USDT', () => {})
    last().open()
    last().drop(SERVICE_RESTART)
    vi.advanceTimersByTime(0)
    expect(FakeSocket.all).toHaveLength(2)
    last().drop(1006) // the balancer had nobody to send it to
    vi.advanceTimersByTime(SOCKET_TIMING.backoffFirstMs - 1)
    expect(FakeSocket.all).toHaveLength(2)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(3)
    expect(client.state.value).toBe('reconnecting')
  })

  it('a stream with no listener left is not kept alive by a reconnect', () => {
    const { off, socket } = connected()
    off()
    socket.drop(1006)
    expect(states.at(-1)).toBe('disconnected')
    vi.advanceTimersByTime(600_000)
    expect(FakeSocket.all).toHaveLength(1)
  })
})

describe('network', () => {
  it('offline closes the socket without burning attempts, online reconnects at once', () => {
    const { client, socket } = connected()
    isOnline = false
    network?.(false)
    expect(socket.closedWith).not.toBeNull()
    expect(client.state.value).toBe('disconnected')
    vi.advanceTimersByTime(3_600_000)
    expect(FakeSocket.all).toHaveLength(1)
    expect(client.state.value).toBe('disconnected') // an hour offline is not 10 failed attempts
    isOnline = true
    network?.(true)
    expect(FakeSocket.all).toHaveLength(2)
    expect(client.state.value).toBe('connecting')
    last().open()
    expect(last().subs()).toEqual(['SUBSCRIBE books:NADI-USDT'])
  })

  it('the 60 s network check notices offline and online without any event', () => {
    const { client } = connected()
    isOnline = false
    vi.advanceTimersByTime(SOCKET_TIMING.networkCheckMs)
    expect(client.state.value).toBe('disconnected')
    isOnline = true
    vi.advanceTimersByTime(SOCKET_TIMING.networkCheckMs - 1)
    expect(FakeSocket.all).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(2)
    expect(client.state.value).toBe('connecting')
  })

  it('a failure while the app is offline waits for the network instead of counting an attempt', () => {
    const { client, socket } = connected()
    isOnline = false
    socket.drop(1006)
    expect(client.state.value).toBe('disconnected')
    vi.advanceTimersByTime(600_000)
    expect(FakeSocket.all).toHaveLength(1)
    isOnline = true
    network?.(true)
    expect(FakeSocket.all).toHaveLength(2)
  })

  it('coming online gets a client out of error', () => {
    const client = makeClient({ maxAttempts: 1 })
    client.subscribe('books:NADI-USDT', () => {})
    last().drop(1006)
    vi.advanceTimersByTime(1000)
    last().drop(1006)
    expect(client.state.value).toBe('error')
    network?.(true)
    expect(FakeSocket.all).toHaveLength(3)
  })
})

describe('subscriptions', () => {
  it('several listeners of one stream share one SUBSCRIBE, and the last one out unsubscribes', () => {
    const { client, off, onPush, socket } = connected()
    const second = vi.fn()
    const offSecond = client.subscribe('books:NADI-USDT', second)
    expect(socket.subs()).toEqual(['SUBSCRIBE books:NADI-USDT'])
    socket.push('books', 'NADI-USDT', [{ n: 1 }])
    expect(onPush).toHaveBeenCalledTimes(1)
    expect(second).toHaveBeenCalledTimes(1)
    off()
    off() // twice is once
    expect(socket.subs()).toEqual(['SUBSCRIBE books:NADI-USDT'])
    socket.push('books', 'NADI-USDT', [{ n: 2 }])
    expect(onPush).toHaveBeenCalledTimes(1)
    expect(second).toHaveBeenCalledTimes(2)
    offSecond()
    expect(socket.subs()).toEqual(['SUBSCRIBE books:NADI-USDT', 'UNSUBSCRIBE books:NADI-USDT'])
  })

  it('pushes reach the stream named by channel and instId; user@ streams by channel alone', () => {
    const client = makeClient()
    const books = vi.fn()
    const candles = vi.fn()
    const orders = vi.fn()
    const otherInst = vi.fn()
    client.subscribe('books:NADI-USDT', books)
    client.subscribe('candle1m:NADI-USDT', candles)
    client.subscribe('user@update_order', orders)
    client.subscribe('books:BTC-USDT', otherInst)
    last().open()
    last().push('books', 'NADI-USDT', [{ a: 1 }], 'snapshot')
    last().push('candle1m', 'NADI-USDT', [[1, '1', '1', '1', '1', '0', '0']])
    last().push('user@update_order', 'NADI-USDT', [{ id: 7 }])
    expect(books).toHaveBeenCalledWith({ arg: { channel: 'books', instId: 'NADI-USDT' }, action: 'snapshot', data: [{ a: 1 }] })
    expect(candles).toHaveBeenCalledTimes(1)
    expect(orders).toHaveBeenCalledTimes(1)
    expect(otherInst).not.toHaveBeenCalled()
    expect(pushStream({ arg: { channel: 'user@balance' }, action: 'update', data: [] })).toBe('user@balance')
  })

  it('resubscribe sends UNSUBSCRIBE then SUBSCRIBE for that stream', () => {
    const { client, socket } = connected()
    client.resubscribe('books:NADI-USDT')
    expect(socket.subs()).toEqual(['SUBSCRIBE books:NADI-USDT', 'UNSUBSCRIBE books:NADI-USDT', 'SUBSCRIBE books:NADI-USDT'])
  })

  it('the socket closes 30 s after the last subscription ends, and the next subscribe opens it again', () => {
    const { client, off, socket } = connected()
    off()
    vi.advanceTimersByTime(SOCKET_TIMING.idleCloseMs - 1)
    expect(socket.closedWith).toBeNull()
    vi.advanceTimersByTime(1)
    expect(socket.closedWith?.code).toBe(1000)
    expect(client.state.value).toBe('disconnected')
    vi.advanceTimersByTime(600_000)
    expect(FakeSocket.all).toHaveLength(1)
    client.subscribe('tickers:NADI-USDT', () => {})
    expect(FakeSocket.all).toHaveLength(2)
  })

  it('a subscription within the 30 s keeps the socket open', () => {
    const { client, off, socket } = connected()
    const answerPings = (ms: number) => {
      for (let t = 0; t < ms; t += 5_000) {
        vi.advanceTimersByTime(5_000)
        socket.receive('pong')
      }
    }
    off()
    answerPings(20_000)
    client.subscribe('tickers:NADI-USDT', () => {})
    answerPings(60_000)
    expect(socket.closedWith).toBeNull()
    expect(FakeSocket.all).toHaveLength(1)
  })

  it('malformed frames are ignored and the stream goes on', () => {
    const { client, onPush, socket } = connected()
    const p = client.request('GET_TIME')
    const junk: unknown[] = [
      'not json',
      '{"arg":',
      'null',
      '42',
      '[1,2]',
      '"text"',
      new ArrayBuffer(4),
      JSON.stringify({ arg: { channel: 'books', instId: 'NADI-USDT' }, action: 'update' }), // no data
      JSON.stringify({ arg: { channel: 'books', instId: 'NADI-USDT' }, action: 'delete', data: [] }),
      JSON.stringify({ arg: 'books', action: 'update', data: [] }),
      JSON.stringify({ arg: { channel: 7 }, action: 'update', data: [] }),
      JSON.stringify({ id: 12345, result: 1 }), // nobody asked
      JSON.stringify({ id: null, error: { code: 429, msg: 'too many messages' } }),
      JSON.stringify({ id: '2', result: 1 }),
    ]
    for (const j of junk) expect(() => socket.receive(j)).not.toThrow()
    expect(onPush).not.toHaveBeenCalled()
    socket.push('books', 'NADI-USDT', [{ ok: true }])
    expect(onPush).toHaveBeenCalledTimes(1)
    expect(client.state.value).toBe('connected')
    const id = socket.frames().find((f) => f.method === 'GET_TIME')?.id
    socket.receive(JSON.stringify({ id, result: 1_700_000_000_000 }))
    return expect(p).resolves.toBe(1_700_000_000_000)
  })

  it('a book gap seen by two screens on one stream resubscribes once', () => {
    const { client, off, socket } = connected('tickers:NADI-USDT')
    const books: LocalBook[] = []
    subscribeBook(client, 'NADI-USDT', (b) => books.push(b))
    subscribeBook(client, 'NADI-USDT', (b) => books.push(b))
    off()
    const asks: BookLevel[] = [['1.5', '2']]
    const bids: BookLevel[] = [['1.4', '3']]
    const checksum = bookChecksum(bids, asks)
    socket.push('books', 'NADI-USDT', [{ asks, bids, ts: 1, seqId: 10, prevSeqId: -1, checksum }], 'snapshot')
    expect(books).toHaveLength(2)
    socket.push('books', 'NADI-USDT', [{ asks: [], bids: [], ts: 2, seqId: 12, prevSeqId: 11, checksum }])
    expect(socket.subs().filter((s) => s.endsWith('books:NADI-USDT'))).toEqual([
      'SUBSCRIBE books:NADI-USDT',
      'UNSUBSCRIBE books:NADI-USDT',
      'SUBSCRIBE books:NADI-USDT',
    ])
  })
})

describe('requests', () => {
  it('GET_TIME resolves with the server time from the ack with its id', async () => {
    const { client, socket } = connected()
    socket.ackAll()
    const a = client.serverTime()
    const b = client.request('GET_TIME')
    const [fa, fb] = socket.frames().filter((f) => f.method === 'GET_TIME')
    expect(fa).toEqual({ method: 'GET_TIME', id: expect.any(Number) })
    expect(fa?.id).not.toBe(fb?.id)
    socket.receive(JSON.stringify({ id: fb?.id, result: 2 }))
    socket.receive(JSON.stringify({ id: fa?.id, result: 1 }))
    await expect(a).resolves.toBe(1)
    await expect(b).resolves.toBe(2)
  })

  it('an error frame rejects with its code and message', async () => {
    const { client, socket } = connected()
    const p = client.request('SUBSCRIBE', ['user@balance'])
    const f = socket.frames().at(-1)
    expect(f).toEqual({ method: 'SUBSCRIBE', params: ['user@balance'], id: expect.any(Number) })
    socket.receive(JSON.stringify({ id: f?.id, error: { code: 401, msg: 'user@balance needs a signed-in connection' } }))
    await expect(p).rejects.toMatchObject({ code: 401, message: 'user@balance needs a signed-in connection' })
  })

  it('an unanswered request rejects after its timeout', async () => {
    const { client } = connected()
    const p = client.request('GET_TIME')
    const seen = p.catch((e: unknown) => e)
    vi.advanceTimersByTime(SOCKET_TIMING.requestTimeoutMs)
    expect(await seen).toMatchObject({ code: 0, message: 'GET_TIME timed out' })
  })

  it('a request made before the socket opens is sent once it does', async () => {
    const client = makeClient()
    const p = client.serverTime()
    expect(last().sent).toEqual([]) // the request itself opened the socket
    last().open()
    const f = last().frames()[0]
    expect(f?.method).toBe('GET_TIME')
    last().receive(JSON.stringify({ id: f?.id, result: 5 }))
    await expect(p).resolves.toBe(5)
  })

  it('a request in flight when the socket dies is rejected, not left hanging', async () => {
    const { client, socket } = connected()
    const p = client.request('GET_TIME')
    socket.drop(1006)
    await expect(p).rejects.toMatchObject({ message: 'socket closed' })
  })
})
