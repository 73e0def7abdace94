import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import crypto from 'node:crypto'
import { ASSET_JS, INDEX_HTML, ROOT_CODE, localeText, startServer, useServers } from './support/server.ts'
import zlib from 'node:zlib'
import { shellCsp } from '../../server/http/static.ts'
import { bannerPreloadTag, withHeadTag } from '../../server/http/shell.ts'
import { SEED_BANNERS } from '../../server/db/seed/content.ts'

const start = useServers()

describe('the envelope', () => {
  it('an unknown /api path answers 404 with the envelope in the request language', async () => {
    const s = await start()
    for (const url of ['/api/unknown', '/api/v1/nothing/here', '/api']) {
      const res = await s.get(url, { lang: 'EN' })
      expect(res.statusCode, url).toBe(404)
      expect(res.headers['content-type'], url).toMatch(/^application\/json/)
      expect(res.body_, url).toEqual({ code: 404, msg: localeText('en', 'errors.notFound'), data: null })
    }
  })

  it('a POST to an unknown path answers the 404 envelope, not the app shell', async () => {
    const s = await start()
    const res = await s.post('/some/client/route', { a: 1 })
    expect(res.statusCode).toBe(404)
    expect(res.body_.code).toBe(404)
  })

  it('a URL that is not valid percent-encoding is refused with the 400 envelope in the request language', async () => {
    const s = await start()
    for (const url of ['/api/v1/trade/placeOrder%', '/api/v1/user/info%zz?page=1', '/%E0%A4%A']) {
      const res = await s.inject({ method: url.includes('placeOrder') ? 'POST' : 'GET', url, headers: { lang: 'EN', 'content-type': 'application/json' }, payload: '{}' })
      expect(res.statusCode, url).toBe(400)
      expect(res.headers['content-type'], url).toMatch(/^application\/json/)
      expect(JSON.parse(res.body), url).toEqual({ code: 400, msg: localeText('en', 'errors.badRequest'), data: null })
    }
  })

  it('success answers are { code: 200, msg, data }', async () => {
    const s = await start()
    const res = await s.get('/api/v1/common/config', { lang: 'EN' })
    expect(Object.keys(res.body_).sort()).toEqual(['code', 'data', 'msg'])
    expect(res.body_.code).toBe(200)
    expect(res.body_.msg).toBe(localeText('en', 'api.ok'))
  })

  it('answers for a user are never cached, and every API answer carries the security headers', async () => {
    const s = await start()
    const me = await s.signIn()
    const res = await s.get('/api/v1/user/info', { token: me.token })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['x-frame-options']).toBe('DENY')
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    const expired = await s.get('/api/v1/user/info', { token: 'x'.repeat(43) })
    expect(expired.headers['cache-control']).toBe('no-store')
  })

  it('public content is cacheable for a short while, separately per language', async () => {
    const s = await start()
    for (const url of ['/api/v1/common/config', '/api/v1/common/bannerList', '/api/v1/notice/list']) {
      const res = await s.get(url)
      expect(res.headers['cache-control'], url).toMatch(/^public, max-age=\d+/)
      expect(String(res.headers.vary), url).toContain('LANG')
    }
  })
})

describe('request bodies and tokens: each refusal names what is wrong', () => {
  const json = (s: Awaited<ReturnType<typeof start>>, payload: string, token?: string) =>
    s.inject({ method: 'POST', url: '/api/v1/mining/destroy', headers: { 'content-type': 'application/json', lang: 'EN', ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload })

  it('a valid JSON body with a __proto__ or constructor key is refused as such a key, not as bad JSON, and does nothing', async () => {
    const s = await start()
    const me = await s.signIn()
    for (const [payload, key] of [
      ['{"amount":"100","__proto__":{"admin":true}}', '__proto__'],
      ['{"amount":"100","constructor":{"prototype":{"admin":true}}}', 'constructor'],
      ['{"amount":"100","x":[{"__proto__":1}]}', '__proto__'],
    ] as const) {
      const res = await json(s, payload, me.token)
      expect([res.statusCode, res.json().msg], payload).toEqual([400, localeText('en', 'errors.bodyForbiddenKey').replace('{{key}}', key)])
    }
    expect(await s.count('SELECT COUNT(*) FROM pay_orders')).toBe(0)
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
  })

  it('a 15 KB body nested 3,000 deep is "nested too deeply", not "too large"; 16 levels still parse', async () => {
    const s = await start()
    const me = await s.signIn()
    const deep = `{"amount":${'['.repeat(3000)}${']'.repeat(3000)},"pad":"${'x'.repeat(9000)}"}`
    expect(deep.length).toBeGreaterThan(15_000)
    expect(deep.length).toBeLessThan(s.config.bodyLimit)
    const res = await json(s, deep, me.token)
    expect([res.statusCode, res.json().msg]).toEqual([400, localeText('en', 'errors.bodyTooDeep').replace('{{max}}', '16')])
    // Within the limit the body reaches the route's own checks.
    const fifteen = await json(s, `{"amount":${'['.repeat(15)}${']'.repeat(15)}}`, me.token)
    expect(fifteen.json().msg).toBe(localeText('en', 'errors.invalidField').replace('{{field}}', localeText('en', 'fields.amount')))
  })

  it('without a token a route that needs one answers 401 before looking at the body: malformed, invalid or too deep', async () => {
    const s = await start()
    for (const payload of ['{bad', '{"amount":"x"}', `{"a":${'['.repeat(100)}${']'.repeat(100)}}`, '{"__proto__":{}}']) {
      const res = await json(s, payload)
      expect([res.statusCode, res.json().msg], payload).toEqual([401, localeText('en', 'errors.loginRequired')])
      const expired = await json(s, payload, 'x'.repeat(43))
      expect([expired.statusCode, expired.json().msg], payload).toEqual([401, localeText('en', 'errors.loginExpired')])
    }
    // Nothing was reserved under an Idempotency-Key for the refused visitor.
    const keyed = await s.post('/api/v1/mining/destroy', { amount: 'x' }, { lang: 'EN', idempotencyKey: 'visitor-key-1' })
    expect(keyed.statusCode).toBe(401)
    expect(await s.count('SELECT COUNT(*) FROM idempotency_keys')).toBe(0)
    // A public route still reads its body.
    const pub = await s.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/json', lang: 'EN' }, payload: '{bad' })
    expect([pub.statusCode, pub.json().msg]).toEqual([400, localeText('en', 'errors.malformedBody')])
  })
})

describe('OpenAPI', () => {
  it('the OpenAPI document is served at /api/docs/json and lists the auth, user, common and notice paths', async () => {
    const s = await start()
    const res = await s.inject({ method: 'GET', url: '/api/docs/json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> }
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/auth/loginMessage',
        '/api/v1/auth/login',
        '/api/v1/auth/isRegister',
        '/api/v1/auth/logout',
        '/api/v1/user/info',
        '/api/v1/user/zhiList',
        '/api/v1/common/bannerList',
        '/api/v1/common/mainInfo',
        '/api/v1/common/config',
        '/api/v1/notice/list',
        '/api/v1/notice/detail',
      ]),
    )
    expect(doc.paths['/api/v1/auth/login']).toHaveProperty('post')
    expect(doc.paths['/api/v1/auth/loginMessage']).toHaveProperty('get')
    expect(Object.keys(doc.paths)).not.toContain('/ws')
  })

  it('the documentation page is served at /api/docs', async () => {
    const s = await start()
    const res = await s.inject({ method: 'GET', url: '/api/docs/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
  })
})

describe('the app shell and its assets', () => {
  it('client routes (/index, /some/client/route, / and the invite link) answer index.html with cache-control no-cache; the home screen\'s names its first banner', async () => {
    const s = await start()
    const preload = bannerPreloadTag(SEED_BANNERS[0]!.image)
    for (const url of ['/index', '/some/client/route', '/user?tab=team', '/', `/?code=${ROOT_CODE}`]) {
      const res = await s.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type'], url).toMatch(/^text\/html/)
      expect(res.headers['cache-control'], url).toBe('no-cache')
      const home = ['/index', '/'].includes(url.split('?')[0]!)
      expect(res.body, url).toBe(home ? withHeadTag(INDEX_HTML, preload) : INDEX_HTML)
    }
    // The precache of the service worker takes /index.html: the shell for every route, no banner in it.
    expect((await s.inject({ method: 'GET', url: '/index.html' })).body).toBe(INDEX_HTML)
  })

  it('the home shell preloads the banner that is first now: an operator\'s change shows on the next load, under a new ETag', async () => {
    const s = await start()
    const first = await s.inject({ method: 'GET', url: '/index' })
    expect(first.body).toContain(`href="${SEED_BANNERS[0]!.image}"`)
    const etag = String(first.headers.etag)
    expect((await s.inject({ method: 'GET', url: '/index', headers: { 'if-none-match': etag } })).statusCode).toBe(304)

    await s.ctx.db.updateTable('banners').set({ state: 'unpublished' }).where('image', '=', SEED_BANNERS[0]!.image).execute()
    const changed = await s.inject({ method: 'GET', url: '/index', headers: { 'if-none-match': etag } })
    expect(changed.statusCode).toBe(200)
    expect(changed.body).toContain(`href="${SEED_BANNERS[1]!.image}"`)
    expect(changed.headers.etag).not.toBe(etag)

    await s.ctx.db.updateTable('banners').set({ state: 'unpublished' }).execute()
    expect((await s.inject({ method: 'GET', url: '/index' })).body).toBe(INDEX_HTML)
  })

  it('the home shell is sent compressed to a browser that accepts it, with the same CSP as the static shell', async () => {
    const s = await start()
    const plain = await s.inject({ method: 'GET', url: '/index.html' })
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await s.inject({ method: 'GET', url: '/index', headers: { 'accept-encoding': `${encoding}, deflate` } })
      expect(res.headers['content-encoding'], encoding).toBe(encoding)
      const body = encoding === 'br' ? zlib.brotliDecompressSync(res.rawPayload) : zlib.gunzipSync(res.rawPayload)
      expect(body.toString(), encoding).toContain(`href="${SEED_BANNERS[0]!.image}"`)
      expect(res.headers['content-security-policy'], encoding).toBe(plain.headers['content-security-policy'])
    }
  })

  it('the shell carries a Content-Security-Policy: own scripts only (no eval), this origin only, no framing; the API does not need one', async () => {
    const s = await start()
    for (const url of ['/', '/index', '/index.html', '/trade']) {
      const csp = String((await s.inject({ method: 'GET', url })).headers['content-security-policy'])
      expect(csp, url).toContain("default-src 'self'")
      expect(csp, url).toMatch(/script-src 'self'(;| 'sha256-)/)
      expect(csp, url).not.toContain('unsafe-eval')
      expect(csp, url).toContain("connect-src 'self'")
      expect(csp, url).toContain("frame-ancestors 'none'")
      expect(csp, url).toContain("object-src 'none'")
    }
    expect((await s.inject({ method: 'GET', url: '/api/v1/common/config' })).headers['content-security-policy']).toBeUndefined()
  })

  it('an inline script of the built shell is allowed by its hash, and only it', () => {
    const html = '<head><script>boot()</script><script type="module" src="/assets/a.js"></script></head>'
    const hash = crypto.createHash('sha256').update('boot()').digest('base64')
    expect(shellCsp(html)).toContain(`script-src 'self' 'sha256-${hash}';`)
    expect(shellCsp('<head></head>')).toContain("script-src 'self';")
  })

  it('HEAD of a client route answers like GET without a body', async () => {
    const s = await start()
    for (const url of ['/', '/index']) {
      const res = await s.inject({ method: 'HEAD', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type'], url).toMatch(/^text\/html/)
      expect(res.body, url).toBe('')
    }
  })

  it('index.html itself is revalidated on every load', async () => {
    const s = await start()
    const res = await s.inject({ method: 'GET', url: '/index.html' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-cache')
  })

  it('a hashed asset is served as immutable for a year', async () => {
    const s = await start()
    const res = await s.inject({ method: 'GET', url: '/assets/x-abc.js' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/javascript/)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.body).toBe(ASSET_JS)
  })

  it('a precompressed asset is sent compressed to a client that accepts it', async () => {
    const s = await start()
    fs.writeFileSync(path.join(s.distDir, 'assets', 'x-abc.js.br'), 'BROTLI')
    const res = await s.inject({ method: 'GET', url: '/assets/x-abc.js', headers: { 'accept-encoding': 'br' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['cache-control']).toContain('immutable')
  })

  it('a missing asset answers 404, never the app shell', async () => {
    const s = await start()
    const res = await s.inject({ method: 'GET', url: '/assets/gone-123.js' })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).not.toMatch(/text\/html/)
    expect(res.body).not.toContain('<html')
  })

  it('/api/unknown is JSON, never the app shell', async () => {
    const s = await start()
    const res = await s.inject({ method: 'GET', url: '/api/unknown', headers: { accept: 'text/html' } })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.body).not.toContain('<html')
  })

  it('without a built app every unknown path answers the 404 envelope', async () => {
    const s = await startServer()
    try {
      // A server whose dist folder has no index.html (e.g. API only).
      const bare = await startServer({ env: { NADI_DIST_DIR: path.join(s.dir, 'nowhere') } })
      try {
        const res = await bare.inject({ method: 'GET', url: '/some/client/route' })
        expect(res.statusCode).toBe(404)
        expect(res.json()).toMatchObject({ code: 404, data: null })
      } finally {
        await bare.close()
      }
    } finally {
      await s.close()
    }
  })
})
