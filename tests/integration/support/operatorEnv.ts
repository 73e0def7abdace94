// The environment an operator command runs with beside a test server: the server's data folder (where
// its writer lock and operator socket are) and its database — the SQLite file, or on the PostgreSQL
// run the server's own database.
import type { Config } from '../../../server/config.ts'

export function operatorEnv(config: Pick<Config, 'dataDir' | 'dbFile' | 'databaseUrl'>): Record<string, string> {
  return { NADI_ENV: 'test', NADI_DATA_DIR: config.dataDir, NADI_DB_FILE: config.dbFile, ...(config.databaseUrl ? { NADI_DATABASE_URL: config.databaseUrl } : {}) }
}
