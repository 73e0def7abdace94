-- Messages of the cross-process bus too big for a PostgreSQL NOTIFY (8,000 bytes; issue 19,
-- server/roles/pgBus.ts): the row is written and its id notified in one statement, receivers read it
-- back, and rows older than a minute are deleted by the processes that write them. Nothing durable:
-- a reader that finds its row gone re-reads where things stand. Unused on SQLite (one process, no bus).
CREATE TABLE bus_messages (
  id         INTEGER PRIMARY KEY,
  topic      TEXT NOT NULL,
  payload    TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX bus_messages_created ON bus_messages (created_at);
