-- One rule for comparing e-mail addresses, and the erasures that outlive a
-- restore (docs/personal-data.md, "One address, one person" and "Backups
-- and erasures").

-- `email_key` is the address's comparison key (`src/domain/email.rs`
-- `canonical`: trimmed, case-folded with Unicode's rules, the domain in its
-- ASCII form); the address as typed stays in `email`. Rows stored before
-- this migration are filled by the data step that runs after migrations
-- (`email::fill_keys`): SQL cannot fold Unicode case.
ALTER TABLE leads ADD COLUMN email_key TEXT;
CREATE INDEX leads_email_key ON leads (email_key) WHERE email_key IS NOT NULL;
ALTER TABLE saved_search_subscriptions ADD COLUMN email_key TEXT;
CREATE INDEX saved_search_subscriptions_email_key ON saved_search_subscriptions (email_key, search_id);
ALTER TABLE saved_search_tokens ADD COLUMN email_key TEXT;
CREATE INDEX saved_search_tokens_email_key ON saved_search_tokens (email_key);
ALTER TABLE forget_tokens ADD COLUMN email_key TEXT;
CREATE INDEX forget_tokens_email_key ON forget_tokens (email_key);
ALTER TABLE data_requests ADD COLUMN email_key TEXT;

-- Every erasure of a person, with no personal data: the keyed hashes
-- (HMAC-SHA256 with the site's key in `erasure.key`, beside the database
-- and never in it) of their phone and address, or the ids of the leads
-- erased alone. The same lines go to `erasures.log` in the data directory;
-- a restore re-applies every one its copy lacks (`erasure_ledger`).
CREATE TABLE erasures (
    id TEXT PRIMARY KEY,
    at TEXT NOT NULL,
    identifiers TEXT NOT NULL CHECK (length(identifiers) <= 10000)
);
