-- Buyers' tools (docs/credit.md, docs/leads.md): credit programmes of the
-- partner banks, the salon's working schedule, test-drive requests and the
-- term and down payment of a credit request from the calculator.

-- Credit programmes of a partner bank. Rates and ПСК are thousandths of a
-- percent a year (5.9 % is 5900) so they compare exactly; dates are Moscow
-- calendar dates "YYYY-MM-DD"; valid_to NULL: open-ended.
CREATE TABLE credit_programs (
    id TEXT PRIMARY KEY,
    -- A bank's programmes go with it.
    bank_id TEXT NOT NULL REFERENCES partner_banks (id) ON DELETE CASCADE,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
    rate_min_milli INTEGER NOT NULL CHECK (rate_min_milli > 0 AND rate_min_milli < 100000),
    rate_max_milli INTEGER NOT NULL CHECK (rate_max_milli >= rate_min_milli AND rate_max_milli < 100000),
    psk_min_milli INTEGER NOT NULL CHECK (psk_min_milli >= rate_min_milli),
    psk_max_milli INTEGER NOT NULL CHECK (psk_max_milli >= psk_min_milli),
    term_min_months INTEGER NOT NULL CHECK (term_min_months BETWEEN 1 AND 360),
    term_max_months INTEGER NOT NULL CHECK (term_max_months BETWEEN term_min_months AND 360),
    min_down_payment_percent INTEGER NOT NULL CHECK (min_down_payment_percent BETWEEN 0 AND 90),
    valid_from TEXT NOT NULL CHECK (length(valid_from) = 10),
    valid_to TEXT CHECK (valid_to IS NULL OR (length(valid_to) = 10 AND valid_to >= valid_from)),
    conditions TEXT NOT NULL DEFAULT '' CHECK (length(conditions) <= 5000),
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX credit_programs_bank ON credit_programs (bank_id);

-- Public answers show the programmes: the content version follows them (V4).
CREATE TRIGGER credit_programs_insert_bumps_content_version AFTER INSERT ON credit_programs
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER credit_programs_update_bumps_content_version AFTER UPDATE ON credit_programs
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER credit_programs_delete_bumps_content_version AFTER DELETE ON credit_programs
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;

-- The salon's opening hours by weekday, Monday first, Moscow time:
-- {"days": [{"open": "09:00", "close": "21:00"} | null, ... 7]}.
ALTER TABLE settings ADD COLUMN work_schedule TEXT NOT NULL
    DEFAULT '{"days":[{"open":"09:00","close":"21:00"},{"open":"09:00","close":"21:00"},{"open":"09:00","close":"21:00"},{"open":"09:00","close":"21:00"},{"open":"09:00","close":"21:00"},{"open":"09:00","close":"21:00"},{"open":"09:00","close":"21:00"}]}'
    CHECK (json_valid(work_schedule));

-- leads: the type list gains test_drive, so the table is rebuilt the SQLite
-- way (as V3 rebuilt cars): create, copy with the rowids, drop, rename. This
-- runs with foreign keys off (src/db/migrate.rs), so outbox.lead_id keeps
-- pointing at the same ids; leads has no triggers (V4: no public answer
-- shows it).
CREATE TABLE leads_v11 (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL CHECK (type IN ('auto_credit', 'trade_in', 'auto_selection', 'lease_booking', 'contact_form', 'test_drive')),
    status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in_progress', 'completed', 'cancelled')),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
    -- normalised +7XXXXXXXXXX
    phone TEXT NOT NULL CHECK (length(phone) <= 50),
    email TEXT CHECK (email IS NULL OR length(email) <= 255),
    message TEXT CHECK (message IS NULL OR length(message) <= 5000),
    -- credit
    desired_amount_kopecks INTEGER CHECK (desired_amount_kopecks BETWEEN 0 AND 999999999999),
    monthly_income_kopecks INTEGER CHECK (monthly_income_kopecks BETWEEN 0 AND 999999999999),
    -- trade-in: the visitor's own car
    car_brand TEXT CHECK (car_brand IS NULL OR length(car_brand) <= 100),
    car_model TEXT CHECK (car_model IS NULL OR length(car_model) <= 100),
    car_year INTEGER CHECK (car_year IS NULL OR car_year BETWEEN 1900 AND 2100),
    car_mileage INTEGER CHECK (car_mileage IS NULL OR car_mileage >= 0),
    car_condition TEXT CHECK (car_condition IS NULL OR length(car_condition) <= 50),
    -- selection
    budget_kopecks INTEGER CHECK (budget_kopecks BETWEEN 0 AND 999999999999),
    preferred_brand TEXT CHECK (preferred_brand IS NULL OR length(preferred_brand) <= 100),
    body_type TEXT CHECK (body_type IS NULL OR length(body_type) <= 50),
    transmission TEXT CHECK (transmission IS NULL OR length(transmission) <= 50),
    fuel_types TEXT CHECK (fuel_types IS NULL OR length(fuel_types) <= 100),
    -- the car the request is about, as the visitor saw it
    source_url TEXT CHECK (source_url IS NULL OR length(source_url) <= 500),
    car_id TEXT REFERENCES cars (id) ON DELETE SET NULL,
    car_info TEXT CHECK (car_info IS NULL OR length(car_info) <= 255),
    car_price TEXT CHECK (car_price IS NULL OR length(car_price) <= 100),
    car_status TEXT CHECK (car_status IS NULL OR length(car_status) <= 50),
    -- 152-FZ: consent to personal data processing (required), with the
    -- version of the consent text, the time and the visitor's address.
    consent_version INTEGER NOT NULL,
    consent_at TEXT NOT NULL,
    consent_ip TEXT NOT NULL CHECK (length(consent_ip) <= 64),
    -- 38-FZ art. 18: optional consent to advertising contact.
    advertising_consent INTEGER NOT NULL DEFAULT 0 CHECK (advertising_consent IN (0, 1)),
    utm_source TEXT CHECK (utm_source IS NULL OR length(utm_source) <= 255),
    utm_medium TEXT CHECK (utm_medium IS NULL OR length(utm_medium) <= 255),
    utm_campaign TEXT CHECK (utm_campaign IS NULL OR length(utm_campaign) <= 255),
    utm_term TEXT CHECK (utm_term IS NULL OR length(utm_term) <= 255),
    utm_content TEXT CHECK (utm_content IS NULL OR length(utm_content) <= 255),
    analytics_client_id TEXT CHECK (analytics_client_id IS NULL OR length(analytics_client_id) <= 100),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- The lead's id in amoCRM once the push succeeded (V7).
    amocrm_lead_id INTEGER,
    -- test drive: the visitor's preferred day ("YYYY-MM-DD") and slot ("HH:MM"), Moscow time
    preferred_date TEXT CHECK (preferred_date IS NULL OR length(preferred_date) = 10),
    preferred_time TEXT CHECK (preferred_time IS NULL OR length(preferred_time) = 5),
    -- credit from the calculator: term and down payment
    term_months INTEGER CHECK (term_months IS NULL OR term_months BETWEEN 1 AND 360),
    down_payment_kopecks INTEGER CHECK (down_payment_kopecks BETWEEN 0 AND 999999999999)
);
INSERT INTO leads_v11 (rowid, id, type, status, name, phone, email, message,
    desired_amount_kopecks, monthly_income_kopecks, car_brand, car_model, car_year, car_mileage,
    car_condition, budget_kopecks, preferred_brand, body_type, transmission, fuel_types,
    source_url, car_id, car_info, car_price, car_status, consent_version, consent_at, consent_ip,
    advertising_consent, utm_source, utm_medium, utm_campaign, utm_term, utm_content,
    analytics_client_id, created_at, updated_at, amocrm_lead_id)
SELECT rowid, id, type, status, name, phone, email, message,
    desired_amount_kopecks, monthly_income_kopecks, car_brand, car_model, car_year, car_mileage,
    car_condition, budget_kopecks, preferred_brand, body_type, transmission, fuel_types,
    source_url, car_id, car_info, car_price, car_status, consent_version, consent_at, consent_ip,
    advertising_consent, utm_source, utm_medium, utm_campaign, utm_term, utm_content,
    analytics_client_id, created_at, updated_at, amocrm_lead_id
FROM leads;
DROP TABLE leads;
ALTER TABLE leads_v11 RENAME TO leads;
-- The indexes of V1, which went with the old table.
CREATE INDEX leads_created ON leads (created_at DESC);
CREATE INDEX leads_status ON leads (status, created_at DESC);
CREATE INDEX leads_type ON leads (type, created_at DESC);
