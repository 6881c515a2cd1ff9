-- The response times count the calls of their weeks by day (issue 45,
-- docs/response-times.md "Calls"): the newest-first index carries whether
-- each call was taken, so the count reads the index alone.
DROP INDEX calls_newest;
CREATE INDEX calls_newest ON calls (at DESC, answered);
