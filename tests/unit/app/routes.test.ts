import { describe, expect, it } from 'vitest'

// routes.ts imports HomeScreen eagerly, which reaches src/i18n/index.ts and its Vite-only
// `import.meta.glob`: it runs fine under vitest but does not type-check under tsconfig.node.json
// (no vite/client types). A variable specifier keeps tsc from following the import, so the shapes
// the test needs are declared here; the matching rules are proven on a stub table of the same shape.
interface ScreenProps {
  params: Record<string, string>
}
interface RouteDef {
  pattern: string
  auth: boolean
  screen: (props: ScreenProps) => unknown
  tab?: boolean
}
interface Match {
  route: RouteDef
  params: Record<string, string>
}
interface RoutesModule {
  ROUTES: RouteDef[]
  matchRoute(path: string, routes?: RouteDef[]): Match | null
}
const ROUTES_MODULE = '../../../src/app/routes.ts'
const { ROUTES, matchRoute } = (await import(/* @vite-ignore */ ROUTES_MODULE)) as RoutesModule

const Stub = (_props: ScreenProps) => null
const route = (pattern: string, auth = false): RouteDef => ({ pattern, auth, screen: Stub })
const TABLE: RouteDef[] = [
  route('/index'),
  route('/user', true),
  route('/notice', true),
  route('/notice/detail/:id', true),
  route('/a/:x/b'),
  route('/pair/:first/:second'),
]

describe('matchRoute', () => {
  it('matchRoute returns the route whose pattern equals the path, with no params', () => {
    const m = matchRoute('/user', TABLE)
    expect(m?.route.pattern).toBe('/user')
    expect(m?.params).toEqual({})
  })

  it('matchRoute returns null for an unknown path', () => {
    expect(matchRoute('/nope', TABLE)).toBeNull()
    expect(matchRoute('/', TABLE)).toBeNull()
    expect(matchRoute('', TABLE)).toBeNull()
  })

  it('matchRoute is case-sensitive', () => {
    expect(matchRoute('/USER', TABLE)).toBeNull()
  })

  it('matchRoute captures :params by name', () => {
    expect(matchRoute('/notice/detail/42', TABLE)?.params).toEqual({ id: '42' })
    expect(matchRoute('/pair/x/y', TABLE)?.params).toEqual({ first: 'x', second: 'y' })
  })

  it('matchRoute URI-decodes params', () => {
    expect(matchRoute('/notice/detail/a%20b', TABLE)?.params).toEqual({ id: 'a b' })
    expect(matchRoute('/notice/detail/%E4%B8%AD', TABLE)?.params).toEqual({ id: '中' })
    expect(matchRoute('/notice/detail/a%2Fb', TABLE)?.params).toEqual({ id: 'a/b' })
  })

  it('matchRoute ignores trailing slashes', () => {
    expect(matchRoute('/user/', TABLE)?.route.pattern).toBe('/user')
    expect(matchRoute('/user///', TABLE)?.route.pattern).toBe('/user')
    expect(matchRoute('/notice/detail/7/', TABLE)?.params).toEqual({ id: '7' })
  })

  it('matchRoute needs the same number of segments as the pattern', () => {
    expect(matchRoute('/notice/detail', TABLE)).toBeNull()
    expect(matchRoute('/notice/detail/1/extra', TABLE)).toBeNull()
    expect(matchRoute('/user/1', TABLE)).toBeNull()
    // A trailing slash is stripped, so it does not count as an empty last param.
    expect(matchRoute('/notice/detail/', TABLE)).toBeNull()
  })

  it('matchRoute rejects an empty param segment', () => {
    expect(matchRoute('/a//b', TABLE)).toBeNull()
    expect(matchRoute('/pair//y', TABLE)).toBeNull()
  })

  it('matchRoute returns the first matching route in table order', () => {
    const first = route('/x/:id')
    const second = route('/x/fixed')
    expect(matchRoute('/x/fixed', [first, second])?.route).toBe(first)
    expect(matchRoute('/x/fixed', [second, first])?.route).toBe(second)
  })

  // Regression, fixed (src/app/routes.ts, matchRoute: `decodeURIComponent(p)`): a malformed escape in a param
  // segment throws URIError out of matchRoute instead of the route not matching. App.tsx calls
  // matchRoute(location) during render, and wouter passes undecodable paths through as-is (its own
  // decodeURI is wrapped in try/catch), so visiting e.g. /notice/detail/%E0 or /notice/detail/%25
  // (wouter decodes %25 to a bare '%') crashes the screen tree instead of showing the not-found page.
  it('matchRoute does not throw on a malformed percent-escape in a param', () => {
    expect(() => matchRoute('/notice/detail/%E0', TABLE)).not.toThrow()
    expect(() => matchRoute('/notice/detail/%', TABLE)).not.toThrow()
  })
})

describe('ROUTES (the real table)', () => {
  it('only the home and open screens are public; every other route needs a token', () => {
    const pub = ROUTES.filter((r) => !r.auth).map((r) => r.pattern)
    expect(pub.sort()).toEqual(['/index', '/open_screen'])
  })

  it('the default table resolves the app paths', () => {
    expect(matchRoute('/index')?.route.pattern).toBe('/index')
    expect(matchRoute('/notice/detail/12')?.params).toEqual({ id: '12' })
    expect(matchRoute('/notice')?.route.auth).toBe(true)
    expect(matchRoute('/missing')).toBeNull()
  })

  it('every pattern starts with a slash and the tab routes are home, notice and user', () => {
    for (const r of ROUTES) expect(r.pattern.startsWith('/'), r.pattern).toBe(true)
    expect(ROUTES.filter((r) => r.tab).map((r) => r.pattern).sort()).toEqual(['/index', '/notice', '/trade', '/user', '/wallet'])
  })
})
