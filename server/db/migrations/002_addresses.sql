-- Delivery addresses (SPEC §3). A user keeps at most 20 (enforced by the service) and, once they have
-- any, exactly one is the default: the partial unique index below guarantees "at most one", the
-- service's transactions "at least one". Orders must copy an address, not point at it: a row is
-- deleted for good when its owner deletes it.
CREATE TABLE addresses (
  id         INTEGER PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,                  -- recipient, trimmed
  phone      TEXT NOT NULL,                  -- normalized: optional + and digits only
  area       TEXT NOT NULL,
  address    TEXT NOT NULL,                  -- the detailed address
  is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX addresses_user ON addresses (user_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX addresses_one_default ON addresses (user_id) WHERE is_default = 1;
