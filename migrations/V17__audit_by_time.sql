-- The audit trail is read newest first by the time of the change, not by
-- entry number: an entry may be written later than the moment it records
-- (the demo's history, a lead's status set from a mail link). Ties keep the
-- order of writing.
CREATE INDEX audit_log_at ON audit_log (at, id);
CREATE INDEX audit_log_object_at ON audit_log (object_type, object_id, at, id);
