-- An Idempotency-Key's answer is written in the same transaction as the effect it answers
-- (server/http/idempotency.ts): no reservation commits ahead of the work, so a process that dies
-- leaves either the effect with its answer or nothing. `holder` names the one request that wrote the
-- row, so the several transactions of one request may each rewrite the answer and no other may.
ALTER TABLE idempotency_keys ADD COLUMN holder TEXT;
