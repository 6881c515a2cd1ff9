-- The whole catalogue, requests and admin data of one dealership.
-- Conventions: ids are uuid text; timestamps are RFC 3339 UTC text
-- ("2026-11-22T17:20:00.000Z") so they sort as text; money is INTEGER kopecks;
-- enums are CHECK constraints; text lengths follow spec section 3.

-- One row of business settings, edited in the admin.
CREATE TABLE settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    salon_name TEXT NOT NULL CHECK (length(salon_name) <= 255),
    phone TEXT NOT NULL CHECK (length(phone) <= 50),
    phone_secondary TEXT NOT NULL DEFAULT '' CHECK (length(phone_secondary) <= 50),
    address TEXT NOT NULL CHECK (length(address) <= 255),
    full_address TEXT NOT NULL DEFAULT '' CHECK (length(full_address) <= 500),
    email TEXT NOT NULL DEFAULT '' CHECK (length(email) <= 255),
    working_hours TEXT NOT NULL DEFAULT '' CHECK (length(working_hours) <= 1000),
    hero_title TEXT NOT NULL DEFAULT '' CHECK (length(hero_title) <= 255),
    hero_subtitle TEXT NOT NULL DEFAULT '' CHECK (length(hero_subtitle) <= 500),
    favicon TEXT NOT NULL DEFAULT '',
    google_analytics_id TEXT NOT NULL DEFAULT '' CHECK (length(google_analytics_id) <= 50),
    yandex_metrika_id TEXT NOT NULL DEFAULT '' CHECK (length(yandex_metrika_id) <= 50),
    notification_email TEXT NOT NULL DEFAULT '' CHECK (length(notification_email) <= 255),
    from_email TEXT NOT NULL DEFAULT '' CHECK (length(from_email) <= 255),
    email_notifications_enabled INTEGER NOT NULL DEFAULT 1 CHECK (email_notifications_enabled IN (0, 1)),
    -- Legal entity shown in the footer (name, INN, OGRN, address).
    legal_entity TEXT NOT NULL DEFAULT '' CHECK (length(legal_entity) <= 1000),
    -- 152-FZ consent text and privacy policy, each a public page; the version
    -- is stored with every lead's consent and changes when the text does.
    consent_text TEXT NOT NULL DEFAULT '',
    consent_version INTEGER NOT NULL DEFAULT 1,
    privacy_policy TEXT NOT NULL DEFAULT '',
    -- Page banners: image URLs, desktop and mobile, six pages.
    home_banner TEXT NOT NULL DEFAULT '',
    home_banner_mobile TEXT NOT NULL DEFAULT '',
    new_cars_banner TEXT NOT NULL DEFAULT '',
    new_cars_banner_mobile TEXT NOT NULL DEFAULT '',
    used_cars_banner TEXT NOT NULL DEFAULT '',
    used_cars_banner_mobile TEXT NOT NULL DEFAULT '',
    trade_in_banner TEXT NOT NULL DEFAULT '',
    trade_in_banner_mobile TEXT NOT NULL DEFAULT '',
    auto_credit_banner TEXT NOT NULL DEFAULT '',
    auto_credit_banner_mobile TEXT NOT NULL DEFAULT '',
    auto_selection_banner TEXT NOT NULL DEFAULT '',
    auto_selection_banner_mobile TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL
);

CREATE TABLE brands (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    slug TEXT NOT NULL UNIQUE CHECK (length(slug) BETWEEN 1 AND 100),
    logo TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '' CHECK (length(description) <= 5000),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE cars (
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
    body_type TEXT NOT NULL CHECK (body_type IN ('sedan', 'hatchback', 'crossover', 'wagon', 'coupe', 'pickup')),
    transmission TEXT NOT NULL CHECK (transmission IN ('manual', 'automatic', 'cvt', 'robotic')),
    drivetrain TEXT NOT NULL CHECK (drivetrain IN ('front', 'rear', 'all')),
    fuel_type TEXT NOT NULL CHECK (fuel_type IN ('gasoline', 'diesel', 'hybrid', 'electric')),
    engine TEXT NOT NULL CHECK (length(engine) BETWEEN 1 AND 100),
    mileage INTEGER NOT NULL DEFAULT 0 CHECK (mileage >= 0),
    main_image TEXT NOT NULL DEFAULT '',
    -- JSON array of image URLs, at most 6
    images TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(images) AND json_array_length(images) <= 6),
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
CREATE INDEX cars_public_order ON cars (published, created_at DESC);
CREATE INDEX cars_status_price ON cars (published, status, price_kopecks);
CREATE INDEX cars_brand ON cars (brand_id, published);
CREATE INDEX cars_body_type ON cars (body_type, published);

CREATE TABLE reviews (
    id TEXT PRIMARY KEY,
    customer_name TEXT NOT NULL CHECK (length(customer_name) BETWEEN 1 AND 255),
    car_id TEXT REFERENCES cars (id) ON DELETE SET NULL,
    car_model TEXT CHECK (car_model IS NULL OR length(car_model) <= 255),
    rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 5000),
    photo TEXT,
    approved INTEGER NOT NULL DEFAULT 0 CHECK (approved IN (0, 1)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX reviews_approved ON reviews (approved, created_at DESC);

CREATE TABLE promotions (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 255),
    description TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 5000),
    image TEXT NOT NULL DEFAULT '',
    discount TEXT NOT NULL DEFAULT '' CHECK (length(discount) <= 100),
    valid_until TEXT NOT NULL DEFAULT '' CHECK (length(valid_until) <= 100),
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE partner_banks (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
    logo TEXT NOT NULL DEFAULT '',
    requirements TEXT NOT NULL DEFAULT '' CHECK (length(requirements) <= 5000),
    -- comma-separated, shown as chips
    advantages TEXT NOT NULL DEFAULT '' CHECK (length(advantages) <= 5000),
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE leads (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL CHECK (type IN ('auto_credit', 'trade_in', 'auto_selection', 'lease_booking', 'contact_form')),
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
    updated_at TEXT NOT NULL
);
CREATE INDEX leads_created ON leads (created_at DESC);
CREATE INDEX leads_status ON leads (status, created_at DESC);
CREATE INDEX leads_type ON leads (type, created_at DESC);

-- Labels and banners of the six body types; defaults from the spec.
CREATE TABLE body_types (
    id TEXT PRIMARY KEY,
    body_type TEXT NOT NULL UNIQUE CHECK (body_type IN ('sedan', 'hatchback', 'crossover', 'wagon', 'coupe', 'pickup')),
    label_plural TEXT NOT NULL CHECK (length(label_plural) BETWEEN 1 AND 100),
    label_single TEXT NOT NULL CHECK (length(label_single) BETWEEN 1 AND 100),
    sort_order INTEGER NOT NULL,
    image_url TEXT NOT NULL DEFAULT '',
    image_url_mobile TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
INSERT INTO body_types (id, body_type, label_plural, label_single, sort_order, created_at, updated_at) VALUES
    ('bt-sedan', 'sedan', 'Седаны', 'Седан', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
    ('bt-hatchback', 'hatchback', 'Хэтчбеки', 'Хэтчбек', 2, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
    ('bt-crossover', 'crossover', 'Кроссоверы', 'Кроссовер', 3, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
    ('bt-wagon', 'wagon', 'Универсалы', 'Универсал', 4, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
    ('bt-coupe', 'coupe', 'Внедорожники', 'Внедорожник', 5, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
    ('bt-pickup', 'pickup', 'Пикапы', 'Пикап', 6, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL UNIQUE CHECK (length(username) BETWEEN 1 AND 50),
    -- argon2id PHC string
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE login_attempts (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL CHECK (length(username) <= 255),
    attempted_at TEXT NOT NULL,
    successful INTEGER NOT NULL CHECK (successful IN (0, 1)),
    ip_address TEXT NOT NULL CHECK (length(ip_address) <= 64)
);
CREATE INDEX login_attempts_username ON login_attempts (username, attempted_at);
CREATE INDEX login_attempts_ip ON login_attempts (ip_address, attempted_at);

-- Admin sessions; the cookie carries a random token, the table its SHA-256.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,
    ip_address TEXT NOT NULL DEFAULT '',
    user_agent TEXT NOT NULL DEFAULT '' CHECK (length(user_agent) <= 500),
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Notifications to send after a lead is stored (e-mail, amoCRM, Telegram),
-- retried with back-off until delivered.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    channel TEXT NOT NULL CHECK (channel IN ('email', 'amocrm', 'telegram')),
    lead_id TEXT REFERENCES leads (id) ON DELETE SET NULL,
    payload TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT,
    created_at TEXT NOT NULL,
    sent_at TEXT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);

-- Stored images: one row per uploaded picture; its resized WebP variants
-- live on disk under media/ named by this content hash.
CREATE TABLE media (
    hash TEXT PRIMARY KEY,
    source_mime TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
