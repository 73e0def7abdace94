-- Who leads each election of the role processes (issue 19, server/roles/leader.ts): written by the
-- leader when it wins, removed when it lets go in order, overwritten by the next leader after a
-- crash. For operators and health checks only: the PostgreSQL advisory lock decides who leads, never
-- this row.
CREATE TABLE role_leaders (
  name  TEXT PRIMARY KEY,
  pid   INTEGER NOT NULL,
  host  TEXT NOT NULL,
  since INTEGER NOT NULL
);
