-- migrate: foreign_keys=off
-- Commerce (DESIGN §10, issue 10): catalogs, product orders with their fulfilment, release plans.
-- Runs with foreign keys off (server/db/migrate.ts) because two tables are rebuilt to widen a CHECK;
-- migrate() runs `PRAGMA foreign_key_check` before it commits.

-- ── Ledger accounts: platform kinds are named by the code (server/ledger/types.ts), not listed here,
-- so a new platform account (release funding now; mining rewards, savings interest, prize pools
-- later, DESIGN §11) needs no table rebuild. The shape of a kind is still checked.
CREATE TABLE ledger_accounts_new (
  id         INTEGER PRIMARY KEY,
  user_id    INTEGER REFERENCES users(id),
  kind       TEXT NOT NULL,
  asset      TEXT NOT NULL,
  available  INTEGER NOT NULL DEFAULT 0,
  frozen     INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  CHECK (length(kind) BETWEEN 1 AND 48 AND kind NOT GLOB '*[^a-z0-9_:-]*'),
  CHECK ((user_id IS NOT NULL) = (kind IN ('fund', 'trade'))),
  CHECK (kind LIKE 'custody:%' OR (available >= 0 AND frozen >= 0))
);
INSERT INTO ledger_accounts_new SELECT id, user_id, kind, asset, available, frozen, created_at FROM ledger_accounts;
DROP TABLE ledger_accounts;
ALTER TABLE ledger_accounts_new RENAME TO ledger_accounts;
CREATE UNIQUE INDEX ledger_accounts_user ON ledger_accounts (user_id, kind, asset) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_platform ON ledger_accounts (kind, asset) WHERE user_id IS NULL;

-- ── Catalogs. Texts are JSON objects keyed by LANG code ({"TW": …, "EN": …}); the API answers the
-- request's language, else TW. Money is INTEGER units of 1e-8 USDT; weight is milligrams.
CREATE TABLE product_categories (
  id     INTEGER PRIMARY KEY,
  area   TEXT NOT NULL CHECK (area IN ('machine', 'gold', 'car')),
  slug   TEXT NOT NULL UNIQUE,                 -- the operator's key: a catalog load updates by slug
  name   TEXT NOT NULL,                        -- JSON texts
  sort   INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1))
);

CREATE TABLE products (
  id           INTEGER PRIMARY KEY,
  area         TEXT NOT NULL CHECK (area IN ('machine', 'gold', 'car')),
  slug         TEXT NOT NULL UNIQUE,
  category_id  INTEGER REFERENCES product_categories(id),
  kind         TEXT,                           -- machine: tablet | straight | foldable
  name         TEXT NOT NULL,                  -- JSON texts
  summary      TEXT NOT NULL,                  -- JSON texts
  body         TEXT NOT NULL,                  -- JSON texts
  cover        TEXT NOT NULL,                  -- image URL (same origin)
  images       TEXT NOT NULL DEFAULT '[]',     -- JSON array of image URLs
  ships        INTEGER NOT NULL CHECK (ships IN (0, 1)),
  release_days INTEGER NOT NULL DEFAULT 0 CHECK (release_days BETWEEN 0 AND 3650),
  release_ppm  INTEGER NOT NULL DEFAULT 0 CHECK (release_ppm BETWEEN 0 AND 10000000), -- share of the paid value returned as NADI
  tags         TEXT NOT NULL DEFAULT '[]',     -- JSON array: 'hot', 'new' (the mall's groups)
  sort         INTEGER NOT NULL DEFAULT 0,
  active       INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at   INTEGER NOT NULL,
  CHECK ((release_days = 0) = (release_ppm = 0))
);
CREATE INDEX products_area ON products (area, active, sort, id);

-- A specification the buyer chooses. Devices and cars have a price; gold has a weight and a craft fee
-- and is priced at order time from the gold price. Stock is decremented in the transaction that
-- creates an order, guarded so it never goes below zero, and given back when an unpaid order ends.
CREATE TABLE product_specs (
  id         INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id),
  slug       TEXT NOT NULL,
  name       TEXT NOT NULL,                    -- JSON texts
  price      INTEGER CHECK (price > 0),
  weight_mg  INTEGER CHECK (weight_mg > 0),
  craft_fee  INTEGER CHECK (craft_fee >= 0),
  power      INTEGER NOT NULL DEFAULT 0 CHECK (power >= 0), -- mining power a device grants, units of 1e-8
  stock      INTEGER NOT NULL CHECK (stock >= 0),
  sold       INTEGER NOT NULL DEFAULT 0 CHECK (sold >= 0),
  sort       INTEGER NOT NULL DEFAULT 0,
  active     INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  UNIQUE (product_id, slug),
  CHECK ((price IS NOT NULL) <> (weight_mg IS NOT NULL AND craft_fee IS NOT NULL))
);
CREATE INDEX product_specs_product ON product_specs (product_id, sort, id);

-- The gold reference price per gram (units of 1e-8 USDT), newest last; the demo walks it.
CREATE TABLE gold_prices (
  at    INTEGER PRIMARY KEY,
  price INTEGER NOT NULL CHECK (price > 0)
);

-- Banners have a place: the home screen's carousel, or the mall's.
ALTER TABLE banners ADD COLUMN place TEXT NOT NULL DEFAULT 'home' CHECK (place IN ('home', 'mall'));

-- ── Orders. pay_orders gains the product kinds (gold, car) and its fulfilment, kept apart from the
-- payment as Medusa and Shopify do: NULL until paid, then pending_shipment → pending_receipt →
-- completed for what ships, completed at once for what does not.
CREATE TABLE pay_orders_new (
  id              INTEGER PRIMARY KEY,
  order_no        TEXT NOT NULL UNIQUE,
  user_id         INTEGER NOT NULL REFERENCES users(id),
  type            TEXT NOT NULL CHECK (type IN ('device', 'gold', 'car', 'node', 'destroy', 'joint')),
  asset           TEXT NOT NULL CHECK (asset IN ('USDT', 'NADI')),
  total           INTEGER NOT NULL CHECK (total > 0),
  state           TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'cancelled', 'completed')),
  created_at      INTEGER NOT NULL,
  expires_at      INTEGER NOT NULL,
  ended_at        INTEGER,
  ships           INTEGER NOT NULL DEFAULT 0 CHECK (ships IN (0, 1)),
  ship_to         TEXT,                          -- JSON: the address as it was when ordered
  remark          TEXT,
  fulfilment      TEXT CHECK (fulfilment IN ('pending_shipment', 'pending_receipt', 'completed')),
  paid_at         INTEGER,
  express_company TEXT,
  express_no      TEXT,
  shipped_at      INTEGER,
  received_at     INTEGER,
  received_by     TEXT CHECK (received_by IN ('user', 'auto')),
  CHECK (ships = 0 OR ship_to IS NOT NULL OR type NOT IN ('device', 'gold', 'car'))
);
INSERT INTO pay_orders_new (id, order_no, user_id, type, asset, total, state, created_at, expires_at, ended_at)
  SELECT id, order_no, user_id, type, asset, total, state, created_at, expires_at, ended_at FROM pay_orders;
DROP TABLE pay_orders;
ALTER TABLE pay_orders_new RENAME TO pay_orders;
CREATE INDEX pay_orders_user ON pay_orders (user_id, id);
CREATE INDEX pay_orders_expiring ON pay_orders (expires_at) WHERE state = 'open';
CREATE INDEX pay_orders_fulfilment ON pay_orders (user_id, type, fulfilment, id) WHERE fulfilment IS NOT NULL;
CREATE INDEX pay_orders_to_receive ON pay_orders (shipped_at) WHERE fulfilment = 'pending_receipt';

-- What an order is for: product, specification, quantity, unit price, and the names as they were.
CREATE TABLE order_lines (
  id         INTEGER PRIMARY KEY,
  order_id   INTEGER NOT NULL REFERENCES pay_orders(id),
  product_id INTEGER NOT NULL REFERENCES products(id),
  spec_id    INTEGER NOT NULL REFERENCES product_specs(id),
  quantity   INTEGER NOT NULL CHECK (quantity > 0),
  unit_price INTEGER NOT NULL CHECK (unit_price > 0),
  power      INTEGER NOT NULL DEFAULT 0,         -- per unit
  name       TEXT NOT NULL,                      -- JSON texts of the product
  spec_name  TEXT NOT NULL,                      -- JSON texts of the specification
  cover      TEXT NOT NULL
);
CREATE INDEX order_lines_order ON order_lines (order_id);

-- ── Releases (DESIGN §10): an order's value returned as NADI over `days` UTC days, from day
-- `start_day` (days since 1970-01-01). The instalment of day start_day + k is total / days, plus one
-- unit for k < total % days: exact, the instalments sum to the total and nothing is left over.
CREATE TABLE release_plans (
  id            INTEGER PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users(id),
  order_id      INTEGER NOT NULL UNIQUE REFERENCES pay_orders(id),
  area          TEXT NOT NULL CHECK (area IN ('machine', 'gold', 'car')),
  asset         TEXT NOT NULL,
  total         INTEGER NOT NULL CHECK (total > 0),
  days          INTEGER NOT NULL CHECK (days > 0),
  start_day     INTEGER NOT NULL,
  released      INTEGER NOT NULL DEFAULT 0 CHECK (released >= 0 AND released <= total),
  released_days INTEGER NOT NULL DEFAULT 0 CHECK (released_days >= 0 AND released_days <= days),
  status        TEXT NOT NULL DEFAULT 'releasing' CHECK (status IN ('releasing', 'completed')),
  price         TEXT NOT NULL,                   -- the NADI price (USDT) the value was converted at
  value         INTEGER NOT NULL,                -- the USDT value released, units of 1e-8
  created_at    INTEGER NOT NULL
);
CREATE INDEX release_plans_due ON release_plans (start_day) WHERE status = 'releasing';
CREATE INDEX release_plans_user ON release_plans (user_id, area, id);

-- One row per (plan, day): the instalment posted. The primary key is what makes a day post once.
CREATE TABLE release_lines (
  plan_id INTEGER NOT NULL REFERENCES release_plans(id),
  day     INTEGER NOT NULL,
  amount  INTEGER NOT NULL CHECK (amount > 0),
  PRIMARY KEY (plan_id, day)
) WITHOUT ROWID;

-- A released day: the visible record of the job (when, how many plans, how much).
CREATE TABLE release_days (
  day       INTEGER PRIMARY KEY,
  plans     INTEGER NOT NULL,
  users     INTEGER NOT NULL,
  total     INTEGER NOT NULL,
  posted_at INTEGER NOT NULL
);
