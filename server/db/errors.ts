// A constraint the database refused, named the same on both backends: better-sqlite3 says
// SQLITE_CONSTRAINT_UNIQUE, PostgreSQL SQLSTATE 23505 (PgError.code). Code that turns a refusal into a
// domain error asks here, not the driver.

export type ConstraintKind = 'unique' | 'foreignKey' | 'check' | 'notNull'

const SQLITE: Record<string, ConstraintKind> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreignKey',
  SQLITE_CONSTRAINT_CHECK: 'check',
  SQLITE_CONSTRAINT_NOTNULL: 'notNull',
}
const POSTGRES: Record<string, ConstraintKind> = { '23505': 'unique', '23503': 'foreignKey', '23514': 'check', '23502': 'notNull' }

/** Which constraint refused the statement, or null when the error is not a constraint's. */
export function constraintOf(e: unknown): ConstraintKind | null {
  if (!(e instanceof Error) || !('code' in e) || typeof e.code !== 'string') return null
  return SQLITE[e.code] ?? POSTGRES[e.code] ?? null
}

/** A transaction someone else opened (a Kysely transaction awaiting between statements) is open on the connection. */
export class ForeignTransactionError extends Error {
  override name = 'ForeignTransactionError'
  constructor(what: string) {
    super(
      `${what}: another transaction (a Kysely transaction?) is open on the shared connection; a synchronous write would join it ` +
        'and be undone by its rollback. From async code write through the Sql (ctx.sql.transaction), which waits for it.',
    )
  }
}
