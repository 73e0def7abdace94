import type { Connection } from './index.ts'
import { currentKeyedEffect, outsideKeyedEffect, type KeyedEffect } from './keyedEffect.ts'
import type { Tx } from './query/types.ts'

// Group commit: many actions, one transaction, one commit. Each committed transaction costs a WAL
// append of its pages and, every ~1000 pages, a checkpoint with fsyncs on the committing thread; a
// posting alone is tens of microseconds of CPU. Running the actions that arrive together in one
// transaction (each in its own savepoint, so one refusal undoes only itself) and answering each only
// after that commit keeps "acknowledged means durable" while paying the commit once per batch.
//
// Batching is adaptive: a batch is flushed on the next turn of the event loop (setImmediate), so a
// lone request waits for nothing, and everything that arrived while the previous flush was running
// (HTTP requests parsed in the same poll phase) rides together. `maxDelayMs` > 0 waits that long for
// company instead; `maxBatch` caps a transaction's size.

export interface GroupCommitOptions {
  /** 0: flush on the next event-loop turn. > 0: wait up to this long for more actions. */
  maxDelayMs?: number
  /** A batch commits when it holds this many actions. */
  maxBatch?: number
  /**
   * false: actions run without a savepoint of their own. Only for callers whose actions never write
   * before they can still refuse, and which abort the whole batch (beforeCommit throws) should one
   * fail after writing. Saves two statements per action.
   */
  isolate?: boolean
  /** fsync each batch's commit (synchronous = FULL), surviving a power cut, not only a process crash. */
  durable?: boolean
  /**
   * Runs inside each batch's transaction after its actions, before the commit, through the batch's tx:
   * what the batch adds as a whole (e.g. one netted ledger posting). Throwing aborts the batch like a
   * failed commit.
   */
  beforeCommitIn?(tx: Tx): Promise<void>
  /** Called after each commit with the actions it carried, before any of them is answered. */
  onCommit?(size: number): void
  /** Called when a batch's transaction failed and none of it was kept, before its actions are rejected. */
  onAbort?(error: unknown): void
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

/** An action: its statements go through the batch's transaction. */
interface Item {
  fn: (tx: Tx) => Promise<unknown>
  atomic: boolean
  /** The keyed request the action was written for: its key is written in the action's own savepoint. */
  keyed: KeyedEffect | undefined
  resolve(v: unknown): void
  reject(e: unknown): void
}

export class GroupCommit {
  private queue: Item[] = []
  private scheduled = false
  private flushing: Promise<void> | null = null
  private readonly maxDelayMs: number
  private readonly maxBatch: number
  private closed = false

  constructor(
    private readonly conn: Connection,
    private readonly opts: GroupCommitOptions = {},
  ) {
    this.maxDelayMs = opts.maxDelayMs ?? 0
    this.maxBatch = opts.maxBatch ?? 500
    if (!Number.isInteger(this.maxBatch) || this.maxBatch < 1) throw new Error(`maxBatch must be a positive integer, got ${this.maxBatch}`)
  }

  /**
   * Runs fn inside the next batch's transaction (conn.sql), in its own savepoint: its statements go
   * through the batch's `tx`, never anything outside it (the transaction holds its rows until the
   * batch commits). Resolves with fn's result once the batch is committed; rejects with fn's error
   * (its savepoint rolled back, the batch goes on) or with the commit's error (nothing of the batch
   * was kept). `atomic`: fn is one statement (or otherwise all-or-nothing on its own), so it needs no
   * savepoint — two statements fewer.
   */
  write<T>(fn: (tx: Tx) => Promise<T>, opts: { atomic?: boolean } = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('group commit is closed'))
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, atomic: opts.atomic === true, keyed: currentKeyedEffect(), resolve: resolve as (v: unknown) => void, reject })
      this.schedule()
    })
  }

  /** Actions waiting for their batch. */
  get pending(): number {
    return this.queue.length
  }

  /** Commits what is queued and refuses new actions. */
  async close(): Promise<void> {
    this.closed = true
    while (this.pending || this.flushing) await this.flush()
  }

  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    const go = () => void this.flush()
    // The batch serves every request in it: it must not run in the scope of the one that scheduled it.
    outsideKeyedEffect(() => {
      if (this.pending >= this.maxBatch || this.maxDelayMs === 0) setImmediate(go)
      else setTimeout(go, this.maxDelayMs)
    })
  }

  /** Commits the queued actions, maxBatch at a time. */
  async flush(): Promise<void> {
    // Cleared first: a scheduled flush that finds one running leaves the new actions to it or to the
    // schedule() after it; left set, no later action would be scheduled again.
    this.scheduled = false
    if (this.flushing) return this.flushing
    if (this.pending === 0) return
    this.flushing = outsideKeyedEffect(() => this.run()).finally(() => {
      this.flushing = null
      if (this.pending) this.schedule()
    })
    return this.flushing
  }

  /** One action in its savepoint (an atomic one without, unless a key is written beside it). */
  private isolated(item: Item, tx: Tx): Promise<unknown> {
    const { fn, keyed } = item
    if (!keyed) return item.atomic ? fn(tx) : tx.savepoint(fn)
    return tx.savepoint(async (t) => {
      const value = await fn(t)
      await keyed.recordIn(t, value)
      return value
    })
  }

  private async run(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch)
      const outcomes: Outcome[] = []
      // Without savepoints, an action that refused after writing would leave its writes in the batch;
      // a keyed one always has its own (its key is written beside its effect).
      const isolate = this.opts.isolate ?? true
      try {
        await this.conn.sql.transaction(
          async (tx) => {
            for (const item of batch) {
              try {
                outcomes.push({ ok: true, value: await (isolate || item.keyed ? this.isolated(item, tx) : item.fn(tx)) })
              } catch (error) {
                outcomes.push({ ok: false, error })
              }
            }
            await this.opts.beforeCommitIn?.(tx)
          },
          { durable: this.opts.durable },
        )
      } catch (error) {
        this.answer(batch, outcomes, error)
        continue
      }
      this.answer(batch, outcomes)
    }
  }

  /** Answers a batch's actions: each with its own outcome once committed, all with the commit's error when it failed. */
  private answer(batch: readonly { resolve(v: unknown): void; reject(e: unknown): void }[], outcomes: Outcome[], failed?: unknown): void {
    if (failed !== undefined) {
      this.opts.onAbort?.(failed)
      for (const item of batch) item.reject(failed)
      return
    }
    this.opts.onCommit?.(batch.length)
    batch.forEach((item, i) => {
      const o = outcomes[i]!
      if (o.ok) item.resolve(o.value)
      else item.reject(o.error)
    })
  }
}
