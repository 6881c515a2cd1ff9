-- Calls are leads (issue 45; docs/calls.md, docs/leads.md "Calls as leads").
--
-- The call-tracking services and PBXs (Calltouch, UIS, Mango Office) add
-- their calls to `calls` (V36) under their own provider names, with what
-- they know beyond a marketplace: the whole duration, the recording's link
-- (a link only, never the audio), the source and UTM of the visit, the
-- analytics client id and the page. A missed call is a lead of its own type
-- (missed_call, «Пропущенный звонок»), an answered call from an unknown
-- number one of type phone_call («Звонок»), and the site's callback form one
-- of type callback («Перезвоните мне») with what the PBX made of it.
ALTER TABLE calls ADD COLUMN duration_seconds INTEGER NOT NULL DEFAULT 0 CHECK (duration_seconds >= 0);
ALTER TABLE calls ADD COLUMN record_url TEXT CHECK (record_url IS NULL OR length(record_url) <= 1000);
ALTER TABLE calls ADD COLUMN source TEXT CHECK (source IS NULL OR length(source) <= 255);
ALTER TABLE calls ADD COLUMN utm_source TEXT CHECK (utm_source IS NULL OR length(utm_source) <= 255);
ALTER TABLE calls ADD COLUMN utm_medium TEXT CHECK (utm_medium IS NULL OR length(utm_medium) <= 255);
ALTER TABLE calls ADD COLUMN utm_campaign TEXT CHECK (utm_campaign IS NULL OR length(utm_campaign) <= 255);
ALTER TABLE calls ADD COLUMN utm_term TEXT CHECK (utm_term IS NULL OR length(utm_term) <= 255);
ALTER TABLE calls ADD COLUMN utm_content TEXT CHECK (utm_content IS NULL OR length(utm_content) <= 255);
ALTER TABLE calls ADD COLUMN client_id TEXT CHECK (client_id IS NULL OR length(client_id) <= 100);
ALTER TABLE calls ADD COLUMN page_url TEXT CHECK (page_url IS NULL OR length(page_url) <= 1000);
-- A caller's calls, newest first (a person's history, erasure by number).
CREATE INDEX calls_caller ON calls (caller, at DESC) WHERE caller IS NOT NULL;
-- The newest calls of every provider (the inbox's call list, the figures).
CREATE INDEX calls_newest ON calls (at DESC);

-- The number a callback rings a staff member on: a Mango extension (digits,
-- up to 5) or a phone in E.164 (UIS rings a phone). Empty: the PBX section's
-- default.
ALTER TABLE users ADD COLUMN pbx_number TEXT NOT NULL DEFAULT '' CHECK (length(pbx_number) <= 20);

-- How far each call provider's poll got (the newest day fully read),
-- when it last heard from the provider (a webhook or a poll with calls), so
-- a self-check can say when a configured provider has sent nothing for a
-- working day.
CREATE TABLE call_provider_runs (
    provider TEXT PRIMARY KEY CHECK (length(provider) BETWEEN 1 AND 40),
    started_at TEXT,
    finished_at TEXT,
    ok INTEGER,
    message TEXT,
    through TEXT,
    last_heard_at TEXT,
    -- When the server first ran with the provider set up: its silence is
    -- counted from here until it is first heard from.
    configured_at TEXT
) WITHOUT ROWID;

CREATE TABLE leads_v37 (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL CHECK (type IN ('auto_credit', 'trade_in', 'auto_selection', 'lease_booking', 'contact_form', 'test_drive', 'marketplace_call', 'missed_call', 'phone_call', 'callback')),
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
    email_key TEXT,
    -- V37: a callback request («Перезвоните мне»): what the PBX was asked
    -- and answered (calling: asked, waiting; rung: the PBX took the command;
    -- failed: it refused or is unreachable, the detail says why; out_of_hours:
    -- the salon was closed, it calls at opening; no_pbx: none is set up).
    callback_state TEXT CHECK (callback_state IS NULL OR callback_state IN ('calling', 'rung', 'failed', 'out_of_hours', 'no_pbx')),
    callback_detail TEXT CHECK (callback_detail IS NULL OR length(callback_detail) <= 500),
    callback_at TEXT
);
INSERT INTO leads_v37 (rowid, id, type, status, name, phone, email, message, desired_amount_kopecks,
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
ALTER TABLE leads_v37 RENAME TO leads;
CREATE INDEX leads_created ON leads (created_at DESC);
CREATE INDEX leads_status ON leads (status, created_at DESC);
CREATE INDEX leads_type ON leads (type, created_at DESC);
CREATE INDEX leads_assignee ON leads (assignee_id, created_at);
CREATE INDEX leads_email_key ON leads (email_key) WHERE email_key IS NOT NULL;
CREATE INDEX leads_phone ON leads (phone, created_at DESC);


-- A lead deleted or erased takes the caller's data with it from its calls:
-- the numbers, the recording's link, the visit's source, UTM, client id and
-- page. The call ids stay, so the calls are never made leads again.
DROP TRIGGER IF EXISTS calls_forget_numbers_with_lead;
DROP TRIGGER IF EXISTS calls_forget_numbers_with_erased_lead;
CREATE TRIGGER calls_forget_person_with_lead BEFORE DELETE ON leads
BEGIN
    UPDATE calls SET caller = NULL, called = NULL, record_url = NULL, source = NULL,
        utm_source = NULL, utm_medium = NULL, utm_campaign = NULL, utm_term = NULL,
        utm_content = NULL, client_id = NULL, page_url = NULL
    WHERE lead_id = old.id;
END;
CREATE TRIGGER calls_forget_person_with_erased_lead AFTER UPDATE OF phone ON leads
WHEN new.phone = ''
BEGIN
    UPDATE calls SET caller = NULL, called = NULL, record_url = NULL, source = NULL,
        utm_source = NULL, utm_medium = NULL, utm_campaign = NULL, utm_term = NULL,
        utm_content = NULL, client_id = NULL, page_url = NULL
    WHERE lead_id = new.id;
END;
