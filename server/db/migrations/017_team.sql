-- The team view (issue 12 parts 1, 2 and 5).
--
-- Nodes held in a user's team, by tier: kept up the tree like team_num and team_performance, so the
-- user centre reads one row instead of walking a subtree of 100,000 members. "Team" is everyone below
-- the user (not the user), as for team_num and team_performance. A node counts while it is held:
-- from its payment (status active) until its stake is returned; node/service.ts moves the counters
-- in those two transactions.
ALTER TABLE users ADD COLUMN team_elite INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN team_core INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN team_genesis INTEGER NOT NULL DEFAULT 0;

-- Nodes already held when this runs: each counted once at every strict ancestor of its holder.
WITH RECURSIVE up(type, id) AS (
  SELECT t.type, u.inviter_id
    FROM node_orders n JOIN node_tiers t ON t.id = n.tier_id JOIN users u ON u.id = n.user_id
   WHERE n.status = 'active' AND u.inviter_id IS NOT NULL
  UNION ALL
  SELECT up.type, u.inviter_id FROM up JOIN users u ON u.id = up.id WHERE u.inviter_id IS NOT NULL
), held AS (
  SELECT id, sum(CASE WHEN type = 'elite' THEN 1 ELSE 0 END) AS elite, sum(CASE WHEN type = 'core' THEN 1 ELSE 0 END) AS core, sum(CASE WHEN type = 'genesis' THEN 1 ELSE 0 END) AS genesis FROM up GROUP BY id
)
UPDATE users SET team_elite = held.elite, team_core = held.core, team_genesis = held.genesis
  FROM held WHERE users.id = held.id;

-- Notices a user has read (issue 12 part 5). Written by POST /api/v1/notice/read, idempotent by its key:
-- marking a notice read twice (a replayed outbox item, another phone) leaves one row and its first time.
CREATE TABLE notice_reads (
  user_id   INTEGER NOT NULL REFERENCES users(id),
  notice_id INTEGER NOT NULL REFERENCES notices(id) ON DELETE CASCADE,
  read_at   INTEGER NOT NULL,
  PRIMARY KEY (user_id, notice_id)
) WITHOUT ROWID;
