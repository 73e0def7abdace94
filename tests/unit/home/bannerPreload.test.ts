import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bannerPreloadTag, homeShells, isPreloadableImage, shellEncoding, withHeadTag } from '../../../server/http/shell.ts'
import { bannerHint, HINT_KEY, rememberFirstBanner } from '../../../src/features/home/bannerHint.ts'
import { FORBIDDEN_MARKUP, overlaps, SNAPSHOT_KEY, SNAPSHOT_MAX_CHARS, SNAPSHOT_VERSION, type HomeSnapshot } from '../../../src/features/home/snapshot.ts'
import { installMemoryStorage, MemoryStorage } from '../lib/memoryStorage.ts'

const SHELL = '<!doctype html><html><head><script>boot()</script><title>t</title></head><body></body></html>'

const INDEX_HTML = fs.readFileSync(path.resolve(import.meta.dirname, '../../../index.html'), 'utf8')
/** The inline script of index.html that names `marker`. */
function inlineScript(marker: string): string {
  const script = [...INDEX_HTML.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).find((s) => s.includes(marker))
  if (!script) throw new Error(`index.html has no inline script naming ${marker}`)
  return script
}
/** index.html's inline script that preloads the banner last shown, as the browser runs it. */
const HINT_SCRIPT = inlineScript(HINT_KEY)
/** index.html's inline script that draws the home screen's top before the app's code loads. */
const BOOT_SCRIPT = inlineScript('home-boot')

interface BootPage {
  banner?: string | null
  /** localStorage and sessionStorage entries. */
  local?: Record<string, string>
  session?: Record<string, string>
  online?: boolean
  stylesheet?: string | null
}

/**
 * Runs the boot script at `pathname`; returns what it put in #root: the home top's banner image it
 * appended, or the snapshot markup it drew and the attributes it set on the snapshot's frame.
 */
function runBootScript(pathname: string, o: BootPage = {}): { appended: { src?: string }[]; html?: string; frame?: Record<string, string | boolean> } {
  const appended: { src?: string }[] = []
  const img: { src?: string } = {}
  const template = { content: { cloneNode: () => ({ querySelector: (sel: string) => (sel === '.banner img' ? Object.assign(img, { setAttribute: (k: string, v: string) => void (img[k as 'src'] = v) }) : null) }) } }
  const frame: Record<string, string | boolean> = {}
  const out: { appended: typeof appended; html?: string; frame?: typeof frame } = { appended }
  const root = {
    appendChild: () => void appended.push(img),
    set innerHTML(v: string) {
      out.html = v
    },
    get firstElementChild() {
      if (!out.html) return null
      out.frame = frame
      return {
        setAttribute: (k: string, v: string) => void (frame[k] = v),
        set inert(v: boolean) {
          frame.inert = v
        },
      }
    },
  }
  const document = {
    querySelector: (sel: string) =>
      sel === 'link[data-banner]' && o.banner ? { getAttribute: () => o.banner } : sel === 'link[rel="stylesheet"]' && o.stylesheet ? { getAttribute: () => o.stylesheet } : null,
    getElementById: (id: string) => (id === 'home-boot' ? template : id === 'root' ? root : null),
  }
  const storage = (entries: Record<string, string> = {}) => {
    const st = new MemoryStorage()
    for (const [k, v] of Object.entries(entries)) st.setItem(k, v)
    return st
  }
  new Function('location', 'document', 'localStorage', 'sessionStorage', 'navigator', BOOT_SCRIPT)(
    { pathname },
    document,
    storage(o.local),
    storage(o.session),
    { onLine: o.online ?? true },
  )
  return out
}

interface FakeLink {
  attrs: Record<string, string>
  rel?: string
  as?: string
  href?: string
}

/** Runs the hint script on a page at `pathname` whose head holds `links`, with `stored` in localStorage. */
function runHintScript(pathname: string, stored: string | null, links: FakeLink[] = []): FakeLink[] {
  const local = new MemoryStorage()
  if (stored !== null) local.setItem(HINT_KEY, stored)
  const document = {
    querySelector: (sel: string) => (sel === 'link[data-banner]' ? (links.find((l) => 'data-banner' in l.attrs) ?? null) : null),
    createElement: (): FakeLink => {
      const l: FakeLink = { attrs: {} }
      return Object.assign(l, { setAttribute: (k: string, v: string) => void (l.attrs[k] = v) })
    },
    head: { appendChild: (l: FakeLink) => void links.push(l) },
  }
  new Function('location', 'document', 'localStorage', HINT_SCRIPT)({ pathname }, document, local)
  return links
}

afterEach(() => vi.unstubAllGlobals())

describe('the home shell names its first banner', () => {
  it('only an image of this origin is preloaded, and nothing that could break out of the attribute', () => {
    for (const ok of ['/banners/banner-1.svg', '/goods/mall-banner-1.svg', '/uploads/a%20b.webp']) expect(isPreloadableImage(ok), ok).toBe(true)
    for (const bad of ['//evil.example/x.png', 'https://evil.example/x.png', 'javascript:alert(1)', '/x.svg" onload="alert(1)', '/a/../b.svg', '/a b.svg', '', 'x.svg'])
      expect(isPreloadableImage(bad), bad).toBe(false)
    expect(bannerPreloadTag('//evil.example/x.png')).toBe('')
    expect(bannerPreloadTag(null)).toBe('')
  })

  it('the preload is high priority and marked for the app, first in <head> before the inline scripts that look for it', () => {
    const tag = bannerPreloadTag('/banners/banner-1.svg')
    expect(tag).toBe('<link rel="preload" as="image" href="/banners/banner-1.svg" fetchpriority="high" data-banner>')
    const html = withHeadTag(SHELL, tag)
    expect(html.indexOf(tag)).toBeLessThan(html.indexOf('<script>'))
    expect(html.replace(tag, '')).toBe(SHELL)
    expect(withHeadTag(SHELL, '')).toBe(SHELL)
  })

  it('a banner change gives another body and ETag; the same banner the same, compressed once', () => {
    const shells = homeShells(SHELL)
    const a = shells('/banners/banner-1.svg')
    expect(shells('/banners/banner-1.svg')).toBe(a)
    const b = shells('/banners/banner-3.svg')
    expect(b.etag).not.toBe(a.etag)
    expect(b.html).toContain('banner-3.svg')
    expect(shells(null).html).toBe(SHELL)
  })

  it('brotli when the browser takes it, else gzip, else plain', () => {
    expect(shellEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(shellEncoding('gzip;q=1.0, identity')).toBe('gzip')
    expect(shellEncoding('identity')).toBeNull()
    expect(shellEncoding(undefined)).toBeNull()
    // q=0 is a refusal, not a wish.
    expect(shellEncoding('br;q=0, gzip')).toBe('gzip')
    expect(shellEncoding('br; q=0.0, gzip;q=0')).toBeNull()
  })
})

describe('a shell without the server\'s tag (the service worker\'s) preloads the banner last shown', () => {
  it('on the home screen it adds the remembered banner as a high-priority preload the app can find', () => {
    for (const p of ['/', '/index']) {
      const [link] = runHintScript(p, '/banners/banner-3.svg')
      expect(link, p).toMatchObject({ rel: 'preload', as: 'image', href: '/banners/banner-3.svg', attrs: { fetchpriority: 'high', 'data-banner': '' } })
    }
  })

  it('not on other screens, not when the server named the banner, not without one remembered', () => {
    expect(runHintScript('/trade', '/banners/banner-3.svg')).toEqual([])
    const server: FakeLink = { attrs: { 'data-banner': '' }, href: '/banners/banner-1.svg' }
    expect(runHintScript('/index', '/banners/banner-3.svg', [server])).toEqual([server])
    expect(runHintScript('/index', null)).toEqual([])
  })

  it('a remembered value that is not an image of this origin is ignored, by the same rule as the server\'s', () => {
    for (const bad of ['//evil.example/x.png', 'javascript:alert(1)', '/a/../b.svg', '/x.svg" onload="x']) {
      expect(isPreloadableImage(bad), bad).toBe(false)
      expect(runHintScript('/index', bad), bad).toEqual([])
    }
  })

  it('the home screen\'s top is drawn from the shell with the preloaded banner, only on /index and only with a banner', () => {
    const banner = '/banners/banner-1.svg'
    expect(runBootScript('/index', { banner }).appended).toEqual([{ src: banner, setAttribute: expect.any(Function) }])
    expect(runBootScript('/index', { banner: null }).appended).toEqual([])
    // "/" becomes /index in the app's first render: a drawn top would vanish for a frame in between.
    expect(runBootScript('/', { banner }).appended).toEqual([])
    expect(runBootScript('/trade', { banner }).appended).toEqual([])
    // Its header and banner carry the classes of the app's, so the app's first render moves nothing.
    const boot = /<template id="home-boot">([\s\S]*?)<\/template>/.exec(INDEX_HTML)?.[1] ?? ''
    for (const cls of ['app', 'page home', 'home-head', 'brand', 'banner-wrap', 'banner-track', 'banner']) expect(boot, cls).toContain(`class="${cls}"`)
    expect(boot).toContain('width="750" height="300"')
    // Nothing in it a test or a tap could take for the app's controls.
    expect(boot).not.toMatch(/class="[^"]*\b(chip|btn|banner-title)\b/)
  })

  it('the app reads the preloaded banner from the tag, and remembers the first banner it shows (or that there is none)', () => {
    const { local } = installMemoryStorage()
    const doc = (href: string | null) => ({ querySelector: () => (href === null ? null : ({ getAttribute: () => href }) as unknown as Element) })
    expect(bannerHint(doc('/banners/banner-1.svg'))).toBe('/banners/banner-1.svg')
    expect(bannerHint(doc(null))).toBeNull()
    rememberFirstBanner('/banners/banner-2.svg')
    expect(local.getItem(HINT_KEY)).toBe('/banners/banner-2.svg')
    rememberFirstBanner(undefined)
    expect(local.getItem(HINT_KEY)).toBeNull()
  })
})

describe('a start on /index draws the home screen as it was last left, when that snapshot fits this tab', () => {
  const CSS = '/assets/index-abc123.css'
  const HTML = '<div class="app"><main class="page with-tabbar home"><span class="banner-title">Mine NADI</span></main><nav class="tabbar"></nav></div>'
  const snap = (o: Partial<HomeSnapshot> = {}) => JSON.stringify({ v: SNAPSHOT_VERSION, account: 'u:7', lang: 'en', css: CSS, html: HTML, ...o })
  const token = (expires: number) => JSON.stringify({ value: 'tok', expires })
  /** The tab of user 7, offline, in English, its token live, with a snapshot made in it. */
  const fits = (o: { snap?: Partial<HomeSnapshot>; local?: Record<string, string>; session?: Record<string, string>; online?: boolean; stylesheet?: string } = {}): BootPage => ({
    banner: '/banners/banner-1.svg',
    stylesheet: o.stylesheet ?? CSS,
    online: o.online ?? false,
    local: { [SNAPSHOT_KEY]: snap(o.snap), lang: 'en', ...o.local },
    session: { token: token(Date.now() + 60_000), account: 'u:7', ...o.session },
  })

  it('drawn instead of the home top, inert and marked as a snapshot until the app replaces it', () => {
    const out = runBootScript('/index', fits())
    expect(out.html).toBe(HTML)
    expect(out.frame).toMatchObject({ 'data-snapshot': '', 'aria-busy': 'true', inert: true })
    expect(out.appended).toEqual([])
  })

  it('only offline: online, the home top alone paints the banner sooner, and the app follows with the same content', () => {
    const out = runBootScript('/index', fits({ online: true }))
    expect(out.html).toBeUndefined()
    expect(out.appended).toHaveLength(1)
  })

  it("a visitor's snapshot to a visitor; a token past its idle time still the user's offline (session.ts's rule)", () => {
    const visitor = fits({ snap: { account: 'anon' }, session: { token: '', account: '' } })
    expect(runBootScript('/index', visitor).html).toBe(HTML)
    expect(runBootScript('/index', fits({ session: { token: token(Date.now() - 1000) } })).html).toBe(HTML)
  })

  it('never to another account, in another language, under another build\'s stylesheet, or of another version', () => {
    const misfits: [string, BootPage][] = [
      ['another user', fits({ session: { account: 'u:8' } })],
      ['a visitor, the snapshot a user\'s', fits({ session: { token: '', account: '' } })],
      ['a user, the snapshot a visitor\'s', fits({ snap: { account: 'anon' } })],
      ['another language', fits({ local: { lang: 'jp' } })],
      ['no language stored, the snapshot in one', fits({ local: { lang: '' } })],
      ['another stylesheet', fits({ stylesheet: '/assets/index-def456.css' })],
      ['another version', fits({ snap: { v: 2 as typeof SNAPSHOT_VERSION } })],
    ]
    for (const [why, page] of misfits) {
      const out = runBootScript('/index', page)
      expect(out.html, why).toBeUndefined()
      // The home top is drawn instead, as without a snapshot.
      expect(out.appended, why).toHaveLength(1)
    }
  })

  it('nothing that is not the app\'s markup: scripts and other active elements, a huge or corrupt entry, are refused', () => {
    for (const bad of ['<script>alert(1)</script>', '<SCRIPT src=/x.js>', '<iframe src=/x>', '<img src=x><object data=/x>', '<link rel=stylesheet href=//evil>', '<meta http-equiv=refresh>', '<base href=//evil/>', '<form action=//evil>'])
      expect(runBootScript('/index', fits({ snap: { html: HTML + bad } })).html, bad).toBeUndefined()
    expect(runBootScript('/index', fits({ snap: { html: HTML + 'x'.repeat(SNAPSHOT_MAX_CHARS) } })).html).toBeUndefined()
    expect(runBootScript('/index', fits({ local: { [SNAPSHOT_KEY]: '{"v":1,' } })).appended).toHaveLength(1)
    expect(runBootScript('/index', fits({ snap: { html: 42 as unknown as string } })).html).toBeUndefined()
    // The app's own rule for what it saves is the same list.
    for (const bad of ['<script>', '<iframe>', '<object>', '<embed>', '<link>', '<meta>', '<base>', '<form>']) expect(FORBIDDEN_MARKUP.test(bad), bad).toBe(true)
    expect(FORBIDDEN_MARKUP.test(HTML + '<a href="/notice">x</a><img src="/b.svg">')).toBe(false)
  })

  it("index.html's script reads what snapshot.ts writes: the same key, version, size limit and refused markup", () => {
    // The inline script cannot import the module, so its copies of these are held to the module's here.
    expect(BOOT_SCRIPT).toContain(`localStorage.getItem('${SNAPSHOT_KEY}')`)
    expect(BOOT_SCRIPT).toContain(`s.v===${SNAPSHOT_VERSION}`)
    expect(BOOT_SCRIPT).toContain(`s.html.length<=${SNAPSHOT_MAX_CHARS}`)
    expect(BOOT_SCRIPT).toContain(`/${FORBIDDEN_MARKUP.source}/${FORBIDDEN_MARKUP.flags}.test(s.html)`)
  })

  it('only on /index', () => {
    for (const p of ['/', '/trade', '/notice']) expect(runBootScript(p, fits()).html, p).toBeUndefined()
  })
})

describe('a snapshot keeps the sources of the images its first screen shows, and only those', () => {
  const screen = { left: 0, top: 0, right: 412, bottom: 823 }
  const track = { left: 12, top: 70, right: 400, bottom: 225 } // the carousel, inside the page's padding
  const slide = (n: number) => ({ left: 12 + n * 388, top: 70, right: 12 + (n + 1) * 388, bottom: 225 })

  it('the first slide is on the screen and in its carousel; the next ones, edge to edge with it, are not', () => {
    expect(overlaps(slide(0), screen) && overlaps(slide(0), track)).toBe(true)
    expect(overlaps(slide(1), screen)).toBe(true) // within the viewport's width…
    expect(overlaps(slide(1), track)).toBe(false) // …but its carousel clips it
    expect(overlaps({ ...slide(1), left: slide(1).left - 0.4 }, track)).toBe(false) // a rounding is no sliver
    expect(overlaps(slide(2), screen)).toBe(false)
  })

  it('what lies below the first screen, above or left of it, or has no box, is not on it', () => {
    expect(overlaps({ left: 12, top: 823, right: 400, bottom: 978 }, screen)).toBe(false)
    expect(overlaps({ left: 12, top: 800, right: 400, bottom: 955 }, screen)).toBe(true)
    expect(overlaps({ left: 12, top: -155, right: 400, bottom: 0 }, screen)).toBe(false)
    expect(overlaps({ left: -388, top: 70, right: 0, bottom: 225 }, screen)).toBe(false)
    expect(overlaps({ left: 0, top: 0, right: 0, bottom: 0 }, screen)).toBe(false)
  })
})
