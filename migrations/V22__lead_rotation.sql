-- Leads given out by a rule, told to their assignee, and commented on
-- (docs/leads.md, "Who answers a lead").

-- The owner's rule for a new lead: none (manual), round_robin (the manager
-- whose turn it is) or least_loaded (the fewest open leads), among the
-- active managers whose working hours include the moment it arrives.
ALTER TABLE settings ADD COLUMN lead_assignment TEXT NOT NULL DEFAULT 'none'
    CHECK (lead_assignment IN ('none', 'round_robin', 'least_loaded'));

-- A staff member's own e-mail (a lead given to them is announced there),
-- their working hours (NULL: the salon's, settings.work_schedule), and the
-- turn at which the rule last gave them a lead (a rising number: the round's
-- order, NULL: never).
ALTER TABLE users ADD COLUMN email TEXT NOT NULL DEFAULT '' CHECK (length(email) <= 255);
ALTER TABLE users ADD COLUMN work_schedule TEXT
    CHECK (work_schedule IS NULL OR json_valid(work_schedule));
ALTER TABLE users ADD COLUMN auto_assigned_turn INTEGER;

-- What staff write on a lead: kept with the lead (deleted with it); the
-- author's name is kept as it was when written.
CREATE TABLE lead_comments (
    id INTEGER PRIMARY KEY,
    lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
    author_id TEXT REFERENCES users (id) ON DELETE SET NULL,
    author_name TEXT NOT NULL,
    body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
    created_at TEXT NOT NULL
);
CREATE INDEX lead_comments_lead ON lead_comments (lead_id, id);

-- outbox.kind gains `assigned` (a lead announced to the staff member it was
-- given to; the payload names them), so the table is rebuilt the SQLite way
-- (as V3 did): create, copy with the ids, drop, rename, index.
CREATE TABLE outbox_v22 (
    id INTEGER PRIMARY KEY,
    channel TEXT NOT NULL REFERENCES outbox_channels (name),
    lead_id TEXT REFERENCES leads (id) ON DELETE SET NULL,
    payload TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT,
    created_at TEXT NOT NULL,
    sent_at TEXT,
    claimed_at TEXT,
    retry_since TEXT,
    kind TEXT NOT NULL DEFAULT 'lead'
        CHECK (kind IN ('lead', 'reminder', 'search_confirm', 'search_alert', 'assigned'))
);
INSERT INTO outbox_v22 (id, channel, lead_id, payload, status, attempts, next_attempt_at,
    last_error, created_at, sent_at, claimed_at, retry_since, kind)
SELECT id, channel, lead_id, payload, status, attempts, next_attempt_at, last_error,
    created_at, sent_at, claimed_at, retry_since, kind
FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_v22 RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (status, channel, next_attempt_at);
CREATE INDEX outbox_lead ON outbox (lead_id);
