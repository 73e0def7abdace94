-- Devices (issue 11 part 2, SPEC §2 /ming "my machines"): each unit of a paid device order is one
-- device, pending activation until its owner enters the code shipped with it; activation starts a
-- position of kind 'device' (012_positions.sql) mining at the device's power.

CREATE TABLE devices (
  id           INTEGER PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users(id),
  order_id     INTEGER NOT NULL REFERENCES pay_orders(id),
  line_id      INTEGER NOT NULL REFERENCES order_lines(id),
  unit         INTEGER NOT NULL CHECK (unit >= 1),   -- which unit of the line (1..quantity)
  product_id   INTEGER NOT NULL REFERENCES products(id),
  spec_id      INTEGER NOT NULL REFERENCES product_specs(id),
  power        INTEGER NOT NULL CHECK (power >= 0),  -- units of 1e-8, the specification's power
  status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'success')),
  position_id  INTEGER REFERENCES positions(id),
  activated_at INTEGER,
  created_at   INTEGER NOT NULL,
  UNIQUE (line_id, unit),
  CHECK ((status = 'success') = (position_id IS NOT NULL AND activated_at IS NOT NULL))
);
CREATE INDEX devices_user ON devices (user_id, id);
CREATE INDEX devices_order ON devices (order_id, id);

-- One code per device, issued when the order ships (`ship`, `device codes`). Only the SHA-256 of the
-- normalized code is kept: whoever reads the database cannot activate someone's device. A reissue
-- replaces the row, so the earlier code stops working.
CREATE TABLE device_codes (
  device_id  INTEGER PRIMARY KEY REFERENCES devices(id),
  code_hash  TEXT NOT NULL UNIQUE,
  issued_at  INTEGER NOT NULL,
  used_at    INTEGER
) WITHOUT ROWID;

-- Every activation attempt, for the rate limit (wrong codes in a row per user) and the device's
-- "failed" state (its latest attempt was refused). Kept short: old rows are of no use.
CREATE TABLE device_attempts (
  id        INTEGER PRIMARY KEY,
  user_id   INTEGER NOT NULL REFERENCES users(id),
  device_id INTEGER,                                 -- NULL when the id named no device of the user
  ok        INTEGER NOT NULL CHECK (ok IN (0, 1)),
  at        INTEGER NOT NULL
);
CREATE INDEX device_attempts_user ON device_attempts (user_id, at);
CREATE INDEX device_attempts_device ON device_attempts (device_id, at) WHERE device_id IS NOT NULL;
