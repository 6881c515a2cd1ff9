//! The phone rule of every lead form.

pub const PHONE_RULE_MESSAGE: &str =
    "Номер телефона должен начинаться с +7 или 8 и содержать 11 цифр";

/// Checks the phone rule (starts with +7 or 8, exactly 11 digits) and gives
/// the number normalised as `+7XXXXXXXXXX`.
pub fn normalize(phone: &str) -> Option<String> {
    let trimmed = phone.trim();
    let allowed = |c: char| c.is_ascii_digit() || " ()-+\u{a0}".contains(c);
    if !trimmed.chars().all(allowed) || trimmed.matches('+').count() > 1 {
        return None;
    }
    let digits: String = trimmed.chars().filter(char::is_ascii_digit).collect();
    if digits.len() != 11 {
        return None;
    }
    if !(trimmed.starts_with("+7") || trimmed.starts_with('8')) {
        return None;
    }
    let national = &digits[1..];
    Some(format!("+7{national}"))
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn accepts_both_prefixes() {
        assert_eq!(
            normalize("+7 (921) 123-45-67").as_deref(),
            Some("+79211234567")
        );
        assert_eq!(normalize("89211234567").as_deref(), Some("+79211234567"));
        assert_eq!(
            normalize(" 8 921 123 45 67 ").as_deref(),
            Some("+79211234567")
        );
    }

    #[test]
    fn refuses_other_numbers() {
        assert_eq!(normalize("79211234567"), None);
        assert_eq!(normalize("+7921123456"), None);
        assert_eq!(normalize("+792112345678"), None);
        assert_eq!(normalize("+1 921 123 45 67"), None);
        assert_eq!(normalize("8921abc4567"), None);
        assert_eq!(normalize(""), None);
    }
}
