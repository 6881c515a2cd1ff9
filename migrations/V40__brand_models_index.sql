-- A brand's page lists the models of its published cars (its model filter,
-- GET /api/brands/{id}/models). Without this index SQLite walked every
-- published car in the model index and read each row for its brand: 12 ms
-- at 10,000 cars (issue 47, cold pages); from this one index it reads only
-- the brand's entries, already in model order.
CREATE INDEX cars_brand_model ON cars (brand_id, published, model);
