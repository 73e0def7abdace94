import type { SqlConnection } from '../db/connection.ts'

/** Counts attempts per key in fixed windows. */
export interface Limiter {
  /** Counts one attempt; false when the key is over its limit in the current window. */
  take(key: string, now: number): boolean
}

/**
 * Fixed-window counters per key, in memory: for what one process alone limits (the demo's faucet).
 * What every api process must count together is a StoredLimiter.
 */
export class WindowLimiter implements Limiter {
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

/**
 * Fixed-window counters per key in the database (migration 029), shared by every process on it and
 * kept across restarts: behind a balancer, two api processes do not each allow the limit. One
 * statement per attempt — an upsert that starts a new window or counts in the current one — so
 * concurrent attempts on several connections are counted exactly (the row's lock orders them).
 * `name` keeps limits apart in the one table.
 */
export class StoredLimiter implements Limiter {
  private readonly upsert
  private readonly prune
  private takes = 0

  constructor(
    sqlite: SqlConnection,
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {
    this.upsert = sqlite
      .prepare(
        `INSERT INTO rate_limits (key, window_start, count) VALUES (@key, @now, 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN CAST(@now AS BIGINT) - rate_limits.window_start >= CAST(@window AS BIGINT) THEN 1 ELSE rate_limits.count + 1 END,
           window_start = CASE WHEN CAST(@now AS BIGINT) - rate_limits.window_start >= CAST(@window AS BIGINT) THEN CAST(@now AS BIGINT) ELSE rate_limits.window_start END
         RETURNING count`,
      )
      .pluck()
    this.prune = sqlite.prepare('DELETE FROM rate_limits WHERE window_start < ?')
  }

  take(key: string, now: number): boolean {
    const count = Number(this.upsert.get({ key: `${this.name}:${key}`, now, window: this.windowMs }))
    // Windows long over are dropped now and then, so the table holds about one window of keys.
    if (++this.takes % 1000 === 0) this.prune.run(now - this.windowMs)
    return count <= this.limit
  }
}
