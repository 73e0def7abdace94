import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { CODE, SEAL_CODE } from '../../../contract/constants.ts'
import en from '../../../locales/en.json' with { type: 'json' }
import { installMemoryStorage } from '../lib/memoryStorage.ts'
import { FILE_BYTES, sealServer } from './sealServer.ts'

// The app's own call() and upload preview with the envelope on, against the fake sealing server: what
// the user is told for each failure. client.ts reaches src/i18n/index.ts and its Vite-only
// `import.meta.glob`, which does not type-check under tsconfig.node.json, so the modules are imported
// through variable specifiers and the shapes used are declared here.
interface Failure extends Error {
  code: number
  status: number
}
interface ClientModule {
  get<T>(path: string, query?: Record<string, string | number | boolean>): Promise<T>
  post<T>(path: string, body?: unknown, idempotencyKey?: string): Promise<T>
}
interface SessionModule {
  setToken(value: string): void
  getToken(): string | null
}
interface UploadModule {
  fetchUploadedFile(key: string): Promise<Blob>
}

// The locale parts are cut by a Vite build plugin (vite.config.ts localeSplit): here t() reads en.json whole.
vi.mock('../../../src/i18n/index.ts', async () => {
  const words = (await import('../../../locales/en.json', { with: { type: 'json' } })).default as Record<string, unknown>
  const t = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], words) as string
  return { lang: { value: 'EN' }, t }
})

const server = sealServer()
installMemoryStorage()
vi.stubGlobal('window', { location: { origin: 'http://nadi.test', pathname: '/user', assign: vi.fn() } })
vi.stubGlobal('fetch', server.fetch)
// Vite builds the key in (vite.config.ts define); under vitest the name is looked up on globalThis.
vi.stubGlobal('__NADI_SERVER_KEY__', server.publicKey)

const CLIENT = '../../../src/api/client.ts'
const SESSION = '../../../src/api/session.ts'
const UPLOAD = '../../../src/features/cars/applyUpload.ts'
const { get, post } = (await import(/* @vite-ignore */ CLIENT)) as ClientModule
const { setToken, getToken } = (await import(/* @vite-ignore */ SESSION)) as SessionModule
const { fetchUploadedFile } = (await import(/* @vite-ignore */ UPLOAD)) as UploadModule

afterAll(() => vi.unstubAllGlobals())

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('the call should have failed'),
    (e: unknown) => e as Failure,
  )

beforeEach(() => {
  server.tamperNext = false
  server.plainNext = false
  server.refuseNext.length = 0
})

describe('call() with the envelope on', () => {
  it('answers the data of the opened answer, and sent the request sealed', async () => {
    const data = await post<{ seen: unknown }>('echo', { amount: '3' })
    expect(data.seen).toEqual({ amount: '3' })
    const echo = server.arrivals.filter((a) => a.path === '/api/v1/echo').at(-1)!
    expect(echo.envelope).not.toBeNull()
    expect(echo.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("a plain refusal (changed on the way) fails with the server's words, once", async () => {
    server.refuseNext.push(SEAL_CODE.INVALID)
    const before = server.arrivals.length
    const e = await failureOf(get('echo', { n: 1 }))
    expect(e).toMatchObject({ message: `Refused ${SEAL_CODE.INVALID}`, code: SEAL_CODE.INVALID, status: 400 })
    expect(server.arrivals.length - before).toBe(1)
  })

  it('a tampered answer fails as "try again" (errors.sealBroken), never as data', async () => {
    server.tamperNext = true
    const e = await failureOf(get('echo'))
    expect(e).toMatchObject({ message: en.errors.sealBroken, status: 0 })
  })

  it('a 200 that is not sealed fails as "try again" too', async () => {
    server.plainNext = true
    const e = await failureOf(get('echo'))
    expect(e.message).toBe(en.errors.sealBroken)
  })

  it("a token refused under another handshake signs out, with the server's words", async () => {
    setToken('stolen-token')
    const e = await failureOf(get('echo'))
    expect(e).toMatchObject({ message: 'Sign in again (another handshake)', code: CODE.UNAUTHORIZED, status: 401 })
    expect(getToken()).toBeNull()
  })

  it("an upload's preview opens to a Blob of the file's type and bytes", async () => {
    const blob = await fetchUploadedFile('u/1/a.png')
    expect(blob.type).toBe('image/png')
    expect(Buffer.from(await blob.arrayBuffer())).toEqual(FILE_BYTES)
    expect(server.arrivals.at(-1)!.envelope).not.toBeNull()
  })
})
