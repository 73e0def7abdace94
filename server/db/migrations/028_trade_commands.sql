-- Trading commands on their way from an API process to the market's engine process (issue 19,
-- server/roles/tradeCommands.ts). An API process writes the command (pending) and waits; the engine
-- leader claims what is pending (taken), applies it, and marks it done in the same transaction as
-- the order, fills and journal it wrote, so a command is applied once: a successor that finds it
-- taken and not done knows its effects were never committed and applies it again. An API process
-- that gives up on a command still pending marks it abandoned, which the engine never takes, and
-- answers "trading is paused". Unused on SQLite and by --role all (the engine is in process there).
CREATE TABLE trade_commands (
  id         INTEGER PRIMARY KEY,
  inst_id    TEXT NOT NULL,
  user_id    INTEGER NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('place', 'cancel')),
  body       TEXT NOT NULL,
  status     TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'taken', 'done', 'abandoned')),
  -- done: {"order_id": n} or {"rejected": reason, "detail": {…}}.
  result     TEXT,
  created_at INTEGER NOT NULL,
  done_at    INTEGER
);
CREATE INDEX trade_commands_open ON trade_commands (inst_id, status, id);
