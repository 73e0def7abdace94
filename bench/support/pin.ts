// Pins processes to CPUs (Linux `taskset`), so a load test on one machine can give the server a core
// of its own and the load generator another, as separate machines would: unpinned, the two (and the
// kernel's loopback) share both cores, and what the server places per second says as much about the
// generator's share as about the server.

import { execFileSync } from 'node:child_process'

/** The CPUs this process may run on, as `taskset -pc` lists them ("0,1", "2-5,8"); null without taskset. */
export function allowedCpus(pid = process.pid): number[] | null {
  if (process.platform !== 'linux') return null
  let out: string
  try {
    out = execFileSync('taskset', ['-pc', String(pid)], { encoding: 'utf8' })
  } catch {
    return null
  }
  return parseCpuList(out.slice(out.lastIndexOf(':') + 1))
}

/** "0,2-4" → [0, 2, 3, 4]; null when the text is not such a list. */
export function parseCpuList(text: string): number[] | null {
  const cpus: number[] = []
  for (const part of text.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim())
    if (!m) return null
    const from = Number(m[1])
    const to = m[2] === undefined ? from : Number(m[2])
    if (to < from) return null
    for (let c = from; c <= to; c++) cpus.push(c)
  }
  return cpus.length ? cpus : null
}

/** Every thread of `pid` (and those it starts later) onto `cpus`. */
export function pin(pid: number, cpus: readonly number[]): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus.join(','), String(pid)], { stdio: 'ignore' })
}
