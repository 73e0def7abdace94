// A statement that waits delays only the requests that need it (issue 34 §5). Another connection holds
// a user's session row for 3 s (an operator's query, a migration); that user's sign-out, which must
// write the row, waits for it. Meanwhile the same api process answers health, config, another user's
// reads and socket pings within 50 ms: nothing holds its event loop while a statement is in flight.

import pg from 'pg'
import WebSocket from 'ws'
import { Wallet } from 'ethers'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { rolesOnPostgres, signInHttp, type Child, type RolesOnPostgres } from './support/child.ts'
import { testBackend, type TestDatabase } from '../support/pg.ts'

const CODE = 'BLOCK001'
const HOLD_MS = 3000
const on = testBackend() === 'postgres'
let roles: RolesOnPostgres | undefined
let db: TestDatabase
let api: Child

beforeAll(async () => {
  if (!on) return
  roles = await rolesOnPostgres('blocking', CODE, 1)
  db = roles.db
  api = roles.apis[0]!
}, 120_000)

afterAll(() => roles?.stop())

async function timed(url: string, token?: string): Promise<{ ms: number; status: number }> {
  const t0 = performance.now()
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  await res.arrayBuffer()
  return { ms: performance.now() - t0, status: res.status }
}

function socket(token: string): Promise<WebSocket> {
  const ws = new WebSocket(`${api.base.replace(/^http/, 'ws')}/ws?token=${token}`)
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

function ping(ws: WebSocket): Promise<number> {
  const t0 = performance.now()
  return new Promise((resolve) => {
    const onText = (data: WebSocket.RawData) => {
      if (data.toString() !== 'pong') return
      ws.off('message', onText)
      resolve(performance.now() - t0)
    }
    ws.on('message', onText)
    ws.send('ping')
  })
}

it.runIf(on)('while another connection holds a user’s session row for 3 s, only that user’s sign-out waits; health, config, another user’s reads and socket pings answer within 50 ms (nine in ten; none past 500 ms)', { timeout: 60_000 }, async () => {
  const held = Wallet.createRandom()
  const other = Wallet.createRandom()
  const heldToken = await signInHttp(api.base, held, CODE)
  const otherToken = await signInHttp(api.base, other, CODE)
  const ws = await socket(otherToken)

  const admin = new pg.Client({ connectionString: db.url })
  await admin.connect()
  try {
    await admin.query('BEGIN')
    const locked = await admin.query('SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.wallet_address = $1 FOR UPDATE', [held.address.toLowerCase()])
    expect(locked.rowCount).toBe(1)

    const t0 = performance.now()
    const signOut = fetch(`${api.base}/api/v1/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${heldToken}`, 'content-type': 'application/json' }, body: '{}' }).then(async (res) => {
      await res.arrayBuffer()
      return { status: res.status, ms: performance.now() - t0 }
    })
    let signedOut = false
    void signOut.then(() => (signedOut = true))

    // Samples across the whole hold, one after another so each is a clean measure of the event loop.
    const samples: { what: string; ms: number; status?: number }[] = []
    while (performance.now() - t0 < HOLD_MS - 300) {
      for (const [what, url, token] of [
        ['health', '/api/v1/common/health'],
        ['config', '/api/v1/common/config'],
        ['another user’s info', '/api/v1/user/info', otherToken],
        ['another user’s balances', '/api/v1/wallet/balances', otherToken],
      ] as const) {
        const r = await timed(`${api.base}${url}`, token)
        samples.push({ what, ...r })
      }
      samples.push({ what: 'socket ping', ms: await ping(ws) })
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(signedOut).toBe(false) // the sign-out is still waiting for the row
    expect(samples.length).toBeGreaterThan(20)
    expect(samples.filter((s) => s.status !== undefined && s.status !== 200)).toEqual([])
    // A held loop shows as one sample near 3 s and too few samples; a CI machine running Chromium beside
    // this suite shows as a stray sample of a few hundred ms. So: nine in ten within 50 ms, none past 500.
    const ms = samples.map((s) => s.ms).sort((a, b) => a - b)
    expect(ms[Math.floor(ms.length * 0.9)]).toBeLessThan(50)
    expect(samples.filter((s) => s.ms > 500).map((s) => `${s.what}: ${s.ms.toFixed(0)} ms`)).toEqual([])

    await new Promise((r) => setTimeout(r, Math.max(0, HOLD_MS - (performance.now() - t0))))
    await admin.query('COMMIT')
    const done = await signOut
    expect(done.status).toBe(200)
    expect(done.ms).toBeGreaterThan(HOLD_MS - 100)
    // And the sign-out took effect once the row was free.
    expect((await timed(`${api.base}/api/v1/user/info`, heldToken)).status).toBe(401)
  } finally {
    ws.close()
    await admin.end()
  }
})
