-- A person's requests, the withdrawal links of visitor mails, forgetting on
-- time and the acts that confirm it (docs/personal-data.md).

-- A person's request (152-FZ art. 14, 20, 21): to know what is held, or to
-- be forgotten; answered within 10 working days. The phone and the address
-- are kept only while it is open; `subject` then reads masked.
CREATE TABLE data_requests (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('access', 'erase', 'withdrawal')),
    phone TEXT CHECK (phone IS NULL OR length(phone) <= 16),
    email TEXT CHECK (email IS NULL OR length(email) <= 255),
    subject TEXT NOT NULL CHECK (length(subject) <= 300),
    received_on TEXT NOT NULL CHECK (length(received_on) = 10),
    due_on TEXT NOT NULL CHECK (length(due_on) = 10),
    answered_at TEXT,
    outcome TEXT CHECK (outcome IS NULL OR outcome IN ('provided', 'erased', 'nothing_held', 'refused')),
    note TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 2000),
    created_by TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    CHECK ((answered_at IS NULL) = (outcome IS NULL))
);
CREATE INDEX data_requests_open ON data_requests (answered_at, due_on);

-- The link in every visitor mail that withdraws consent and erases what is
-- held about the address, without logging in. Only the SHA-256 of a token.
CREATE TABLE forget_tokens (
    token_hash TEXT PRIMARY KEY,
    email TEXT NOT NULL CHECK (length(email) <= 255),
    created_at TEXT NOT NULL
);
CREATE INDEX forget_tokens_email ON forget_tokens (email);

-- What each destruction erased (Roskomnadzor's order No. 179 of 28.10.2022
-- asks for an act and an extract of the event log). No personal data: the
-- people are named by their leads' and subscriptions' ids.
CREATE TABLE destruction_acts (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('retention', 'request', 'withdrawal')),
    reason_text TEXT NOT NULL,
    by_login TEXT NOT NULL DEFAULT '',
    subjects INTEGER NOT NULL,
    leads INTEGER NOT NULL,
    subscriptions INTEGER NOT NULL,
    deliveries INTEGER NOT NULL,
    audit_entries INTEGER NOT NULL,
    -- JSON: the categories of data erased, and one record per person
    categories TEXT NOT NULL,
    records TEXT NOT NULL
);

-- The nightly retention job runs once per Moscow date.
CREATE TABLE retention_runs (
    day TEXT PRIMARY KEY,
    ran_at TEXT NOT NULL,
    act_id INTEGER REFERENCES destruction_acts (id)
);

-- How long a person's data is kept after the last contact, and a lead
-- closed as cancelled after it was closed.
ALTER TABLE settings ADD COLUMN retention_years INTEGER NOT NULL DEFAULT 3
    CHECK (retention_years BETWEEN 1 AND 10);
ALTER TABLE settings ADD COLUMN cancelled_retention_months INTEGER NOT NULL DEFAULT 6
    CHECK (cancelled_retention_months BETWEEN 1 AND 36);
