-- A car's pictures become rows, its body type a reference to body_types, and
-- the outbox's channels a table of their own, so new channels, imports and
-- reordering need no table rebuild.
--
-- SQLite cannot change a column's CHECK or REFERENCES in place: `cars` and
-- `outbox` are rebuilt (create the new table, copy, drop the old, rename).
-- This runs with foreign keys OFF (see src/db/migrate.rs): dropping `cars`
-- with them on would set reviews.car_id and leads.car_id to NULL. The ids and
-- rowids are copied unchanged, so every reference stays valid; the migration
-- runner checks that with PRAGMA foreign_key_check afterwards.

-- Notification channels of the outbox; a new channel is one INSERT.
CREATE TABLE outbox_channels (
    name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 50)
);
INSERT INTO outbox_channels (name) VALUES ('email'), ('amocrm'), ('telegram');

-- The pictures of a car in their order; position 0 is the main picture.
-- Positions run 0..5 without gaps: at most six pictures per car.
CREATE TABLE car_images (
    car_id TEXT NOT NULL REFERENCES cars (id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 5),
    url TEXT NOT NULL CHECK (length(url) BETWEEN 1 AND 500),
    PRIMARY KEY (car_id, position)
) WITHOUT ROWID;

-- The main picture first, then the listed ones in their order, each URL once,
-- at most six.
INSERT INTO car_images (car_id, position, url)
SELECT car_id, position, url FROM (
    SELECT car_id, url, row_number() OVER (PARTITION BY car_id ORDER BY rank) - 1 AS position
    FROM (
        SELECT car_id, url, min(rank) AS rank
        FROM (
            SELECT id AS car_id, main_image AS url, -1 AS rank FROM cars WHERE main_image <> ''
            UNION ALL
            SELECT c.id, j.value, j.key
            FROM cars c, json_each(c.images) j
            WHERE j.type = 'text' AND j.value <> ''
        )
        GROUP BY car_id, url
    )
)
WHERE position < 6;

CREATE TABLE cars_v3 (
    id TEXT PRIMARY KEY,
    -- RESTRICT: a brand cannot be deleted while it has cars.
    brand_id TEXT NOT NULL REFERENCES brands (id) ON DELETE RESTRICT,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
    slug TEXT NOT NULL UNIQUE CHECK (length(slug) BETWEEN 1 AND 255),
    model TEXT NOT NULL CHECK (length(model) BETWEEN 1 AND 100),
    year INTEGER NOT NULL CHECK (year BETWEEN 1990 AND 2100),
    -- decimal(12,2), decimal(10,2) as kopecks
    price_kopecks INTEGER NOT NULL CHECK (price_kopecks BETWEEN 0 AND 999999999999),
    monthly_payment_kopecks INTEGER CHECK (monthly_payment_kopecks BETWEEN 0 AND 9999999999),
    daily_price_kopecks INTEGER CHECK (daily_price_kopecks BETWEEN 0 AND 9999999999),
    status TEXT NOT NULL CHECK (status IN ('new', 'used', 'lease')),
    body_type TEXT NOT NULL REFERENCES body_types (body_type),
    transmission TEXT NOT NULL CHECK (transmission IN ('manual', 'automatic', 'cvt', 'robotic')),
    drivetrain TEXT NOT NULL CHECK (drivetrain IN ('front', 'rear', 'all')),
    fuel_type TEXT NOT NULL CHECK (fuel_type IN ('gasoline', 'diesel', 'hybrid', 'electric')),
    engine TEXT NOT NULL CHECK (length(engine) BETWEEN 1 AND 100),
    mileage INTEGER NOT NULL DEFAULT 0 CHECK (mileage >= 0),
    in_stock INTEGER NOT NULL DEFAULT 1 CHECK (in_stock IN (0, 1)),
    featured INTEGER NOT NULL DEFAULT 0 CHECK (featured IN (0, 1)),
    -- JSON array of {name, description, link}
    trim_levels TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(trim_levels)),
    -- Drafts (published = 0) never reach public pages or feeds.
    published INTEGER NOT NULL DEFAULT 1 CHECK (published IN (0, 1)),
    vin TEXT CHECK (vin IS NULL OR length(vin) = 17),
    color TEXT CHECK (color IS NULL OR length(color) <= 50),
    -- Identifier of the car in an imported feed (Auto.ru, Avito, CSV).
    external_id TEXT UNIQUE CHECK (external_id IS NULL OR length(external_id) <= 100),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
-- The rowid too: lists break ties of equal times by it.
INSERT INTO cars_v3 (rowid, id, brand_id, name, slug, model, year, price_kopecks,
    monthly_payment_kopecks, daily_price_kopecks, status, body_type, transmission, drivetrain,
    fuel_type, engine, mileage, in_stock, featured, trim_levels, published, vin, color,
    external_id, created_at, updated_at)
SELECT rowid, id, brand_id, name, slug, model, year, price_kopecks,
    monthly_payment_kopecks, daily_price_kopecks, status, body_type, transmission, drivetrain,
    fuel_type, engine, mileage, in_stock, featured, trim_levels, published, vin, color,
    external_id, created_at, updated_at
FROM cars;
DROP TABLE cars;
ALTER TABLE cars_v3 RENAME TO cars;
-- The indexes of V1 and V2, which went with the old table.
CREATE INDEX cars_public_order ON cars (published, created_at DESC);
CREATE INDEX cars_filter ON cars (published, status, body_type, price_kopecks, created_at);
CREATE INDEX cars_body_filter ON cars (published, body_type, price_kopecks, created_at);
CREATE INDEX cars_brand_filter ON cars (brand_id, published, status, price_kopecks, created_at);

CREATE TABLE outbox_v3 (
    id INTEGER PRIMARY KEY,
    channel TEXT NOT NULL REFERENCES outbox_channels (name),
    lead_id TEXT REFERENCES leads (id) ON DELETE SET NULL,
    payload TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT,
    created_at TEXT NOT NULL,
    sent_at TEXT
);
INSERT INTO outbox_v3 (id, channel, lead_id, payload, status, attempts, next_attempt_at,
    last_error, created_at, sent_at)
SELECT id, channel, lead_id, payload, status, attempts, next_attempt_at, last_error,
    created_at, sent_at
FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_v3 RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
