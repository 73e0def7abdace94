import { account, onSignOut } from '../../api/session.ts'
import { storage } from '../../lib/storage.ts'

/**
 * The home screen as the user last saw it, kept so the next offline start can show it before the app's
 * code has run (issue 21). index.html's inline script draws it into #root — inert, marked data-snapshot
 * — when it was taken under the same account, language and stylesheet; the app's first render replaces
 * it with the same content from the saved query cache, this time live (docs/app.md).
 */

/** localStorage key; index.html's inline script reads it by this name. */
export const SNAPSHOT_KEY = 'home_snapshot'
/** Bumped when what the inline script expects changes, so an old snapshot is left unused. */
export const SNAPSHOT_VERSION = 1
/** A home screen is a few KB of markup; far more than this is not one, and would slow every start. */
export const SNAPSHOT_MAX_CHARS = 200_000
/**
 * What a snapshot leaves out: what tells the time or the state of the moment ("updated 3 min ago",
 * live regions) and would be wrong at the next start, and anything open on top of the screen.
 */
const TRANSIENT = '.freshness, [aria-live], [role="status"], [role="alert"], [role="dialog"], [role="alertdialog"]'
/** Markup index.html's script refuses to draw; the app's own DOM never has it. */
export const FORBIDDEN_MARKUP = /<(script|iframe|object|embed|link|meta|base|form)\b/i

export interface HomeSnapshot {
  v: typeof SNAPSHOT_VERSION
  /** session.ts's account: a snapshot shows only to the account it was taken under. */
  account: string
  /** localStorage 'lang' as stored ('' when none): the snapshot's words are in that language. */
  lang: string
  /** The stylesheet's href: a snapshot from another build may not fit this build's styles. */
  css: string
  html: string
}

export interface Box {
  left: number
  top: number
  right: number
  bottom: number
}

/** Whether two boxes share more than a pixel's sliver (edges that meet, to a rounding, do not). */
export function overlaps(a: Box, b: Box): boolean {
  return Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1
}

/** Where an element is at a fresh start: with the page and its scrollers (the banner carousel) back at their starts. */
function boxAtStart(el: Element): Box {
  const r = el.getBoundingClientRect()
  let left = r.left
  let top = r.top
  for (let p = el.parentElement; p; p = p.parentElement) {
    left += p.scrollLeft
    top += p.scrollTop
  }
  return { left, top, right: left + r.width, bottom: top + r.height }
}

/**
 * Whether `el` shows on a fresh start's first screen: inside the viewport and inside each scroller it is
 * in. Inside a fixed or sticky box it is kept: where that box sits at a start is not where it sits now.
 */
function shownAtStart(el: Element, view: Window): boolean {
  for (let p: Element | null = el; p; p = p.parentElement) {
    const position = view.getComputedStyle(p).position
    if (position === 'fixed' || position === 'sticky') return true
  }
  const box = boxAtStart(el)
  if (!overlaps(box, { left: 0, top: 0, right: view.innerWidth, bottom: view.innerHeight })) return false
  const root = el.ownerDocument.documentElement
  for (let p = el.parentElement; p && p !== root; p = p.parentElement) {
    const scrolls = p.scrollWidth > p.clientWidth || p.scrollHeight > p.clientHeight
    if (scrolls && !overlaps(box, boxAtStart(p))) return false
  }
  return true
}

/**
 * `copy` (a deep clone of `live`) without the sources of the images a fresh start shows off its first
 * screen (later slides, what lies below). Each is another image to fetch, and an SVG another document
 * to lay out and paint, before the snapshot's first paint; their boxes keep the screen as it was.
 */
function firstScreenImagesOnly(live: Element, copy: Element): void {
  const view = live.ownerDocument.defaultView
  if (!view) return
  const copies = copy.querySelectorAll('img')
  live.querySelectorAll('img').forEach((img, i) => {
    if (shownAtStart(img, view)) return
    copies[i]?.removeAttribute('src')
    copies[i]?.removeAttribute('srcset')
  })
}

/**
 * The markup of the app's frame with only the home screen in it (and the tab bar), or null when the home
 * screen is not the one on screen or shows nothing yet. Screens the app keeps mounted but hidden stay out.
 */
function homeMarkup(doc: Document): string | null {
  // A page left before the app drew anything still shows the last snapshot: that one stays as it was.
  const app = doc.querySelector('#root > .app:not([data-snapshot])')
  if (!app) return null
  const home = [...app.children].find((el) => el.matches('main.home'))
  if (!home || (home as HTMLElement).style.display === 'none' || !home.querySelector('.banner-title')?.textContent?.trim()) return null
  const frame = app.cloneNode(false) as Element
  for (const el of app.children) {
    if ((el as HTMLElement).style.display === 'none') continue
    const copy = el.cloneNode(true) as Element
    firstScreenImagesOnly(el, copy)
    frame.appendChild(copy)
  }
  for (const el of frame.querySelectorAll(TRANSIENT)) el.remove()
  const html = frame.outerHTML
  return html.length <= SNAPSHOT_MAX_CHARS && !FORBIDDEN_MARKUP.test(html) ? html : null
}

/** The stylesheet this page was styled by, as index.html's script reads it. */
const stylesheetOf = (doc: Document) => doc.querySelector('link[rel="stylesheet"]')?.getAttribute('href') ?? ''

/** Keeps the home screen on screen as the next start's snapshot; a page that is not home keeps the last one. */
function saveHomeSnapshot(inStoredLanguage: () => boolean, doc: Document = document): void {
  if (doc.location.pathname !== '/index') return
  // Words on screen in another language than the one stored (changed in another tab) would be kept
  // under the wrong one: the last snapshot stays instead.
  if (!inStoredLanguage()) return
  const html = homeMarkup(doc)
  if (!html) return
  const snap: HomeSnapshot = { v: SNAPSHOT_VERSION, account: account.peek(), lang: storage.get('lang') ?? '', css: stylesheetOf(doc), html }
  storage.set(SNAPSHOT_KEY, JSON.stringify(snap))
}

/** The account's snapshot goes with its other data at sign-out. */
function dropHomeSnapshot(of: string): void {
  const raw = storage.get(SNAPSHOT_KEY)
  if (!raw) return
  try {
    if ((JSON.parse(raw) as Partial<HomeSnapshot>).account !== of) return
  } catch {
    /* unreadable: dropped below */
  }
  storage.remove(SNAPSHOT_KEY)
}

let kept = false
/**
 * From now on, the home screen is kept each time the page is left or hidden (a phone switching apps
 * rarely unloads a page, it hides it) while its words are in the stored language, and a signed-out
 * account's snapshot is dropped.
 */
export function keepHomeSnapshot(inStoredLanguage: () => boolean): void {
  if (kept) return
  kept = true
  const save = () => {
    if (document.visibilityState === 'hidden') saveHomeSnapshot(inStoredLanguage)
  }
  document.addEventListener('visibilitychange', save)
  window.addEventListener('pagehide', () => saveHomeSnapshot(inStoredLanguage))
  onSignOut(dropHomeSnapshot)
}
