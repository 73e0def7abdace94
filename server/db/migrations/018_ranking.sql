-- The ranking (SPEC §1 "ranking (daily and total prize pools)", DESIGN §12, issue 12 part 3).
--
-- What each user added on each UTC day by the daily measure (server/modules/ranking), and in total
-- since launch (team performance). Both are upserted in the paying transaction, by the same call
-- that adds team performance (server/modules/user/performance.ts). reached_at is when the amount
-- last grew: of two equal amounts, the one reached first ranks higher (then the lower user id).
CREATE TABLE ranking_days (
  day        INTEGER NOT NULL,             -- UTC days since 1970-01-01
  user_id    INTEGER NOT NULL REFERENCES users(id),
  amount     INTEGER NOT NULL CHECK (amount > 0), -- USDT, units of 1e-8
  reached_at INTEGER NOT NULL,             -- unix ms
  PRIMARY KEY (day, user_id)
) WITHOUT ROWID;
-- The day's order, read top down: a page of the ranking or its top N is a range of this index.
CREATE INDEX ranking_days_rank ON ranking_days (day, amount DESC, reached_at, user_id);

CREATE TABLE ranking_totals (
  user_id    INTEGER PRIMARY KEY REFERENCES users(id),
  amount     INTEGER NOT NULL CHECK (amount > 0),
  reached_at INTEGER NOT NULL
);
CREATE INDEX ranking_totals_rank ON ranking_totals (amount DESC, reached_at, user_id);
-- Team performance added before the ranking existed counts toward the total ranking; it was reached
-- before anything recorded from now on (reached_at 0). Never the root: it is everyone's ancestor, its
-- team performance is the whole platform's, and it would take the total pool's first prize forever
-- (020_ranking_root.sql removes what the unfiltered backfill left on databases already migrated).
INSERT INTO ranking_totals (user_id, amount, reached_at) SELECT id, team_performance, 0 FROM users WHERE team_performance > 0 AND is_root = 0;

-- What the settlement fed each pool each day, per asset: the day's income (fees that reached the
-- fees account, NADI destroyed), the pools' shares of it, and what the paying account lacked
-- (fed = share − short; the shares are floors, the rest stays where it was).
CREATE TABLE ranking_pool_days (
  day        INTEGER NOT NULL,
  asset      TEXT NOT NULL,
  fees       INTEGER NOT NULL CHECK (fees >= 0),
  destroyed  INTEGER NOT NULL CHECK (destroyed >= 0),
  to_daily   INTEGER NOT NULL CHECK (to_daily >= 0),
  to_total   INTEGER NOT NULL CHECK (to_total >= 0),
  short      INTEGER NOT NULL CHECK (short >= 0),
  PRIMARY KEY (day, asset)
) WITHOUT ROWID;

-- One payout of a pool: the daily pool once per settled day, the total pool once per day an
-- operator pays it. The primary key is what makes a payout happen once.
CREATE TABLE ranking_payouts (
  pool       TEXT NOT NULL CHECK (pool IN ('daily', 'total')),
  day        INTEGER NOT NULL,
  winners    INTEGER NOT NULL CHECK (winners >= 0),
  pool_usdt  INTEGER NOT NULL,             -- the pool's balance before the payout
  pool_nadi  INTEGER NOT NULL,
  paid_usdt  INTEGER NOT NULL,
  paid_nadi  INTEGER NOT NULL,
  paid_at    INTEGER NOT NULL,
  PRIMARY KEY (pool, day)
) WITHOUT ROWID;

-- The winners of each payout, readable after the day (SPEC: past days' results).
CREATE TABLE ranking_results (
  pool       TEXT NOT NULL CHECK (pool IN ('daily', 'total')),
  day        INTEGER NOT NULL,
  rank       INTEGER NOT NULL CHECK (rank >= 1),
  user_id    INTEGER NOT NULL REFERENCES users(id),
  amount     INTEGER NOT NULL,
  reached_at INTEGER NOT NULL,
  prize_usdt INTEGER NOT NULL CHECK (prize_usdt >= 0),
  prize_nadi INTEGER NOT NULL CHECK (prize_nadi >= 0),
  PRIMARY KEY (pool, day, rank)
) WITHOUT ROWID;
CREATE INDEX ranking_results_user ON ranking_results (user_id, pool, day);

-- The day's income is read by time from where it is recorded: these make those reads ranges.
CREATE INDEX withdrawals_finished ON withdrawals (finished_at) WHERE status = 'confirmed';
CREATE INDEX wallet_exchanges_time ON wallet_exchanges (created_at);
CREATE INDEX trade_deals_time ON trade_deals (created_at);
CREATE INDEX mining_buys_destroy_time ON mining_buys (created_at) WHERE kind = 'destroy';
