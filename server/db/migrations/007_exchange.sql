-- The spot exchange (DESIGN §8, server/exchange). The engine lives in memory; these tables are what it
-- answers with and what it is rebuilt from. Every command the engine accepted is one journal row,
-- written in the same transaction as the order rows, deals and ledger postings it caused: the journal
-- and the money never disagree, and replaying the journal rebuilds the book exactly.

CREATE TABLE exchange_journal (
  seq        INTEGER PRIMARY KEY,
  inst_id    TEXT NOT NULL,
  command    TEXT NOT NULL,                  -- the engine command as JSON (server/exchange/engine/types.ts)
  created_at INTEGER NOT NULL
);

-- One row per order; id is the engine's order id. Amounts are units of 1e-8.
CREATE TABLE trade_orders (
  id              INTEGER PRIMARY KEY,
  user_id         INTEGER NOT NULL REFERENCES users(id),
  client_order_id TEXT NOT NULL,
  inst_id         TEXT NOT NULL,
  side            TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
  type            TEXT NOT NULL CHECK (type IN ('limit', 'market')),
  price           INTEGER,                   -- NULL for market orders
  size            INTEGER,                   -- NADI asked; NULL for a market buy
  quote_amount    INTEGER,                   -- USDT a market buy spends; NULL otherwise
  filled          INTEGER NOT NULL DEFAULT 0,
  filled_quote    INTEGER NOT NULL DEFAULT 0,
  fee             INTEGER NOT NULL DEFAULT 0,
  fee_asset       TEXT NOT NULL CHECK (fee_asset IN ('NADI', 'USDT')),
  frozen          INTEGER NOT NULL,          -- what placing it froze in the trade account
  status          TEXT NOT NULL CHECK (status IN ('pending', 'partially_filled', 'filled', 'cancelled')),
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE UNIQUE INDEX trade_orders_client ON trade_orders (user_id, client_order_id);
CREATE INDEX trade_orders_open ON trade_orders (user_id, id) WHERE status IN ('pending', 'partially_filled');
CREATE INDEX trade_orders_done ON trade_orders (user_id, updated_at, id) WHERE status IN ('filled', 'cancelled');

-- One row per fill: the public trade.
CREATE TABLE trade_fills (
  id             INTEGER PRIMARY KEY,
  inst_id        TEXT NOT NULL,
  maker_order_id INTEGER NOT NULL REFERENCES trade_orders(id),
  taker_order_id INTEGER NOT NULL REFERENCES trade_orders(id),
  taker_side     TEXT NOT NULL CHECK (taker_side IN ('buy', 'sell')),
  price          INTEGER NOT NULL,
  size           INTEGER NOT NULL,
  quote          INTEGER NOT NULL,
  created_at     INTEGER NOT NULL
);
CREATE INDEX trade_fills_time ON trade_fills (inst_id, created_at);

-- Each side of a fill as its user sees it (GET /api/v1/trade/dealList).
CREATE TABLE trade_deals (
  id         INTEGER PRIMARY KEY,
  fill_id    INTEGER NOT NULL REFERENCES trade_fills(id),
  order_id   INTEGER NOT NULL REFERENCES trade_orders(id),
  user_id    INTEGER NOT NULL REFERENCES users(id),
  side       TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
  role       TEXT NOT NULL CHECK (role IN ('maker', 'taker')),
  price      INTEGER NOT NULL,
  size       INTEGER NOT NULL,
  quote      INTEGER NOT NULL,
  fee        INTEGER NOT NULL,
  fee_asset  TEXT NOT NULL CHECK (fee_asset IN ('NADI', 'USDT')),
  created_at INTEGER NOT NULL
);
CREATE INDEX trade_deals_user ON trade_deals (user_id, id);

-- Candles as they stand at each commit, so history survives a restart without re-reading every fill.
CREATE TABLE trade_candles (
  inst_id   TEXT NOT NULL,
  bar       TEXT NOT NULL,
  ts        INTEGER NOT NULL,
  open      INTEGER NOT NULL,
  high      INTEGER NOT NULL,
  low       INTEGER NOT NULL,
  close     INTEGER NOT NULL,
  vol       INTEGER NOT NULL,
  vol_quote INTEGER NOT NULL,
  PRIMARY KEY (inst_id, bar, ts)
);
