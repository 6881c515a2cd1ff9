-- The content version: one number that grows with every change to the data
-- the public answers show, whoever makes it (the server, the CLI, a job,
-- sqlite3). The answer cache compares it with the version each kept answer
-- was computed at (docs/cache.md). Tables the public never sees (leads,
-- sessions, login attempts, media, outbox, users) have no trigger, so a new
-- lead or an admin login keeps the cache.
CREATE TABLE content_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO content_version (id, version) VALUES (1, 1);

-- cars
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

-- brands
CREATE TRIGGER brands_insert_bumps_content_version AFTER INSERT ON brands
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER brands_update_bumps_content_version AFTER UPDATE ON brands
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER brands_delete_bumps_content_version AFTER DELETE ON brands
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;

-- reviews
CREATE TRIGGER reviews_insert_bumps_content_version AFTER INSERT ON reviews
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER reviews_update_bumps_content_version AFTER UPDATE ON reviews
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER reviews_delete_bumps_content_version AFTER DELETE ON reviews
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;

-- promotions
CREATE TRIGGER promotions_insert_bumps_content_version AFTER INSERT ON promotions
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER promotions_update_bumps_content_version AFTER UPDATE ON promotions
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER promotions_delete_bumps_content_version AFTER DELETE ON promotions
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;

-- partner_banks
CREATE TRIGGER partner_banks_insert_bumps_content_version AFTER INSERT ON partner_banks
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER partner_banks_update_bumps_content_version AFTER UPDATE ON partner_banks
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER partner_banks_delete_bumps_content_version AFTER DELETE ON partner_banks
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;

-- settings
CREATE TRIGGER settings_insert_bumps_content_version AFTER INSERT ON settings
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER settings_update_bumps_content_version AFTER UPDATE ON settings
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER settings_delete_bumps_content_version AFTER DELETE ON settings
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;

-- body_types
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

-- car_images (a car's pictures are public data, and reordering or an import
-- may change them without touching the car's row)
CREATE TRIGGER car_images_insert_bumps_content_version AFTER INSERT ON car_images
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER car_images_update_bumps_content_version AFTER UPDATE ON car_images
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER car_images_delete_bumps_content_version AFTER DELETE ON car_images
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
