//! Exact money: kopecks as i64, spoken in the API as a decimal string of
//! rubles ("2500000.00"). Input may be a string ("2 500 000,50") or a JSON
//! number; neither goes through floating-point arithmetic.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(pub i64);

#[derive(Debug, PartialEq, Eq)]
pub struct MoneyError;

/// Largest amount of a decimal(12,2) column: 9 999 999 999.99 rubles.
pub const MAX_DECIMAL_12_2: Money = Money(999_999_999_999);
/// Largest amount of a decimal(10,2) column: 99 999 999.99 rubles.
pub const MAX_DECIMAL_10_2: Money = Money(9_999_999_999);

impl Money {
    pub fn kopecks(self) -> i64 {
        self.0
    }

    pub fn from_rubles(rubles: i64) -> Money {
        Money(rubles * 100)
    }

    /// Parses rubles with at most two decimals; spaces (also non-breaking and
    /// thin ones) and the ruble sign are ignored, a comma may be the decimal sign.
    pub fn parse(text: &str) -> Result<Money, MoneyError> {
        let cleaned: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '\u{202f}' && *c != '₽')
            .map(|c| if c == ',' { '.' } else { c })
            .collect();
        let (whole, frac) = match cleaned.split_once('.') {
            Some((w, f)) => (w, f),
            None => (cleaned.as_str(), ""),
        };
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoneyError);
        }
        if frac.len() > 2 || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoneyError);
        }
        if whole.len() > 15 {
            return Err(MoneyError);
        }
        let whole: i64 = whole.parse().map_err(|_| MoneyError)?;
        let frac_value: i64 = match frac.len() {
            0 => 0,
            1 => frac.parse::<i64>().map_err(|_| MoneyError)? * 10,
            _ => frac.parse().map_err(|_| MoneyError)?,
        };
        Ok(Money(whole * 100 + frac_value))
    }

    /// Whole rubles, rounded down (for display and filters).
    pub fn rubles(self) -> i64 {
        self.0 / 100
    }

    /// Multiplies by an exact decimal factor given as a string ("1.05"),
    /// rounding half away from zero to the kopeck.
    pub fn scale(self, factor: &str) -> Result<Money, MoneyError> {
        let factor = factor.trim();
        let (whole, frac) = factor.split_once('.').unwrap_or((factor, ""));
        if whole.is_empty() && frac.is_empty() {
            return Err(MoneyError);
        }
        if !whole.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoneyError);
        }
        if frac.len() > 12 || whole.len() > 6 {
            return Err(MoneyError);
        }
        let scale = 10i128.pow(frac.len() as u32);
        let numerator: i128 = format!("{whole}{frac}").parse().map_err(|_| MoneyError)?;
        let product = self.0 as i128 * numerator;
        let rounded = (product + scale / 2) / scale;
        i64::try_from(rounded).map(Money).map_err(|_| MoneyError)
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Text(String),
            Integer(i64),
            Number(f64),
        }
        let text = match Raw::deserialize(d)? {
            Raw::Text(t) => t,
            Raw::Integer(i) => i.to_string(),
            // The shortest text that reads back as the same f64: exact for
            // any amount of at most 15 significant digits.
            Raw::Number(n) => n.to_string(),
        };
        Money::parse(&text).map_err(|_| serde::de::Error::custom("invalid amount"))
    }
}

impl rusqlite::types::ToSql for Money {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.0.into())
    }
}

impl rusqlite::types::FromSql for Money {
    fn column_result(v: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        v.as_i64().map(Money)
    }
}

impl utoipa::PartialSchema for Money {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some("Rubles with two decimals, exact"))
            .examples([serde_json::json!("2500000.00")])
            .into()
    }
}

impl utoipa::ToSchema for Money {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rubles_exactly() {
        assert_eq!(Money::parse("2 500 000"), Ok(Money(250_000_000)));
        assert_eq!(Money::parse("2500000.5"), Ok(Money(250_000_050)));
        assert_eq!(Money::parse("1\u{a0}999,99 ₽"), Ok(Money(199_999)));
        assert_eq!(Money::parse("0.07"), Ok(Money(7)));
        assert!(Money::parse("1.234").is_err());
        assert!(Money::parse("-5").is_err());
        assert!(Money::parse("abc").is_err());
        assert!(Money::parse("").is_err());
        assert!(Money::parse(".5").is_err());
    }

    #[test]
    fn displays_two_decimals() {
        assert_eq!(Money(250_000_050).to_string(), "2500000.50");
        assert_eq!(Money(7).to_string(), "0.07");
    }

    #[test]
    fn json_numbers_are_exact() {
        let m: Money = serde_json::from_str("1234567.89").unwrap();
        assert_eq!(m, Money(123_456_789));
        let m: Money = serde_json::from_str("\"0.10\"").unwrap();
        assert_eq!(m, Money(10));
        let m: Money = serde_json::from_str("3000000").unwrap();
        assert_eq!(m, Money(300_000_000));
    }

    #[test]
    fn scaling_is_exact_decimal() {
        // 1 999 999.99 * 1.1 = 2 199 999.989 -> 2 199 999.99
        assert_eq!(Money(199_999_999).scale("1.1"), Ok(Money(219_999_999)));
        assert_eq!(Money(100_000).scale("0.95"), Ok(Money(95_000)));
        assert_eq!(Money(333).scale("1.005"), Ok(Money(335)));
        assert!(Money(1).scale("-1").is_err());
    }
}
