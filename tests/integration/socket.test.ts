import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ROOT_CODE, useServers, type TestServer } from './support/server.ts'
import { Client } from './support/wsClient.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers()

describe('/ws socket', () => {
  it("'ping' text is answered with 'pong'", async () => {
    const s = await start()
    const c = await Client.open(s)
    c.send('ping')
    expect(await c.nextText()).toBe('pong')
    c.close()
  })

  it('GET_TIME answers { id, result } with the server time in milliseconds', async () => {
    const s = await start()
    const c = await Client.open(s)
    c.send({ method: 'GET_TIME', id: 7 })
    expect(await c.next()).toEqual({ id: 7, result: s.clock.now() })
    s.clock.advance(1234)
    c.send({ method: 'GET_TIME', id: 'abc' })
    const frame = await c.next<{ id: string; result: number }>()
    expect(frame.id).toBe('abc')
    expect(typeof frame.result).toBe('number')
    expect(frame.result).toBe(s.clock.now())
    c.close()
  })

  it('a frame without a usable id is answered with id null', async () => {
    const s = await start()
    const c = await Client.open(s)
    c.send({ method: 'GET_TIME' })
    expect(await c.next()).toEqual({ id: null, result: s.clock.now() })
    c.send({ method: 'GET_TIME', id: { nested: true } })
    expect((await c.next()).id).toBeNull()
    c.close()
  })

  it('SUBSCRIBE to a stream nobody serves answers an error frame with code 404', async () => {
    const s = await start()
    const c = await Client.open(s)
    c.send({ method: 'SUBSCRIBE', params: ['books:NOPE-USDT'], id: 1 })
    const frame = await c.next<{ id: number; error: { code: number; msg: string } }>()
    expect(frame.id).toBe(1)
    expect(frame.error.code).toBe(404)
    expect(frame.error.msg).toContain('books:NOPE-USDT')
    expect(c.open).toBe(true)
    c.close()
  })

  it('SUBSCRIBE with params that are not 1–10 stream names answers an error frame with code 400', async () => {
    const s = await start()
    const c = await Client.open(s)
    for (const params of [undefined, [], 'books:X', [1], Array.from({ length: 11 }, (_, i) => `s${i}`), ['x'.repeat(65)]]) {
      c.send({ method: 'SUBSCRIBE', params, id: 3 })
      expect(await c.next(), JSON.stringify(params)).toMatchObject({ id: 3, error: { code: 400 } })
    }
    c.close()
  })

  it('malformed frames (not JSON, a JSON array, a scalar, an unknown method, binary) are ignored and the connection stays open', async () => {
    const s = await start()
    const c = await Client.open(s)
    c.send('{not json')
    c.send('[1,2,3]')
    c.send('42')
    c.send('null')
    c.send({ method: 'DELETE_EVERYTHING', id: 5 })
    c.send({ id: 6 })
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true })
    // The first answer is the one to the valid frame sent last: nothing answered the bad ones.
    c.send({ method: 'GET_TIME', id: 9 })
    expect(await c.next()).toEqual({ id: 9, result: s.clock.now() })
    expect(c.open).toBe(true)
    expect(await c.silent()).toBe(true)
    c.close()
  })

  it('over 20 frames a second get one error frame (429) and are dropped, but the connection stays open', async () => {
    const s = await start()
    const c = await Client.open(s)
    for (let i = 1; i <= 25; i++) c.send({ method: 'GET_TIME', id: i })
    const frames: { id: number | null; result?: number; error?: { code: number } }[] = []
    for (let i = 0; i < 21; i++) frames.push(await c.next())
    expect(frames.slice(0, 20).map((f) => f.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(frames[20]).toMatchObject({ id: null, error: { code: 429 } })
    // One warning per second, not one per dropped frame.
    expect(await c.silent()).toBe(true)
    expect(c.open).toBe(true)
    expect(c.closed).toBeNull()

    s.clock.advance(1000)
    c.send({ method: 'GET_TIME', id: 99 })
    expect(await c.next()).toMatchObject({ id: 99 })
    c.close()
  })

  it('a frame larger than the 4 KiB limit closes the connection with 1009', async () => {
    const s = await start()
    const c = await Client.open(s)
    c.send('x'.repeat(5000))
    await new Promise((r) => c.ws.once('close', r))
    expect(c.closed?.code).toBe(1009)
  })
})

describe('/ws streams', () => {
  /** A public ticker family with a snapshot on subscribe, and the private user@test family. */
  function registerFamilies(s: TestServer) {
    s.hub.register({
      matches: (stream) => stream.startsWith('tickers:'),
      private: false,
      onSubscribe: (conn, stream) => conn.send({ arg: { channel: 'tickers', instId: stream.slice(8) }, action: 'snapshot', data: [{ last: '1' }] }),
    })
    s.hub.register({ matches: (stream) => stream === 'user@test', private: true })
  }

  it('SUBSCRIBE is acknowledged with { id, result: null }, then the stream’s snapshot and pushes follow', async () => {
    const s = await start()
    registerFamilies(s)
    const c = await Client.open(s)
    c.send({ method: 'SUBSCRIBE', params: ['tickers:NADI-USDT'], id: 1 })
    expect(await c.next()).toEqual({ id: 1, result: null })
    expect(await c.next()).toMatchObject({ arg: { channel: 'tickers', instId: 'NADI-USDT' }, action: 'snapshot' })
    s.hub.publish('tickers:NADI-USDT', { arg: { channel: 'tickers', instId: 'NADI-USDT' }, action: 'update', data: [{ last: '2' }] })
    expect(await c.next()).toMatchObject({ action: 'update', data: [{ last: '2' }] })

    c.send({ method: 'UNSUBSCRIBE', params: ['tickers:NADI-USDT'], id: 2 })
    expect(await c.next()).toEqual({ id: 2, result: null })
    s.hub.publish('tickers:NADI-USDT', { action: 'update', data: [] })
    expect(await c.silent()).toBe(true)
    c.close()
  })

  it('a private user@ stream needs a signed-in connection (401 without a token or with a bad one)', async () => {
    const s = await start()
    registerFamilies(s)
    for (const token of [undefined, 'garbage-token-that-is-long-enough']) {
      const c = await Client.open(s, token)
      c.send({ method: 'SUBSCRIBE', params: ['user@test'], id: 4 })
      expect(await c.next()).toMatchObject({ id: 4, error: { code: 401 } })
      c.close()
    }
  })

  it('a user@ push reaches only its owner, never another signed-in user on the same stream', async () => {
    const s = await start()
    registerFamilies(s)
    const alice = await s.signIn(ROOT_CODE)
    const bob = await s.signIn(ROOT_CODE)
    const a = await Client.open(s, alice.token)
    const b = await Client.open(s, bob.token)
    for (const c of [a, b]) {
      c.send({ method: 'SUBSCRIBE', params: ['user@test'], id: 1 })
      expect(await c.next()).toEqual({ id: 1, result: null })
    }
    s.hub.publishToUser(alice.userId, 'user@test', { arg: { channel: 'balance' }, action: 'update', data: [{ ccy: 'NADI', bal: '5' }] })
    expect(await a.next()).toMatchObject({ data: [{ ccy: 'NADI', bal: '5' }] })
    expect(await b.silent()).toBe(true)
    // A broadcast on the bare private name reaches nobody.
    s.hub.publish('user@test', { action: 'update', data: [] })
    expect(await a.silent()).toBe(true)
    a.close()
    b.close()
  })

  it('at most 50 subscriptions per connection; the refused SUBSCRIBE answers 429 and adds none', async () => {
    const s = await start()
    registerFamilies(s)
    const c = await Client.open(s)
    for (let batch = 0; batch < 5; batch++) {
      c.send({ method: 'SUBSCRIBE', params: Array.from({ length: 10 }, (_, i) => `tickers:T${batch * 10 + i}`), id: batch })
      expect(await c.next()).toEqual({ id: batch, result: null })
      for (let i = 0; i < 10; i++) await c.next() // snapshots
    }
    c.send({ method: 'SUBSCRIBE', params: ['tickers:ONE-MORE'], id: 'x' })
    expect(await c.next()).toMatchObject({ id: 'x', error: { code: 429 } })
    s.hub.publish('tickers:ONE-MORE', { action: 'update', data: [] })
    expect(await c.silent()).toBe(true)
    // Subscribing again to one it already has is fine.
    c.send({ method: 'SUBSCRIBE', params: ['tickers:T0'], id: 'y' })
    expect(await c.next()).toEqual({ id: 'y', result: null })
    c.close()
  })

  it('a closed connection is dropped from the hub', async () => {
    const s = await start()
    const c = await Client.open(s)
    c.send('ping')
    await c.nextText()
    expect(s.hub.connectionCount).toBe(1)
    c.close()
    await new Promise((r) => c.ws.once('close', r))
    await expect.poll(() => s.hub.connectionCount).toBe(0)
  })

  it('signing out closes that session’s sockets at once; a session revoked elsewhere is closed at the next sweep', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const other = await s.signIn(ROOT_CODE)
    const mine = await Client.open(s, me.token)
    const theirs = await Client.open(s, other.token)
    mine.send({ method: 'SUBSCRIBE', params: ['user@update_order'], id: 1 })
    expect(await mine.next()).toEqual({ id: 1, result: null })
    const out = await s.post('/api/v1/auth/logout', {}, { token: me.token, idempotencyKey: crypto.randomUUID() })
    expect(out.statusCode).toBe(200)
    await expect.poll(() => mine.closed?.code ?? null, { timeout: 2000 }).toBe(4001)
    expect(theirs.open).toBe(true)

    await s.ctx.sql.run(statement('UPDATE sessions SET revoked_at = ? WHERE user_id = ?'), s.clock.now(), other.userId)
    expect(theirs.open).toBe(true)
    await s.hub.sweepSessions()
    await expect.poll(() => theirs.closed?.code ?? null, { timeout: 2000 }).toBe(4001)
  })
})
