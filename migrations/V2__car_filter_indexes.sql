-- Covering indexes for the public car filters (status, body type, brand,
-- price) that also carry created_at, so a page of a filtered list is picked
-- from the index alone and only its 20 rows are read from the table.
DROP INDEX cars_status_price;
DROP INDEX cars_brand;
DROP INDEX cars_body_type;
CREATE INDEX cars_filter ON cars (published, status, body_type, price_kopecks, created_at);
CREATE INDEX cars_body_filter ON cars (published, body_type, price_kopecks, created_at);
-- Also serves the brand's foreign key (a brand with cars cannot be deleted).
CREATE INDEX cars_brand_filter ON cars (brand_id, published, status, price_kopecks, created_at);
