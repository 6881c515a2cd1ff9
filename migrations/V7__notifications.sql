-- The notification outbox at work (docs/notifications.md).
--
-- outbox.claimed_at: set while a worker delivers the row; a row still
-- claimed when the server starts was interrupted (kill -9, power cut) and is
-- tried again at once. outbox.retry_since: when the current round of
-- attempts began (the lead's time, or an admin's retry); the worker gives up
-- `notifications.give_up_after_minutes` after it.
ALTER TABLE outbox ADD COLUMN claimed_at TEXT;
ALTER TABLE outbox ADD COLUMN retry_since TEXT;
UPDATE outbox SET retry_since = created_at;
CREATE INDEX outbox_lead ON outbox (lead_id);

-- The lead's id in amoCRM once the push succeeded.
ALTER TABLE leads ADD COLUMN amocrm_lead_id INTEGER;

-- The amoCRM OAuth tokens: one row, refreshed by the server.
CREATE TABLE amocrm_tokens (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    access_token TEXT NOT NULL,
    refresh_token TEXT NOT NULL,
    -- RFC 3339 UTC, when the access token stops working
    expires_at TEXT NOT NULL,
    -- the domain the tokens belong to (a new account needs a new authorisation)
    domain TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
