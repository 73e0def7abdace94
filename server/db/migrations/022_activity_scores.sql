-- Activities' scores kept at event time (issue 12 part 4, review): every leaderboard used to be
-- recomputed from the raw tables on the request path and inside the payout's write transaction, and
-- team growth walked every new member's whole ancestor chain each time (seconds on a deep tree). Now
-- the transaction that pays an order, burns, fills a trade or registers a user adds to the score of
-- every activity whose window contains the event and whose measure it is
-- (server/modules/activity/scores.ts); the board reads the index below with a LIMIT and a place is a
-- count over it. A row exists only with a score above 0, and only for users with a wallet (the root
-- account and the demo market's traders are the platform's own and never on a board).
CREATE TABLE activity_scores (
  activity_id INTEGER NOT NULL REFERENCES activities(id),
  user_id     INTEGER NOT NULL REFERENCES users(id),
  score       INTEGER NOT NULL CHECK (score > 0),  -- units of 1e-8 (USDT or NADI), or a count of members
  reached_at  INTEGER NOT NULL,                    -- the last counted event: ties go to who reached it first
  PRIMARY KEY (activity_id, user_id)
) WITHOUT ROWID;
-- The board's order (rules.ts rankScores): score down, then who reached it first, then the older account.
CREATE INDEX activity_scores_board ON activity_scores (activity_id, score DESC, reached_at, user_id);
-- The hooks look up the activities an event counts for by measure and window.
CREATE INDEX activities_measure ON activities (measure, ends_at);

-- Backfill every activity already loaded, from the same queries scores.ts keeps as the reference
-- (an upcoming one finds nothing in its window yet).
INSERT INTO activity_scores (activity_id, user_id, score, reached_at)
SELECT a.id, o.user_id, sum(o.total), max(o.paid_at)
  FROM activities a JOIN pay_orders o ON o.paid_at >= a.starts_at AND o.paid_at < a.ends_at
  JOIN users u ON u.id = o.user_id
 WHERE a.measure = 'purchases' AND o.type IN ('device', 'gold', 'car') AND o.asset = 'USDT' AND o.total > 0 AND u.wallet_address IS NOT NULL
 GROUP BY a.id, o.user_id;

INSERT INTO activity_scores (activity_id, user_id, score, reached_at)
SELECT a.id, b.user_id, sum(b.amount), max(b.created_at)
  FROM activities a JOIN mining_buys b ON b.kind = 'destroy' AND b.created_at >= a.starts_at AND b.created_at < a.ends_at
  JOIN users u ON u.id = b.user_id
 WHERE a.measure = 'destroy' AND b.amount > 0 AND u.wallet_address IS NOT NULL
 GROUP BY a.id, b.user_id;

INSERT INTO activity_scores (activity_id, user_id, score, reached_at)
SELECT a.id, d.user_id, sum(d.quote), max(d.created_at)
  FROM activities a JOIN trade_deals d ON d.created_at >= a.starts_at AND d.created_at < a.ends_at
  JOIN users u ON u.id = d.user_id
 WHERE a.measure = 'trading' AND d.quote > 0 AND u.wallet_address IS NOT NULL
 GROUP BY a.id, d.user_id;

-- Each registration in a window counts once for every ancestor: one set-based walk (no stack).
INSERT INTO activity_scores (activity_id, user_id, score, reached_at)
WITH RECURSIVE up(activity_id, ancestor, at) AS (
    SELECT a.id, n.inviter_id, n.created_at FROM activities a
      JOIN users n ON n.created_at >= a.starts_at AND n.created_at < a.ends_at AND n.inviter_id IS NOT NULL
     WHERE a.measure = 'team_growth'
    UNION ALL
    SELECT up.activity_id, u.inviter_id, up.at FROM up JOIN users u ON u.id = up.ancestor WHERE u.inviter_id IS NOT NULL
  )
SELECT up.activity_id, up.ancestor, count(*), max(up.at)
  FROM up JOIN users w ON w.id = up.ancestor
 WHERE w.wallet_address IS NOT NULL
 GROUP BY up.activity_id, up.ancestor;
