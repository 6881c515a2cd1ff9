-- The outbox worker claims due rows channel by channel
-- (docs/notifications.md): with the channel in the index, a claim or a
-- look for the next due row reads only that channel's rows, however many
-- deliveries of another channel wait (a mail server down for hours).
DROP INDEX outbox_due;
CREATE INDEX outbox_due ON outbox (status, channel, next_attempt_at);
