-- The operators of the console (issue 35), apart from the app's users: a wallet address with a role,
-- added and removed by the CLI (the first admin only so) or by an admin. A removed operator keeps its
-- row, so the operator log's entries still name who they were; adding the address again is a new row.
CREATE TABLE operators (
  id          INTEGER PRIMARY KEY,
  address     TEXT NOT NULL CHECK (length(address) = 42),   -- lower case, as users.wallet_address
  role        TEXT NOT NULL CHECK (role IN ('viewer', 'support', 'finance', 'admin')),
  added_at    INTEGER NOT NULL,
  added_by    TEXT NOT NULL,                                -- an operator's address, or cli:<os user>
  removed_at  INTEGER,
  removed_by  TEXT,
  CHECK ((removed_at IS NULL) = (removed_by IS NULL))
);
-- One current row per address.
CREATE UNIQUE INDEX operators_current ON operators (address) WHERE removed_at IS NULL;

-- Operator sign-in messages, single use, apart from the users' login_nonces: a user's message can
-- never sign an operator in, nor the other way round.
CREATE TABLE operator_nonces (
  nonce        TEXT PRIMARY KEY,
  address      TEXT NOT NULL,
  message      TEXT NOT NULL,
  issued_at    INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  handshake_id TEXT
);
CREATE INDEX operator_nonces_expiry ON operator_nonces (expires_at);

-- Operator sessions: short (idle and absolute limits, server/modules/operator/settings.ts), tokens
-- stored hashed, ended at sign-out or when the operator is removed.
CREATE TABLE operator_sessions (
  id           INTEGER PRIMARY KEY,
  token_hash   TEXT NOT NULL UNIQUE,
  operator_id  INTEGER NOT NULL REFERENCES operators(id),
  created_at   INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  revoked_at   INTEGER,
  ip           TEXT,
  user_agent   TEXT,
  handshake_id TEXT
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id) WHERE revoked_at IS NULL;

-- The operator log: every operator write, who (an operator's address or cli:<os user>), their role
-- then, what was done to which object, the object before and after (JSON) and the reason typed.
CREATE TABLE oplog (
  id           INTEGER PRIMARY KEY,
  at           INTEGER NOT NULL,
  actor        TEXT NOT NULL,
  role         TEXT CHECK (role IN ('viewer', 'support', 'finance', 'admin')), -- NULL: an OS user at the shell, no operator
  action       TEXT NOT NULL,
  object_type  TEXT NOT NULL,
  object_id    TEXT NOT NULL,
  before       TEXT,
  after        TEXT,
  reason       TEXT
);
CREATE INDEX oplog_object ON oplog (object_type, object_id, id);
CREATE INDEX oplog_actor ON oplog (actor, id);
CREATE INDEX oplog_at ON oplog (at);

-- Append-only, as the ledger: what was done is never edited or taken back, by any route or statement.
CREATE TRIGGER oplog_no_update BEFORE UPDATE ON oplog
BEGIN SELECT RAISE(ABORT, 'oplog is append-only'); END;
CREATE TRIGGER oplog_no_delete BEFORE DELETE ON oplog
BEGIN SELECT RAISE(ABORT, 'oplog is append-only'); END;
