-- Personal data by the law (docs/personal-data.md).

-- The operator of personal data, named: the dealer's legal name, ИНН, ОГРН
-- and legal address; the consent texts and the privacy policy take them
-- through placeholders.
ALTER TABLE settings ADD COLUMN operator_name TEXT NOT NULL DEFAULT ''
    CHECK (length(operator_name) <= 500);
ALTER TABLE settings ADD COLUMN operator_inn TEXT NOT NULL DEFAULT ''
    CHECK (length(operator_inn) <= 12);
ALTER TABLE settings ADD COLUMN operator_ogrn TEXT NOT NULL DEFAULT ''
    CHECK (length(operator_ogrn) <= 15);
ALTER TABLE settings ADD COLUMN operator_address TEXT NOT NULL DEFAULT ''
    CHECK (length(operator_address) <= 500);

-- Google Analytics sends visitors' data abroad: off until the owner turns
-- it on knowingly (an id alone no longer starts it).
ALTER TABLE settings ADD COLUMN google_analytics_enabled INTEGER NOT NULL DEFAULT 0
    CHECK (google_analytics_enabled IN (0, 1));

-- The consent ledger's texts: what each consent version said, as shown to
-- the visitor (placeholders substituted). A lead or a subscription records
-- its version; this says what that version was.
CREATE TABLE consent_documents (
    version INTEGER PRIMARY KEY,
    consent_text TEXT NOT NULL,
    privacy_policy TEXT NOT NULL,
    recorded_at TEXT NOT NULL
);
