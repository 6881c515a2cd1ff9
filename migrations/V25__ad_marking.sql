-- Own advertising marked (38-FZ art. 18.1; docs/advertising.md): an ad's
-- token from the advertising data operator (erid) and its advertiser, on
-- promotions, partner banks' offers and the page banners.
ALTER TABLE promotions ADD COLUMN ad_erid TEXT NOT NULL DEFAULT ''
    CHECK (length(ad_erid) <= 100);
ALTER TABLE promotions ADD COLUMN ad_advertiser TEXT NOT NULL DEFAULT ''
    CHECK (length(ad_advertiser) <= 255);
ALTER TABLE partner_banks ADD COLUMN ad_erid TEXT NOT NULL DEFAULT ''
    CHECK (length(ad_erid) <= 100);
ALTER TABLE partner_banks ADD COLUMN ad_advertiser TEXT NOT NULL DEFAULT ''
    CHECK (length(ad_advertiser) <= 255);
-- {"homeBanner": {"erid": "…", "advertiser": "…"}, …}: one mark per page
-- banner (its phone picture shares it).
ALTER TABLE settings ADD COLUMN banner_ads TEXT NOT NULL DEFAULT '{}'
    CHECK (json_valid(banner_ads) AND length(banner_ads) <= 10000);
