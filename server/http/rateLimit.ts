/**
 * Fixed-window counters per key, in memory. One process holds them; behind a load balancer they move
 * to Redis (DESIGN §9).
 */
export class WindowLimiter {
  private readonly hits = new Map<string, { start: number; count: number }>()

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one attempt; false when the key is over its limit in the current window. */
  take(key: string, now: number): boolean {
    const h = this.hits.get(key)
    if (!h || now - h.start >= this.windowMs) {
      this.hits.set(key, { start: now, count: 1 })
      if (this.hits.size > 10_000) this.sweep(now)
      return true
    }
    h.count++
    return h.count <= this.limit
  }

  /** How long until `key` may try again: the rest of its window, 0 when it is not over its limit. */
  retryAfter(key: string, now: number): number {
    const h = this.hits.get(key)
    if (!h || h.count <= this.limit || now - h.start >= this.windowMs) return 0
    return h.start + this.windowMs - now
  }

  sweep(now: number): void {
    for (const [k, h] of this.hits) if (now - h.start >= this.windowMs) this.hits.delete(k)
  }
}
