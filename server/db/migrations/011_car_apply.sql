-- Uploads and car applications (DESIGN §10 "Uploads", issue 10 part 5).

-- One row per upload URL handed out (common/generateR2PresignedUrl): the key it may write, whose it
-- is, what for, and the content type and size the URL is signed for. uploaded_at is set when the file
-- is stored (the local store's PUT; for an S3 bucket, when a request that uses it finds it there), so
-- a local URL works once. used_by/used_at name the application the file became part of: a file is
-- part of one application at most.
CREATE TABLE uploads (
  key          TEXT PRIMARY KEY,                -- u/<user>/<purpose>/<32 hex>.<ext>
  user_id      INTEGER NOT NULL REFERENCES users(id),
  purpose      TEXT NOT NULL CHECK (length(purpose) BETWEEN 1 AND 32 AND purpose NOT GLOB '*[^a-z_]*'), -- car_apply today (contract/uploadRules.ts)
  content_type TEXT NOT NULL,
  size         INTEGER NOT NULL CHECK (size > 0),
  store        TEXT NOT NULL CHECK (store IN ('local', 's3')),
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,                -- the URL's end
  uploaded_at  INTEGER,
  etag         TEXT,                            -- the bucket's ETag when it was verified (S3)
  used_by      INTEGER REFERENCES car_applications(id),
  used_at      INTEGER,
  CHECK ((used_by IS NULL) = (used_at IS NULL)),
  CHECK (used_by IS NULL OR uploaded_at IS NOT NULL)
) WITHOUT ROWID;
CREATE INDEX uploads_user ON uploads (user_id, created_at);
CREATE INDEX uploads_unused ON uploads (created_at) WHERE used_by IS NULL;

-- A car application: the car as it was named when applied for, the applicant, the documents (upload
-- keys), and its state. An operator moves it submitted → reviewing → approved | rejected.
CREATE TABLE car_applications (
  id             INTEGER PRIMARY KEY,
  user_id        INTEGER NOT NULL REFERENCES users(id),
  goods_id       INTEGER NOT NULL REFERENCES products(id),
  goods_name     TEXT NOT NULL,                 -- JSON texts of the product
  cover          TEXT NOT NULL,
  name           TEXT NOT NULL,
  phone          TEXT NOT NULL,
  id_number      TEXT NOT NULL,
  city           TEXT NOT NULL,
  remark         TEXT NOT NULL DEFAULT '',
  id_front       TEXT NOT NULL REFERENCES uploads(key),
  id_back        TEXT REFERENCES uploads(key),
  driver_licence TEXT NOT NULL REFERENCES uploads(key),
  status         TEXT NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'reviewing', 'approved', 'rejected')),
  reason         TEXT,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL,
  reviewed_at    INTEGER,                       -- when an operator took it up
  decided_at     INTEGER,                       -- approved or rejected
  CHECK ((status = 'rejected') = (reason IS NOT NULL)),
  CHECK ((status IN ('approved', 'rejected')) = (decided_at IS NOT NULL))
);
CREATE INDEX car_applications_user ON car_applications (user_id, id);
CREATE INDEX car_applications_open ON car_applications (status, id) WHERE status IN ('submitted', 'reviewing');
