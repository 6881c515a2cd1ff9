-- What an outbox row delivers (docs/notifications.md): `lead` (a new lead to
-- the staff, as before), `reminder` (a lead still new past the response
-- threshold, announced once more to the staff), `search_confirm` and
-- `search_alert` (e-mails to a visitor who follows a saved search; the row's
-- payload names the subscription, lead_id is NULL).
ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'lead'
    CHECK (kind IN ('lead', 'reminder', 'search_confirm', 'search_alert'));
