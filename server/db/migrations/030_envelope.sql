-- The production envelope (issue 20, docs/envelope.md). A handshake's keys, wrapped under a key derived
-- from the server's signing key (a copy of the database alone opens no one's traffic), found by every
-- api process. Rows never change; they are dropped once no session could still renew from them.
CREATE TABLE handshakes (
  id         TEXT PRIMARY KEY,
  keys       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX handshakes_expires ON handshakes (expires_at);
-- A session's token works only with its handshake: the current one, and the one it was renewed from
-- (previous), which may only renew again (an answer to a renewal lost on the way).
ALTER TABLE sessions ADD COLUMN handshake_id TEXT;
ALTER TABLE sessions ADD COLUMN previous_handshake_id TEXT;
-- The handshake a sign-in message was asked under: the sign-in must come under the same one.
ALTER TABLE login_nonces ADD COLUMN handshake_id TEXT;
-- Signs of sealed requests seen by role processes (--role all keeps them in memory), kept past the
-- window a request's timestamp is accepted in, so a copy of a request is refused on any process.
CREATE TABLE seal_seen (
  sign       TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
CREATE INDEX seal_seen_expires ON seal_seen (expires_at);
