-- Conditional discounts of a car, as Auto.ru feeds carry them
-- (docs/pricing.md): each is off the price when its condition is met
-- (a loan from a partner bank, a trade-in, an insurance policy bought at the
-- dealership); max_discount caps their sum. NULL: none.
ALTER TABLE cars ADD COLUMN credit_discount_kopecks INTEGER
    CHECK (credit_discount_kopecks IS NULL OR credit_discount_kopecks >= 0);
ALTER TABLE cars ADD COLUMN tradein_discount_kopecks INTEGER
    CHECK (tradein_discount_kopecks IS NULL OR tradein_discount_kopecks >= 0);
ALTER TABLE cars ADD COLUMN insurance_discount_kopecks INTEGER
    CHECK (insurance_discount_kopecks IS NULL OR insurance_discount_kopecks >= 0);
ALTER TABLE cars ADD COLUMN max_discount_kopecks INTEGER
    CHECK (max_discount_kopecks IS NULL OR max_discount_kopecks >= 0);
