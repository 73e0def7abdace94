-- Payments (DESIGN §7, issue 4 part 7): the primitive the shops call to get an order paid.
--
--   balance: one transaction moves the user's fund <asset> to the payee and writes the row as 'paid'.
--   chain:   pending ──receipt verified──▶ confirming ──N confirmations, block hash unchanged──▶ paid
--               │                              │ (reorg: back to pending / confirming in the new block)
--               └── reverted, wrong token / sender / recipient, too little, never mined ──▶ failed
--
-- A paid row commits together with its ledger posting, ref `pay:<order_ref>` (custody:<chain> or the
-- user's fund account → the payee), so an order is paid once even if two rows pointed at it.
-- An order has at most one payment that is not failed; a tx hash pays at most one order, ever.
CREATE TABLE payments (
  id            INTEGER PRIMARY KEY,
  order_ref     TEXT NOT NULL,
  user_id       INTEGER NOT NULL REFERENCES users(id),
  method        TEXT NOT NULL CHECK (method IN ('balance', 'chain')),
  asset         TEXT NOT NULL,
  amount        INTEGER NOT NULL CHECK (amount > 0),          -- units of 1e-8, what the order costs
  payee         TEXT NOT NULL,                                -- 'treasury', 'fees', 'u:<id>:fund'…
  status        TEXT NOT NULL CHECK (status IN ('pending', 'confirming', 'paid', 'failed')),
  chain         TEXT,
  tx_hash       TEXT,                                         -- lowercase
  from_address  TEXT,                                         -- the user's wallet (lowercase), the expected sender
  to_address    TEXT,                                         -- the receiving address (checksummed)
  amount_wei    TEXT,                                         -- what the tx paid, token wei, once verified
  block_number  INTEGER,
  block_hash    TEXT,
  confirmations INTEGER NOT NULL DEFAULT 0,
  required      INTEGER NOT NULL DEFAULT 0,
  fail_reason   TEXT CHECK (fail_reason IN ('reverted', 'not_found', 'wrong_recipient', 'wrong_token', 'wrong_sender', 'amount_too_low')),
  fail_detail   TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  paid_at       INTEGER,
  CHECK ((method = 'chain') = (chain IS NOT NULL AND tx_hash IS NOT NULL)),
  CHECK ((status = 'failed') = (fail_reason IS NOT NULL))
);
CREATE UNIQUE INDEX payments_chain_tx ON payments (chain, tx_hash) WHERE tx_hash IS NOT NULL;
CREATE UNIQUE INDEX payments_open_order ON payments (order_ref) WHERE status <> 'failed';
CREATE INDEX payments_order ON payments (order_ref, id);
CREATE INDEX payments_checking ON payments (status) WHERE status IN ('pending', 'confirming');
