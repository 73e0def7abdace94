-- The root account never ranks (issue 12 review). 018's backfill copied every user with team
-- performance into ranking_totals, the root included: as everyone's ancestor it held the largest
-- figure, so it was #1 of the total ranking and `ranking pay-total` paid it the first prize. 018 is
-- fixed for fresh databases; this removes what it left on databases that already applied it. No
-- recording path writes a root row (record.ts filters is_root), so the days are only swept in case.
DELETE FROM ranking_totals WHERE user_id IN (SELECT id FROM users WHERE is_root = 1);
DELETE FROM ranking_days WHERE user_id IN (SELECT id FROM users WHERE is_root = 1);

-- The roots, so the ranking's reads can exclude them as a backstop without scanning every user.
CREATE INDEX users_root ON users (id) WHERE is_root = 1;
