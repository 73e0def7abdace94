// Where a page's main thread spent its time before its largest contentful paint, from a Chromium trace
// (browser.startTracing): what a missed LCP target's closing note cites besides the number.

export interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  /** Joins a sampled profile's 'Profile' event to its 'ProfileChunk's. */
  id?: string
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
  const { busyMs, top } = selfTimes(events, pid, tid, nav.ts, lcp.ts, topN)
  const element = { nodeName: data.nodeName ?? null, type: data.type ?? null, imageDiscoveryTime: data.imageDiscoveryTime ?? null, imageLoadStart: data.imageLoadStart ?? null, imageLoadEnd: data.imageLoadEnd ?? null }
  return { lcpMs: ms(lcp.ts - nav.ts), busyMs, lcp: element, top }
}

export interface StartSummary {
  /** ms from the document's navigation start to the moment the page measured. */
  untilMs: number
  /** The renderer's main thread: ms busy in that time, and self time by event name. */
  busyMs: number
  top: { name: string; selfMs: number }[]
  /** The same renderer's service worker thread (which answered the document and its scripts from its caches). */
  worker: { busyMs: number; top: { name: string; selfMs: number }[] } | null
  /** The main thread's JavaScript by function (sampled; only when traced with JS_SAMPLES), self time largest first. */
  js: { fn: string; selfMs: number }[]
}

/** Add to TRACE_CATEGORIES for sampled JavaScript stacks (mainThreadUntil's `js`); sampling slows the page a little. */
export const JS_SAMPLES = 'disabled-by-default-v8.cpu_profiler'

/**
 * Where the time of a start went: self time by event name on the main thread of the last main-frame
 * navigation to `url` in the trace, and on its renderer's service worker thread, from the navigation's
 * start to `untilMs` later (a moment the page measured itself, such as its content appearing); null
 * when the trace holds no such navigation.
 */
export function mainThreadUntil(events: TraceEvent[], url: string, untilMs: number, topN = 10): StartSummary | null {
  const nav = events
    .filter((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame === true && e.args.data.documentLoaderURL === url)
    .sort((a, b) => a.ts - b.ts)
    .at(-1)
  if (!nav) return null
  const end = nav.ts + untilMs * 1000
  const worker = events.find((e) => e.pid === nav.pid && e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'ServiceWorker thread')
  return {
    untilMs,
    ...selfTimes(events, nav.pid, nav.tid, nav.ts, end, topN),
    worker: worker ? selfTimes(events, nav.pid, worker.tid, nav.ts, end, topN) : null,
    js: jsSelfTimes(events, nav.pid, nav.tid, nav.ts, end, topN),
  }
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
}

/**
 * Self time by JavaScript function (name, file and line) of one thread's sampled profile in the trace,
 * between `start` and `end` (µs). A sample counts for the time until the next one. V8 writes the
 * profile as a 'Profile' event and 'ProfileChunk's under its id, each chunk with the nodes first seen
 * in it, the samples (node ids) and the µs between them.
 */
export function jsSelfTimes(events: TraceEvent[], pid: number, tid: number, start: number, end: number, topN: number): { fn: string; selfMs: number }[] {
  const profile = events.find((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid)
  if (!profile) return []
  const nodes = new Map<number, string>()
  let t = Number(profile.args?.data?.startTime ?? 0)
  const samples: { at: number; node: number }[] = []
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.pid !== pid || e.id !== profile.id) continue
    const data = e.args?.data as { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } | undefined
    for (const n of data?.cpuProfile?.nodes ?? []) {
      const f = n.callFrame
      const file = f.url ? f.url.replace(/^.*\//, '') : ''
      nodes.set(n.id, `${f.functionName || '(anonymous)'}${file ? ` ${file}:${f.lineNumber + 1}` : ''}`)
    }
    const ids = data?.cpuProfile?.samples ?? []
    const deltas = data?.timeDeltas ?? []
    ids.forEach((node, i) => {
      t += deltas[i] ?? 0
      samples.push({ at: t, node })
    })
  }
  const self = new Map<string, number>()
  for (let i = 0; i + 1 < samples.length; i++) {
    const a = samples[i] as { at: number; node: number }
    const from = Math.max(a.at, start)
    const to = Math.min((samples[i + 1] as { at: number }).at, end)
    if (to <= from) continue
    const name = nodes.get(a.node) ?? `node ${a.node}`
    self.set(name, (self.get(name) ?? 0) + (to - from))
  }
  return [...self.entries()]
    .sort((x, y) => y[1] - x[1])
    .slice(0, topN)
    .map(([fn, us]) => ({ fn, selfMs: ms(us) }))
}

/** Self time (excluding the events nested in it) by event name of one thread's complete events, clipped to [start, end] (µs). */
function selfTimes(events: TraceEvent[], pid: number, tid: number, start: number, end: number, topN: number): { busyMs: number; top: { name: string; selfMs: number }[] } {
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
  return { busyMs: ms(busy), top }
}
