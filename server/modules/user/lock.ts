import { statement, type Queryable } from '../../db/query/types.ts'

const LOCK = statement<never, [userId: number | bigint]>('UPDATE users SET id = id WHERE id = ?')

/**
 * Holds the user's row to the end of the transaction, so that one user's actions that count what the
 * user has (open applications, open uploads, activations) and then add to it take turns across
 * connections and processes. On SQLite the transactions take turns already; the statement costs nothing.
 */
export async function lockUser(tx: Queryable, userId: number | bigint): Promise<void> {
  await tx.run(LOCK, userId)
}
