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

/// A caller's number in E.164, as the marketplaces and call-tracking
/// services give it: `79051112233`, `89051112233`, `+7 (905) 111-22-33` and
/// `9051112233` all read `+79051112233`; other countries' numbers written
/// with `+` keep their digits; anything else (hidden, too short) is `None`.
pub fn e164(raw: &str) -> Option<String> {
    let digits: String = raw.chars().filter(char::is_ascii_digit).collect();
    let plus = raw.trim_start().starts_with('+');
    match digits.len() {
        11 if digits.starts_with('7') || (digits.starts_with('8') && !plus) => {
            Some(format!("+7{}", &digits[1..]))
        }
        10 if !plus && digits.starts_with('9') => Some(format!("+7{digits}")),
        8..=15 if plus => Some(format!("+{digits}")),
        _ => None,
    }
}

/// A stored phone as people read it: "+7 921 555-00-11" for
/// "+79215550011", as the panel shows it (anything else stays).
pub fn display(phone: &str) -> String {
    let digits = phone.strip_prefix("+7").unwrap_or_default();
    if digits.len() != 10 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return phone.to_string();
    }
    format!(
        "+7 {} {}-{}-{}",
        &digits[..3],
        &digits[3..6],
        &digits[6..8],
        &digits[8..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callers_are_written_in_e164() {
        assert_eq!(e164("79051112233").as_deref(), Some("+79051112233"));
        assert_eq!(e164("8 (905) 111-22-33").as_deref(), Some("+79051112233"));
        assert_eq!(e164("+7 905 111 22 33").as_deref(), Some("+79051112233"));
        assert_eq!(e164("9051112233").as_deref(), Some("+79051112233"));
        assert_eq!(e164("+375291234567").as_deref(), Some("+375291234567"));
        assert_eq!(e164("скрыт"), None);
        assert_eq!(e164("123"), None);
    }

    #[test]
    fn a_stored_phone_is_shown_as_the_panel_shows_it() {
        assert_eq!(display("+79215550011"), "+7 921 555-00-11");
        assert_eq!(display(""), "");
        assert_eq!(display("+7921"), "+7921");
    }

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
