import type { BrowserContext } from 'playwright-core'
import { MOBILE, THROTTLING, throttle } from '../support/browser.ts'
import { seconds, summarize } from '../support/stats.ts'
import { atMost, info, type BenchContext, type Row } from '../support/types.ts'

export const id = 'paint'

const PATH = '/index'
const LCP_COLD_MS = 2000
const LCP_WARM_MS = 1000
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

function rows(kind: 'cold' | 'warm', samples: Sample[], lcpMax: number, runs: number): Row[] {
  const fcps = samples.map((s) => s.fcp).filter((v): v is number => v !== null)
  const lcps = samples.map((s) => s.lcp?.startTime ?? null).filter((v): v is number => v !== null)
  if (fcps.length === 0 || lcps.length === 0) throw new Error(`${kind}: no FCP/LCP recorded in ${samples.length} runs`)
  const fcp = summarize(fcps)
  const lcp = summarize(lcps)
  const common = { runs, throttling: THROTTLING, device: MOBILE }
  return [
    info({ name: `FCP ${PATH} ${kind} (median of ${runs})`, value: fcp.median, unit: 'ms', format: seconds, details: { ...fcp, ...common } }),
    atMost({
      name: `LCP ${PATH} ${kind} (median of ${runs})`,
      value: lcp.median,
      unit: 'ms',
      max: lcpMax,
      format: seconds,
      target: `≤ ${(lcpMax / 1000).toFixed(1)} s`,
      details: { ...lcp, ...common, lcpElements: describeLcp(samples), navigations: samples },
    }),
  ]
}

/**
 * FCP and LCP of /index under Lighthouse mobile throttling. Cold: a fresh browser context (empty
 * HTTP cache). Warm: a second tab in that same context right after (HTTP cache primed; no service
 * worker yet). Each of the `runs` rounds gives one cold and one warm sample; the medians are reported.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const { origin } = await ctx.server()
  const browser = await ctx.browser()
  const url = origin + PATH

  // One unthrottled, discarded load: the server's and the browser's first-request costs are not the page's.
  {
    const context = await browser.newContext(MOBILE)
    try {
      await measure(context, url, false)
    } finally {
      await context.close()
    }
  }

  const cold: Sample[] = []
  const warm: Sample[] = []
  for (let i = 0; i < ctx.runs; i++) {
    const context = await browser.newContext(MOBILE)
    try {
      await context.addInitScript(OBSERVE_LCP)
      cold.push(await measure(context, url))
      warm.push(await measure(context, url))
    } finally {
      await context.close()
    }
    const last = (a: Sample[]) => {
      const t = a[a.length - 1]?.lcp?.startTime
      return t === undefined ? '—' : seconds(t)
    }
    ctx.log(`paint: run ${i + 1}/${ctx.runs}  LCP cold ${last(cold)}, warm ${last(warm)}`)
  }
  return [...rows('cold', cold, LCP_COLD_MS, ctx.runs), ...rows('warm', warm, LCP_WARM_MS, ctx.runs)]
}
