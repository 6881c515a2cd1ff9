//! The operator's state registration numbers checked: an ИНН and an ОГРН
//! (or ОГРНИП) with their control digits; `legal` and the settings' rules
//! use them.

pub const BAD_INN: &str = "ИНН: 10 цифр у организации или 12 у индивидуального предпринимателя, с верной контрольной цифрой";
pub const BAD_OGRN: &str = "ОГРН: 13 цифр у организации (ОГРНИП — 15), с верной контрольной цифрой";

fn digits(text: &str) -> Option<Vec<u32>> {
    text.chars().map(|c| c.to_digit(10)).collect()
}

/// The control digit of `weights` over the first digits: the weighted sum
/// modulo 11, then modulo 10.
fn control(digits: &[u32], weights: &[u32]) -> u32 {
    let sum: u32 = digits.iter().zip(weights).map(|(d, w)| d * w).sum();
    sum % 11 % 10
}

/// An ИНН: 10 digits for an organisation, 12 for a person (an individual
/// entrepreneur), with the tax service's control digits.
pub fn is_inn(text: &str) -> bool {
    const W10: [u32; 9] = [2, 4, 10, 3, 5, 9, 4, 6, 8];
    const W11: [u32; 10] = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
    const W12: [u32; 11] = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
    let Some(d) = digits(text) else { return false };
    match d.len() {
        10 => control(&d, &W10) == d[9],
        12 => control(&d, &W11) == d[10] && control(&d, &W12) == d[11],
        _ => false,
    }
}

/// An ОГРН (13 digits: the first 12 as a number modulo 11, then modulo 10)
/// or ОГРНИП (15 digits: the first 14 modulo 13, then modulo 10).
pub fn is_ogrn(text: &str) -> bool {
    let Some(d) = digits(text) else { return false };
    let (len, modulus) = match d.len() {
        13 => (12, 11),
        15 => (14, 13),
        _ => return false,
    };
    let rest = d[..len]
        .iter()
        .fold(0u64, |acc, digit| (acc * 10 + u64::from(*digit)) % modulus);
    rest % 10 == u64::from(d[len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inns_have_their_control_digits() {
        // Published ИНН of ПАО «Сбербанк» and ООО «Яндекс».
        assert!(is_inn("7707083893"));
        assert!(is_inn("7736207543"));
        // A person's 12 digits.
        assert!(is_inn("500100732259"));
        assert!(!is_inn("7707083894"));
        assert!(!is_inn("500100732258"));
        assert!(!is_inn("77070838"));
        assert!(!is_inn("77070838 3"));
        assert!(!is_inn("７７０７０８３８９３"));
    }

    #[test]
    fn ogrns_have_their_control_digit() {
        // Published ОГРН of ПАО «Сбербанк» and ООО «Яндекс».
        assert!(is_ogrn("1027700132195"));
        assert!(is_ogrn("1027700229193"));
        // An ОГРНИП: 15 digits, modulo 13.
        assert!(is_ogrn("304500116000157"));
        assert!(!is_ogrn("1027700132196"));
        assert!(!is_ogrn("304500116000158"));
        assert!(!is_ogrn("10277001321"));
    }
}
