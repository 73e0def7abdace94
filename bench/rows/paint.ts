import fs from 'node:fs/promises'
import path from 'node:path'
import type { Browser, BrowserContext } from 'playwright-core'
import { MOBILE, THROTTLING, throttle } from '../support/browser.ts'
import { seconds, summarize } from '../support/stats.ts'
import type { Subject } from '../support/subjects.ts'
import { mainThreadBeforeLcp, TRACE_CATEGORIES, type MainThreadSummary, type TraceEvent } from '../support/trace.ts'
import { atMostVsFloor, info, infoVsFloor, type BenchContext, type Row } from '../support/types.ts'

export const id = 'paint'

const PATH = '/index'
/** Issue 21: cold ≤ 1.5 s and ≤ 1.3× the floor's; warm ≤ 0.6 s. */
const LCP_COLD_MS = 1500
const LCP_COLD_MAX_RATIO = 1.3
const LCP_WARM_MS = 600
/** After network idle, give late paints (images decoding, fonts, effects) this long before reading. */
const SETTLE_MS = 1000
const NAV_TIMEOUT_MS = 30_000

// Browser-side code is passed as strings: tsx may wrap functions in helpers the page does not have.

/** Registered before any page script: records every LCP candidate with a description of its element. */
const OBSERVE_LCP = `(() => {
  const seen = []
  Object.defineProperty(window, '__benchLcp', { value: seen })
  const describe = (el) => {
    if (!el) return null
    let s = el.tagName.toLowerCase()
    if (el.id) s += '#' + el.id
    if (el.classList && el.classList.length) s += '.' + Array.from(el.classList).join('.')
    const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 48)
    if (text) s += ' "' + text + '"'
    return s
  }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        seen.push({ startTime: e.startTime, renderTime: e.renderTime, loadTime: e.loadTime, size: e.size, url: e.url || null, element: describe(e.element) })
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true })
  } catch {}
})()`

const READ_METRICS = `(() => {
  const round = (n) => Math.round(n * 10) / 10
  const nav = performance.getEntriesByType('navigation')[0]
  const fcp = performance.getEntriesByName('first-contentful-paint')[0]
  const lcp = window.__benchLcp || []
  return {
    fcp: fcp ? round(fcp.startTime) : null,
    lcp: lcp.length ? lcp[lcp.length - 1] : null,
    lcpCandidates: lcp.length,
    ttfb: nav ? round(nav.responseStart) : null,
    domContentLoaded: nav ? round(nav.domContentLoadedEventEnd) : null,
    load: nav ? round(nav.loadEventEnd) : null,
    resources: performance.getEntriesByType('resource').map((r) => ({
      name: r.name.startsWith(location.origin) ? r.name.slice(location.origin.length) : r.name,
      type: r.initiatorType,
      start: round(r.startTime),
      end: round(r.responseEnd),
      transfer: r.transferSize,
    })),
  }
})()`

interface LcpEntry {
  startTime: number
  renderTime: number
  loadTime: number
  size: number
  url: string | null
  element: string | null
}

interface Sample {
  fcp: number | null
  lcp: LcpEntry | null
  lcpCandidates: number
  ttfb: number | null
  domContentLoaded: number | null
  load: number | null
  resources: { name: string; type: string; start: number; end: number; transfer: number }[]
  /** False when the network never went idle within the timeout (then read anyway). */
  settled: boolean
}

/** One throttled navigation in a new tab of `context`; the tab is closed afterwards. */
async function measure(context: BrowserContext, url: string, throttled = true): Promise<Sample> {
  const page = await context.newPage()
  try {
    if (throttled) await throttle(page)
    await page.goto(url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS })
    const settled = await page.waitForLoadState('networkidle', { timeout: NAV_TIMEOUT_MS }).then(
      () => true,
      () => false,
    )
    await page.waitForTimeout(SETTLE_MS)
    const m = (await page.evaluate(READ_METRICS)) as Omit<Sample, 'settled'>
    return { ...m, settled }
  } finally {
    await page.close()
  }
}

function describeLcp(samples: Sample[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const s of samples) {
    const key = s.lcp ? `${s.lcp.element ?? '?'}${s.lcp.url ? ` <${s.lcp.url.replace(/^https?:\/\/[^/]+/, '')}>` : ''}` : '(none)'
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

interface Measured {
  subject: Subject
  cold: Sample[]
  warm: Sample[]
  /** One traced cold load, after the timed ones: where the main thread's time went before the LCP. */
  trace: ({ file: string } & (MainThreadSummary | { lcpMs: null })) | null
}

const lcpOf = (samples: Sample[], kind: string) => {
  const lcps = samples.map((s) => s.lcp?.startTime ?? null).filter((v): v is number => v !== null)
  if (lcps.length === 0) throw new Error(`${kind}: no LCP recorded in ${samples.length} runs`)
  return summarize(lcps)
}

/** FCP (ours only) and LCP rows of one kind of load, for every subject, ours held to the targets. */
function rows(kind: 'cold' | 'warm', all: Measured[], runs: number): Row[] {
  const floorM = all.find((m) => m.subject.kind === 'floor')
  if (!floorM) throw new Error('no floor measured')
  const floor = lcpOf(floorM[kind], `floor ${kind}`).median
  const common = { runs, throttling: THROTTLING, device: MOBILE }
  const out: Row[] = []
  for (const m of all) {
    const samples = m[kind]
    const lcp = lcpOf(samples, `${m.subject.label || 'ours'} ${kind}`)
    const name = `LCP ${PATH} ${kind} (median of ${runs})`
    const details = { ...lcp, ...common, lcpElements: describeLcp(samples), trace: kind === 'cold' ? m.trace : undefined, navigations: samples }
    if (m.subject.kind !== 'ours') {
      out.push(infoVsFloor({ name: `${m.subject.label}: ${name}`, value: lcp.median, floor: m.subject.kind === 'floor' ? undefined : floor, unit: 'ms', format: seconds, details }))
      continue
    }
    const fcps = samples.map((s) => s.fcp).filter((v): v is number => v !== null)
    if (fcps.length) out.push(info({ name: `FCP ${PATH} ${kind} (median of ${runs})`, value: summarize(fcps).median, unit: 'ms', format: seconds, details: { ...summarize(fcps), ...common } }))
    out.push(
      kind === 'cold'
        ? atMostVsFloor({ name, value: lcp.median, floor, unit: 'ms', max: LCP_COLD_MS, maxRatio: LCP_COLD_MAX_RATIO, format: seconds, details })
        : atMostVsFloor({ name, value: lcp.median, floor, unit: 'ms', max: LCP_WARM_MS, format: seconds, details }),
    )
  }
  return out
}

/** One throttled cold load of `url` under a Chromium trace, written to `file`, and its main thread summed up. */
async function tracedColdLoad(browser: Browser, url: string, file: string): Promise<Measured['trace']> {
  const context = await browser.newContext(MOBILE)
  try {
    const page = await context.newPage()
    await throttle(page)
    await browser.startTracing(page, { categories: TRACE_CATEGORIES, screenshots: false })
    let buf: Buffer
    try {
      await page.goto(url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS })
      await page.waitForLoadState('networkidle', { timeout: NAV_TIMEOUT_MS }).catch(() => {})
      await page.waitForTimeout(SETTLE_MS)
    } finally {
      buf = await browser.stopTracing()
    }
    await fs.mkdir(path.dirname(file), { recursive: true })
    await fs.writeFile(file, buf)
    const events = (JSON.parse(buf.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents
    return { file, ...(mainThreadBeforeLcp(events) ?? { lcpMs: null }) }
  } finally {
    await context.close()
  }
}

/**
 * FCP and LCP of /index under Lighthouse mobile throttling, for our app, the floor and BENCH_BASELINE's
 * app, taken in turns each round so all see the same machine. Cold: a fresh browser context (empty
 * HTTP cache). Warm: a second tab in that same context right after (HTTP cache primed; no service
 * worker yet). Each of the `runs` rounds gives one cold and one warm sample; the medians are reported.
 * Then one traced cold load of each (bench/out/traces/): the trace, and its main thread summed up in
 * the cold row's details, say where the time went.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const browser = await ctx.browser()
  const subjects = await ctx.subjects()
  const measured: (Measured & { url: string })[] = []
  for (const subject of subjects) {
    const url = (await ctx.serverFor(subject)).origin + PATH
    // One unthrottled, discarded load: the server's and the browser's first-request costs are not the page's.
    const context = await browser.newContext(MOBILE)
    try {
      await measure(context, url, false)
    } finally {
      await context.close()
    }
    measured.push({ subject, url, cold: [], warm: [], trace: null })
  }

  for (let i = 0; i < ctx.runs; i++) {
    const line: string[] = []
    for (const m of measured) {
      const context = await browser.newContext(MOBILE)
      try {
        await context.addInitScript(OBSERVE_LCP)
        m.cold.push(await measure(context, m.url))
        m.warm.push(await measure(context, m.url))
      } finally {
        await context.close()
      }
      const last = (a: Sample[]) => {
        const t = a[a.length - 1]?.lcp?.startTime
        return t === undefined ? '—' : seconds(t)
      }
      line.push(`${m.subject.label || 'ours'} cold ${last(m.cold)}, warm ${last(m.warm)}`)
    }
    ctx.log(`paint: run ${i + 1}/${ctx.runs}  LCP ${line.join('; ')}`)
  }
  for (const m of measured) m.trace = await tracedColdLoad(browser, m.url, path.join(ctx.outDir, 'traces', `paint-cold-${m.subject.kind}.json`))
  return [...rows('cold', measured, ctx.runs), ...rows('warm', measured, ctx.runs)]
}
