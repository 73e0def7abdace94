import type { CDPSession, Page } from 'playwright-core'
import { MOBILE, THROTTLING } from '../support/browser.ts'
import { markChainNoticeSeen, serviceWorkerControls, signIn } from '../support/signin.ts'
import { millis, summarize } from '../support/stats.ts'
import { atMost, info, type BenchContext, type Row } from '../support/types.ts'

export const id = 'offline'

/** The screens measured, and what shows that their cached content is on screen. */
const SCREENS = [
  { path: '/index', selector: '.banner-title', what: 'first .banner-title with text' },
  { path: '/notice', selector: '.notice-item', what: 'first .notice-item' },
] as const
type ScreenPath = (typeof SCREENS)[number]['path']

const CONTENT_MAX_MS = 500
const RESTORE_MAX_MS = 100
/** The persister writes at most once a second: give it that and a margin before going offline. */
const PERSIST_WAIT_MS = 2000
/** After the content is read, let the page finish its start (restore subscription, paused queries) before leaving. */
const SETTLE_MS = 300
const TIMEOUT_MS = 15_000
const RESTORE_MEASURE = 'nadi:cache-restore' // src/app/persist.ts RESTORE_MEASURE

// Browser-side code is passed as strings: tsx may wrap functions in helpers the page does not have.

/**
 * Registered before any page script of every document of the context. On a measured screen it
 * records, from inside the page, the moment (performance.now(): ms since navigation start) the
 * selector first matches an element with text, so no polling from Node is counted or adds load.
 * Also collects the FCP and the cache-restore measure, as promises Node awaits.
 */
const observeScript = (origin: string): string => `(() => {
  if (location.origin !== ${JSON.stringify(origin)}) return
  const screens = ${JSON.stringify(Object.fromEntries(SCREENS.map((s) => [s.path, s.selector])))}
  const sel = screens[location.pathname]
  if (!sel) return
  let done
  Object.defineProperty(window, '__benchContent', { value: new Promise((r) => (done = r)) })
  const check = () => {
    const el = document.querySelector(sel)
    if (!el || (el.textContent || '').trim() === '') return false
    done({ at: performance.now(), count: document.querySelectorAll(sel).length, text: el.textContent.trim().slice(0, 40) })
    return true
  }
  const mo = new MutationObserver(() => { if (check()) mo.disconnect() })
  mo.observe(document, { childList: true, subtree: true, characterData: true })
  const entry = (type, name) => new Promise((resolve) => {
    try {
      new PerformanceObserver((list, obs) => {
        for (const e of list.getEntries()) if (e.name === name) { obs.disconnect(); resolve({ startTime: e.startTime, duration: e.duration }) }
      }).observe({ type, buffered: true })
    } catch { resolve(null) }
  })
  Object.defineProperty(window, '__benchFcp', { value: entry('paint', 'first-contentful-paint') })
  Object.defineProperty(window, '__benchRestore', { value: entry('measure', ${JSON.stringify(RESTORE_MEASURE)}) })
})()`

/** Waits (in the page, no polling) for a promise the init script made, or null after `ms`. */
const awaitGlobal = (name: string, ms: number) => `Promise.race([window.${name}, new Promise((r) => setTimeout(() => r(null), ${ms}))])`

/** Where the time of a start went, from the page's own timeline (ms since navigation start). */
const READ_TIMELINE = `(() => {
  const r = (n) => Math.round(n * 10) / 10
  const nav = performance.getEntriesByType('navigation')[0]
  return {
    onLine: navigator.onLine,
    controlled: navigator.serviceWorker.controller !== null,
    nav: nav && {
      workerStart: r(nav.workerStart), responseStart: r(nav.responseStart), responseEnd: r(nav.responseEnd),
      domInteractive: r(nav.domInteractive), domContentLoaded: r(nav.domContentLoadedEventEnd), load: r(nav.loadEventEnd),
    },
    scripts: performance.getEntriesByType('resource')
      .filter((e) => e.initiatorType === 'script' || e.initiatorType === 'link' || e.initiatorType === 'other' || e.name.endsWith('.js'))
      .map((e) => ({ name: e.name.replace(location.origin, ''), start: r(e.startTime), end: r(e.responseEnd) })),
  }
})()`

/** A fixed amount of JavaScript work, timed: compares CPU speed with and without throttling. */
const CPU_PROBE = `(() => { const t = performance.now(); let x = 0; for (let i = 0; i < 4e6; i++) x = (x + i * 7) % 1000003; return x >= 0 ? performance.now() - t : -1 })()`

/** The account's persisted cache as IndexedDB holds it: which queries and how big (raw IndexedDB, no app code). */
const READ_PERSISTED = `new Promise((resolve, reject) => {
  const account = sessionStorage.getItem('account') || 'anon'
  const open = indexedDB.open('nadi')
  open.onerror = () => reject(open.error)
  open.onsuccess = () => {
    const db = open.result
    const get = db.transaction('queries').objectStore('queries').get(account)
    get.onerror = () => reject(get.error)
    get.onsuccess = () => {
      const row = get.result
      db.close()
      const queries = row ? row.client.clientState.queries : []
      resolve({ account, bytes: row ? JSON.stringify(row).length : 0, keys: queries.map((q) => JSON.stringify(q.queryKey)) })
    }
  }
})`

interface Timeline {
  onLine: boolean
  controlled: boolean
  nav?: Record<string, number>
  scripts: { name: string; start: number; end: number }[]
}

interface Start {
  path: ScreenPath
  content: number
  items: number
  fcp: number | null
  restore: { startTime: number; duration: number } | null
  timeline: Timeline
  /** ms of CPU_PROBE right after this start (the throttling in effect). */
  cpuProbe: number
  /** Responses that came from the network rather than the service worker (should be none). */
  network: string[]
}

async function probeCpu(page: Page, times: number): Promise<number> {
  const s: number[] = []
  for (let i = 0; i < times; i++) s.push((await page.evaluate(CPU_PROBE)) as number)
  return Math.min(...s)
}

/** One offline warm start of `path` in `page` (already throttled), from a blank page. */
async function start(page: Page, origin: string, path: ScreenPath): Promise<Start> {
  await page.goto('about:blank')
  const network: string[] = []
  const onResponse = (res: { url(): string; fromServiceWorker(): boolean }) => {
    if (res.url().startsWith(origin) && !res.fromServiceWorker()) network.push(res.url().slice(origin.length))
  }
  page.on('response', onResponse)
  try {
    await page.goto(origin + path, { waitUntil: 'commit', timeout: TIMEOUT_MS })
    const content = (await page.evaluate(awaitGlobal('__benchContent', TIMEOUT_MS))) as { at: number; count: number } | null
    if (!content) {
      const body = ((await page.evaluate('document.body ? document.body.innerText : ""')) as string).replace(/\s+/g, ' ').slice(0, 200)
      throw new Error(`offline ${path}: no cached content within ${TIMEOUT_MS} ms (at ${page.url()}; page shows "${body}")`)
    }
    const fcp = (await page.evaluate(awaitGlobal('__benchFcp', 3000))) as { startTime: number } | null
    const restore = (await page.evaluate(awaitGlobal('__benchRestore', 3000))) as { startTime: number; duration: number } | null
    const timeline = (await page.evaluate(READ_TIMELINE)) as Timeline
    await page.waitForTimeout(SETTLE_MS)
    const cpuProbe = await probeCpu(page, 1)
    return { path, content: content.at, items: content.count, fcp: fcp?.startTime ?? null, restore, timeline, cpuProbe, network }
  } finally {
    page.off('response', onResponse)
  }
}

const round = (n: number) => Math.round(n * 10) / 10

/** Median time (ms since navigation start) of each step of the starts, where the time went. */
function phases(starts: Start[]): Record<string, number | null> {
  const med = (pick: (s: Start) => number | null | undefined): number | null => {
    const v = starts.map(pick).filter((x): x is number => typeof x === 'number')
    return v.length ? round(summarize(v).median) : null
  }
  const script = (s: Start, re: RegExp, end: 'start' | 'end') => s.timeline.scripts.find((e) => re.test(e.name))?.[end]
  return {
    shellServed: med((s) => s.timeline.nav?.responseEnd),
    entryScriptFetched: med((s) => script(s, /^\/assets\/index-[^/]*\.js$/, 'end')),
    localeFetched: med((s) => script(s, /^\/assets\/locale-tw-core-[^/]*\.js$/, 'end')),
    domContentLoaded: med((s) => s.timeline.nav?.domContentLoaded),
    fcp: med((s) => s.fcp),
    restoreStart: med((s) => s.restore?.startTime),
    storeChunkFetched: med((s) => script(s, /^\/assets\/store-[^/]*\.js$/, 'end')),
    screenChunkRequested: med((s) => script(s, /^\/assets\/[A-Z]\w*Screen-[^/]*\.js$/, 'start')),
    restoreEnd: med((s) => (s.restore ? s.restore.startTime + s.restore.duration : null)),
    content: med((s) => s.content),
  }
}

/**
 * Offline warm starts under 4× CPU: sign in, visit /index and /notice online (their data persisted,
 * the service worker in control), go offline, then per run load each screen in the same tab (the
 * token lives in sessionStorage, so this is a reload of a signed-in tab, as the app supports) and
 * time navigation start → cached content in the DOM, plus the persisted-cache restore of /notice.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const { origin, rootInviteCode } = await ctx.server()
  const browser = await ctx.browser()
  const context = await browser.newContext(MOBILE)
  try {
    await context.addInitScript(observeScript(origin))
    await markChainNoticeSeen(context, origin)
    const page = await context.newPage()

    // Online: sign in, let the worker take control, visit both screens so their data is persisted.
    await signIn(context, page, origin, rootInviteCode)
    await serviceWorkerControls(page)
    for (const s of SCREENS) {
      await page.goto(origin + s.path, { timeout: TIMEOUT_MS })
      await page.locator(s.selector).first().waitFor({ timeout: TIMEOUT_MS })
      await page.waitForTimeout(PERSIST_WAIT_MS)
    }
    const persisted = (await page.evaluate(READ_PERSISTED)) as { account: string; bytes: number; keys: string[] }
    if (!persisted.account.startsWith('u:') || persisted.keys.length === 0) {
      throw new Error(`nothing persisted for a signed-in account: ${JSON.stringify(persisted)}`)
    }
    ctx.log(`offline: ${persisted.account} persisted ${persisted.keys.length} queries (${(persisted.bytes / 1024).toFixed(1)} KB JSON)`)

    // Offline, 4× CPU for every later navigation of this tab.
    const cpuBase = await probeCpu(page, 3)
    await context.setOffline(true)
    const cdp: CDPSession = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuRate })
    // context.setOffline blocks the network of pages and workers, but a document the service worker
    // serves still reads navigator.onLine === true (Playwright's emulation is not applied to it). The
    // same emulation through this tab's own session makes every later document see itself offline,
    // as a phone in airplane mode does.
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    // The worker is offline too: a cache miss it forwards to the network must fail, not reach the server.
    const probe = (await page.evaluate(`fetch('/assets/nadi-bench-offline-probe.js').then((r) => r.status, () => 'failed')`)) as number | string
    if (probe !== 'failed') throw new Error(`offline: a service-worker fetch still reached the server (HTTP ${probe})`)

    // One discarded start of each: the first offline start pays one-off costs (caches opening).
    for (const s of SCREENS) await start(page, origin, s.path)

    const starts: Start[] = []
    for (let i = 0; i < ctx.runs; i++) {
      const line: string[] = []
      for (const s of SCREENS) {
        const st = await start(page, origin, s.path)
        if (st.timeline.onLine) throw new Error(`offline ${s.path}: navigator.onLine is true; the start was not offline`)
        if (!st.timeline.controlled) throw new Error(`offline ${s.path}: no service worker controls the page`)
        starts.push(st)
        line.push(`${s.path} ${millis(st.content)}${st.restore ? ` (restore ${millis(st.restore.duration)})` : ''}`)
      }
      ctx.log(`offline: run ${i + 1}/${ctx.runs}  ${line.join(', ')}`)
    }

    const slowdowns = starts.map((s) => s.cpuProbe / cpuBase)
    const slowdown = summarize(slowdowns).median
    if (slowdown < 2) throw new Error(`CPU throttling not in effect: a fixed loop ran only ${slowdown.toFixed(1)}× slower than unthrottled`)
    const network = [...new Set(starts.flatMap((s) => s.network))]
    if (network.length) throw new Error(`offline starts reached the network, not the service worker: ${network.join(', ')}`)

    const common = {
      runs: ctx.runs,
      cpuRate: THROTTLING.cpuRate,
      measuredCpuSlowdown: round(slowdown),
      device: MOBILE,
      persisted,
      method: 'same tab, offline (context.setOffline), from about:blank; time = performance.now() in a MutationObserver when the selector first matches',
    }
    const rows: Row[] = []
    for (const s of SCREENS) {
      const mine = starts.filter((st) => st.path === s.path)
      const content = summarize(mine.map((st) => st.content))
      rows.push(
        atMost({
          name: `offline warm start → cached content, ${s.path} (4× CPU)`,
          value: content.median,
          unit: 'ms',
          max: CONTENT_MAX_MS,
          format: millis,
          details: { ...content, ...common, selector: s.selector, what: s.what, phases: phases(mine), starts: mine },
        }),
      )
      const fcps = mine.map((st) => st.fcp).filter((v): v is number => v !== null)
      if (fcps.length) {
        const fcp = summarize(fcps)
        rows.push(info({ name: `FCP offline warm start, ${s.path} (4× CPU)`, value: fcp.median, unit: 'ms', format: millis, details: fcp }))
      }
    }
    const notice = starts.filter((st) => st.path === '/notice')
    const restores = notice.map((st) => st.restore?.duration ?? null)
    if (restores.some((v) => v === null)) throw new Error(`no ${RESTORE_MEASURE} measure on some offline starts of /notice`)
    const restore = summarize(restores as number[])
    rows.push(
      atMost({
        name: 'restore persisted query cache (/notice offline warm start, 4× CPU)',
        value: restore.median,
        unit: 'ms',
        max: RESTORE_MAX_MS,
        format: millis,
        details: {
          ...restore,
          ...common,
          phases: phases(notice),
          indexRestores: summarize(starts.filter((st) => st.path === '/index').map((st) => st.restore?.duration ?? 0)),
        },
      }),
    )
    return rows
  } finally {
    await context.close()
  }
}
