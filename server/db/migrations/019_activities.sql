-- Activities (issue 12 part 4): campaigns with a time window, a measure and prizes per rank range.
-- Operators write them with `activity load <file>` (server/modules/activity/activityFile.ts); slugs
-- are the keys. Participation is automatic: whoever scores in the window is in the activity, so
-- scores are read from the tables that already record what is measured (no per-activity counters to
-- keep in step); the indexes below keep those window reads narrow.
CREATE TABLE activities (
  id         INTEGER PRIMARY KEY,
  slug       TEXT NOT NULL UNIQUE,
  title      TEXT NOT NULL,                    -- JSON texts keyed by LANG code ({"TW": …, "EN": …})
  body       TEXT NOT NULL,                    -- JSON texts
  cover      TEXT NOT NULL,                    -- image URL (same origin or the upload store)
  measure    TEXT NOT NULL CHECK (measure IN ('purchases', 'destroy', 'trading', 'team_growth')),
  starts_at  INTEGER NOT NULL,                 -- unix ms, inclusive
  ends_at    INTEGER NOT NULL,                 -- unix ms, exclusive
  sort       INTEGER NOT NULL DEFAULT 0,
  active     INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  -- The payout (server/modules/activity/payout.ts): settled_at once every prize with a winner is paid;
  -- halted says why the last attempt stopped (the prize account was short), NULL when it did not.
  settled_at INTEGER,
  halted     TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CHECK (ends_at > starts_at)
);
CREATE INDEX activities_window ON activities (active, starts_at, ends_at);
CREATE INDEX activities_due ON activities (ends_at) WHERE settled_at IS NULL;

-- Each rank from rank_from to rank_to (inclusive) wins `amount` of `asset`; ranges are contiguous from 1.
CREATE TABLE activity_prizes (
  activity_id INTEGER NOT NULL REFERENCES activities(id),
  rank_from   INTEGER NOT NULL CHECK (rank_from >= 1),
  rank_to     INTEGER NOT NULL,
  asset       TEXT NOT NULL,
  amount      INTEGER NOT NULL CHECK (amount > 0),  -- units of 1e-8, per rank
  PRIMARY KEY (activity_id, rank_from),
  CHECK (rank_to >= rank_from)
);

-- The payout record: one row per (activity, rank) paid, committed with its ledger posting
-- (ref activity:<id>:rank:<rank>), so a re-run pays nothing.
CREATE TABLE activity_winners (
  activity_id INTEGER NOT NULL REFERENCES activities(id),
  rank        INTEGER NOT NULL,
  user_id     INTEGER NOT NULL REFERENCES users(id),
  score       INTEGER NOT NULL,
  reached_at  INTEGER NOT NULL,
  asset       TEXT NOT NULL,
  amount      INTEGER NOT NULL CHECK (amount > 0),
  paid_at     INTEGER NOT NULL,
  PRIMARY KEY (activity_id, rank)
);
CREATE INDEX activity_winners_user ON activity_winners (user_id);

-- Window reads of the measures (trade deals by time: 018 made that index for the ranking).
CREATE INDEX pay_orders_paid ON pay_orders (paid_at) WHERE paid_at IS NOT NULL;
CREATE INDEX mining_buys_time ON mining_buys (kind, created_at);
