// The envelope across role processes (issue 20, docs/processes.md): two api processes on one
// PostgreSQL database find each other's handshakes (wrapped in the handshakes table) and share the
// signs seen (seal_seen), so a request copied to the other process behind the balancer is refused.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SEAL_CODE } from '../../contract/seal.ts'
import { cleanup } from '../../server/jobs/cleanup.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { ROOT_CODE, useServers } from './support/server.ts'
import { injectTransport, sealedClientOf } from './support/sealed.ts'

const dbs: TestDatabase[] = []
const dirs: string[] = []
afterAll(() => {
  for (const d of dbs) d.drop()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

describe.runIf(testBackend() === 'postgres')('the envelope on two api processes', () => {
  const start = useServers({ envelope: true })

  it('a handshake made on one api process seals requests to the other; a request copied to the other is REPLAY', { timeout: 60_000 }, async () => {
    const db = freshDatabase()
    dbs.push(db)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-seal-roles-'))
    dirs.push(dir)
    const env = { NADI_DATABASE_URL: db.url, NADI_ROLE: 'api', NADI_ENVELOPE_KEY_FILE: path.join(dir, 'envelope-key.pem') }
    const a = await start({ env })
    const b = await start({ env })
    b.clock.set(a.clock.now())
    const c = await sealedClientOf(a)
    await c.handshake()
    const { token } = await c.signIn(ROOT_CODE)
    const sealed = await c.seal('GET', '/api/v1/user/info', { token })
    expect((await c.send('GET', '/api/v1/user/info', { ...sealed }, { token })).status).toBe(200)
    const toB = injectTransport(b.app)
    const copy = await toB('GET', `/api/v1/user/info?${new URLSearchParams(Object.entries(sealed).map(([k, v]) => [k, String(v)]))}`, { authorization: `Bearer ${token}` })
    expect(copy.status).toBe(400)
    expect((JSON.parse(copy.text) as { code: number }).code).toBe(SEAL_CODE.REPLAY)
    // A fresh request under the same handshake and token is answered by B.
    const fresh = await c.seal('GET', '/api/v1/user/info', { token })
    const res = await toB('GET', `/api/v1/user/info?${new URLSearchParams(Object.entries(fresh).map(([k, v]) => [k, String(v)]))}`, { authorization: `Bearer ${token}` })
    expect(res.status).toBe(200)
    // The signs are kept past their window only.
    a.clock.advance(3 * 60_000)
    expect((await cleanup(a.ctx)).signs).toBeGreaterThanOrEqual(2)
  })
})
