-- One row that /healthz writes (at most every few seconds) to learn that
-- the database takes writes: a full disk or a read-only file fails it
-- (docs/operations.md, "Health"). Nothing reads it but the probe.
CREATE TABLE health_probe (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    written_at TEXT NOT NULL
);
