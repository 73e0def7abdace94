import { describe, expect, it } from 'vitest'
import { bootLoader } from '../../../scripts/boot-loader.mjs'

const MODULES = ['/assets/rolldown-runtime-a1.js', '/assets/shell-b2.js']

/** A page of its own for the loader's text: timers, frames and the banner image are driven by the test. */
function page(o: { hidden?: boolean; online?: boolean; banner?: 'none' | 'loaded' | 'loading'; snapshot?: boolean }) {
  const imported: string[] = []
  const timers: { at: number; fn: () => void }[] = []
  const frames: (() => void)[] = []
  const listeners: Record<string, (() => void)[]> = {}
  let now = 0
  const img = o.banner === 'none' ? null : { complete: o.banner === 'loaded', addEventListener: (t: string, fn: () => void) => (listeners[t] ??= []).push(fn) }
  const env = {
    document: { visibilityState: o.hidden ? 'hidden' : 'visible', querySelector: (s: string) => (s === '#root .banner img' ? img : s === '#root>[data-snapshot]' && o.snapshot ? {} : s === '#root>*' && (img || o.snapshot) ? {} : null) },
    navigator: { onLine: o.online ?? true },
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
    setTimeout: (fn: () => void, ms: number) => timers.push({ at: now + ms, fn }),
    importModule: (m: string) => imported.push(m),
  }
  // `import(…)` is syntax, not a function a sandbox can stub: the text's calls are pointed at one that records.
  const text = bootLoader(MODULES, { bannerWaitMs: 400, startWaitMs: 1000 }).replaceAll('import(', 'importModule(')
  new Function(...Object.keys(env), text)(...Object.values(env))
  return {
    imported,
    /** Runs the timers due by `ms` from the start, in time order. */
    advance(ms: number) {
      now = ms
      for (;;) {
        const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at)[0]
        if (!due) return
        timers.splice(timers.indexOf(due), 1)
        due.fn()
      }
    },
    frame() {
      for (const fn of frames.splice(0)) fn()
    },
    fire(type: string) {
      for (const fn of listeners[type] ?? []) fn()
    },
  }
}

describe('bootLoader', () => {
  it('starts the app after the next frame once the home top is painted, its banner already loaded', () => {
    const p = page({ banner: 'loaded' })
    p.advance(0)
    expect(p.imported).toEqual([])
    p.frame()
    expect(p.imported).toEqual([])
    p.advance(0)
    expect(p.imported).toEqual(MODULES)
  })

  it('waits for a banner still loading, then a frame', () => {
    const p = page({ banner: 'loading' })
    p.frame()
    p.advance(100)
    expect(p.imported).toEqual([])
    p.fire('load')
    p.frame()
    p.advance(100)
    expect(p.imported).toEqual(MODULES)
  })

  it('waits for a slow banner no longer than its limit', () => {
    const p = page({ banner: 'loading' })
    p.advance(399)
    p.frame()
    p.advance(399)
    expect(p.imported).toEqual([])
    p.advance(400)
    p.frame()
    p.advance(400)
    expect(p.imported).toEqual(MODULES)
  })

  it('starts at once in a hidden page, which paints no frame, and offline, where only the app draws the saved content', () => {
    expect(page({ hidden: true, banner: 'loading' }).imported).toEqual(MODULES)
    expect(page({ online: false, banner: 'loading' }).imported).toEqual(MODULES)
  })

  it('offline with the home snapshot drawn, starts once that is painted, not waiting for its banner', () => {
    const p = page({ online: false, banner: 'loading', snapshot: true })
    expect(p.imported).toEqual([])
    p.frame()
    p.advance(0)
    expect(p.imported).toEqual(MODULES)
    expect(page({ hidden: true, online: false, banner: 'loading', snapshot: true }).imported).toEqual(MODULES)
  })

  it('starts at once when the HTML drew nothing (another route, or home before any banner was shown): there is nothing to paint first', () => {
    expect(page({ banner: 'none' }).imported).toEqual(MODULES)
  })

  it('starts by its limit when frames never come, and never twice', () => {
    const p = page({ banner: 'loaded' })
    p.advance(999)
    expect(p.imported).toEqual([])
    p.advance(1000)
    expect(p.imported).toEqual(MODULES)
    p.fire('load')
    p.frame()
    p.advance(5000)
    expect(p.imported).toEqual(MODULES)
  })

  it('refuses anything but module paths, which it writes into the page', () => {
    expect(() => bootLoader([])).toThrow(/not module paths/)
    expect(() => bootLoader(['/assets/a.js"),alert(1)//'])).toThrow(/not module paths/)
  })
})
