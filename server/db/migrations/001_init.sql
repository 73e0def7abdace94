-- Users and the referral tree. Counts and performances are kept up the tree on each change
-- so the user centre reads one row.
CREATE TABLE users (
  id               INTEGER PRIMARY KEY,
  wallet_address   TEXT UNIQUE,              -- lowercase hex; NULL only for the root account
  code             TEXT NOT NULL UNIQUE,     -- the user's own invite code
  name             TEXT NOT NULL,
  inviter_id       INTEGER REFERENCES users(id),
  depth            INTEGER NOT NULL DEFAULT 0,
  zhi_num          INTEGER NOT NULL DEFAULT 0,
  team_num         INTEGER NOT NULL DEFAULT 0,
  me_performance   INTEGER NOT NULL DEFAULT 0, -- money, units of 1e-8 USDT
  zhi_performance  INTEGER NOT NULL DEFAULT 0,
  team_performance INTEGER NOT NULL DEFAULT 0,
  level            INTEGER NOT NULL DEFAULT 0,
  is_root          INTEGER NOT NULL DEFAULT 0,
  created_at       INTEGER NOT NULL
);
CREATE INDEX users_inviter ON users (inviter_id, id);
CREATE INDEX users_created ON users (created_at);

-- Sign-in messages issued and not yet used (DESIGN §4).
CREATE TABLE login_nonces (
  nonce       TEXT PRIMARY KEY,
  address     TEXT NOT NULL,
  message     TEXT NOT NULL,
  invite_code TEXT,
  chain_id    INTEGER NOT NULL,
  issued_at   INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
CREATE INDEX login_nonces_expiry ON login_nonces (expires_at);

CREATE TABLE sessions (
  id           INTEGER PRIMARY KEY,
  token_hash   TEXT NOT NULL UNIQUE,          -- sha256 of the opaque token, hex
  user_id      INTEGER NOT NULL REFERENCES users(id),
  created_at   INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  revoked_at   INTEGER,
  ip           TEXT,
  user_agent   TEXT
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Idempotency-Key → stored response, replayed for 24 h (DESIGN §3).
CREATE TABLE idempotency_keys (
  scope        TEXT NOT NULL,
  key          TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status       INTEGER,                       -- NULL while the first request is in flight
  body         TEXT,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_created ON idempotency_keys (created_at);

CREATE TABLE banners (
  id     INTEGER PRIMARY KEY,
  image  TEXT NOT NULL,
  link   TEXT,
  sort   INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE banner_texts (
  banner_id INTEGER NOT NULL REFERENCES banners(id) ON DELETE CASCADE,
  lang      TEXT NOT NULL,
  title     TEXT NOT NULL,
  PRIMARY KEY (banner_id, lang)
);

CREATE TABLE notices (
  id           INTEGER PRIMARY KEY,
  pinned       INTEGER NOT NULL DEFAULT 0,
  published_at INTEGER NOT NULL,
  active       INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX notices_order ON notices (active, pinned DESC, published_at DESC);
CREATE TABLE notice_texts (
  notice_id INTEGER NOT NULL REFERENCES notices(id) ON DELETE CASCADE,
  lang      TEXT NOT NULL,
  title     TEXT NOT NULL,
  content   TEXT NOT NULL,
  PRIMARY KEY (notice_id, lang)
);

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
