import { AsyncLocalStorage } from 'node:async_hooks'
import type { Queryable } from './query/types.ts'

// An Idempotency-Key's answer travels with the effect it answers. The HTTP layer (server/http/
// idempotency.ts) runs a keyed request's handler inside `keyedEffects`; every transaction that request
// makes — a group-commit action, an Sql transaction, a Kysely transaction that calls `recordKeyedEffect` —
// writes the key's row in that same transaction. So a crash between the commit and the answer leaves
// the key answered from what was applied, and a crash before the commit leaves nothing behind: the
// retry runs once. This module is the seam between the two layers; it knows no SQL and no HTTP.

/** An answer kept for a key: what a repeat of the request is told. */
export interface KeyAnswer {
  status: number
  body: string
}

export interface KeyedEffect {
  /** Claims the key for this request inside the effect's transaction (through its tx), with the answer its value makes; throws when another request holds it. */
  recordIn(tx: Queryable, value: unknown): Promise<void>
  /** The key's row: whose key (scope), the key, the request's hash, when, and the holder naming this request. */
  readonly scope: string
  readonly key: string
  readonly hash: string
  readonly at: number
  readonly holder: string
  /** What the request is answered when another request holds its key (a 409: it is being processed). */
  held(): Error
  /** The row was written by an effect's transaction (./idempotencyKeys.ts writes many at once). */
  wrote(): void
  /** The answer to keep for the effect's value, read through the effect's tx; null when it is no answer to keep (a 409 or 429). */
  answerFor(value: unknown, tx: Queryable): Promise<KeyAnswer | null>
  /**
   * The route answers `map(value)` rather than the effect's value itself (e.g. a stored row turned into
   * its wire form): set by the service before its transaction, so the recorded answer is the one sent.
   */
  answerAs(map: (value: unknown) => unknown): void
  /**
   * answerAs for an effect of the asynchronous way: the answer is read through the effect's own tx
   * (recordIn), where its writes are seen — on PostgreSQL no other connection sees them before it commits.
   */
  answerIn(map: (value: unknown, tx: Queryable) => Promise<unknown>): void
}

const store = new AsyncLocalStorage<KeyedEffect>()

/** Runs fn (a request's handler) with its key's effect binding in scope. */
export function withKeyedEffect<T>(binding: KeyedEffect, fn: () => T): T {
  return store.run(binding, fn)
}

/** Runs fn out of any request's scope: for work that serves many requests (a group commit's batch). */
export function outsideKeyedEffect<T>(fn: () => T): T {
  return store.exit(fn)
}

/** The keyed request this code runs for, if any: captured where work leaves the request's async context. */
export function currentKeyedEffect(): KeyedEffect | undefined {
  return store.getStore()
}

/** Inside a keyed request: the answer's data is map(the effect's value). Elsewhere nothing. */
export function answerKeyedAs<V>(map: (value: V) => unknown): void {
  store.getStore()?.answerAs(map as (value: unknown) => unknown)
}

/** answerKeyedAs for a service whose effect runs in a transaction of the asynchronous way: map reads through that tx. */
export function answerKeyedIn<V>(map: (value: V, tx: Queryable) => Promise<unknown>): void {
  store.getStore()?.answerIn(map as (value: unknown, tx: Queryable) => Promise<unknown>)
}
