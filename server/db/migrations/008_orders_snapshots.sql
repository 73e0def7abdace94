-- Orders to be paid (SPEC §3 "Order", §4; route /orders), created by the shops. Whether an order is
-- paid is the payments table's word (server/payment, order_ref 'order:<id>'); this row adds what the
-- order is, its price, its deadline, and the two endings that are not a payment: cancelled (by the
-- user, or automatically once unpaid past expires_at) and completed (by the shop that fulfils it).
CREATE TABLE pay_orders (
  id           INTEGER PRIMARY KEY,
  order_no     TEXT NOT NULL UNIQUE,
  user_id      INTEGER NOT NULL REFERENCES users(id),
  type         TEXT NOT NULL CHECK (type IN ('device', 'node', 'destroy', 'joint')),
  asset        TEXT NOT NULL CHECK (asset IN ('USDT', 'NADI')),
  total        INTEGER NOT NULL CHECK (total > 0),   -- units of 1e-8
  state        TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'cancelled', 'completed')),
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  ended_at     INTEGER
);
CREATE INDEX pay_orders_user ON pay_orders (user_id, id);
CREATE INDEX pay_orders_expiring ON pay_orders (expires_at) WHERE state = 'open';

-- The exchange's book as it stood after journal entry `seq`: a start restores the newest one and
-- replays only the journal after it.
CREATE TABLE exchange_snapshots (
  seq        INTEGER PRIMARY KEY,
  inst_id    TEXT NOT NULL,
  body       TEXT NOT NULL,                 -- EngineSnapshot as JSON
  created_at INTEGER NOT NULL
);
