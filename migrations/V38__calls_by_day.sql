-- The response times (issue 45, docs/response-times.md "Calls") read a
-- period's leads and count its calls, each from an index alone:
-- the newest-first calls index carries whether each call was taken, and the
-- leads' arrival index carries the id, type and assignee the figures need
-- (it still orders the leads list newest first).
DROP INDEX calls_newest;
CREATE INDEX calls_newest ON calls (at DESC, answered);
DROP INDEX leads_created;
CREATE INDEX leads_created ON leads (created_at DESC, id, type, assignee_id);
