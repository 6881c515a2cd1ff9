-- The inventory parser (docs/parser.md): import runs with their report, the
-- cars that came from a feed, the source URL of each imported picture, and
-- the schedule. Only admins read these tables, so no content-version
-- trigger; the cars an import writes bump the version through `cars`.

-- One import: a preview (dry run) that may then be applied or discarded.
CREATE TABLE import_runs (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    finished_at TEXT,
    trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'schedule')),
    source_kind TEXT NOT NULL CHECK (source_kind IN ('url', 'file')),
    source_name TEXT NOT NULL CHECK (length(source_name) <= 2000),
    format TEXT CHECK (format IS NULL OR format IN ('autoru', 'avito', 'csv')),
    status TEXT NOT NULL CHECK (status IN ('preview', 'applied', 'discarded', 'failed')),
    error TEXT,
    -- JSON: the report the admin reads (new, changed, unchanged, gone, errors).
    report TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(report)),
    -- JSON: the feed's usable rows, what applying writes.
    rows TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(rows)),
    photos_total INTEGER NOT NULL DEFAULT 0,
    photos_done INTEGER NOT NULL DEFAULT 0,
    photos_failed INTEGER NOT NULL DEFAULT 0,
    -- JSON array of {carTitle, url, error}
    photo_errors TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(photo_errors))
);
CREATE INDEX import_runs_created ON import_runs (created_at DESC);

-- Cars that came from a feed: only these can be "gone" and unpublished.
-- `unpublished_by_import`: the import took it off the site (it left the
-- feed), so it is published again when it comes back.
CREATE TABLE imported_cars (
    car_id TEXT PRIMARY KEY REFERENCES cars (id) ON DELETE CASCADE,
    unpublished_by_import INTEGER NOT NULL DEFAULT 0 CHECK (unpublished_by_import IN (0, 1)),
    last_run_id TEXT
) WITHOUT ROWID;

-- The feed's pictures of an imported car in their order, with the stored
-- picture each became (NULL: not fetched yet, or failed and to be retried).
-- A picture is fetched again only when its source URL changes.
CREATE TABLE car_photo_sources (
    car_id TEXT NOT NULL REFERENCES cars (id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 5),
    source_url TEXT NOT NULL CHECK (length(source_url) <= 2000),
    media_url TEXT,
    error TEXT,
    PRIMARY KEY (car_id, position)
) WITHOUT ROWID;

-- The schedule: one row.
CREATE TABLE parser_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    feed_url TEXT CHECK (feed_url IS NULL OR length(feed_url) <= 2000),
    interval_hours INTEGER NOT NULL DEFAULT 0 CHECK (interval_hours BETWEEN 0 AND 168),
    last_run_at TEXT,
    updated_at TEXT NOT NULL
);
INSERT INTO parser_settings (id, feed_url, interval_hours, updated_at)
VALUES (1, NULL, 0, '2026-01-01T00:00:00.000Z');
