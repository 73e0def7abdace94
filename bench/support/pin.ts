// Pins processes to CPUs (Linux `taskset`), so a load test on one machine can give the server a core
// of its own and the load generator the other, as separate machines would: unpinned, the two (and the
// kernel's loopback) share both cores, and what the server places per second says as much about the
// generator's share as about the server.

import { execFileSync } from 'node:child_process'
import os from 'node:os'

/** Whether pinning is possible here: Linux with taskset, and at least two CPUs to split. */
export function canPin(): boolean {
  if (process.platform !== 'linux' || os.availableParallelism() < 2) return false
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Every thread of `pid` (and those it starts later) onto `cpus` ("0", "1", "0-1"). */
export function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' })
}

/** All the CPUs this machine has, as taskset writes them. */
export const ALL_CPUS = `0-${os.availableParallelism() - 1}`
