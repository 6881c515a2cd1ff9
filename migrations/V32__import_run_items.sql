-- An import run's report and rows a line each (docs/parser.md, "Limits and
-- hostile input"): a preview of 20,000 cars is written and read a car at a
-- time, and the admin pages through its lists, instead of one JSON document
-- of megabytes read, parsed and sent whole. `import_runs.report` keeps only
-- what is not per car (new brands and body types), `counts` the counts the
-- history shows.

-- One item of a run's list: a new, changed, unchanged, gone or leaving car,
-- a row error, a warning line, a photo that failed. `item` is the JSON the
-- API answers.
CREATE TABLE import_run_items (
    run_id TEXT NOT NULL REFERENCES import_runs (id) ON DELETE CASCADE,
    list TEXT NOT NULL CHECK (list IN ('new', 'changed', 'unchanged', 'gone', 'left', 'errors',
        'warnings', 'photoErrors')),
    position INTEGER NOT NULL,
    item TEXT NOT NULL CHECK (json_valid(item)),
    PRIMARY KEY (run_id, list, position)
);

-- The feed's usable rows of a preview, what applying writes (emptied once
-- the run is applied or discarded).
CREATE TABLE import_run_rows (
    run_id TEXT NOT NULL REFERENCES import_runs (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    car TEXT NOT NULL CHECK (json_valid(car)),
    PRIMARY KEY (run_id, position)
);

-- JSON: {new, changed, unchanged, gone, left, errors, warnings}.
ALTER TABLE import_runs ADD COLUMN counts TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(counts));

-- The runs so far, moved.
INSERT INTO import_run_items (run_id, list, position, item)
SELECT r.id, l.list, j.key, j.value
FROM import_runs r,
    (SELECT 'new' AS list UNION ALL SELECT 'changed' UNION ALL SELECT 'unchanged'
     UNION ALL SELECT 'gone' UNION ALL SELECT 'left' UNION ALL SELECT 'errors'
     UNION ALL SELECT 'warnings') l,
    json_each(r.report, '$.' || l.list) j;

INSERT INTO import_run_items (run_id, list, position, item)
SELECT r.id, 'photoErrors', j.key, j.value FROM import_runs r, json_each(r.photo_errors) j;

INSERT INTO import_run_rows (run_id, position, car)
SELECT r.id, j.key, j.value FROM import_runs r, json_each(r.rows) j;

UPDATE import_runs SET counts = json_object(
    'new', coalesce(json_array_length(report, '$.new'), 0),
    'changed', coalesce(json_array_length(report, '$.changed'), 0),
    'unchanged', coalesce(json_array_length(report, '$.unchanged'), 0),
    'gone', coalesce(json_array_length(report, '$.gone'), 0),
    'left', coalesce(json_array_length(report, '$.left'), 0),
    'errors', coalesce(json_array_length(report, '$.errors'), 0),
    'warnings', (SELECT count(DISTINCT json_extract(w.value, '$.row'))
                 FROM json_each(import_runs.report, '$.warnings') w));

UPDATE import_runs SET
    report = json_remove(report, '$.new', '$.changed', '$.unchanged', '$.gone', '$.left',
        '$.errors', '$.warnings'),
    rows = '[]',
    photo_errors = '[]';
