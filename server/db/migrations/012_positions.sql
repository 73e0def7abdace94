-- Positions and the daily settlement (DESIGN §11, issue 11). Everything that earns is a position:
-- a device mining, destroy or joint-mining power released as NADI, a node's daily mining, a pledge's
-- interest. The settlement settles one UTC day at a time (days since 1970-01-01), every due
-- position in one set-based pass, and records each line; money moves through the ledger.

-- One earning thing. Its amount for a period is floor(base × rate_ppm / 1e6), capped by what
-- remains to be paid (NULL: no cap); the part integer division leaves (frac, millionths of a unit)
-- is what makes the day's dust. It pays on days start_day + k × period_days − 1 (k ≥ 1) before
-- end_day, while active.
CREATE TABLE positions (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id),
  kind        TEXT NOT NULL CHECK (kind IN ('device', 'destroy', 'joint', 'trial', 'node', 'pledge')),
  status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'ended')),
  asset       TEXT NOT NULL,                         -- what it pays
  base        INTEGER NOT NULL CHECK (base >= 0),    -- power or principal, units of 1e-8
  rate_ppm    INTEGER NOT NULL CHECK (rate_ppm BETWEEN 0 AND 1000000),
  period_days INTEGER NOT NULL DEFAULT 1 CHECK (period_days BETWEEN 1 AND 366),
  remaining   INTEGER CHECK (remaining >= 0),        -- still to pay; NULL: no cap
  paid        INTEGER NOT NULL DEFAULT 0 CHECK (paid >= 0),
  gift        INTEGER NOT NULL DEFAULT 0 CHECK (gift >= 0), -- power given on top (the power log's gift power)
  start_day   INTEGER NOT NULL,
  end_day     INTEGER,                               -- first day not paid; NULL: until exhausted
  settled_day INTEGER,                               -- the last day settled
  source      TEXT NOT NULL,                         -- what made it: 'order:12', 'destroy:5', 'device:3'…
  created_at  INTEGER NOT NULL,
  ended_at    INTEGER,
  CHECK (end_day IS NULL OR end_day > start_day)
);
CREATE INDEX positions_user ON positions (user_id, kind, id);
CREATE INDEX positions_due ON positions (start_day) WHERE status = 'active';
CREATE UNIQUE INDEX positions_source ON positions (source, kind);

-- What a position earned on a day; the primary key is what makes a day pay once.
CREATE TABLE settlement_lines (
  position_id INTEGER NOT NULL REFERENCES positions(id),
  day         INTEGER NOT NULL,
  amount      INTEGER NOT NULL CHECK (amount >= 0),
  frac        INTEGER NOT NULL CHECK (frac BETWEEN 0 AND 999999), -- millionths of a unit left by the floor
  PRIMARY KEY (position_id, day)
) WITHOUT ROWID;
CREATE INDEX settlement_lines_day ON settlement_lines (day, position_id);

-- Per day, kind and asset: computed = paid + dust (the audit checks it). computed is the exact total
-- floored once; paid the sum of the floored lines; dust what the floors left, posted to the dust account.
CREATE TABLE settlement_totals (
  day      INTEGER NOT NULL,
  kind     TEXT NOT NULL,
  asset    TEXT NOT NULL,
  lines    INTEGER NOT NULL,
  computed INTEGER NOT NULL,
  paid     INTEGER NOT NULL,
  dust     INTEGER NOT NULL,
  PRIMARY KEY (day, kind, asset)
) WITHOUT ROWID;

-- A settled day: the visible record of the run.
CREATE TABLE settlement_days (
  day         INTEGER PRIMARY KEY,
  positions   INTEGER NOT NULL,
  users       INTEGER NOT NULL,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER NOT NULL
);
