import type { SqlConnection } from './connection.ts'
import { prepared } from './sql.ts'
import type { Params, Queryable, Sql, Statement, Tx } from './query/types.ts'

// Database work written once and run either way: synchronously on the connection the callers not yet
// asynchronous hold (better-sqlite3, or PgSync on PostgreSQL), or awaited on a transaction of the
// asynchronous way (./query). The ledger is both, while its callers move over one by one: a
// generator yields each statement it needs and is handed the answer, and the driver decides whether
// that answer is awaited. Typed as the statements are: `const row = yield* get(S.byId, id)`.

interface Op {
  s: Statement<unknown>
  params: Params
  as: 'get' | 'all' | 'run'
}

/** Database work that answers T. */
export type Steps<T> = Generator<Op, T, unknown>

/** The first row of s, undefined when none. */
export function* get<R, P extends Params>(s: Statement<R, P>, ...params: P): Steps<R | undefined> {
  return (yield { s, params, as: 'get' }) as R | undefined // the driver answers this op with s's row
}

/** Every row of s. */
export function* all<R, P extends Params>(s: Statement<R, P>, ...params: P): Steps<R[]> {
  return (yield { s, params, as: 'all' }) as R[] // the driver answers this op with s's rows
}

/** Runs s; answers the rows it changed. */
export function* run<P extends Params>(s: Statement<unknown, P>, ...params: P): Steps<number> {
  return (yield { s, params, as: 'run' }) as number // the driver answers this op with the count
}

/** Where steps run: the synchronous connection, or the asynchronous way (a transaction or the database). */
export type On = SqlConnection | Tx | Sql

/** Where reads run: anything that runs statements (a frozen holder's `q` is neither a Tx nor an Sql by type). */
export type ReadOn = SqlConnection | Queryable

/** What running on `C` answers: the value itself on the synchronous connection, a promise otherwise. */
export type Answer<C extends ReadOn, T> = C extends SqlConnection ? T : Promise<T>

export function isSync(on: ReadOn): on is SqlConnection {
  return 'prepare' in on
}

export function isTx(on: Tx | Sql): on is Tx {
  return 'savepoint' in on
}

/**
 * fn on reads that agree with each other: on `q` itself when it is already a transaction (its reads
 * are one view, and a second transaction would wait for it), else in a read-only snapshot of q.
 */
export function inSnapshot<T>(q: Tx | Sql, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return isTx(q) ? fn(q) : q.transaction(fn, { snapshot: true })
}

/** Runs steps on the synchronous connection, each statement prepared once per text. */
export function runSync<T>(sqlite: SqlConnection, steps: Steps<T>): T {
  let next = steps.next()
  while (!next.done) {
    const op = next.value
    let answer: unknown
    try {
      const st = prepared(sqlite, op.s.text)
      answer = op.as === 'get' ? st.get(...op.params) : op.as === 'all' ? st.all(...op.params) : st.run(...op.params).changes
    } catch (e) {
      next = steps.throw(e)
      continue
    }
    next = steps.next(answer)
  }
  return next.value
}

/** Runs steps on a transaction (or outside one), awaiting each statement. */
export async function runOn<T>(q: Queryable, steps: Steps<T>): Promise<T> {
  let next = steps.next()
  while (!next.done) {
    const op = next.value
    let answer: unknown
    try {
      answer = op.as === 'get' ? await q.get(op.s, ...op.params) : op.as === 'all' ? await q.all(op.s, ...op.params) : (await q.run(op.s, ...op.params)).changes
    } catch (e) {
      next = steps.throw(e)
      continue
    }
    next = steps.next(answer)
  }
  return next.value
}
