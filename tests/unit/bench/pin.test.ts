import { describe, expect, it } from 'vitest'
import { parseCpuList } from '../../../bench/support/pin.ts'

describe('parseCpuList', () => {
  it('reads the lists taskset prints, single CPUs and ranges', () => {
    expect(parseCpuList(' 0,1\n')).toEqual([0, 1])
    expect(parseCpuList('2-5,8')).toEqual([2, 3, 4, 5, 8])
    expect(parseCpuList('3')).toEqual([3])
  })

  it('is null for anything else, so the bench runs unpinned rather than on CPUs it may not use', () => {
    expect(parseCpuList('')).toBeNull()
    expect(parseCpuList('5-2')).toBeNull()
    expect(parseCpuList('0,a')).toBeNull()
    expect(parseCpuList('pid 1: 0,1')).toBeNull()
  })
})
