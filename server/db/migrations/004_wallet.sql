-- Wallet and recharge (server/modules/wallet, server/modules/recharge, server/chain/depositWatcher.ts).
-- Money is INTEGER units of 1e-8 (DESIGN §3); every row that moves money has a ledger posting made in
-- the same transaction, whose ref is derived from the row's own key.

-- Fund ↔ trade transfers of a user's own money (/draw). Ledger ref 'transfer:<id>'.
CREATE TABLE wallet_transfers (
  id           INTEGER PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users(id),
  asset        TEXT NOT NULL,
  amount       INTEGER NOT NULL CHECK (amount > 0),
  from_account TEXT NOT NULL CHECK (from_account IN ('fund', 'trade')),
  to_account   TEXT NOT NULL CHECK (to_account IN ('fund', 'trade')),
  created_at   INTEGER NOT NULL,
  CHECK (from_account <> to_account)
);
CREATE INDEX wallet_transfers_user ON wallet_transfers (user_id, id);

-- A price the user was shown for an exchange, confirmable once before it expires.
CREATE TABLE exchange_quotes (
  id          TEXT PRIMARY KEY,              -- random, unguessable
  user_id     INTEGER NOT NULL REFERENCES users(id),
  from_asset  TEXT NOT NULL,
  to_asset    TEXT NOT NULL,
  amount      INTEGER NOT NULL CHECK (amount > 0),   -- of from_asset, leaving the user's fund account
  receive     INTEGER NOT NULL CHECK (receive > 0),  -- of to_asset, after the fee
  fee         INTEGER NOT NULL CHECK (fee >= 0),     -- of to_asset
  price       INTEGER NOT NULL CHECK (price > 0),    -- USDT per NADI
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER,
  CHECK (from_asset <> to_asset)
);
CREATE INDEX exchange_quotes_user ON exchange_quotes (user_id, expires_at);

-- Confirmed exchanges. Ledger ref 'exchange:<id>'; one per quote.
CREATE TABLE wallet_exchanges (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id),
  quote_id    TEXT NOT NULL UNIQUE REFERENCES exchange_quotes(id),
  from_asset  TEXT NOT NULL,
  to_asset    TEXT NOT NULL,
  amount      INTEGER NOT NULL,
  receive     INTEGER NOT NULL,
  fee         INTEGER NOT NULL,
  price       INTEGER NOT NULL,
  created_at  INTEGER NOT NULL
);
CREATE INDEX wallet_exchanges_user ON wallet_exchanges (user_id, id);

-- Deposit addresses handed out (GET /recharge/address): the watcher looks for transfers to these.
CREATE TABLE deposit_addresses (
  user_id    INTEGER NOT NULL REFERENCES users(id),
  chain      TEXT NOT NULL,
  address    TEXT NOT NULL,                  -- checksummed
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, chain)
);
CREATE UNIQUE INDEX deposit_addresses_chain ON deposit_addresses (chain, address);

-- Every token transfer seen to a deposit address. A log is one deposit, whoever sees it how often.
-- confirming → credited (ledger ref 'deposit:<chain>:<tx_hash>:<log_index>'), or → dropped when its
-- block left the chain (a reorg); a dropped log seen again in a canonical block confirms again.
CREATE TABLE deposits (
  id            INTEGER PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users(id),
  chain         TEXT NOT NULL,
  coin          TEXT NOT NULL,
  tx_hash       TEXT NOT NULL,               -- 0x + 64 lower-case hex
  log_index     INTEGER NOT NULL,
  block_number  INTEGER NOT NULL,
  block_hash    TEXT NOT NULL,
  from_address  TEXT NOT NULL,
  to_address    TEXT NOT NULL,
  amount        INTEGER NOT NULL CHECK (amount > 0),  -- credited units of 1e-8 (the token amount floored)
  amount_wei    TEXT NOT NULL,               -- the token amount as sent (18 decimals), decimal text
  confirmations INTEGER NOT NULL DEFAULT 0,
  required      INTEGER NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('confirming', 'credited', 'dropped')),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  credited_at   INTEGER,
  UNIQUE (chain, tx_hash, log_index)
);
CREATE INDEX deposits_user ON deposits (user_id, id);
CREATE INDEX deposits_confirming ON deposits (chain, block_number) WHERE status = 'confirming';

-- Per chain: the last block the watcher has read, and its hash (a different hash later = a reorg).
CREATE TABLE deposit_cursors (
  chain       TEXT PRIMARY KEY,
  block       INTEGER NOT NULL,
  block_hash  TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
);
