-- The operator's market repairs (`tsx server/cli.ts market repair`, server/exchange/repair.ts): each
-- rebuilt a halted market's book from the open orders and the ledger, cancelling what could not stand
-- and releasing what no order held. The repaired book is the snapshot at journal_seq; the money moves
-- are ledger postings with reason 'trade_repair' and ref 'trade-repair:<id>:…'.
CREATE TABLE exchange_repairs (
  id          INTEGER PRIMARY KEY,
  inst_id     TEXT NOT NULL,
  journal_seq INTEGER NOT NULL,          -- the journal row the repaired book stands at (its snapshot)
  fault       TEXT,                      -- what had halted the market, as logged
  report      TEXT NOT NULL,             -- JSON: orders kept, cancelled (with why), releases
  created_at  INTEGER NOT NULL
);
