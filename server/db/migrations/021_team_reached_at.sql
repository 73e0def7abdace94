-- The total ranking is read off users (issue 12 review): ranking_totals was users.team_performance
-- again, kept by a second walk over every ancestor in each purchase (a purchase at depth 10,000
-- walked its ancestors three times and sat at the 50 ms bench limit). What the total ranking needs
-- beyond team_performance is when it last grew, for its tie-break (of equal amounts, the one reached
-- first ranks higher, then the lower id): team_reached_at, set in the same UPDATE that adds team
-- performance (server/modules/user/performance.ts). 0 = reached before anything was recorded.
ALTER TABLE users ADD COLUMN team_reached_at INTEGER NOT NULL DEFAULT 0;
UPDATE users SET team_reached_at = t.reached_at FROM ranking_totals t WHERE users.id = t.user_id;
DROP TABLE ranking_totals;

-- The total ranking's order, read top down: a page or the top N is a range of this index, a rank is
-- a count over a range of it. Partial: the root (everyone's ancestor) never ranks, and its absence
-- from the index is what keeps it out.
CREATE INDEX users_team_rank ON users (team_performance DESC, team_reached_at, id) WHERE is_root = 0;
