-- The references of the market's and the ledger's hot tables (ledger_entries, trade_orders,
-- trade_fills, trade_deals) stay foreign keys on SQLite, where checking one is an index probe in
-- process. PostgreSQL checks them per statement instead (035_hot_references.pg.sql): nothing to do here.
SELECT 1;
