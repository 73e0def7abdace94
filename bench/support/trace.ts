// Where a page's main thread spent its time before its largest contentful paint, from a Chromium trace
// (browser.startTracing): what a missed LCP target's closing note cites besides the number.

export interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: { name?: string; data?: Record<string, unknown> }
}

export interface MainThreadSummary {
  /** ms from the main frame's navigation start to the last LCP candidate. */
  lcpMs: number
  /** ms of that window the renderer's main thread was running a task. */
  busyMs: number
  /** The LCP element as the trace names it; for an image, when it was found and loaded (ms since navigation start). */
  lcp: { nodeName: unknown; type: unknown; imageDiscoveryTime: unknown; imageLoadStart: unknown; imageLoadEnd: unknown }
  /** Self time (ms, excluding the events nested in it) by event name, largest first. */
  top: { name: string; selfMs: number }[]
}

/** Categories that carry the main thread's tasks, script compile/evaluate, layout, paint and the LCP candidates. */
export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink.user_timing', 'loading', 'toplevel']

const ms = (us: number) => Math.round(us / 100) / 10

/**
 * Self time by event name on the main thread of the renderer that painted the LCP, between its
 * document's navigation start and the last LCP candidate; null when the trace holds no LCP candidate
 * (or not its navigation's start).
 */
export function mainThreadBeforeLcp(events: TraceEvent[], topN = 10): MainThreadSummary | null {
  const lcp = events.filter((e) => e.name === 'largestContentfulPaint::Candidate').sort((a, b) => a.ts - b.ts).at(-1)
  if (!lcp) return null
  const { pid, tid } = lcp
  const data = lcp.args?.data ?? {}
  // The document's own navigation: same-document ones (history.pushState) log navigationStart too.
  const nav = events.find((e) => e.name === 'navigationStart' && e.pid === pid && e.args?.data?.navigationId === data.navigationId)
  if (!nav) return null
  const start = nav.ts
  const end = lcp.ts
  const tasks = events
    .filter((e) => e.ph === 'X' && e.pid === pid && e.tid === tid && typeof e.dur === 'number' && e.ts < end && e.ts + (e.dur ?? 0) > start)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
  // Clipped to the window; a child's clipped time is taken from its parent's self time.
  const clip = (e: TraceEvent) => Math.max(0, Math.min(e.ts + (e.dur ?? 0), end) - Math.max(e.ts, start))
  const self = new Map<string, number>()
  const stack: TraceEvent[] = []
  let busy = 0
  for (const e of tasks) {
    while (stack.length && (stack.at(-1) as TraceEvent).ts + ((stack.at(-1) as TraceEvent).dur ?? 0) <= e.ts) stack.pop()
    const parent = stack.at(-1)
    const t = clip(e)
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - t)
    else busy += t
    self.set(e.name, (self.get(e.name) ?? 0) + t)
    stack.push(e)
  }
  const top = [...self.entries()]
    .filter(([, t]) => t > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, topN)
    .map(([name, t]) => ({ name, selfMs: ms(t) }))
  const element = { nodeName: data.nodeName ?? null, type: data.type ?? null, imageDiscoveryTime: data.imageDiscoveryTime ?? null, imageLoadStart: data.imageLoadStart ?? null, imageLoadEnd: data.imageLoadEnd ?? null }
  return { lcpMs: ms(end - start), busyMs: ms(busy), lcp: element, top }
}
