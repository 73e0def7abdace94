-- The references of the market's and the ledger's hot tables, checked once per statement rather than
-- once per row. A foreign key is checked row by row: a query of the referenced table for each row,
-- and a share lock written on the referenced row, which on an account or an order this transaction
-- has already updated takes a multixact. A market batch inserts about a thousand entries, four hundred
-- orders and as many fills and deals: those checks were a third of what PostgreSQL spent on it.
--
-- A trigger AFTER INSERT … FOR EACH STATEMENT reads the statement's new rows once per reference and
-- refuses the statement, as the foreign key did (23503, the same constraint name), when any of them
-- names a row that is not there. What a
-- foreign key also prevents, a referenced row deleted or renumbered later, cannot happen: the rows
-- referenced here are never deleted and their ids never change (refused below; ledger_postings are
-- append-only already). users, referenced by trade_orders and trade_deals, keep foreign keys from
-- every table that holds a user's money (ledger_accounts among them), so a trading user is never deleted either.
-- server/db/schemaInfo.ts reads these references back, so PostgreSQL's schema is still SQLite's.

-- One function per table, its checks static SQL (planned once per session, where EXECUTE of a query
-- built from TG_ARGV was parsed and planned at every statement: 0.2–0.4 ms per reference, which a
-- batch of a few commands paid in full). The trigger's arguments name the references it checks, as
-- 'column:table:key', for server/db/schemaInfo.ts; tests/integration/references.test.ts refuses each.
CREATE OR REPLACE FUNCTION nadi_missing_reference(tbl text, col text, target text, missing text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', tbl, tbl || '_' || col || '_fkey'
    USING ERRCODE = 'foreign_key_violation',
          DETAIL = format('Key (%s)=(%s) is not present in table "%s".', col, missing, target),
          CONSTRAINT = tbl || '_' || col || '_fkey',
          TABLE = tbl;
END $$;

-- Each new row probes the referenced table's key. Left to itself, the planner, which knows nothing
-- of the transition table's size, hashes it against a scan of the whole referenced table: a cost
-- that grows with trade_orders and ledger_postings rather than with the statement.
CREATE OR REPLACE FUNCTION nadi_ledger_entries_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE missing bigint;
BEGIN
  SELECT n.posting_id INTO missing FROM nadi_new n WHERE NOT EXISTS (SELECT 1 FROM ledger_postings p WHERE p.id = n.posting_id) LIMIT 1;
  IF FOUND THEN PERFORM nadi_missing_reference('ledger_entries', 'posting_id', 'ledger_postings', missing::text); END IF;
  SELECT n.account_id INTO missing FROM nadi_new n WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = n.account_id) LIMIT 1;
  IF FOUND THEN PERFORM nadi_missing_reference('ledger_entries', 'account_id', 'ledger_accounts', missing::text); END IF;
  RETURN NULL;
END $$ SET enable_hashjoin = off SET enable_mergejoin = off;

CREATE OR REPLACE FUNCTION nadi_trade_orders_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE missing bigint;
BEGIN
  SELECT n.user_id INTO missing FROM nadi_new n WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = n.user_id) LIMIT 1;
  IF FOUND THEN PERFORM nadi_missing_reference('trade_orders', 'user_id', 'users', missing::text); END IF;
  RETURN NULL;
END $$ SET enable_hashjoin = off SET enable_mergejoin = off;

CREATE OR REPLACE FUNCTION nadi_trade_fills_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE missing bigint;
BEGIN
  SELECT n.maker_order_id INTO missing FROM nadi_new n WHERE NOT EXISTS (SELECT 1 FROM trade_orders o WHERE o.id = n.maker_order_id) LIMIT 1;
  IF FOUND THEN PERFORM nadi_missing_reference('trade_fills', 'maker_order_id', 'trade_orders', missing::text); END IF;
  SELECT n.taker_order_id INTO missing FROM nadi_new n WHERE NOT EXISTS (SELECT 1 FROM trade_orders o WHERE o.id = n.taker_order_id) LIMIT 1;
  IF FOUND THEN PERFORM nadi_missing_reference('trade_fills', 'taker_order_id', 'trade_orders', missing::text); END IF;
  RETURN NULL;
END $$ SET enable_hashjoin = off SET enable_mergejoin = off;

CREATE OR REPLACE FUNCTION nadi_trade_deals_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE missing bigint;
BEGIN
  SELECT n.fill_id INTO missing FROM nadi_new n WHERE NOT EXISTS (SELECT 1 FROM trade_fills f WHERE f.id = n.fill_id) LIMIT 1;
  IF FOUND THEN PERFORM nadi_missing_reference('trade_deals', 'fill_id', 'trade_fills', missing::text); END IF;
  SELECT n.order_id INTO missing FROM nadi_new n WHERE NOT EXISTS (SELECT 1 FROM trade_orders o WHERE o.id = n.order_id) LIMIT 1;
  IF FOUND THEN PERFORM nadi_missing_reference('trade_deals', 'order_id', 'trade_orders', missing::text); END IF;
  SELECT n.user_id INTO missing FROM nadi_new n WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = n.user_id) LIMIT 1;
  IF FOUND THEN PERFORM nadi_missing_reference('trade_deals', 'user_id', 'users', missing::text); END IF;
  RETURN NULL;
END $$ SET enable_hashjoin = off SET enable_mergejoin = off;

ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_posting_id_fkey, DROP CONSTRAINT ledger_entries_account_id_fkey;
CREATE TRIGGER ledger_entries_references AFTER INSERT ON ledger_entries REFERENCING NEW TABLE AS nadi_new
  FOR EACH STATEMENT EXECUTE FUNCTION nadi_ledger_entries_references('posting_id:ledger_postings:id', 'account_id:ledger_accounts:id');

ALTER TABLE trade_orders DROP CONSTRAINT trade_orders_user_id_fkey;
CREATE TRIGGER trade_orders_references AFTER INSERT ON trade_orders REFERENCING NEW TABLE AS nadi_new
  FOR EACH STATEMENT EXECUTE FUNCTION nadi_trade_orders_references('user_id:users:id');
CREATE TRIGGER trade_orders_owner BEFORE UPDATE OF user_id ON trade_orders
  FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION nadi_refuse('an order''s owner never changes');

ALTER TABLE trade_fills DROP CONSTRAINT trade_fills_maker_order_id_fkey, DROP CONSTRAINT trade_fills_taker_order_id_fkey;
CREATE TRIGGER trade_fills_references AFTER INSERT ON trade_fills REFERENCING NEW TABLE AS nadi_new
  FOR EACH STATEMENT EXECUTE FUNCTION nadi_trade_fills_references('maker_order_id:trade_orders:id', 'taker_order_id:trade_orders:id');

ALTER TABLE trade_deals DROP CONSTRAINT trade_deals_fill_id_fkey, DROP CONSTRAINT trade_deals_order_id_fkey, DROP CONSTRAINT trade_deals_user_id_fkey;
CREATE TRIGGER trade_deals_references AFTER INSERT ON trade_deals REFERENCING NEW TABLE AS nadi_new
  FOR EACH STATEMENT EXECUTE FUNCTION nadi_trade_deals_references('fill_id:trade_fills:id', 'order_id:trade_orders:id', 'user_id:users:id');

-- The referenced rows stay: never deleted, their ids never changed.
CREATE TRIGGER ledger_accounts_kept BEFORE DELETE ON ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION nadi_refuse('ledger accounts are never deleted');
CREATE TRIGGER ledger_accounts_key BEFORE UPDATE OF id ON ledger_accounts FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION nadi_refuse('a ledger account''s id never changes');
CREATE TRIGGER trade_orders_kept BEFORE DELETE ON trade_orders FOR EACH STATEMENT EXECUTE FUNCTION nadi_refuse('trade orders are never deleted');
CREATE TRIGGER trade_orders_key BEFORE UPDATE OF id ON trade_orders FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION nadi_refuse('a trade order''s id never changes');
CREATE TRIGGER trade_fills_kept BEFORE DELETE ON trade_fills FOR EACH STATEMENT EXECUTE FUNCTION nadi_refuse('trade fills are never deleted');
CREATE TRIGGER trade_fills_key BEFORE UPDATE OF id ON trade_fills FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION nadi_refuse('a trade fill''s id never changes');
-- TRUNCATE fires no DELETE trigger; a foreign key refused it for a referenced table.
CREATE TRIGGER ledger_accounts_not_truncated BEFORE TRUNCATE ON ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION nadi_refuse('ledger accounts are never deleted');
CREATE TRIGGER trade_orders_not_truncated BEFORE TRUNCATE ON trade_orders FOR EACH STATEMENT EXECUTE FUNCTION nadi_refuse('trade orders are never deleted');
CREATE TRIGGER trade_fills_not_truncated BEFORE TRUNCATE ON trade_fills FOR EACH STATEMENT EXECUTE FUNCTION nadi_refuse('trade fills are never deleted');
