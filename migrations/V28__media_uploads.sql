-- Pictures waiting to be copied to the replica's bucket (issue 28;
-- docs/operations.md, "Replication (Litestream)", "Pictures"). A row is
-- added in the transaction that records the picture (`media::record`),
-- whether or not a replica is set up; the upload worker of `serve` drains
-- it only under `[replica]`, deleting each row once its files are in the
-- bucket. A picture the cleanup removes leaves the queue with it.
CREATE TABLE media_uploads (
    hash TEXT PRIMARY KEY REFERENCES media(hash) ON DELETE CASCADE,
    queued_at TEXT NOT NULL,
    -- Failed tries so far; the next waits 5 s, doubled per failure, at
    -- most an hour.
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT
);
CREATE INDEX media_uploads_due ON media_uploads (next_attempt_at);

-- Where the pictures were copied to (the bucket, folder and endpoint of
-- `[replica]`): when it changes (a replica set up for the first time, or
-- another bucket), every recorded picture is queued again, once.
CREATE TABLE media_replica (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    target TEXT NOT NULL,
    -- When a picture was last copied (UTC, RFC 3339).
    last_upload_at TEXT
);
