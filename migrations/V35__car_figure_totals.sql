-- Each car's fate and figures shown in the admin (issue 44; docs/marketplaces.md
-- "What the admin shows").
--
-- A car's views, contacts and calls over the last 30 days, all channels, kept
-- beside `car_channel_days` so that the admin cars list sorts by them without
-- adding up 90 rows per car on every request: refreshed for the cars whose
-- days were recorded (a marketplace's figures, the site's views each minute)
-- and for every car by the nightly job (the window moves by a day). Every car
-- has a row (the trigger below, and the rows of the cars already there), so a
-- list sorted by contacts walks this table's index and stops after its page.
-- Not public: no content-version trigger.
CREATE TABLE car_figure_totals (
    car_id TEXT PRIMARY KEY REFERENCES cars (id) ON DELETE CASCADE,
    views30 INTEGER NOT NULL DEFAULT 0,
    contacts30 INTEGER NOT NULL DEFAULT 0,
    calls30 INTEGER NOT NULL DEFAULT 0,
    -- The Moscow day the 30 days end on (refreshed), NULL before the first.
    through_day TEXT
) WITHOUT ROWID;
CREATE INDEX car_figure_totals_views ON car_figure_totals (views30 DESC);
CREATE INDEX car_figure_totals_contacts ON car_figure_totals (contacts30 DESC);

INSERT INTO car_figure_totals (car_id) SELECT id FROM cars;

CREATE TRIGGER car_figure_totals_for_new_car AFTER INSERT ON cars
BEGIN
    INSERT OR IGNORE INTO car_figure_totals (car_id) VALUES (new.id);
END;

-- The refused ads, newest report first, without reading every ad (the list,
-- the self-check, and the mark the held self-checks are kept by).
CREATE INDEX marketplace_ads_refused ON marketplace_ads (reported_at DESC)
    WHERE status = 'refused';

-- "Cars nobody calls about" (docs/admin.md): over the last `quiet_car_days`
-- days, at least `quiet_car_views` views and no contact or call.
ALTER TABLE settings ADD COLUMN quiet_car_days INTEGER NOT NULL DEFAULT 14
    CHECK (quiet_car_days BETWEEN 3 AND 90);
ALTER TABLE settings ADD COLUMN quiet_car_views INTEGER NOT NULL DEFAULT 100
    CHECK (quiet_car_views BETWEEN 1 AND 100000);
