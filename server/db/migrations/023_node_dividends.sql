-- Node dividends (SPEC §1 lists them apart from the withdraw-fee share): a share of each day's spot
-- trading fees (NADI_NODE_DIVIDEND_POOL_PPM) split among the nodes held that day by their USDT stake.
-- The settlement writes one row per node and asset a day, like node_fee_shares (014).
CREATE TABLE node_dividends (
  node_id INTEGER NOT NULL REFERENCES node_orders(id),
  day     INTEGER NOT NULL,
  asset   TEXT NOT NULL,
  amount  INTEGER NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (node_id, day, asset)
) WITHOUT ROWID;

-- What the dividend split did each day: the trading fees, the pool, what went to holders, the floors' dust.
CREATE TABLE node_dividend_days (
  day     INTEGER NOT NULL,
  asset   TEXT NOT NULL,
  fees    INTEGER NOT NULL,
  pool    INTEGER NOT NULL,
  paid    INTEGER NOT NULL,
  dust    INTEGER NOT NULL,
  CHECK (paid + dust = pool),
  PRIMARY KEY (day, asset)
) WITHOUT ROWID;
