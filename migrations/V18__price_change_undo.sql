-- The prices a bulk price change replaced, kept beside its audit entry for
-- the one-click undo (docs/admin.md, bulk price change). Undoing deletes
-- the rows, so a change is undone once; a deleted car takes its row along.
CREATE TABLE price_change_items (
    audit_id INTEGER NOT NULL REFERENCES audit_log (id) ON DELETE CASCADE,
    car_id TEXT NOT NULL REFERENCES cars (id) ON DELETE CASCADE,
    before_kopecks INTEGER NOT NULL CHECK (before_kopecks >= 0),
    after_kopecks INTEGER NOT NULL CHECK (after_kopecks >= 0),
    PRIMARY KEY (audit_id, car_id)
) WITHOUT ROWID;
CREATE INDEX price_change_items_car ON price_change_items (car_id);
