-- Destroy and joint mining (issue 11 part 3): NADI burned, or USDT contributed, for power released
-- daily as NADI until exhausted. The power itself is a position (012); this row keeps what was paid
-- for it, at what price, so the destroy list can show price, amount, USDT value and date.
CREATE TABLE mining_buys (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id),
  kind        TEXT NOT NULL CHECK (kind IN ('destroy', 'joint', 'trial')),
  order_id    INTEGER UNIQUE REFERENCES pay_orders(id),  -- NULL for the trial power a newcomer gets
  position_id INTEGER NOT NULL UNIQUE REFERENCES positions(id),
  asset       TEXT NOT NULL,          -- what was paid: NADI (destroy), USDT (joint); NADI for a trial
  amount      INTEGER NOT NULL,       -- what was paid, units of 1e-8 (0 for a trial)
  price       INTEGER NOT NULL,       -- the NADI price in USDT then, units of 1e-8
  usdt_value  INTEGER NOT NULL,       -- what it was worth in USDT then
  power       INTEGER NOT NULL,       -- bought power (NADI to release)
  gift        INTEGER NOT NULL,       -- gift power on top
  created_at  INTEGER NOT NULL
);
CREATE INDEX mining_buys_user ON mining_buys (user_id, id);
