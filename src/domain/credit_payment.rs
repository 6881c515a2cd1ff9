//! The monthly payment a new or used car shows, «от 84 319 ₽/мес»
//! (`docs/credit.md`, "One monthly figure"): the credit calculator's first
//! figure for the car, computed here from the programmes valid on the Moscow
//! date, exactly (integers only), in whole rubles. The calculator
//! (`ui/src/lib/credit.ts`) starts from the same input and uses the same
//! formula; `tests/fixtures/credit_payment.json` holds both to one table.

use chrono::NaiveDate;
use rusqlite::Connection;

use super::credit_programs::{self, PublicCreditProgram};
use super::money::Money;
use crate::error::AppResult;

/// Twelve months of a hundred percent in thousandths: r = rate / `YEAR`.
const YEAR: u64 = 1_200_000;
/// The calculator's first down payment: 20 % of the price ...
const START_DOWN_PERCENT: i64 = 20;
/// ... rounded up to whole 10,000 ₽ (its slider's step) ...
const DOWN_STEP_KOPECKS: i64 = 10_000 * 100;
/// ... and at most 90 % of the price.
const MAX_DOWN_PERCENT: i64 = 90;
/// The term the calculator prefers, months.
const PREFERRED_TERM: i64 = 60;

/// What the rule needs of a programme, in stored units.
#[derive(Debug, Clone, PartialEq)]
pub struct Terms {
    /// The lowest yearly rate in thousandths of a percent (5.9 % is 5900).
    pub rate_min_milli: i64,
    pub term_min_months: i64,
    pub term_max_months: i64,
    pub min_down_payment_percent: i64,
}

impl From<&PublicCreditProgram> for Terms {
    fn from(p: &PublicCreditProgram) -> Terms {
        Terms {
            // Stored as thousandths: the float holds them exactly enough.
            rate_min_milli: (p.rate_min * 1000.0).round() as i64,
            term_min_months: p.term_min_months,
            term_max_months: p.term_max_months,
            min_down_payment_percent: p.min_down_payment_percent,
        }
    }
}

/// The calculator's first input for a price (kopecks): what the figure is
/// the payment of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Start {
    pub price: i64,
    pub down_payment: i64,
    pub term_months: i64,
}

/// The programmes valid on one Moscow date, ready to give any price its
/// monthly figure.
#[derive(Debug, Clone)]
pub struct CreditRule {
    programs: Vec<Terms>,
    /// The calculator's first term over these programmes (0: none).
    term: i64,
    /// The lowest minimum down payment of the programmes, percent.
    lowest_down: i64,
    /// Each programme's annuity at its lowest rate for `term`.
    annuities: Vec<Annuity>,
}

impl CreditRule {
    /// The programmes valid on `today` (Moscow), as `GET /api/credit-programs`
    /// lists them: the calculator reads that answer.
    pub fn today(conn: &Connection, today: NaiveDate) -> AppResult<CreditRule> {
        Ok(CreditRule::of(&credit_programs::public(conn, today)?.items))
    }

    pub fn of(programs: &[PublicCreditProgram]) -> CreditRule {
        CreditRule::new(programs.iter().map(Terms::from).collect())
    }

    pub fn new(programs: Vec<Terms>) -> CreditRule {
        let term = default_term(&programs);
        let lowest_down = programs
            .iter()
            .map(|p| p.min_down_payment_percent)
            .min()
            .unwrap_or(0);
        let annuities = programs
            .iter()
            .map(|p| Annuity::new(p.rate_min_milli, term))
            .collect();
        CreditRule {
            programs,
            term,
            lowest_down,
            annuities,
        }
    }

    /// The calculator's first input for a loan price (kopecks): a down
    /// payment of 20 % rounded up to 10,000 ₽, kept between the lowest
    /// minimum of the programmes (rounded up to the ruble) and 90 %
    /// (rounded down to the ruble); the term nearest 60 months. None
    /// without programmes.
    pub fn start(&self, price: i64) -> Option<Start> {
        if self.programs.is_empty() {
            return None;
        }
        let price = price.max(0);
        let min_down = ceil_div(price * self.lowest_down, 100 * 100) * 100;
        let max_down = min_down.max(price * MAX_DOWN_PERCENT / (100 * 100) * 100);
        let wanted =
            ceil_div(price * START_DOWN_PERCENT, 100 * DOWN_STEP_KOPECKS) * DOWN_STEP_KOPECKS;
        Some(Start {
            price,
            down_payment: wanted.max(min_down).min(max_down),
            term_months: self.term,
        })
    }

    /// The lowest payment of the calculator's first input, in kopecks: over
    /// the programmes that fit it, each at its lowest rate. None without a
    /// programme that fits (or without a loan).
    pub fn first_payment(&self, price: i64) -> Option<i64> {
        let start = self.start(price)?;
        let loan = start.price - start.down_payment;
        if loan <= 0 {
            return None;
        }
        self.programs
            .iter()
            .zip(&self.annuities)
            .filter(|(p, _)| {
                (p.term_min_months..=p.term_max_months).contains(&start.term_months)
                    && start.down_payment * 100 >= start.price * p.min_down_payment_percent
            })
            .map(|(_, a)| a.payment(loan))
            .min()
    }

    /// The figure «от … ₽/мес» of a car priced `price` with its credit
    /// discount (capped at `max_discount`) taken off, in whole rubles
    /// (rounded down, as every amount the site shows).
    pub fn monthly(
        &self,
        price: Money,
        credit_discount: Option<Money>,
        max_discount: Option<Money>,
    ) -> Option<Money> {
        let off = credit_discount.map_or(0, |d| d.kopecks().max(0));
        let off = max_discount.map_or(off, |cap| off.min(cap.kopecks()));
        let payment = self.first_payment((price.kopecks() - off).max(0))?;
        Some(Money(payment / 100 * 100))
    }

    /// What a car shows: a lease car the payment its admin typed, a new or
    /// used car [`CreditRule::monthly`].
    pub fn shown(
        &self,
        lease: bool,
        typed: Option<Money>,
        price: Money,
        credit_discount: Option<Money>,
        max_discount: Option<Money>,
    ) -> Option<Money> {
        if lease {
            typed
        } else {
            self.monthly(price, credit_discount, max_discount)
        }
    }
}

/// The term the calculator starts with: of the shortest and longest terms
/// of the programmes and each whole year between, the one nearest 60
/// months (the shorter of two as near). 0 without programmes.
fn default_term(programs: &[Terms]) -> i64 {
    let (Some(low), Some(high)) = (
        programs.iter().map(|p| p.term_min_months).min(),
        programs.iter().map(|p| p.term_max_months).max(),
    ) else {
        return 0;
    };
    let mut choices = vec![low, high];
    choices.extend((12..high).step_by(12).filter(|m| *m > low));
    choices.sort_unstable();
    choices
        .into_iter()
        .min_by_key(|m| (m - PREFERRED_TERM).abs())
        .unwrap_or(0)
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1).div_euclid(b)
}

/// The monthly payment of an annuity loan of `principal` kopecks at
/// `rate_milli` thousandths of a percent a year over `months`:
/// P·r / (1 − (1 + r)^−n), r = rate / 12, rounded half up to the kopeck;
/// P / n at 0 %. Exact.
pub fn annuity(principal: i64, rate_milli: i64, months: i64) -> i64 {
    Annuity::new(rate_milli, months).payment(principal)
}

/// An annuity's factor for one rate and term, kept as the exact fraction
/// `a / b` (with r = m / Y: P·r·(1+r)^n / ((1+r)^n − 1) = P·a / b,
/// a = m·(Y+m)^n, b = Y·((Y+m)^n − Y^n)).
#[derive(Debug, Clone)]
struct Annuity {
    a: Big,
    b: Big,
}

impl Annuity {
    fn new(rate_milli: i64, months: i64) -> Annuity {
        let months = months.max(1) as u64;
        let m = rate_milli.max(0) as u64;
        if m == 0 {
            return Annuity {
                a: Big::from(1),
                b: Big::from(months),
            };
        }
        let mut grown = Big::from(1);
        let mut base = Big::from(1);
        for _ in 0..months {
            grown = grown.mul(YEAR + m);
            base = base.mul(YEAR);
        }
        Annuity {
            a: grown.mul(m),
            b: grown.sub(&base).mul(YEAR),
        }
    }

    /// ⌊(2·P·a + b) / (2·b)⌋: P·a / b rounded half up.
    fn payment(&self, principal: i64) -> i64 {
        if principal <= 0 {
            return 0;
        }
        let twice_b = self.b.mul(2);
        let top = self.a.mul(2 * principal as u64).add(&self.b);
        top.quotient(&twice_b) as i64
    }
}

/// A natural number of any size, little-endian 32-bit limbs, no leading
/// zero limb: just what [`Annuity`] needs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from(value: u64) -> Big {
        Big(vec![value as u32, (value >> 32) as u32]).trimmed()
    }

    fn trimmed(mut self) -> Big {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    fn mul(&self, k: u64) -> Big {
        let mut out = Vec::with_capacity(self.0.len() + 2);
        let mut carry: u128 = 0;
        for &limb in &self.0 {
            let v = limb as u128 * k as u128 + carry;
            out.push(v as u32);
            carry = v >> 32;
        }
        while carry > 0 {
            out.push(carry as u32);
            carry >>= 32;
        }
        Big(out).trimmed()
    }

    fn add(&self, other: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len().max(other.0.len()) + 1);
        let mut carry = 0u64;
        for i in 0..self.0.len().max(other.0.len()) {
            let v =
                *self.0.get(i).unwrap_or(&0) as u64 + *other.0.get(i).unwrap_or(&0) as u64 + carry;
            out.push(v as u32);
            carry = v >> 32;
        }
        out.push(carry as u32);
        Big(out).trimmed()
    }

    /// `self − other`, `other` not larger.
    fn sub(&self, other: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for (i, &limb) in self.0.iter().enumerate() {
            let mut v = limb as i64 - *other.0.get(i).unwrap_or(&0) as i64 - borrow;
            borrow = i64::from(v < 0);
            if v < 0 {
                v += 1 << 32;
            }
            out.push(v as u32);
        }
        Big(out).trimmed()
    }

    fn bits(&self) -> u32 {
        self.0
            .last()
            .map_or(0, |top| self.0.len() as u32 * 32 - top.leading_zeros())
    }

    /// The low 128 bits of `self >> shift` (all of them where it is used).
    fn shifted(&self, shift: u32) -> u128 {
        let (skip, r) = ((shift / 32) as usize, shift % 32);
        let limb = |i: usize| u64::from(*self.0.get(i).unwrap_or(&0));
        let mut value: u128 = 0;
        for word in (0..4).rev() {
            let i = skip + word;
            let bits = ((limb(i) | (limb(i + 1) << 32)) >> r) as u32;
            value = (value << 32) | u128::from(bits);
        }
        value
    }

    fn compare(&self, other: &Big) -> std::cmp::Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// ⌊self / d⌋ for a quotient below 2^63: estimated from the top bits,
    /// then corrected exactly.
    fn quotient(&self, d: &Big) -> u64 {
        use std::cmp::Ordering::Greater;
        let shift = d.bits().saturating_sub(64);
        let estimate = self.shifted(shift) / d.shifted(shift).max(1);
        let mut q = u64::try_from(estimate).unwrap_or(u64::MAX / 2);
        while q > 0 && d.mul(q).compare(self) == Greater {
            q -= 1;
        }
        while d.mul(q + 1).compare(self) != Greater {
            q += 1;
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annuity_matches_the_documented_example() {
        // 1,000,000 ₽ at 12 % for 60 months: 22 244,45 ₽ (docs/credit.md).
        assert_eq!(annuity(100_000_000, 12_000, 60), 2_224_445);
        assert_eq!(annuity(120_000, 0, 12), 10_000);
        assert_eq!(annuity(100, 0, 3), 33);
        assert_eq!(annuity(0, 12_000, 60), 0);
    }

    #[test]
    fn the_quotient_is_exact_for_large_numbers() {
        // (2^64 − 1)^3 · 12,345 + 7 over (2^64 − 1)^3 · 3: 4,115, and
        // one less when the numerator is one short.
        let cube = Big::from(u64::MAX).mul(u64::MAX).mul(u64::MAX);
        let d = cube.mul(3);
        assert_eq!(cube.mul(12_345).add(&Big::from(7)).quotient(&d), 4_115);
        assert_eq!(cube.mul(12_345).sub(&Big::from(1)).quotient(&d), 4_114);
        let small = Big::from(1_000_000_007);
        assert_eq!(
            Big::from(u64::MAX).quotient(&small),
            u64::MAX / 1_000_000_007
        );
    }
}
