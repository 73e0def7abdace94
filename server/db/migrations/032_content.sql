-- Content an operator publishes (issue 33): notices and home banners gain a key (the slug a content
-- file names them by, so loading a file twice updates instead of adding) and a state in place of the
-- old active flag. Stored states are draft, published and unpublished; "scheduled" is a published
-- row whose published_at is still ahead, so it shows at that moment by the clock, with no job
-- (server/modules/notice/rules.ts). What was active stays published; what was not, unpublished.
-- Rows the demo seed or a catalog wrote before keep a NULL key (the catalog's mall banners are
-- replaced as a set and have none).
ALTER TABLE notices ADD COLUMN key TEXT;
ALTER TABLE notices ADD COLUMN state TEXT NOT NULL DEFAULT 'published' CHECK (state IN ('draft', 'published', 'unpublished'));
ALTER TABLE notices ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
UPDATE notices SET state = CASE WHEN active = 1 THEN 'published' ELSE 'unpublished' END, updated_at = published_at;
DROP INDEX notices_order;
ALTER TABLE notices DROP COLUMN active;
CREATE UNIQUE INDEX notices_key ON notices (key);
CREATE INDEX notices_order ON notices (state, pinned DESC, published_at DESC);

ALTER TABLE banners ADD COLUMN key TEXT;
ALTER TABLE banners ADD COLUMN state TEXT NOT NULL DEFAULT 'published' CHECK (state IN ('draft', 'published', 'unpublished'));
-- A banner may wait for its moment too; 0 (every banner before this) is "since always".
ALTER TABLE banners ADD COLUMN published_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE banners ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
UPDATE banners SET state = CASE WHEN active = 1 THEN 'published' ELSE 'unpublished' END;
ALTER TABLE banners DROP COLUMN active;
CREATE UNIQUE INDEX banners_key ON banners (key);
