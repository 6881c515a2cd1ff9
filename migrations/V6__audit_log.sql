-- The audit trail: one row per admin write, stored in the same transaction
-- as the write (docs/admin.md, audit trail). `changes` is a JSON array of
-- {field, from, to}. Only admins read it, so no content-version trigger.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    username TEXT NOT NULL,
    action TEXT NOT NULL,
    object_type TEXT NOT NULL,
    object_id TEXT,
    summary TEXT NOT NULL,
    changes TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX audit_log_object ON audit_log (object_type, object_id, id);
