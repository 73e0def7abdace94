import { describe, expect, it } from 'vitest'
import { jsSelfTimes, mainThreadBeforeLcp, mainThreadUntil, type TraceEvent } from '../../../bench/support/trace.ts'
import { atMostVsFloor, infoVsFloor } from '../../../bench/support/types.ts'

const ms = (n: number) => `${n} ms`

describe('atMostVsFloor', () => {
  const row = (value: number, maxRatio?: number) => atMostVsFloor({ name: 'x', value, floor: 200, unit: 'ms', max: 300, maxRatio, format: ms })

  it('prints the figure with its multiple of the floor, and both limits as the target', () => {
    expect(row(250, 1.5)).toMatchObject({ measured: '250 ms (1.25× floor)', target: '≤ 300 ms and ≤ 1.5× floor', pass: true })
  })

  it('misses when under the absolute limit but over the multiple of the floor', () => {
    expect(row(301, 2).pass).toBe(false)
    expect(row(290, 1.4).pass).toBe(false)
  })

  it('without a multiple, holds the absolute limit only, the multiple still printed', () => {
    expect(row(290)).toMatchObject({ measured: '290 ms (1.45× floor)', target: '≤ 300 ms', pass: true })
  })

  it("prints the floor's own row without a multiple, and another build's with one, neither judged", () => {
    expect(infoVsFloor({ name: 'floor: x', value: 200, unit: 'ms', format: ms })).toMatchObject({ measured: '200 ms', pass: null })
    expect(infoVsFloor({ name: 'b: x', value: 300, floor: 200, unit: 'ms', format: ms })).toMatchObject({ measured: '300 ms (1.50× floor)', pass: null })
  })
})

describe('mainThreadBeforeLcp', () => {
  const X = (name: string, ts: number, dur: number, tid = 1): TraceEvent => ({ name, ph: 'X', ts, dur, pid: 7, tid })
  const nav = (ts: number, navigationId: string): TraceEvent => ({ name: 'navigationStart', ph: 'R', ts, pid: 7, tid: 1, args: { data: { navigationId, isLoadingMainFrame: true } } })
  const lcp = (ts: number): TraceEvent => ({ name: 'largestContentfulPaint::Candidate', ph: 'I', ts, pid: 7, tid: 1, args: { data: { navigationId: 'A', nodeName: 'IMG', type: 'image', imageDiscoveryTime: 5 } } })

  it("sums self time by name from the document's navigation start to its LCP, nested time taken from the parent", () => {
    const s = mainThreadBeforeLcp([nav(1000, 'A'), X('RunTask', 2000, 10_000), X('EvaluateScript', 3000, 6000), X('v8.compile', 4000, 2000), lcp(21_000)])
    expect(s).toMatchObject({ lcpMs: 20, busyMs: 10, lcp: { nodeName: 'IMG', imageDiscoveryTime: 5 } })
    expect(s?.top).toEqual([
      { name: 'EvaluateScript', selfMs: 4 },
      { name: 'RunTask', selfMs: 4 },
      { name: 'v8.compile', selfMs: 2 },
    ])
  })

  it('counts only the part of a task inside the window, and ignores other threads and same-document navigations', () => {
    const s = mainThreadBeforeLcp([X('RunTask', 0, 3000), nav(1000, 'A'), nav(1500, 'B'), X('Layout', 2000, 1000, 2), X('Paint', 10_000, 5000), lcp(12_000)])
    expect(s).toMatchObject({ lcpMs: 11, busyMs: 4 })
    expect(s?.top).toEqual([
      { name: 'Paint', selfMs: 2 },
      { name: 'RunTask', selfMs: 2 },
    ])
  })

  it('is null for a trace with no LCP candidate', () => {
    expect(mainThreadBeforeLcp([nav(0, 'A'), X('RunTask', 0, 10)])).toBeNull()
  })
})

describe('mainThreadUntil', () => {
  const X = (name: string, ts: number, dur: number, tid = 1): TraceEvent => ({ name, ph: 'X', ts, dur, pid: 7, tid })
  const nav = (ts: number, url: string): TraceEvent => ({ name: 'navigationStart', ph: 'R', ts, pid: 7, tid: 1, args: { data: { documentLoaderURL: url, isLoadingMainFrame: true } } })
  const worker: TraceEvent = { name: 'thread_name', ph: 'M', ts: 0, pid: 7, tid: 2, args: { name: 'ServiceWorker thread' } }

  it("sums the main thread's and the worker's self time from the last navigation to the url until the page's own mark", () => {
    const s = mainThreadUntil([nav(0, 'http://x/index'), nav(1000, 'http://x/index'), worker, X('ParseHTML', 2000, 3000), X('EvaluateScript', 3000, 1000), X('FetchEvent', 1500, 500, 2), X('Layout', 9000, 4000)], 'http://x/index', 10)
    expect(s).toMatchObject({ untilMs: 10, busyMs: 5, worker: { busyMs: 0.5, top: [{ name: 'FetchEvent', selfMs: 0.5 }] }, js: [] })
    expect(s?.top).toEqual([
      { name: 'Layout', selfMs: 2 },
      { name: 'ParseHTML', selfMs: 2 },
      { name: 'EvaluateScript', selfMs: 1 },
    ])
  })

  it('is null when the trace never navigated to the url', () => {
    expect(mainThreadUntil([nav(0, 'http://x/other'), X('RunTask', 0, 10)], 'http://x/index', 10)).toBeNull()
  })
})

describe('jsSelfTimes', () => {
  const profile = { name: 'Profile', ph: 'P', ts: 0, pid: 7, tid: 1, id: '0x1', args: { data: { startTime: 1000 } } }
  const chunk = (nodes: unknown[], samples: number[], timeDeltas: number[]) => ({ name: 'ProfileChunk', ph: 'P', ts: 0, pid: 7, tid: 1, id: '0x1', args: { data: { cpuProfile: { nodes, samples }, timeDeltas } } })
  const node = (id: number, functionName: string, url = '', lineNumber = 0) => ({ id, callFrame: { functionName, url, lineNumber, columnNumber: 0 } })

  it('gives each sample the time until the next, by function, file and line, clipped to the window, across chunks', () => {
    const events = [
      profile,
      chunk([node(1, '(root)'), node(2, 'render', 'http://x/assets/shell.js', 9)], [2, 2], [0, 1000]),
      chunk([node(3, '(program)')], [3, 2], [2000, 500]),
    ] as TraceEvent[]
    // Samples at 1000 (render), 2000 (render), 4000 ((program)), 4500 (render); the window is 1500–4200.
    expect(jsSelfTimes(events, 7, 1, 1500, 4200, 5)).toEqual([
      { fn: 'render shell.js:10', selfMs: 2.5 },
      { fn: '(program)', selfMs: 0.2 },
    ])
  })

  it('is empty for a trace taken without samples', () => {
    expect(jsSelfTimes([], 7, 1, 0, 10, 5)).toEqual([])
  })
})
