import { CompiledQuery, type Kysely } from 'kysely'
import { currentKeyedEffect } from '../keyedEffect.ts'
import type { Params, Queryable, Statement } from './types.ts'

// A Kysely transaction (`db.transaction().execute(async trx => …)`) as a Queryable, so what is written
// through typed statements (a keyed request's answer) can be written inside it. Positional parameters
// only; on PostgreSQL the pool's driver numbers the `?` (../pg/kysely.ts).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database's Kysely: only executeQuery is used
type AnyKysely = Kysely<any>

export function queryableOf(trx: AnyKysely): Queryable {
  const run = <R>(text: string, params: Params) => trx.executeQuery<R>(CompiledQuery.raw(text, [...params]))
  return {
    all: async <R, P extends Params>(s: Statement<R, P>, ...params: P) => (await run<R>(s.text, params)).rows,
    get: async <R, P extends Params>(s: Statement<R, P>, ...params: P) => (await run<R>(s.text, params)).rows[0],
    run: async <P extends Params>(s: Statement<unknown, P>, ...params: P) => ({ changes: Number((await run(s.text, params)).numAffectedRows ?? 0n) }),
    rows: async (q) => (await trx.executeQuery(q.compile())).rows,
    row: async (q) => (await trx.executeQuery(q.compile())).rows[0],
    exec: async (q) => Number((await trx.executeQuery(q.compile())).numAffectedRows ?? 0n),
  }
}

/** Inside a Kysely transaction of a keyed request: its answer, written in that transaction, last. */
export async function recordKeyedEffectIn(trx: AnyKysely, value: unknown): Promise<void> {
  await currentKeyedEffect()?.recordIn(queryableOf(trx), value)
}
