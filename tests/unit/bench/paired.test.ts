import { describe, expect, it } from 'vitest'
import { pairsOf, threadsCpuNs, type PairedWindow } from '../../../bench/support/paired.ts'

const w = (target: 0 | 1, ok: number, ms: number, cpuNs: number | null): PairedWindow => ({ target, ok, ms, cpuNs, other: {}, p50Ms: 0, p99Ms: 0 })

describe('pairsOf', () => {
  it('pairs the windows two by two whichever target went first, target 1 over target 0', () => {
    const pairs = pairsOf([w(0, 1000, 250, 100e6), w(1, 800, 250, 96e6), w(1, 450, 250, 60e6), w(0, 500, 250, 50e6)])
    expect(pairs).toHaveLength(2)
    expect(pairs[0]!.rate).toEqual([4000, 3200])
    expect(pairs[0]!.rateRatio).toBeCloseTo(0.8)
    // 100 µs an order against 120: 0.83 as many orders per CPU-second.
    expect(pairs[0]!.cpuPerOrder).toEqual([100, 120])
    expect(pairs[0]!.cpuRatio).toBeCloseTo(100 / 120)
    // Went second in its pair, target 0 is still the denominator.
    expect(pairs[1]!.rate).toEqual([2000, 1800])
    expect(pairs[1]!.cpuRatio).toBeCloseTo(100 / (60e3 / 450))
  })

  it('has no CPU figures when the generator read none, and none for a window without an answer', () => {
    const [p] = pairsOf([w(0, 100, 250, null), w(1, 0, 250, 5e6)])
    expect(p!.cpuPerOrder).toEqual([null, null])
    expect(p!.cpuRatio).toBeNull()
  })

  it('refuses two windows of the same target as a pair, and leaves an odd last window out', () => {
    expect(() => pairsOf([w(0, 1, 1, null), w(0, 1, 1, null)])).toThrow(/not one of each target/)
    expect(pairsOf([w(0, 1, 1, null), w(1, 1, 1, null), w(0, 1, 1, null)])).toHaveLength(1)
  })
})

describe('threadsCpuNs', () => {
  it.runIf(process.platform === 'linux')('counts this process’s CPU time, growing with work done', () => {
    const before = threadsCpuNs(process.pid)
    // Work until the kernel's other account (getrusage) says 20 ms of CPU were spent, however long that takes on a busy machine.
    const from = process.cpuUsage()
    let x = 0
    while (process.cpuUsage(from).user < 20_000) for (let i = 0; i < 1e4; i++) x += Math.sqrt(x + i)
    const after = threadsCpuNs(process.pid)
    expect(before).toBeGreaterThan(0)
    expect(after - before).toBeGreaterThanOrEqual(18e6)
    expect(x).toBeGreaterThan(0)
  })
})
