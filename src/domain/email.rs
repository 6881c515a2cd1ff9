//! The one rule by which two e-mail addresses are the same person's
//! (docs/personal-data.md, "One address, one person"): [`canonical`] is what
//! every table keeps beside the address as typed (`email_key`) and what
//! find, export, erase, the withdrawal link, saved searches and the mail cap
//! compare. The address as typed stays what mails are sent to and what the
//! staff see.

use rusqlite::{Connection, params};

/// The address's comparison key: trimmed; the part before the last `@`
/// lower-cased with Unicode's full rules and then folded where lower case
/// still tells two spellings apart (`ß` and `ẞ` read `ss`, a final sigma
/// `ς` reads `σ`); the domain in its ASCII form (IDNA, UTS #46: `Почта.рф`
/// and `xn--80a1acny.xn--p1ai` are one), or lower-cased when it is not a
/// valid international name.
///
/// So `Зоя.Тест@Почта.рф`, `зоя.тест@почта.рф` and
/// `зоя.тест@xn--80a1acny.xn--p1ai` give one key. Strictly the part before
/// the `@` is the receiving server's to interpret; every mail service in use
/// treats it without regard to case, and so does the site.
pub fn canonical(address: &str) -> String {
    let address = address.trim();
    let Some((local, domain)) = address.rsplit_once('@') else {
        return fold(address);
    };
    let domain = match idna::domain_to_ascii(domain) {
        Ok(ascii) if !ascii.is_empty() => ascii,
        _ => domain.to_lowercase(),
    };
    format!("{}@{domain}", fold(local))
}

/// Lower case, then the folds lower case leaves out.
fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.to_lowercase().chars() {
        match c {
            'ß' | 'ẞ' => out.push_str("ss"),
            'ς' => out.push('σ'),
            c => out.push(c),
        }
    }
    out
}

/// The tables that keep an address beside its key (V30): table, column of
/// the address.
const KEYED: [(&str, &str); 5] = [
    ("leads", "email"),
    ("saved_search_subscriptions", "email"),
    ("saved_search_tokens", "email"),
    ("forget_tokens", "email"),
    ("data_requests", "email"),
];

/// Fills `email_key` of every row that has an address and no key yet
/// (rows stored before V30): a data step run after the migrations, at
/// every start; it finds nothing to do once they are filled.
pub fn fill_keys(conn: &Connection) -> rusqlite::Result<usize> {
    let mut filled = 0;
    for (table, column) in KEYED {
        let rows: Vec<(i64, String)> = conn
            .prepare(&format!(
                "SELECT rowid, {column} FROM {table}
                 WHERE email_key IS NULL AND {column} IS NOT NULL AND {column} <> ''"
            ))?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let mut update = conn.prepare(&format!(
            "UPDATE {table} SET email_key = ?2 WHERE rowid = ?1"
        ))?;
        for (rowid, address) in &rows {
            update.execute(params![rowid, canonical(address)])?;
        }
        filled += rows.len();
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyrillic_mixed_case_and_punycode_spellings_are_one_address() {
        let key = canonical("Зоя.Тест@Почта.рф");
        assert_eq!(key, "зоя.тест@xn--80a1acny.xn--p1ai");
        assert_eq!(canonical("зоя.тест@почта.рф"), key);
        assert_eq!(canonical(" зоя.тест@xn--80a1acny.xn--p1ai "), key);
        assert_eq!(canonical("ЗОЯ.ТЕСТ@ПОЧТА.РФ"), key);
        assert_eq!(canonical("Ivan.Petrov@Mail.RU"), "ivan.petrov@mail.ru");
        assert_ne!(canonical("ivan@mail.ru"), canonical("ivan@mail.com"));
    }

    #[test]
    fn lower_case_is_folded_where_it_keeps_two_spellings() {
        assert_eq!(canonical("STRASSE@x.de"), canonical("straße@x.de"));
        assert_eq!(canonical("ΟΔΟΣ@x.gr"), canonical("οδοσ@x.gr"));
        assert_eq!(canonical("οδος@x.gr"), canonical("ΟΔΟΣ@x.gr"));
    }
}
