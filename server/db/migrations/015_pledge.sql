-- Savings (pledge) (SPEC §3 Pledge, §4; issue 11 part 5). A product is a term with a day rate and a
-- month rate and a capacity; a pledge freezes NADI in the user's fund account for the term, its
-- interest is a position of kind 'pledge' paid by the settlement from the savings account, and the
-- settlement of the term's last day unfreezes the principal (waiting → redeemed).

CREATE TABLE pledge_products (
  id             INTEGER PRIMARY KEY,
  slug           TEXT NOT NULL UNIQUE,                 -- the operator's key in the product file
  name           TEXT NOT NULL,                        -- JSON: language code → name
  day            INTEGER NOT NULL CHECK (day BETWEEN 1 AND 3650),
  min_pledge     INTEGER NOT NULL CHECK (min_pledge > 0),
  day_rate_ppm   INTEGER NOT NULL CHECK (day_rate_ppm BETWEEN 0 AND 1000000),
  month_rate_ppm INTEGER NOT NULL CHECK (month_rate_ppm BETWEEN 0 AND 1000000),
  total_pledge   INTEGER NOT NULL CHECK (total_pledge > 0),
  -- Pledged and not yet released. The CHECK is the last guard of the capacity: a pledge that would
  -- pass it fails its transaction whatever the code above did.
  pledged        INTEGER NOT NULL DEFAULT 0 CHECK (pledged >= 0 AND pledged <= total_pledge),
  power_pool     INTEGER NOT NULL DEFAULT 0 CHECK (power_pool >= 0),
  sort           INTEGER NOT NULL DEFAULT 0,
  active         INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
);

CREATE TABLE pledges (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id),
  product_id  INTEGER NOT NULL REFERENCES pledge_products(id),
  position_id INTEGER REFERENCES positions(id),       -- set in the pledge's own transaction
  mode        TEXT NOT NULL CHECK (mode IN ('day', 'month')),
  amount      INTEGER NOT NULL CHECK (amount > 0),     -- the principal frozen, units of 1e-8
  rate_ppm    INTEGER NOT NULL CHECK (rate_ppm BETWEEN 1 AND 1000000),
  days        INTEGER NOT NULL CHECK (days > 0),
  start_day   INTEGER NOT NULL,
  end_day     INTEGER NOT NULL,                        -- first day after the term
  status      TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'redeemed')),
  created_at  INTEGER NOT NULL,
  released_at INTEGER,
  CHECK (end_day > start_day)
);
CREATE INDEX pledges_user ON pledges (user_id, id);
CREATE INDEX pledges_due ON pledges (end_day) WHERE status = 'waiting';

-- The release log: what was unfrozen, when, for which settled day (one row at the end of a term).
CREATE TABLE pledge_releases (
  id         INTEGER PRIMARY KEY,
  pledge_id  INTEGER NOT NULL REFERENCES pledges(id),
  day        INTEGER NOT NULL,
  amount     INTEGER NOT NULL CHECK (amount > 0),
  created_at INTEGER NOT NULL,
  UNIQUE (pledge_id, day)
);
