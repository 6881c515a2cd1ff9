-- Mail a stranger can trigger is capped (docs/saved-searches.md, "Mail a
-- stranger can trigger"): at most 3 confirmations per address in any 24
-- hours, and the site's own total a day (a setting). One row per mail a
-- visitor's request would have queued: sent (queued) or held by a cap. No
-- address in clear: the SHA-256 (hex) of the trimmed, lower-cased address,
-- NULL once its person was erased. Rows older than 24 hours are deleted by
-- the next write and by the nightly retention run.
CREATE TABLE visitor_mail_ledger (
    id INTEGER PRIMARY KEY,
    address_hash TEXT CHECK (address_hash IS NULL OR length(address_hash) = 64),
    kind TEXT NOT NULL CHECK (length(kind) <= 32),
    at TEXT NOT NULL,
    held INTEGER NOT NULL CHECK (held IN (0, 1))
);
CREATE INDEX visitor_mail_ledger_address ON visitor_mail_ledger (address_hash, at);
CREATE INDEX visitor_mail_ledger_at ON visitor_mail_ledger (at);

-- The site's total of visitor-triggered mails in any 24 hours.
ALTER TABLE settings ADD COLUMN visitor_mail_daily_limit INTEGER NOT NULL DEFAULT 300
    CHECK (visitor_mail_daily_limit BETWEEN 1 AND 10000);
