import type { TestServer } from './server.ts'

/**
 * The settings an in-process CLI call needs, beyond NADI_DB_FILE, to reach a test server's books: on
 * the PostgreSQL run its database URL, and its data folder, where the writer lock that leads a writing
 * command into the running server lives. On SQLite nothing: the file locates both.
 */
export const onItsDatabase = (s: TestServer): Record<string, string> =>
  s.config.databaseUrl ? { NADI_DATABASE_URL: s.config.databaseUrl, NADI_DATA_DIR: s.config.dataDir } : {}
