-- Rate-limit windows shared by every process on the database (issue 19): a sign-in flood spread over
-- several api processes behind a balancer counts against one limit, and a restart does not reset it.
-- One row per limited key (e.g. `login-ip:203.0.113.7`), its window's start and its count.
CREATE TABLE rate_limits (
  key          TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count        INTEGER NOT NULL
);
CREATE INDEX rate_limits_window ON rate_limits (window_start);
