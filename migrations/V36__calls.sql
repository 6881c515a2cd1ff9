-- The marketplaces wired in (issue 44 items 1, 2, 3, 5; docs/marketplaces.md
-- "Jobs and checks", docs/leads.md "Calls as leads").
--
-- A call on a substitute number is a lead. One row per call, ever: the
-- provider's call id is the key, so a poll that sees a call again does
-- nothing. `provider` is the marketplace today ('avito', 'autoru'); the
-- call-tracking services of issue 45 add their own names (no CHECK list, so
-- no rebuild then). The car is found by the ad the call was about (Auto.ru
-- also by the VIN); the lead is the one the call made or joined.
CREATE TABLE calls (
    provider TEXT NOT NULL CHECK (length(provider) BETWEEN 1 AND 40),
    call_id TEXT NOT NULL CHECK (length(call_id) BETWEEN 1 AND 200),
    at TEXT NOT NULL,
    -- E.164 (+7…); NULL when the provider hides it.
    caller TEXT CHECK (caller IS NULL OR length(caller) <= 50),
    called TEXT CHECK (called IS NULL OR length(called) <= 50),
    talk_seconds INTEGER NOT NULL DEFAULT 0 CHECK (talk_seconds >= 0),
    wait_seconds INTEGER NOT NULL DEFAULT 0 CHECK (wait_seconds >= 0),
    answered INTEGER NOT NULL CHECK (answered IN (0, 1)),
    -- The provider's id of the ad the call was about.
    market_id TEXT,
    car_id TEXT REFERENCES cars (id) ON DELETE SET NULL,
    lead_id TEXT REFERENCES leads (id) ON DELETE SET NULL,
    -- A missed call: call back by then (the response threshold in working
    -- minutes after the call).
    call_back_by TEXT,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (provider, call_id)
) WITHOUT ROWID;
CREATE INDEX calls_lead ON calls (lead_id) WHERE lead_id IS NOT NULL;
CREATE INDEX calls_at ON calls (provider, at);

-- How far each marketplace job got: for `stats`, the last Moscow day whose
-- figures were fully recorded ("YYYY-MM-DD"; the next run starts the day
-- after); for `calls`, the time of the newest call seen (RFC 3339). A run
-- that fails part-way leaves it where it was.
ALTER TABLE marketplace_runs ADD COLUMN through TEXT;

-- leads: the type list gains marketplace_call («Звонок с площадки»), so the
-- table is rebuilt the SQLite way (as V11 did): create, copy, drop, rename,
-- index (with the rowids). Foreign keys are off while migrating (src/db/migrate.rs), so
-- outbox, lead_comments and calls keep pointing at the same ids.
CREATE TABLE leads_v36 (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL CHECK (type IN ('auto_credit', 'trade_in', 'auto_selection', 'lease_booking', 'contact_form', 'test_drive', 'marketplace_call')),
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
    -- 152-FZ: consent to personal data processing (a form's: required), with
    -- the version of the consent text, the time and the visitor's address. A
    -- marketplace call has none (version 0, no address): the person called
    -- the dealer about a car (docs/leads.md, "Calls as leads").
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
    down_payment_kopecks INTEGER CHECK (down_payment_kopecks BETWEEN 0 AND 999999999999),
    -- V14: when the response reminder was queued
    reminded_at TEXT,
    -- V21: who answers it
    assignee_id TEXT REFERENCES users (id) ON DELETE SET NULL,
    assigned_at TEXT,
    -- V30: the e-mail's comparison key
    email_key TEXT
);
INSERT INTO leads_v36 (rowid, id, type, status, name, phone, email, message, desired_amount_kopecks,
    monthly_income_kopecks, car_brand, car_model, car_year, car_mileage, car_condition,
    budget_kopecks, preferred_brand, body_type, transmission, fuel_types, source_url, car_id,
    car_info, car_price, car_status, consent_version, consent_at, consent_ip,
    advertising_consent, utm_source, utm_medium, utm_campaign, utm_term, utm_content,
    analytics_client_id, created_at, updated_at, amocrm_lead_id, preferred_date, preferred_time,
    term_months, down_payment_kopecks, reminded_at, assignee_id, assigned_at, email_key)
SELECT rowid, id, type, status, name, phone, email, message, desired_amount_kopecks,
    monthly_income_kopecks, car_brand, car_model, car_year, car_mileage, car_condition,
    budget_kopecks, preferred_brand, body_type, transmission, fuel_types, source_url, car_id,
    car_info, car_price, car_status, consent_version, consent_at, consent_ip,
    advertising_consent, utm_source, utm_medium, utm_campaign, utm_term, utm_content,
    analytics_client_id, created_at, updated_at, amocrm_lead_id, preferred_date, preferred_time,
    term_months, down_payment_kopecks, reminded_at, assignee_id, assigned_at, email_key
FROM leads;
DROP TABLE leads;
ALTER TABLE leads_v36 RENAME TO leads;
CREATE INDEX leads_created ON leads (created_at DESC);
CREATE INDEX leads_status ON leads (status, created_at DESC);
CREATE INDEX leads_type ON leads (type, created_at DESC);
CREATE INDEX leads_assignee ON leads (assignee_id, created_at);
CREATE INDEX leads_email_key ON leads (email_key) WHERE email_key IS NOT NULL;
-- An open lead of a caller is found by the phone.
CREATE INDEX leads_phone ON leads (phone, created_at DESC);

-- A lead deleted or erased takes the caller's and the called number with it
-- from its calls; the call ids stay, so the calls are never made leads again.
CREATE TRIGGER calls_forget_numbers_with_lead BEFORE DELETE ON leads
BEGIN
    UPDATE calls SET caller = NULL, called = NULL WHERE lead_id = old.id;
END;

-- An erased lead (its phone emptied, `person_data::erase`) empties its calls'
-- numbers too.
CREATE TRIGGER calls_forget_numbers_with_erased_lead AFTER UPDATE OF phone ON leads
WHEN new.phone = ''
BEGIN
    UPDATE calls SET caller = NULL, called = NULL WHERE lead_id = new.id;
END;
