-- Several feeds, each owning its cars (docs/parser.md, "Several feeds").
--
-- `import_feeds`: a source of stock (a URL, or a file uploaded again and
-- again), with its own schedule and its cars' condition when a record says
-- nothing. `position` orders the feeds: a car in two feeds takes the values
-- of the feed placed higher (the smaller position).
CREATE TABLE import_feeds (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    source_kind TEXT NOT NULL CHECK (source_kind IN ('url', 'file')),
    -- The URL (kind url) or the file's name (kind file).
    source TEXT NOT NULL CHECK (length(source) BETWEEN 1 AND 2000),
    interval_hours INTEGER NOT NULL DEFAULT 0 CHECK (interval_hours BETWEEN 0 AND 168),
    condition TEXT NOT NULL DEFAULT 'record'
        CHECK (condition IN ('record', 'new', 'used', 'lease')),
    position INTEGER NOT NULL,
    last_run_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CHECK (source_kind = 'url' OR interval_hours = 0)
);
-- One feed per address (files may share a name).
CREATE UNIQUE INDEX import_feeds_url ON import_feeds (source) WHERE source_kind = 'url';

-- A run belongs to its feed; `condition` is the condition the admin set for
-- the whole preview (NULL: each car's own).
ALTER TABLE import_runs ADD COLUMN feed_id TEXT REFERENCES import_feeds (id) ON DELETE SET NULL;
ALTER TABLE import_runs ADD COLUMN condition TEXT
    CHECK (condition IS NULL OR condition IN ('new', 'used', 'lease'));
CREATE INDEX import_runs_feed ON import_runs (feed_id, created_at DESC);

-- The cars each feed brought. `feed_key` is the car's key in that feed (its
-- id there, else its VIN); `feed_values` what the feed last stated of it
-- (the re-import's base, per feed); `listed`: the feed's last applied run
-- had it (0: it left that feed; the row keeps the base for its return).
CREATE TABLE feed_cars (
    feed_id TEXT NOT NULL REFERENCES import_feeds (id) ON DELETE CASCADE,
    car_id TEXT NOT NULL REFERENCES cars (id) ON DELETE CASCADE,
    feed_key TEXT NOT NULL,
    feed_values TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(feed_values)),
    listed INTEGER NOT NULL DEFAULT 1 CHECK (listed IN (0, 1)),
    last_run_id TEXT,
    PRIMARY KEY (feed_id, car_id)
) WITHOUT ROWID;
CREATE INDEX feed_cars_key ON feed_cars (feed_id, feed_key);
CREATE INDEX feed_cars_car ON feed_cars (car_id);

-- Every picture the photo pass stored for a car: the car's other pictures
-- are a person's, and no import or photo pass removes them.
CREATE TABLE car_feed_pictures (
    car_id TEXT NOT NULL REFERENCES cars (id) ON DELETE CASCADE,
    media_url TEXT NOT NULL,
    PRIMARY KEY (car_id, media_url)
) WITHOUT ROWID;
INSERT OR IGNORE INTO car_feed_pictures (car_id, media_url)
SELECT car_id, media_url FROM car_photo_sources WHERE media_url IS NOT NULL;

-- What was imported before: one feed, the schedule's address when it had
-- one, else the source of the latest run; its runs and cars are that feed's.
INSERT INTO import_feeds (id, name, source_kind, source, interval_hours, position,
    last_run_at, created_at, updated_at)
SELECT '00000000-0000-7000-8000-000000000001',
    CASE WHEN s.feed_url IS NOT NULL THEN 'Фид по расписанию' ELSE 'Фид' END,
    CASE WHEN s.feed_url IS NOT NULL THEN 'url' ELSE r.source_kind END,
    coalesce(s.feed_url, r.source_name),
    CASE WHEN s.feed_url IS NOT NULL THEN s.interval_hours ELSE 0 END,
    0, s.last_run_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM parser_settings s
LEFT JOIN (SELECT source_kind, source_name FROM import_runs
           ORDER BY created_at DESC, id DESC LIMIT 1) r ON 1
WHERE s.id = 1 AND (s.feed_url IS NOT NULL OR r.source_name IS NOT NULL);

UPDATE import_runs SET feed_id = '00000000-0000-7000-8000-000000000001'
WHERE EXISTS (SELECT 1 FROM import_feeds WHERE id = '00000000-0000-7000-8000-000000000001');

INSERT OR IGNORE INTO feed_cars (feed_id, car_id, feed_key, feed_values, listed, last_run_id)
SELECT '00000000-0000-7000-8000-000000000001', i.car_id,
    coalesce(c.external_id, upper(c.vin), i.car_id), i.feed_values,
    1 - i.unpublished_by_import, i.last_run_id
FROM imported_cars i JOIN cars c ON c.id = i.car_id
WHERE EXISTS (SELECT 1 FROM import_feeds WHERE id = '00000000-0000-7000-8000-000000000001');
