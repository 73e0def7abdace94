-- migrate: foreign_keys=off
-- A chain payment whose order ended before it confirmed (issue 17: a tx hash reported after the hold
-- expired was refused while the tokens had already arrived). It is now verified like any other; when
-- the order cannot be paid any more it fails 'order_expired' or 'order_cancelled', and what the
-- transfer brought is credited to the payer's fund account, ref `deposit:<chain>:<tx>:<logIndex>`
-- (the deposit watcher's own key, so one transfer is never credited twice). Only the fail_reason
-- check changes: the table is rebuilt as SQLite requires, indexes and all.
CREATE TABLE payments_new (
  id            INTEGER PRIMARY KEY,
  order_ref     TEXT NOT NULL,
  user_id       INTEGER NOT NULL REFERENCES users(id),
  method        TEXT NOT NULL CHECK (method IN ('balance', 'chain')),
  asset         TEXT NOT NULL,
  amount        INTEGER NOT NULL CHECK (amount > 0),
  payee         TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('pending', 'confirming', 'paid', 'failed')),
  chain         TEXT,
  tx_hash       TEXT,
  from_address  TEXT,
  to_address    TEXT,
  amount_wei    TEXT,
  block_number  INTEGER,
  block_hash    TEXT,
  confirmations INTEGER NOT NULL DEFAULT 0,
  required      INTEGER NOT NULL DEFAULT 0,
  fail_reason   TEXT CHECK (fail_reason IN ('reverted', 'not_found', 'wrong_recipient', 'wrong_token', 'wrong_sender', 'amount_too_low', 'order_expired', 'order_cancelled')),
  fail_detail   TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  paid_at       INTEGER,
  CHECK ((method = 'chain') = (chain IS NOT NULL AND tx_hash IS NOT NULL)),
  CHECK ((status = 'failed') = (fail_reason IS NOT NULL))
);
INSERT INTO payments_new (id, order_ref, user_id, method, asset, amount, payee, status, chain, tx_hash, from_address, to_address, amount_wei,
                          block_number, block_hash, confirmations, required, fail_reason, fail_detail, created_at, updated_at, paid_at)
  SELECT id, order_ref, user_id, method, asset, amount, payee, status, chain, tx_hash, from_address, to_address, amount_wei,
         block_number, block_hash, confirmations, required, fail_reason, fail_detail, created_at, updated_at, paid_at FROM payments;
DROP TABLE payments;
ALTER TABLE payments_new RENAME TO payments;
CREATE UNIQUE INDEX payments_chain_tx ON payments (chain, tx_hash) WHERE tx_hash IS NOT NULL;
CREATE UNIQUE INDEX payments_open_order ON payments (order_ref) WHERE status <> 'failed';
CREATE INDEX payments_order ON payments (order_ref, id);
CREATE INDEX payments_checking ON payments (status) WHERE status IN ('pending', 'confirming');
