-- Several salons in one install (issue 46; docs/salons.md).
--
-- The main salon is the settings' own (its name, phones, address, hours and
-- operator stay in `settings`), id 1 wherever a salon is named: a
-- single-salon install has nothing new to fill and answers as before. Each
-- further salon is a row of `salons`, with its own facts; its operator
-- columns left empty mean the main salon's operator (the same company).
CREATE TABLE salons (
    id INTEGER PRIMARY KEY CHECK (id > 1),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
    address TEXT NOT NULL DEFAULT '' CHECK (length(address) <= 255),
    full_address TEXT NOT NULL DEFAULT '' CHECK (length(full_address) <= 500),
    latitude REAL CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
    longitude REAL CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
    phone TEXT NOT NULL DEFAULT '' CHECK (length(phone) <= 50),
    phone_secondary TEXT NOT NULL DEFAULT '' CHECK (length(phone_secondary) <= 50),
    -- The CSS class of this salon's phones for the call-tracking script.
    phone_class TEXT NOT NULL DEFAULT '' CHECK (length(phone_class) <= 100),
    email TEXT NOT NULL DEFAULT '' CHECK (length(email) <= 255),
    work_schedule TEXT NOT NULL,
    notification_email TEXT NOT NULL DEFAULT '' CHECK (length(notification_email) <= 255),
    telegram_chat_id TEXT NOT NULL DEFAULT '' CHECK (length(telegram_chat_id) <= 100),
    -- {"trade_in": {"email": "...", "telegramChatId": "..."}, ...}
    lead_recipients TEXT NOT NULL DEFAULT '{}',
    operator_name TEXT NOT NULL DEFAULT '' CHECK (length(operator_name) <= 500),
    operator_inn TEXT NOT NULL DEFAULT '' CHECK (length(operator_inn) <= 12),
    operator_ogrn TEXT NOT NULL DEFAULT '' CHECK (length(operator_ogrn) <= 15),
    operator_address TEXT NOT NULL DEFAULT '' CHECK (length(operator_address) <= 500),
    -- The consent ledger's version of this salon's texts (its own operator).
    consent_version INTEGER NOT NULL DEFAULT 0,
    position INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- The main salon's facts a salon has beyond what settings held.
ALTER TABLE settings ADD COLUMN latitude REAL
    CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90);
ALTER TABLE settings ADD COLUMN longitude REAL
    CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180);
ALTER TABLE settings ADD COLUMN telegram_chat_id TEXT NOT NULL DEFAULT ''
    CHECK (length(telegram_chat_id) <= 100);
ALTER TABLE settings ADD COLUMN lead_recipients TEXT NOT NULL DEFAULT '{}';

-- Where a car stands; NULL: the main salon.
ALTER TABLE cars ADD COLUMN salon_id INTEGER;
CREATE INDEX cars_salon ON cars (salon_id) WHERE salon_id IS NOT NULL;

-- The salon a lead belongs to; NULL: the main salon.
ALTER TABLE leads ADD COLUMN salon_id INTEGER;
CREATE INDEX leads_salon ON leads (salon_id, created_at DESC) WHERE salon_id IS NOT NULL;

-- The salons a staff member works in (1: the main); none: every salon.
CREATE TABLE staff_salons (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    salon_id INTEGER NOT NULL,
    PRIMARY KEY (user_id, salon_id)
) WITHOUT ROWID;

-- The salon an import feed's cars stand in; NULL: the main salon.
ALTER TABLE import_feeds ADD COLUMN salon_id INTEGER;

-- Public answers show the salons (docs/cache.md): a change moves the
-- content version.
CREATE TRIGGER salons_insert_bumps_content_version AFTER INSERT ON salons
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER salons_update_bumps_content_version AFTER UPDATE ON salons
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER salons_delete_bumps_content_version AFTER DELETE ON salons
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
