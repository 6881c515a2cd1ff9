-- A lead belongs to someone (docs/leads.md, "Who answers a lead"): the staff
-- member it is assigned to, and since when. Deleting the user leaves the
-- lead unassigned.
ALTER TABLE leads ADD COLUMN assignee_id TEXT REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE leads ADD COLUMN assigned_at TEXT;
CREATE INDEX leads_assignee ON leads (assignee_id, created_at);
