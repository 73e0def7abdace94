// Shapes shared by the facade (index.ts) and the Dexie side (store.ts). Dexie-free: the facade may
// import this file statically without pulling IndexedDB code into the first load.

/** One candle. `ts` is the UTC-aligned open time in ms; prices and volume as numbers. */
export interface Candle {
  ts: number
  o: number
  h: number
  l: number
  c: number
  v: number
}

export type OutboxState = 'pending' | 'sending' | 'failed'

/** A harmless write made while offline, waiting to be replayed in order (DESIGN §6). */
export interface OutboxItem<P = unknown> {
  id: number
  /** Whose write it is: 'anon' or 'u:<id>'. Only that account's flush sends it. */
  account: string
  /** Name under which a sender is registered with registerOutboxAction. */
  action: string
  payload: P
  /** Sent with every attempt, so a replay the server already applied is applied once. */
  idempotencyKey: string
  createdAt: number
  state: OutboxState
  /** The server's message (in the user's language) when the write was refused: state 'failed'. */
  error?: string
  /** Failed attempts so far (network, server, rate limit, conflict, signed out). */
  attempts: number
  /** Not sent before this time (ms); pushed back after each failed attempt. */
  nextAttemptAt: number
}

/** Sends one queued write; throws an error with `.status` (ApiFailure) when it did not apply. */
export type OutboxSend<P = unknown> = (payload: P, idempotencyKey: string) => Promise<unknown>

export interface FlushResult {
  /** Items the server accepted (and that left the queue) during this flush. */
  sent: number
  /** Items the server refused for good during this flush (now state 'failed'). */
  failed: number
  /** Pending items still queued for the account after the flush. */
  remaining: number
  /** When the item that stopped the flush may be tried again; null when nothing waits on a timer. */
  retryAt: number | null
}
