-- One monthly figure (issue 43; docs/pricing.md, "Car price fields").
--
-- A new or used car's «от … ₽/мес» is computed from the credit programmes
-- valid on the Moscow date (src/domain/credit_payment.rs), the credit
-- calculator's first figure. The payment an admin typed into such a car was
-- a second source for the same fact and is dropped; only a lease car (a
-- lease payment is not a credit annuity) keeps a typed payment.
UPDATE cars SET monthly_payment_kopecks = NULL
WHERE status <> 'lease' AND monthly_payment_kopecks IS NOT NULL;
