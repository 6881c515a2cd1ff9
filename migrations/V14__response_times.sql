-- How fast the staff answer leads (docs/response-times.md).

-- The threshold in working minutes after which a lead still `new` is
-- overdue and reminded once more.
ALTER TABLE settings ADD COLUMN response_threshold_minutes INTEGER NOT NULL DEFAULT 15
    CHECK (response_threshold_minutes BETWEEN 1 AND 480);

-- When the reminder of a lead still `new` past the threshold was queued
-- (RFC 3339 UTC); NULL: not reminded. A lead is reminded once.
ALTER TABLE leads ADD COLUMN reminded_at TEXT;

-- The reminder job reads the new leads of the last two weeks through
-- leads_status (status, created_at).

-- A lead's first status change in the audit trail, found by one seek.
CREATE INDEX audit_log_object_action ON audit_log (object_type, object_id, action, at);
