-- Saved searches with alerts (docs/saved-searches.md): a visitor follows a
-- catalogue filter by e-mail, confirms the address by a link (double
-- opt-in), then gets at most one mail a day about new matching cars and
-- price drops. No public answer shows these tables: no content-version
-- triggers (V4).

-- One row per distinct normalised filter. `filter_key` names it
-- ("status=new&brandId=…&bodyType=&maxPrice=3000000"); a NULL column does
-- not filter. brand_id has no foreign key: a brand someone follows may still
-- be deleted, and the search then matches nothing.
CREATE TABLE saved_searches (
    id TEXT PRIMARY KEY,
    filter_key TEXT NOT NULL UNIQUE CHECK (length(filter_key) <= 300),
    status TEXT CHECK (status IS NULL OR status IN ('new', 'used', 'lease')),
    brand_id TEXT CHECK (brand_id IS NULL OR length(brand_id) BETWEEN 1 AND 64),
    body_type TEXT CHECK (body_type IS NULL OR body_type IN ('sedan', 'hatchback', 'crossover', 'wagon', 'coupe', 'pickup')),
    -- whole rubles as kopecks
    max_price_kopecks INTEGER CHECK (max_price_kopecks IS NULL OR max_price_kopecks BETWEEN 0 AND 100000000000),
    -- "Новые · Haval · Кроссовер · до 3 000 000 ₽", made by the server
    description TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 500),
    created_at TEXT NOT NULL
);

-- One address following one search. Pending until confirmed_at is set;
-- unsubscribed_at ends it (a new request for the same address and filter
-- starts it again, pending, with a new consent).
CREATE TABLE saved_search_subscriptions (
    id TEXT PRIMARY KEY,
    search_id TEXT NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
    -- trimmed and lower-cased
    email TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 255),
    -- the catalogue page the visitor asked on
    page_url TEXT NOT NULL CHECK (length(page_url) BETWEEN 1 AND 2000),
    -- 152-FZ: consent to personal data processing, as leads keep it: the
    -- version of the consent text, the time and the visitor's address.
    consent_version INTEGER NOT NULL,
    consent_at TEXT NOT NULL,
    consent_ip TEXT NOT NULL CHECK (length(consent_ip) <= 64),
    -- 38-FZ art. 18: consent to advertising mail, separate, with its time.
    advertising_consent INTEGER NOT NULL CHECK (advertising_consent IN (0, 1)),
    advertising_consent_at TEXT,
    -- the last confirmation mail queued (a repeat within minutes sends none)
    confirm_sent_at TEXT,
    -- double opt-in: when and from where the link was followed
    confirmed_at TEXT,
    confirm_ip TEXT CHECK (confirm_ip IS NULL OR length(confirm_ip) <= 64),
    unsubscribed_at TEXT,
    -- the last alert mail that listed this search
    last_alert_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (email, search_id)
);
CREATE INDEX saved_search_subscriptions_search ON saved_search_subscriptions (search_id);
CREATE INDEX saved_search_subscriptions_confirmed ON saved_search_subscriptions (confirmed_at, unsubscribed_at);

-- The links mailed to a visitor. Only the SHA-256 of a token is kept, so a
-- leaked database neither confirms nor unsubscribes anyone. `confirm` and
-- `unsubscribe` name one subscription; `unsubscribe_all` every search of
-- `email` (the alert mail's footer and its List-Unsubscribe header).
CREATE TABLE saved_search_tokens (
    token_hash TEXT PRIMARY KEY,
    purpose TEXT NOT NULL CHECK (purpose IN ('confirm', 'unsubscribe', 'unsubscribe_all')),
    subscription_id TEXT REFERENCES saved_search_subscriptions (id) ON DELETE CASCADE,
    email TEXT NOT NULL CHECK (length(email) <= 255),
    created_at TEXT NOT NULL,
    CHECK ((purpose = 'unsubscribe_all') = (subscription_id IS NULL))
);
CREATE INDEX saved_search_tokens_subscription ON saved_search_tokens (subscription_id);

-- What a subscriber was last told (or saw when confirming): each matching
-- car and its price then. A published matching car missing here is new; a
-- price below the one here is a drop.
CREATE TABLE saved_search_seen (
    subscription_id TEXT NOT NULL REFERENCES saved_search_subscriptions (id) ON DELETE CASCADE,
    car_id TEXT NOT NULL REFERENCES cars (id) ON DELETE CASCADE,
    price_kopecks INTEGER NOT NULL,
    PRIMARY KEY (subscription_id, car_id)
) WITHOUT ROWID;
CREATE INDEX saved_search_seen_car ON saved_search_seen (car_id);
