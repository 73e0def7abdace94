-- Joint mining quotes (issue 33 §4): the NADI price a user is shown, locked for a while and confirmable
-- once. Under a live market an exact-match check refused most confirms a second after the preview; a
-- quote honoured within its validity does not, as an exchange quote (004) does for exchanges.
CREATE TABLE joint_quotes (
  id         TEXT PRIMARY KEY,                     -- random, unguessable
  user_id    INTEGER NOT NULL REFERENCES users(id),
  price      INTEGER NOT NULL CHECK (price > 0),   -- USDT per NADI, units of 1e-8
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
);
CREATE INDEX joint_quotes_user ON joint_quotes (user_id, expires_at);
