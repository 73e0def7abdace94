-- Withdrawals (DESIGN §7, issue 4 part 4): NADI sent from the hot wallet to a user's address.
--
--   requested ──operator approves──▶ approved ──signed, stored, sent──▶ broadcast ──N confirmations──▶ confirmed
--       │ (auto-approved below the threshold)   │                          │
--       └────────── operator rejects ───────────┴── send failed ───────────┴── reverted / dropped ──▶ failed (refunded)
--
-- amount + fee are frozen in the user's fund NADI account from the request until the withdrawal ends:
-- confirmed settles them (amount → custody:<chain>, fee → fees), failed returns them. Each change of
-- status commits in the same transaction as its ledger posting (refs withdraw:<id>:freeze|settle|refund),
-- so the frozen balance always equals the open withdrawals (the 'withdrawals' frozen holder).
--
-- The signed transaction (tx_hash, raw_tx, nonce) is committed BEFORE it is broadcast: after a crash the
-- sender broadcasts the same bytes again, which the chain accepts at most once.
CREATE TABLE withdrawals (
  id            INTEGER PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users(id),
  coin          TEXT NOT NULL CHECK (coin = 'NADI'),
  chain         TEXT NOT NULL,
  amount        INTEGER NOT NULL CHECK (amount > 0),          -- units of 1e-8, what the address receives
  fee           INTEGER NOT NULL CHECK (fee >= 0),            -- units of 1e-8, taken on top of amount
  address       TEXT NOT NULL,                                -- EIP-55 checksummed
  status        TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'broadcast', 'confirmed', 'failed')),
  approved_by   TEXT CHECK (approved_by IN ('auto', 'operator')),
  from_address  TEXT,                                         -- the hot wallet that signed
  tx_hash       TEXT,
  raw_tx        TEXT,
  nonce         INTEGER,
  block_number  INTEGER,                                      -- block of the receipt last seen
  confirmations INTEGER NOT NULL DEFAULT 0,
  attempts      INTEGER NOT NULL DEFAULT 0,                   -- sends that failed before anything was signed and stored
  last_error    TEXT,
  fail_reason   TEXT CHECK (fail_reason IN ('rejected', 'send_failed', 'reverted', 'dropped')),
  fail_detail   TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  approved_at   INTEGER,
  broadcast_at  INTEGER,
  finished_at   INTEGER,
  CHECK (status NOT IN ('broadcast', 'confirmed') OR (tx_hash IS NOT NULL AND raw_tx IS NOT NULL AND nonce IS NOT NULL AND from_address IS NOT NULL)),
  CHECK ((status = 'failed') = (fail_reason IS NOT NULL))
);
CREATE INDEX withdrawals_user ON withdrawals (user_id, id);
-- What the sender and the frozen holder read: the few that are still open.
CREATE INDEX withdrawals_open ON withdrawals (chain, status, id) WHERE status IN ('requested', 'approved', 'broadcast');
CREATE UNIQUE INDEX withdrawals_tx ON withdrawals (chain, tx_hash) WHERE tx_hash IS NOT NULL;
-- One live transaction per hot-wallet nonce: a second signature over a nonce still held is refused
-- before it can be broadcast. A failed (dropped) one releases its nonce.
CREATE UNIQUE INDEX withdrawals_nonce ON withdrawals (chain, from_address, nonce) WHERE nonce IS NOT NULL AND status <> 'failed';
