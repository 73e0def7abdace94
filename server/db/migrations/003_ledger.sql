-- The ledger (DESIGN §8, server/ledger). Money is INTEGER units of 1e-8 (DESIGN §3).
--
-- Accounts hold the balances so a read is one row; postings and entries are the append-only record
-- every balance is derived from. Each posting's entries sum to zero per asset, so the sum over all
-- accounts of an asset is always zero: the chain custody accounts mirror the outside world and are the
-- only ones that may go negative (a deposit moves value from the chain into a user's account).

-- One row per (owner, kind, asset), created on first use.
--   user accounts:     user_id set,  kind 'fund' | 'trade'
--   platform accounts: user_id NULL, kind 'custody:<chainKey>' | 'fees' | 'burned' | 'treasury'
CREATE TABLE ledger_accounts (
  id         INTEGER PRIMARY KEY,
  user_id    INTEGER REFERENCES users(id),
  kind       TEXT NOT NULL,
  asset      TEXT NOT NULL,
  available  INTEGER NOT NULL DEFAULT 0,
  frozen     INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  CHECK (kind IN ('fund', 'trade', 'fees', 'burned', 'treasury') OR kind LIKE 'custody:%'),
  CHECK ((user_id IS NOT NULL) = (kind IN ('fund', 'trade'))),
  -- The service checks first and answers a typed error; this is the backstop.
  CHECK (kind LIKE 'custody:%' OR (available >= 0 AND frozen >= 0))
);
CREATE UNIQUE INDEX ledger_accounts_user ON ledger_accounts (user_id, kind, asset) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_platform ON ledger_accounts (kind, asset) WHERE user_id IS NULL;

-- One row per business action. ref is the action's own key (e.g. 'deposit:bsc:<tx>:<log>'): unique,
-- so a retried action posts once.
CREATE TABLE ledger_postings (
  id         INTEGER PRIMARY KEY,
  ref        TEXT NOT NULL UNIQUE,
  reason     TEXT NOT NULL,                  -- e.g. 'deposit', 'transfer', 'withdraw.freeze'
  user_id    INTEGER REFERENCES users(id),   -- whose money record it is (NULL: the platform's own)
  meta       TEXT,                           -- JSON, keys sorted
  created_at INTEGER NOT NULL
);

-- One row per (posting, account, bucket) with a non-zero net change. The id is posting_id * 1024 + n
-- (n from 0): a posting's entries are one range of the primary key, found without a second index —
-- the portable form of a (posting_id, n) key. Every index is a page written per commit, and the
-- commit is the cost of a posting.
CREATE TABLE ledger_entries (
  id         INTEGER PRIMARY KEY CHECK (id / 1024 = posting_id),
  posting_id INTEGER NOT NULL REFERENCES ledger_postings(id),
  account_id INTEGER NOT NULL REFERENCES ledger_accounts(id),
  user_id    INTEGER,                        -- the account's owner, copied so money records page on one index
  bucket     TEXT NOT NULL CHECK (bucket IN ('available', 'frozen')),
  delta      INTEGER NOT NULL CHECK (delta <> 0)
);
CREATE INDEX ledger_entries_user ON ledger_entries (user_id, id) WHERE user_id IS NOT NULL;

-- Append-only: history is corrected by a new posting, never edited. (PostgreSQL: REVOKE UPDATE, DELETE.)
CREATE TRIGGER ledger_postings_no_update BEFORE UPDATE ON ledger_postings
BEGIN SELECT RAISE(ABORT, 'ledger_postings is append-only'); END;
CREATE TRIGGER ledger_postings_no_delete BEFORE DELETE ON ledger_postings
BEGIN SELECT RAISE(ABORT, 'ledger_postings is append-only'); END;
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;
