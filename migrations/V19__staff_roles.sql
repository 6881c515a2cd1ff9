-- Staff roles (docs/admin.md, "Roles"). The single admin role of the first
-- versions is the owner's: existing users become owners.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'owner'
    CHECK (role IN ('owner', 'manager', 'editor', 'viewer'));
