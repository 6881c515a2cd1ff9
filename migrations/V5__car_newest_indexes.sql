-- Indexes that give the filtered lists their default order (newest first)
-- with the filters' equality columns in front, so a page of 20 is read
-- walking the index from the newest end and stops after its 20 rows,
-- instead of sorting every car of the filter (1,300 of 10,000 for used
-- crossovers under 3 million) on each request. The price is carried last so
-- a price limit is checked in the index, without reading the table.
-- The lists sorted by price keep using cars_filter and cars_body_filter
-- (price right after the equality columns), and so do the counts.
CREATE INDEX cars_newest_status_body ON cars (published, status, body_type, created_at, price_kopecks);
CREATE INDEX cars_newest_status ON cars (published, status, created_at, price_kopecks);
CREATE INDEX cars_newest_body ON cars (published, body_type, created_at, price_kopecks);
-- A model filter (`?model=`) is read from its own index instead of a scan of
-- every car: the one public filter no other index serves.
CREATE INDEX cars_model ON cars (published, model, created_at);
