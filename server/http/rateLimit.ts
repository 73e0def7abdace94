import { statement, statements, type Sql } from '../db/query/types.ts'

/**
 * Fixed-window counters per key, in memory: for what one process alone limits (the demo's faucet).
 * What every api process must count together is a StoredLimiter.
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

// One upsert per attempt starts a new window or counts in the current one; the row's lock orders
// concurrent attempts on several connections, so each is counted exactly.
const RATE_LIMIT = statements({
  take: statement<{ count: bigint }, [{ key: string; now: number; window: number }]>(
    `INSERT INTO rate_limits (key, window_start, count) VALUES (@key, @now, 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN CAST(@now AS BIGINT) - rate_limits.window_start >= CAST(@window AS BIGINT) THEN 1 ELSE rate_limits.count + 1 END,
       window_start = CASE WHEN CAST(@now AS BIGINT) - rate_limits.window_start >= CAST(@window AS BIGINT) THEN CAST(@now AS BIGINT) ELSE rate_limits.window_start END
     RETURNING count`,
  ),
  prune: statement<never, [before: number]>('DELETE FROM rate_limits WHERE window_start < ?'),
})

/**
 * Fixed-window counters per key in the database (migration 029), shared by every process on it and
 * kept across restarts: behind a balancer, two api processes do not each allow the limit. Awaited,
 * so an attempt waiting on the database holds up only its own request. `name` keeps limits apart in
 * the one table.
 */
export class StoredLimiter {
  private takes = 0

  constructor(
    private readonly sql: Sql,
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one attempt; false when the key is over its limit in the current window. */
  async take(key: string, now: number): Promise<boolean> {
    const row = await this.sql.get(RATE_LIMIT.take, { key: `${this.name}:${key}`, now, window: this.windowMs })
    // Windows long over are dropped now and then, so the table holds about one window of keys.
    if (++this.takes % 1000 === 0) await this.sql.run(RATE_LIMIT.prune, now - this.windowMs)
    return Number(row!.count) <= this.limit
  }
}
