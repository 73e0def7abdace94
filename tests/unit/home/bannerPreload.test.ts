import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bannerPreloadTag, homeShells, isPreloadableImage, shellEncoding, withHeadTag } from '../../../server/http/shell.ts'
import { bannerHint, HINT_KEY, rememberFirstBanner } from '../../../src/features/home/bannerHint.ts'
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

/** Runs the boot script at `pathname` with a preload of `banner` (or none); returns what it put in #root. */
function runBootScript(pathname: string, banner: string | null): { src?: string }[] {
  const root: { src?: string }[] = []
  const img: { src?: string } = {}
  const template = { content: { cloneNode: () => ({ querySelector: (sel: string) => (sel === '.banner img' ? Object.assign(img, { setAttribute: (k: string, v: string) => void (img[k as 'src'] = v) }) : null) }) } }
  const document = {
    querySelector: (sel: string) => (sel === 'link[data-banner]' && banner !== null ? { getAttribute: () => banner } : null),
    getElementById: (id: string) => (id === 'home-boot' ? template : id === 'root' ? { appendChild: () => void root.push(img) } : null),
  }
  new Function('location', 'document', BOOT_SCRIPT)({ pathname }, document)
  return root
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
    expect(runBootScript('/index', '/banners/banner-1.svg')).toEqual([{ src: '/banners/banner-1.svg', setAttribute: expect.any(Function) }])
    expect(runBootScript('/index', null)).toEqual([])
    // "/" becomes /index in the app's first render: a drawn top would vanish for a frame in between.
    expect(runBootScript('/', '/banners/banner-1.svg')).toEqual([])
    expect(runBootScript('/trade', '/banners/banner-1.svg')).toEqual([])
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
