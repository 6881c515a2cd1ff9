-- The marketplaces accept our feeds and talk back (issue 44; docs/parser.md
-- "Export", docs/marketplaces.md).
--
-- What Avito and Auto.ru require of a used car that the site did not keep:
-- owners by the vehicle passport (ПТС), whether it was in an accident, its
-- state, and the steering wheel's side. NULL: not stated; a used car with
-- one of them unstated is left out of the feed that requires it, with the
-- reason shown on the car in the admin.
ALTER TABLE cars ADD COLUMN owners INTEGER CHECK (owners BETWEEN 0 AND 99);
ALTER TABLE cars ADD COLUMN accident INTEGER CHECK (accident IN (0, 1));
ALTER TABLE cars ADD COLUMN state TEXT
    CHECK (state IN ('excellent', 'good', 'average', 'needs_repair'));
ALTER TABLE cars ADD COLUMN wheel TEXT NOT NULL DEFAULT 'left'
    CHECK (wheel IN ('left', 'right'));

-- Each ad of our feeds as its marketplace last reported it, keyed by the
-- feed's own id (the car's external id, else its id: Avito `Id`, Auto.ru
-- `unique_id`), so the marketplace's id and history survive renames, price
-- changes and a car leaving the feed.
CREATE TABLE marketplace_ads (
    channel TEXT NOT NULL CHECK (channel IN ('avito', 'autoru')),
    feed_id TEXT NOT NULL,
    car_id TEXT REFERENCES cars (id) ON DELETE SET NULL,
    market_id TEXT,
    status TEXT NOT NULL
        CHECK (status IN ('published', 'refused', 'pending', 'removed')),
    -- The marketplace's own messages, a JSON array of strings.
    messages TEXT NOT NULL DEFAULT '[]',
    url TEXT,
    reported_at TEXT NOT NULL,
    PRIMARY KEY (channel, feed_id)
) WITHOUT ROWID;
CREATE INDEX marketplace_ads_car ON marketplace_ads (car_id);
CREATE INDEX marketplace_ads_market_id ON marketplace_ads (channel, market_id);

-- Views, contacts, favourites and calls of a car per channel and Moscow
-- day: the site's own card views and each marketplace's figures. Kept 13
-- months at least. Not public: no content-version trigger (a view must not
-- drop the answer cache).
CREATE TABLE car_channel_days (
    car_id TEXT NOT NULL REFERENCES cars (id) ON DELETE CASCADE,
    channel TEXT NOT NULL CHECK (channel IN ('site', 'avito', 'autoru')),
    day TEXT NOT NULL,
    views INTEGER NOT NULL DEFAULT 0,
    contacts INTEGER NOT NULL DEFAULT 0,
    favourites INTEGER NOT NULL DEFAULT 0,
    calls INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, channel, day)
) WITHOUT ROWID;
CREATE INDEX car_channel_days_day ON car_channel_days (day);

-- How each marketplace job last ended: the connection check, the feed's
-- report, the figures, the calls.
CREATE TABLE marketplace_runs (
    channel TEXT NOT NULL CHECK (channel IN ('avito', 'autoru')),
    job TEXT NOT NULL CHECK (job IN ('check', 'report', 'stats', 'calls')),
    started_at TEXT NOT NULL,
    finished_at TEXT,
    ok INTEGER,
    message TEXT,
    PRIMARY KEY (channel, job)
) WITHOUT ROWID;
