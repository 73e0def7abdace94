-- Super Miner nodes and loans against their stakes (SPEC §1, §3 Node; issue 11 parts 4 and 6).

-- A tier on sale: elite, core, genesis. Seats are taken by one guarded decrement in the transaction
-- that creates the order, so they never oversell, and given back when an unpaid order is cancelled.
CREATE TABLE node_tiers (
  id                INTEGER PRIMARY KEY,
  type              TEXT NOT NULL UNIQUE CHECK (type IN ('elite', 'core', 'genesis')),
  seats_total       INTEGER NOT NULL CHECK (seats_total >= 0),
  seats_left        INTEGER NOT NULL CHECK (seats_left >= 0),
  limit_num         INTEGER NOT NULL CHECK (limit_num >= 1),       -- nodes one user may hold (open + active)
  amount            INTEGER NOT NULL CHECK (amount > 0),           -- the stake, USDT units of 1e-8
  days              INTEGER NOT NULL CHECK (days BETWEEN 1 AND 3650),
  power             INTEGER NOT NULL CHECK (power >= 0),           -- mining power, NADI units of 1e-8
  level_id          INTEGER NOT NULL CHECK (level_id BETWEEN 0 AND 99),
  withdraw_rate_ppm INTEGER NOT NULL CHECK (withdraw_rate_ppm BETWEEN 0 AND 1000000), -- weight in the withdraw-fee pool
  machine_rate_ppm  INTEGER NOT NULL CHECK (machine_rate_ppm BETWEEN 0 AND 1000000),  -- share of power mined a day
  airdrop_multiplier INTEGER NOT NULL DEFAULT 2 CHECK (airdrop_multiplier BETWEEN 1 AND 100),
  advanced_agent    INTEGER NOT NULL DEFAULT 1 CHECK (advanced_agent IN (0, 1)),
  active            INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  sort              INTEGER NOT NULL DEFAULT 0,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  CHECK (seats_left <= seats_total)
);

-- A node bought: its order to pay, then (paid) the stake frozen in the user's fund USDT account and
-- the tier's terms copied as they were, so a later tier change never alters a node already held.
-- pending (unpaid) → active (paid) → returned (stake unfrozen after `days`), or cancelled (unpaid).
CREATE TABLE node_orders (
  id                 INTEGER PRIMARY KEY,
  user_id            INTEGER NOT NULL REFERENCES users(id),
  tier_id            INTEGER NOT NULL REFERENCES node_tiers(id),
  order_id           INTEGER NOT NULL UNIQUE REFERENCES pay_orders(id),
  status             TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'returned', 'cancelled')),
  amount             INTEGER NOT NULL CHECK (amount > 0),
  days               INTEGER NOT NULL,
  power              INTEGER NOT NULL,
  level_id           INTEGER NOT NULL,
  withdraw_rate_ppm  INTEGER NOT NULL,
  machine_rate_ppm   INTEGER NOT NULL,
  airdrop_multiplier INTEGER NOT NULL,
  advanced_agent     INTEGER NOT NULL,
  position_id        INTEGER REFERENCES positions(id),
  start_day          INTEGER,                 -- first day mined and sharing fees (the day after payment)
  end_day            INTEGER,                 -- first day after the term: the stake is due back at its start
  created_at         INTEGER NOT NULL,
  paid_at            INTEGER,
  returned_at        INTEGER
);
CREATE INDEX node_orders_user ON node_orders (user_id, id);
CREATE INDEX node_orders_active ON node_orders (status, end_day);

-- The node holders' share of one day's withdraw fees, per node: the settlement writes it once a day.
CREATE TABLE node_fee_shares (
  node_id INTEGER NOT NULL REFERENCES node_orders(id),
  day     INTEGER NOT NULL,
  asset   TEXT NOT NULL,
  amount  INTEGER NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (node_id, day, asset)
) WITHOUT ROWID;

-- What the fee split did each day: the pool, what went to holders, what the floors left (to dust).
CREATE TABLE node_fee_days (
  day     INTEGER NOT NULL,
  asset   TEXT NOT NULL,
  fees    INTEGER NOT NULL,   -- the day's withdraw fees
  pool    INTEGER NOT NULL,   -- the part for node holders
  paid    INTEGER NOT NULL,
  dust    INTEGER NOT NULL,
  PRIMARY KEY (day, asset)
) WITHOUT ROWID;

-- Loan plans: loan-to-value against a node's stake, daily interest, the longest term.
CREATE TABLE loan_plans (
  id             INTEGER PRIMARY KEY,
  slug           TEXT NOT NULL UNIQUE,
  ltv_ppm        INTEGER NOT NULL CHECK (ltv_ppm BETWEEN 1 AND 1000000),
  daily_rate_ppm INTEGER NOT NULL CHECK (daily_rate_ppm BETWEEN 0 AND 1000000),
  max_days       INTEGER NOT NULL CHECK (max_days BETWEEN 1 AND 3650),
  active         INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  sort           INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL
);

-- A loan in USDT against one active node: debt = principal + interest − repaid. open → repaid.
CREATE TABLE loans (
  id             INTEGER PRIMARY KEY,
  user_id        INTEGER NOT NULL REFERENCES users(id),
  plan_id        INTEGER NOT NULL REFERENCES loan_plans(id),
  node_id        INTEGER NOT NULL REFERENCES node_orders(id),
  status         TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'repaid')),
  principal      INTEGER NOT NULL CHECK (principal > 0),
  interest       INTEGER NOT NULL DEFAULT 0 CHECK (interest >= 0),
  repaid         INTEGER NOT NULL DEFAULT 0 CHECK (repaid >= 0),
  debt           INTEGER NOT NULL CHECK (debt >= 0),
  daily_rate_ppm INTEGER NOT NULL,
  start_day      INTEGER NOT NULL,            -- first day interest is added (the day after borrowing)
  due_day        INTEGER NOT NULL,
  created_at     INTEGER NOT NULL,
  repaid_at      INTEGER,
  CHECK (debt = principal + interest - repaid)
);
CREATE INDEX loans_user ON loans (user_id, id);
CREATE INDEX loans_open ON loans (status, node_id);

-- Interest added to a loan's debt on a settled day; the key makes a day add it once.
CREATE TABLE loan_interest (
  loan_id INTEGER NOT NULL REFERENCES loans(id),
  day     INTEGER NOT NULL,
  amount  INTEGER NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (loan_id, day)
) WITHOUT ROWID;
