-- The team managed in the admin (docs/admin.md, "The team"): a person's
-- name, a block, a one-time password to change at first login, and
-- invitation links (only the SHA-256 of the link's token is kept).
ALTER TABLE users ADD COLUMN display_name TEXT NOT NULL DEFAULT ''
    CHECK (length(display_name) <= 100);
ALTER TABLE users ADD COLUMN blocked_at TEXT;
ALTER TABLE users ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0
    CHECK (must_change_password IN (0, 1));

CREATE TABLE invitations (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
);
CREATE INDEX invitations_user ON invitations (user_id);
