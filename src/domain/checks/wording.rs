//! Reading the words of a text for the checks: a rate stated without the
//! bank that gives it (the last date a text names is `crate::text_dates`).

use crate::db::casefold;
use regex::Regex;

/// Words that make a percentage a credit rate.
pub(super) const RATE_WORDS: [&str; 9] = [
    "кредит",
    "ставк",
    "годовых",
    "рассрочк",
    "пск",
    "займ",
    "заем",
    "ипотек",
    "процентн",
];
/// Words that make a percentage something else (a discount, a down payment).
pub(super) const OTHER_WORDS: [&str; 11] = [
    "скидк",
    "выгод",
    "взнос",
    "кешбэк",
    "кэшбэк",
    "дешевле",
    "ндс",
    "предоплат",
    "аванс",
    "экономи",
    "налог",
];

pub(super) fn percent_pattern() -> &'static Regex {
    static PATTERN: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    PATTERN.get_or_init(|| {
        Regex::new(r"\d+(?:[.,]\d+)?[\s\u{00A0}\u{202F}]*%").expect("valid percent pattern")
    })
}

/// Whether `c` (followed by `next`) ends a clause: ".", "!", "?" or "…"
/// before a space or the end; ";" or a new line.
fn ends_clause(c: char, next: Option<char>) -> bool {
    match c {
        ';' | '\n' => true,
        '.' | '!' | '?' | '…' => next.is_none_or(char::is_whitespace),
        _ => false,
    }
}

/// Where the clause holding byte `at` starts: after the last sentence end
/// (".", "!", "?", "…" followed by a space; ";" or a new line).
pub(super) fn clause_start(text: &str, at: usize) -> usize {
    let before = &text[..at];
    let mut start = 0;
    let mut chars = before.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if ends_clause(c, chars.peek().map(|&(_, n)| n)) {
            start = i + c.len_utf8();
        }
    }
    start
}

pub(super) fn clause_end(text: &str, from: usize) -> usize {
    let after = &text[from..];
    let mut chars = after.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if ends_clause(c, chars.peek().map(|&(_, n)| n)) {
            return from + i;
        }
    }
    text.len()
}

/// The last position of any of `words` in `text`, and the first.
pub(super) fn last_of(text: &str, words: &[&str]) -> Option<usize> {
    words.iter().filter_map(|w| text.rfind(w)).max()
}

pub(super) fn first_of(text: &str, words: &[&str]) -> Option<usize> {
    words.iter().filter_map(|w| text.find(w)).min()
}

/// Whether the percentage at `start..end` of `text` (case folded) is a
/// credit rate: the nearest telling word before it in its clause says so
/// ("автокредит от 4,9%", but "скидка 10% в кредит"); with none before, the
/// first one after it ("0% в рассрочку").
pub(super) fn is_rate(text: &str, start: usize, end: usize) -> bool {
    let before = &text[clause_start(text, start)..start];
    let rate = last_of(before, &RATE_WORDS);
    let other = last_of(before, &OTHER_WORDS);
    match (rate, other) {
        (Some(r), Some(o)) => return r > o,
        (Some(_), None) => return true,
        (None, Some(_)) => return false,
        (None, None) => {}
    }
    let after = &text[end..clause_end(text, end)];
    match (first_of(after, &RATE_WORDS), first_of(after, &OTHER_WORDS)) {
        (Some(r), Some(o)) => r < o,
        (Some(_), None) => true,
        _ => false,
    }
}

/// The first credit rate `text` shows, as a short quote, when the text names
/// none of the partner `banks` (case folded names); `None` otherwise.
pub fn rate_without_bank(text: &str, banks: &[String]) -> Option<String> {
    if !text.contains('%') {
        return None;
    }
    let folded = casefold(text);
    let found = percent_pattern()
        .find_iter(&folded)
        .find(|m| is_rate(&folded, m.start(), m.end()))?;
    if banks.iter().any(|b| folded.contains(b.as_str())) {
        return None;
    }
    // Folding keeps the byte offsets of Cyrillic and Latin ('ё' and 'е' are
    // both two bytes), so the match quotes the original text.
    let same = folded.len() == text.len()
        && text.is_char_boundary(found.start())
        && text.is_char_boundary(found.end());
    let source = if same { text } else { folded.as_str() };
    Some(quote(source, found.start(), found.end()))
}

/// The clause around `start..end`, at most 40 characters before and 20
/// after it, cut at spaces, with "…" where cut.
pub(super) fn quote(text: &str, start: usize, end: usize) -> String {
    let head: Vec<char> = text[clause_start(text, start)..start].chars().collect();
    let tail: Vec<char> = text[end..clause_end(text, end)].chars().collect();
    let from = head.len().saturating_sub(40);
    let mut before: String = head[from..].iter().collect();
    if from > 0 {
        if let Some(space) = before.find(' ') {
            before = before[space + 1..].to_string();
        }
        before = format!("…{before}");
    }
    let to = tail.len().min(20);
    let mut after: String = tail[..to].iter().collect();
    if to < tail.len() {
        if let Some(space) = after.rfind(' ') {
            after.truncate(space);
        }
        after.push('…');
    }
    format!("{before}{}{after}", &text[start..end])
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::casefold;

    fn banks() -> Vec<String> {
        vec![casefold("Сбербанк"), casefold("Т-Банк")]
    }

    #[test]
    fn rates_are_told_from_other_percentages() {
        let none: Vec<String> = Vec::new();
        for text in [
            "Автокредит от 5,6%",
            "ставка 5.5 % годовых",
            "Рассрочка 0 %",
            "0% в рассрочку на 12 месяцев",
            "Кредит от 4,9% с первым взносом 20%",
            "Скидка 10%. Кредит от 4,9%",
            "ПСК от 6,1%",
        ] {
            assert!(rate_without_bank(text, &none).is_some(), "{text}");
        }
        for text in [
            "Скидка 10% при покупке в кредит",
            "Первый взнос — от 0%",
            "Кредит с первым взносом от 10%",
            "-10%",
            "Выгода 15% на всё",
            "Без процентов",
        ] {
            assert_eq!(rate_without_bank(text, &none), None, "{text}");
        }
    }

    #[test]
    fn a_named_bank_clears_the_rate() {
        assert_eq!(
            rate_without_bank("Автокредит от 4,9% в СБЕРБАНКЕ", &banks()),
            None
        );
        assert_eq!(
            rate_without_bank("Кредит от 4,9%. Банк — т-банк", &banks()),
            None
        );
        assert_eq!(
            rate_without_bank("Автокредит от 4,9% в ВТБ", &banks()).as_deref(),
            Some("Автокредит от 4,9% в ВТБ")
        );
    }

    #[test]
    fn quotes_are_short_and_cut_at_words() {
        let text = "Новые и с пробегом, из наличия и под заказ, автокредит от 5,6%, трейд-ин за 30 минут и аренда с выкупом";
        let quote = rate_without_bank(text, &[]).unwrap();
        assert_eq!(
            quote,
            "…из наличия и под заказ, автокредит от 5,6%, трейд-ин за 30…"
        );
    }
}
