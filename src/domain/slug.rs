//! Slugs: Latin letters, digits and hyphens.

/// Makes a slug from a text: Cyrillic transliterated to Latin, lowercase,
/// every run of other characters becomes one hyphen, edge hyphens trimmed.
pub fn slugify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if let Some(latin) = transliterate(c) {
            out.push_str(latin);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// A valid slug: non-empty, lowercase Latin letters, digits and single hyphens.
pub fn is_valid(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= 255
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-')
        && !slug.ends_with('-')
        && !slug.contains("--")
}

fn transliterate(c: char) -> Option<&'static str> {
    Some(match c {
        'а' => "a",
        'б' => "b",
        'в' => "v",
        'г' => "g",
        'д' => "d",
        'е' => "e",
        'ё' => "e",
        'ж' => "zh",
        'з' => "z",
        'и' => "i",
        'й' => "y",
        'к' => "k",
        'л' => "l",
        'м' => "m",
        'н' => "n",
        'о' => "o",
        'п' => "p",
        'р' => "r",
        'с' => "s",
        'т' => "t",
        'у' => "u",
        'ф' => "f",
        'х' => "h",
        'ц' => "ts",
        'ч' => "ch",
        'ш' => "sh",
        'щ' => "sch",
        'ъ' => "",
        'ы' => "y",
        'ь' => "",
        'э' => "e",
        'ю' => "yu",
        'я' => "ya",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slugify("Лада Веста SW Cross"), "lada-vesta-sw-cross");
        assert_eq!(slugify("  BMW X5 (G05) "), "bmw-x5-g05");
        assert_eq!(slugify("Чери Тигго 7 Pro"), "cheri-tiggo-7-pro");
        assert!(is_valid("haval-jolion-2024"));
        assert!(!is_valid("Haval"));
        assert!(!is_valid("-a"));
        assert!(!is_valid("a--b"));
        assert!(!is_valid(""));
    }
}
