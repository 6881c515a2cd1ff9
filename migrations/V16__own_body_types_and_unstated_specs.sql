-- Real dealer feeds (docs/parser.md): body types become the dealership's own
-- list, a car's drive may be "not stated", a car keeps its trim
-- (complectation), generation and doors, a gas fuel type, and an imported car remembers what
-- its feed last wrote, so a re-import changes nothing a person set.
--
-- SQLite cannot change a column's CHECK in place: `body_types` and `cars` are
-- rebuilt (create, copy, drop, rename) with foreign keys off, as in V3; ids
-- and rowids are copied unchanged, and the runner checks foreign keys after.

CREATE TABLE body_types_v16 (
    id TEXT PRIMARY KEY,
    -- The slug of /body-type/{slug}: latin letters, digits, single hyphens.
    body_type TEXT NOT NULL UNIQUE CHECK (
        length(body_type) BETWEEN 1 AND 50
        AND body_type NOT GLOB '*[^a-z0-9-]*'
        AND body_type NOT GLOB '-*'
        AND body_type NOT GLOB '*-'
        AND instr(body_type, '--') = 0
    ),
    label_plural TEXT NOT NULL CHECK (length(label_plural) BETWEEN 1 AND 100),
    label_single TEXT NOT NULL CHECK (length(label_single) BETWEEN 1 AND 100),
    sort_order INTEGER NOT NULL,
    image_url TEXT NOT NULL DEFAULT '',
    image_url_mobile TEXT NOT NULL DEFAULT '',
    -- The spec's six: never deleted.
    built_in INTEGER NOT NULL DEFAULT 0 CHECK (built_in IN (0, 1)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
INSERT INTO body_types_v16 (id, body_type, label_plural, label_single, sort_order, image_url,
    image_url_mobile, built_in, created_at, updated_at)
SELECT id, body_type, label_plural, label_single, sort_order, image_url, image_url_mobile, 1,
    created_at, updated_at
FROM body_types;
DROP TABLE body_types;
ALTER TABLE body_types_v16 RENAME TO body_types;
CREATE TRIGGER body_types_insert_bumps_content_version AFTER INSERT ON body_types
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER body_types_update_bumps_content_version AFTER UPDATE ON body_types
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER body_types_delete_bumps_content_version AFTER DELETE ON body_types
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;

CREATE TABLE cars_v16 (
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
    -- NULL: not stated (a feed that names no drive); the car page hides it.
    drivetrain TEXT CHECK (drivetrain IS NULL OR drivetrain IN ('front', 'rear', 'all')),
    -- 'gas': LPG or CNG, as Avito's "Газ".
    fuel_type TEXT NOT NULL CHECK (fuel_type IN ('gasoline', 'diesel', 'hybrid', 'electric', 'gas')),
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
    updated_at TEXT NOT NULL,
    credit_discount_kopecks INTEGER
        CHECK (credit_discount_kopecks IS NULL OR credit_discount_kopecks >= 0),
    tradein_discount_kopecks INTEGER
        CHECK (tradein_discount_kopecks IS NULL OR tradein_discount_kopecks >= 0),
    insurance_discount_kopecks INTEGER
        CHECK (insurance_discount_kopecks IS NULL OR insurance_discount_kopecks >= 0),
    max_discount_kopecks INTEGER
        CHECK (max_discount_kopecks IS NULL OR max_discount_kopecks >= 0),
    -- The car's own complectation ("Executive"), its generation ("III") and
    -- doors, as feeds state them.
    trim TEXT CHECK (trim IS NULL OR length(trim) BETWEEN 1 AND 100),
    generation TEXT CHECK (generation IS NULL OR length(generation) BETWEEN 1 AND 50),
    doors INTEGER CHECK (doors IS NULL OR doors BETWEEN 2 AND 5)
);
INSERT INTO cars_v16 (rowid, id, brand_id, name, slug, model, year, price_kopecks,
    monthly_payment_kopecks, daily_price_kopecks, status, body_type, transmission, drivetrain,
    fuel_type, engine, mileage, in_stock, featured, trim_levels, published, vin, color,
    external_id, created_at, updated_at, credit_discount_kopecks, tradein_discount_kopecks,
    insurance_discount_kopecks, max_discount_kopecks)
SELECT rowid, id, brand_id, name, slug, model, year, price_kopecks,
    monthly_payment_kopecks, daily_price_kopecks, status, body_type, transmission, drivetrain,
    fuel_type, engine, mileage, in_stock, featured, trim_levels, published, vin, color,
    external_id, created_at, updated_at, credit_discount_kopecks, tradein_discount_kopecks,
    insurance_discount_kopecks, max_discount_kopecks
FROM cars;
DROP TABLE cars;
ALTER TABLE cars_v16 RENAME TO cars;
CREATE INDEX cars_public_order ON cars (published, created_at DESC);
CREATE INDEX cars_filter ON cars (published, status, body_type, price_kopecks, created_at);
CREATE INDEX cars_body_filter ON cars (published, body_type, price_kopecks, created_at);
CREATE INDEX cars_brand_filter ON cars (brand_id, published, status, price_kopecks, created_at);
CREATE INDEX cars_newest_status_body ON cars (published, status, body_type, created_at, price_kopecks);
CREATE INDEX cars_newest_status ON cars (published, status, created_at, price_kopecks);
CREATE INDEX cars_newest_body ON cars (published, body_type, created_at, price_kopecks);
CREATE INDEX cars_model ON cars (published, model, created_at);
CREATE TRIGGER cars_insert_bumps_content_version AFTER INSERT ON cars
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER cars_update_bumps_content_version AFTER UPDATE ON cars
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER cars_delete_bumps_content_version AFTER DELETE ON cars
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;

-- What the feed last wrote into each field of an imported car (JSON object
-- of the API's field names): a re-import writes a field only when the feed's
-- value changed since, so what staff set or completed stays.
ALTER TABLE imported_cars ADD COLUMN feed_values TEXT NOT NULL DEFAULT '{}'
    CHECK (json_valid(feed_values));
