-- Self-checks (docs/self-checks.md) keep their last result until the
-- content version moves. Which cars the last applied feed import found gone
-- is one of the checks, so applying an import moves the version even when
-- it changed no car (a car it had unpublished and an admin published again
-- may be back in the feed).
CREATE TRIGGER import_runs_apply_bumps_content_version
AFTER UPDATE OF status ON import_runs
WHEN NEW.status = 'applied' AND OLD.status <> 'applied'
BEGIN
    UPDATE content_version SET version = version + 1 WHERE id = 1;
END;
