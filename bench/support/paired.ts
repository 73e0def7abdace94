// Two servers measured in alternating windows by one load generator (support/exchangeLoad.ts,
// `targets`): what a window holds, the CPU time the generator reads around it, and the windows read
// back as pairs. Apart from the generator, so a test can check the arithmetic.
import fs from 'node:fs'
import type { LoadWindow } from './exchangeLoad.ts'

export interface PairedWindow extends LoadWindow {
  target: 0 | 1
  /** CPU time of `cpuOf`'s threads during the window, ns; null without cpuOf. */
  cpuNs: number | null
}

/**
 * CPU time of all of a process's threads, ns, from the scheduler's own account (/proc/…/schedstat):
 * exact to the nanosecond, where process times count in ticks of 10 ms, a large share of a short window.
 */
export function threadsCpuNs(pid: number): number {
  let ns = 0
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ', 1)[0])
    } catch {
      // A thread that ended between the listing and the read: its time went with it, on both sides alike.
    }
  }
  return ns
}

export interface PlacementPair {
  /** Orders per second of target 0 and target 1. */
  rate: [number, number]
  /** Target 1's rate ÷ target 0's. */
  rateRatio: number
  /** Server CPU per order answered, µs, when the generator read it. */
  cpuPerOrder: [number | null, number | null]
  /** Orders per server CPU-second, target 1 ÷ target 0. */
  cpuRatio: number | null
}

/** The windows of one paired run, two by two in the order they ran, as pairs (each holds one window of each target). */
export function pairsOf(windows: readonly PairedWindow[]): PlacementPair[] {
  const pairs: PlacementPair[] = []
  for (let i = 0; i + 1 < windows.length; i += 2) {
    const [a, b] = windows[i]!.target === 0 ? [windows[i]!, windows[i + 1]!] : [windows[i + 1]!, windows[i]!]
    if (a.target !== 0 || b.target !== 1) throw new Error(`windows ${i} and ${i + 1} are not one of each target`)
    const rate: [number, number] = [(a.ok * 1000) / a.ms, (b.ok * 1000) / b.ms]
    const perOrder = (w: PairedWindow) => (w.cpuNs === null || w.ok === 0 ? null : w.cpuNs / 1000 / w.ok)
    const cpuPerOrder: [number | null, number | null] = [perOrder(a), perOrder(b)]
    pairs.push({ rate, rateRatio: rate[1] / rate[0], cpuPerOrder, cpuRatio: cpuPerOrder[0] !== null && cpuPerOrder[1] !== null ? cpuPerOrder[0] / cpuPerOrder[1] : null })
  }
  return pairs
}

