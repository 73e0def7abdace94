import fs from 'node:fs/promises'
import path from 'node:path'
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { airplaneMode } from '../../scripts/chromium.ts'
import { MOBILE, THROTTLING } from '../support/browser.ts'
import { markChainNoticeSeen, serviceWorkerControls, signIn } from '../support/signin.ts'
import { millis, summarize } from '../support/stats.ts'
import type { Subject } from '../support/subjects.ts'
import { JS_SAMPLES, mainThreadUntil, TRACE_CATEGORIES, type StartSummary, type TraceEvent } from '../support/trace.ts'
import { atMost, atMostVsFloor, info, infoVsFloor, type BenchContext, type Row } from '../support/types.ts'

export const id = 'offline'

/** The screens measured, and what shows that their cached content is on screen (the floor's one line is a .banner-title too). */
const SCREENS = [
  { path: '/index', selector: '.banner-title', what: 'first .banner-title with text' },
  { path: '/notice', selector: '.notice-item', what: 'first .notice-item' },
] as const
type ScreenPath = (typeof SCREENS)[number]['path']

/** Issue 21: ≤ 300 ms, and for /index ≤ 1.5× the floor's (which has no /notice). */
const CONTENT_MAX_MS = 300
const CONTENT_MAX_RATIO = 1.5
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
  let done, appDone, content = null, app = null
  Object.defineProperty(window, '__benchContent', { value: new Promise((r) => (done = r)) })
  Object.defineProperty(window, '__benchAppContent', { value: new Promise((r) => (appDone = r)) })
  // The content on screen, whoever drew it; and the app's own render of it, apart from index.html's
  // inert snapshot of home (src/features/home/snapshot.ts), which may come first.
  const check = () => {
    for (const el of document.querySelectorAll(sel)) {
      if ((el.textContent || '').trim() === '') continue
      const snapshot = el.closest('[data-snapshot]') !== null
      if (!content) done(content = { at: performance.now(), count: document.querySelectorAll(sel).length, text: el.textContent.trim().slice(0, 40), snapshot })
      if (!snapshot && !app) appDone(app = { at: performance.now() })
    }
    return content !== null && app !== null
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
  /** Whether the content first shown was index.html's snapshot of home. */
  fromSnapshot: boolean
  /** When the app's own render showed it (the same as `content` without a snapshot). */
  appContent: number
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

/** One offline warm start of `path` in `page` (already throttled), from a blank page; `restores`: the app's page measures its cache restore (the floor's has none). */
async function start(page: Page, origin: string, path: ScreenPath, restores = true): Promise<Start> {
  await page.goto('about:blank')
  const network: string[] = []
  const onResponse = (res: { url(): string; fromServiceWorker(): boolean }) => {
    if (res.url().startsWith(origin) && !res.fromServiceWorker()) network.push(res.url().slice(origin.length))
  }
  page.on('response', onResponse)
  try {
    await page.goto(origin + path, { waitUntil: 'commit', timeout: TIMEOUT_MS })
    const content = (await page.evaluate(awaitGlobal('__benchContent', TIMEOUT_MS))) as { at: number; count: number; snapshot: boolean } | null
    const app = (await page.evaluate(awaitGlobal('__benchAppContent', TIMEOUT_MS))) as { at: number } | null
    if (!content || !app) {
      const body = ((await page.evaluate('document.body ? document.body.innerText : ""')) as string).replace(/\s+/g, ' ').slice(0, 200)
      throw new Error(`offline ${path}: no cached content${content ? ' from the app' : ''} within ${TIMEOUT_MS} ms (at ${page.url()}; page shows "${body}")`)
    }
    const fcp = (await page.evaluate(awaitGlobal('__benchFcp', 3000))) as { startTime: number } | null
    const restore = restores ? ((await page.evaluate(awaitGlobal('__benchRestore', 3000))) as { startTime: number; duration: number } | null) : null
    const timeline = (await page.evaluate(READ_TIMELINE)) as Timeline
    await page.waitForTimeout(SETTLE_MS)
    const cpuProbe = await probeCpu(page, 1)
    return { path, content: content.at, fromSnapshot: content.snapshot, appContent: app.at, items: content.count, fcp: fcp?.startTime ?? null, restore, timeline, cpuProbe, network }
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
    appContent: med((s) => s.appContent),
  }
}

/** A tab ready for offline warm starts: its worker in control, offline, 4× CPU. */
interface Session {
  subject: Subject
  page: Page
  origin: string
  screens: readonly (typeof SCREENS)[number][]
  /** ms of CPU_PROBE before throttling. */
  cpuBase: number
  /** The app's persisted query cache (none for the floor). */
  persisted: { account: string; bytes: number; keys: string[] } | null
  starts: Start[]
  /** One traced start of /index after the timed ones: where its time went. */
  trace?: ({ file: string; content: number } & (StartSummary | { busyMs: null })) | null
}

/** One more offline start of /index, under a Chromium trace written to `file`: the main thread's and the worker's time until the content. */
async function tracedStart(browser: Browser, x: Session, file: string): Promise<Session['trace']> {
  await x.page.goto('about:blank')
  await browser.startTracing(x.page, { categories: [...TRACE_CATEGORIES, JS_SAMPLES], screenshots: false })
  let buf: Buffer
  let st: Start
  try {
    st = await start(x.page, x.origin, '/index', x.persisted !== null)
  } finally {
    buf = await browser.stopTracing()
  }
  await fs.mkdir(path.dirname(file), { recursive: true })
  await fs.writeFile(file, buf)
  const events = (JSON.parse(buf.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents
  return { file, content: round(st.content), ...(mainThreadUntil(events, x.origin + '/index', st.content, 15) ?? { busyMs: null }) }
}

/**
 * Takes `page` (its worker in control) offline under 4× CPU for every later navigation of its tab,
 * and checks the worker cannot reach the server. Returns the CPU probe's unthrottled time.
 */
async function goOffline(context: BrowserContext, page: Page): Promise<number> {
  // The least of several: a busy machine only ever makes one slower.
  const cpuBase = await probeCpu(page, 5)
  // Airplane mode: the network cut for pages and workers, and every later document reading
  // navigator.onLine === false (Chromium's own emulation no longer reaches a document the service
  // worker serves: scripts/chromium.ts).
  await airplaneMode(context)
  const cdp: CDPSession = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuRate })
  // The worker is offline too: a cache miss it forwards to the network must fail, not reach the server.
  const probe = (await page.evaluate(`fetch('/assets/nadi-bench-offline-probe.js').then((r) => r.status, () => 'failed')`)) as number | string
  if (probe !== 'failed') throw new Error(`offline: a service-worker fetch still reached the server (HTTP ${probe})`)
  return cpuBase
}

/** Our app (or BENCH_BASELINE's): signed in, /index and /notice visited online so their data is persisted, then offline. */
async function prepareApp(ctx: BenchContext, context: BrowserContext, subject: Subject): Promise<Session> {
  const { origin, rootInviteCode } = await ctx.serverFor(subject)
  await context.addInitScript(observeScript(origin))
  await markChainNoticeSeen(context, origin)
  const page = await context.newPage()
  const wallet = await signIn(context, page, origin, rootInviteCode)
  // Opened from the home screen, the app runs in no wallet's browser: no injected provider in the
  // starts measured (nor in the floor's), only the signed-in tab's token.
  await wallet.remove()
  await serviceWorkerControls(page)
  for (const s of SCREENS) {
    await page.goto(origin + s.path, { timeout: TIMEOUT_MS })
    await page.locator(s.selector).first().waitFor({ timeout: TIMEOUT_MS })
    await page.waitForTimeout(PERSIST_WAIT_MS)
  }
  const persisted = (await page.evaluate(READ_PERSISTED)) as { account: string; bytes: number; keys: string[] }
  if (!persisted.account.startsWith('u:') || persisted.keys.length === 0) {
    throw new Error(`${subject.label || 'ours'}: nothing persisted for a signed-in account: ${JSON.stringify(persisted)}`)
  }
  ctx.log(`offline: ${subject.label || 'ours'}: ${persisted.account} persisted ${persisted.keys.length} queries (${(persisted.bytes / 1024).toFixed(1)} KB JSON)`)
  return { subject, page, origin, screens: SCREENS, cpuBase: await goOffline(context, page), persisted, starts: [] }
}

/** The floor: /index opened online until its worker controls it (its precache complete), then offline. */
async function prepareFloor(ctx: BenchContext, context: BrowserContext, subject: Subject): Promise<Session> {
  const { origin } = await ctx.serverFor(subject)
  await context.addInitScript(observeScript(origin))
  const page = await context.newPage()
  await page.goto(origin + '/index', { timeout: TIMEOUT_MS })
  await serviceWorkerControls(page)
  return { subject, page, origin, screens: SCREENS.filter((s) => s.path === '/index'), cpuBase: await goOffline(context, page), persisted: null, starts: [] }
}

/** The rows of one screen's starts: ours held to the targets, the floor's and the baseline's printed. */
function contentRows(session: Session, path: ScreenPath, floor: number | undefined, common: Record<string, unknown>): Row[] {
  const mine = session.starts.filter((st) => st.path === path)
  const content = summarize(mine.map((st) => st.content))
  const name = `offline warm start → cached content, ${path} (4× CPU)`
  const selector = SCREENS.find((s) => s.path === path)
  const details = { ...content, ...common, selector: selector?.selector, what: selector?.what, phases: phases(mine), trace: path === '/index' ? session.trace : undefined, starts: mine }
  const rows: Row[] = []
  if (session.subject.kind !== 'ours') {
    rows.push(infoVsFloor({ name: `${session.subject.label}: ${name}`, value: content.median, floor: session.subject.kind === 'floor' ? undefined : floor, unit: 'ms', format: millis, details }))
    return rows
  }
  rows.push(
    floor === undefined
      ? atMost({ name, value: content.median, unit: 'ms', max: CONTENT_MAX_MS, format: millis, details })
      : atMostVsFloor({ name, value: content.median, floor, unit: 'ms', max: CONTENT_MAX_MS, maxRatio: CONTENT_MAX_RATIO, format: millis, details }),
  )
  // Shown first from index.html's snapshot, inert: when the app itself drew it too, beside the floor.
  const snapshots = mine.filter((st) => st.fromSnapshot).length
  if (snapshots > 0) {
    const app = summarize(mine.map((st) => st.appContent))
    rows.push(
      infoVsFloor({
        name: `offline warm start → the app's own render of it, ${path} (4× CPU; ${snapshots} of ${mine.length} starts showed the snapshot first)`,
        value: app.median,
        floor,
        unit: 'ms',
        format: millis,
        details: { ...app },
      }),
    )
  }
  const fcps = mine.map((st) => st.fcp).filter((v): v is number => v !== null)
  if (fcps.length) {
    const fcp = summarize(fcps)
    rows.push(info({ name: `FCP offline warm start, ${path} (4× CPU)`, value: fcp.median, unit: 'ms', format: millis, details: fcp }))
  }
  return rows
}

/**
 * Offline warm starts under 4× CPU of our app, the floor and BENCH_BASELINE's app, in turns each
 * round. The apps: sign in, visit /index and /notice online (their data persisted, the service worker
 * in control), go offline, then per run load each screen in the same tab (the token lives in
 * sessionStorage, so this is a reload of a signed-in tab, as the app supports) and time navigation
 * start → cached content in the DOM, plus the persisted-cache restore of /notice. The floor: its
 * /index, precached by its worker, to its one line of text.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const browser = await ctx.browser()
  const subjects = await ctx.subjects()
  const contexts: BrowserContext[] = []
  try {
    const sessions: Session[] = []
    for (const subject of subjects) {
      const context = await browser.newContext(MOBILE)
      contexts.push(context)
      sessions.push(subject.kind === 'floor' ? await prepareFloor(ctx, context, subject) : await prepareApp(ctx, context, subject))
    }
    // One discarded start of each: the first offline start pays one-off costs (caches opening).
    for (const x of sessions) for (const s of x.screens) await start(x.page, x.origin, s.path, x.persisted !== null)

    for (let i = 0; i < ctx.runs; i++) {
      const line: string[] = []
      for (const x of sessions) {
        for (const s of x.screens) {
          const st = await start(x.page, x.origin, s.path, x.persisted !== null)
          const who = `${x.subject.label || 'ours'} ${s.path}`
          if (st.timeline.onLine) throw new Error(`offline ${who}: navigator.onLine is true; the start was not offline`)
          if (!st.timeline.controlled) throw new Error(`offline ${who}: no service worker controls the page`)
          x.starts.push(st)
          const app = st.fromSnapshot ? ` (snapshot; app ${millis(st.appContent)})` : ''
          line.push(`${who} ${millis(st.content)}${app}${st.restore ? ` (restore ${millis(st.restore.duration)})` : ''}`)
        }
      }
      ctx.log(`offline: run ${i + 1}/${ctx.runs}  ${line.join(', ')}`)
    }
    // Traced apart from the timed starts: tracing slows the page it records.
    for (const x of sessions) x.trace = await tracedStart(browser, x, path.join(ctx.outDir, 'traces', `offline-index-${x.subject.kind}.json`))

    // Each screen's rows together (ours, the floor's, the baseline's), then ours' cache restore.
    const byScreen = new Map<ScreenPath, Row[]>(SCREENS.map((s) => [s.path, []]))
    const restoreRows: Row[] = []
    const floorSession = sessions.find((x) => x.subject.kind === 'floor')
    const floor = floorSession ? summarize(floorSession.starts.map((st) => st.content)).median : undefined
    for (const x of sessions) {
      const who = x.subject.label || 'ours'
      const slowdown = summarize(x.starts.map((s) => s.cpuProbe / x.cpuBase)).median
      if (slowdown < 2) throw new Error(`${who}: CPU throttling not in effect: a fixed loop ran only ${slowdown.toFixed(1)}× slower than unthrottled`)
      const network = [...new Set(x.starts.flatMap((s) => s.network))]
      if (network.length) throw new Error(`${who}: offline starts reached the network, not the service worker: ${network.join(', ')}`)
      const common = {
        runs: ctx.runs,
        cpuRate: THROTTLING.cpuRate,
        measuredCpuSlowdown: round(slowdown),
        device: MOBILE,
        persisted: x.persisted,
        method: 'same tab, offline (context.setOffline), from about:blank; time = performance.now() in a MutationObserver when the selector first matches',
      }
      for (const s of x.screens) byScreen.get(s.path)?.push(...contentRows(x, s.path, s.path === '/index' ? floor : undefined, common))
      if (x.subject.kind !== 'ours') continue
      const notice = x.starts.filter((st) => st.path === '/notice')
      const restores = notice.map((st) => st.restore?.duration ?? null)
      if (restores.some((v) => v === null)) throw new Error(`no ${RESTORE_MEASURE} measure on some offline starts of /notice`)
      const restore = summarize(restores as number[])
      restoreRows.push(
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
            indexRestores: summarize(x.starts.filter((st) => st.path === '/index').map((st) => st.restore?.duration ?? 0)),
          },
        }),
      )
    }
    return [...[...byScreen.values()].flat(), ...restoreRows]
  } finally {
    await Promise.allSettled(contexts.map((c) => c.close()))
  }
}
