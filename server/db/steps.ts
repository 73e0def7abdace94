import type { SqlConnection } from './connection.ts'
import { prepared } from './sql.ts'
import type { Params, Queryable, Sql, Statement, Tx } from './query/types.ts'

// Database work written once and run either way: synchronously on the connection the callers not yet
// asynchronous hold (better-sqlite3's, in process: SQLite is the only backend that has one), or
// awaited on a transaction of the asynchronous way (./query). The ledger is both, while its callers move over one by one: a
// generator yields each statement it needs and is handed the answer, and the driver decides whether
// that answer is awaited. Typed as the statements are: `const row = yield* get(S.byId, id)`.

interface One {
  s: Statement<unknown>
  params: Params
  as: 'get' | 'all' | 'run'
}

/** Statements that need none of each other's answers, sent together (one round trip on a pipelined connection). */
interface Many {
  as: 'many'
  ops: One[]
}

type Op = One | Many

/** Database work that answers T. */
export type Steps<T> = Generator<Op, T, unknown>

/** A statement for `together`: what get / all / run would yield. */
export const op = {
  get: <R, P extends Params>(s: Statement<R, P>, ...params: P): One & { __row?: R | undefined } => ({ s, params, as: 'get' }),
  all: <R, P extends Params>(s: Statement<R, P>, ...params: P): One & { __row?: R[] } => ({ s, params, as: 'all' }),
  run: <P extends Params>(s: Statement<unknown, P>, ...params: P): One & { __row?: number } => ({ s, params, as: 'run' }),
}

type Answers<T extends readonly One[]> = { [K in keyof T]: T[K] extends { __row?: infer A } ? A : never }

/**
 * Several statements at once, answered in order once all are (the first refusal is thrown). Only for
 * statements none of which reads what another writes: on the synchronous connection they run one
 * after the other, on a pipelined one they are in flight together.
 */
export function* together<T extends readonly (One & { __row?: unknown })[]>(...ops: T): Steps<Answers<T>> {
  return (yield { as: 'many', ops: [...ops] }) as Answers<T> // the driver answers with each op's answer, in order
}

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
      const one = (o: One) => {
        const st = prepared(sqlite, o.s.text)
        return o.as === 'get' ? st.get(...o.params) : o.as === 'all' ? st.all(...o.params) : st.run(...o.params).changes
      }
      answer = op.as === 'many' ? op.ops.map(one) : one(op)
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
      const one = async (o: One) => (o.as === 'get' ? q.get(o.s, ...o.params) : o.as === 'all' ? q.all(o.s, ...o.params) : (await q.run(o.s, ...o.params)).changes)
      if (op.as === 'many') {
        // Every answer awaited before the first refusal is thrown: none is left running unobserved.
        const settled = await Promise.allSettled(op.ops.map(one))
        const failed = settled.find((r) => r.status === 'rejected')
        if (failed) throw failed.reason
        answer = settled.map((r) => (r as PromiseFulfilledResult<unknown>).value)
      } else answer = await one(op)
    } catch (e) {
      next = steps.throw(e)
      continue
    }
    next = steps.next(answer)
  }
  return next.value
}
