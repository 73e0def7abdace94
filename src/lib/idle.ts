/**
 * Runs `fn` once the page is idle, and at the latest after `timeoutMs`: a hidden tab, where frames and
 * idle time may never come, still gets it done. Without requestIdleCallback (Safari), after `fallbackMs`.
 */
export function whenIdle(fn: () => void, timeoutMs: number, fallbackMs = 200): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: timeoutMs })
  else setTimeout(fn, fallbackMs)
}
