//! A page's data as the server build takes it: each API answer apart, with
//! digests the keys of drawn fragments name answers and cars by
//! (`docs/rendering.md`, "Drawn once: fragments").

use std::collections::HashMap;

use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

/// A page's data (its API answers by URL) as the server build's `render`
/// takes it (`ui/src/server/render.tsx`): four strings an answer, flat: its
/// URL, its JSON (parsed by the script only when the page reads it: a
/// catalogue page embeds the phones' batch too, which the server does not
/// draw), a digest of it, and the digests of its items when it is a list,
/// comma-separated. The keys of drawn fragments name answers and cars by
/// these digests instead of spelling them out in the script
/// (`ui/src/lib/serverFragments.tsx`); equal answers (and equal cars) have
/// equal digests, whatever their URL. An error when `data` is no JSON object.
pub(super) fn answers(data: &str) -> Result<Vec<String>, String> {
    let answers = serde_json::from_str::<HashMap<String, &RawValue>>(data)
        .map_err(|e| format!("the page's data: {e}"))?;
    let mut flat = Vec::with_capacity(answers.len() * 4);
    for (url, answer) in answers {
        let json = answer.get();
        flat.push(url);
        flat.push(json.to_string());
        flat.push(digest(json));
        flat.push(item_digests(json));
    }
    Ok(flat)
}

/// 24 hex digits of the SHA-256 of `json`.
fn digest(json: &str) -> String {
    hex::encode(&Sha256::digest(json.as_bytes())[..12])
}

/// The [`digest`]s of the items of `json` when it is a list (a car's is
/// the same in any list and in the cards drawn ahead), comma-separated;
/// empty otherwise.
pub(super) fn item_digests(json: &str) -> String {
    if !json.starts_with('[') {
        return String::new();
    }
    serde_json::from_str::<Vec<&RawValue>>(json)
        .map(|items| {
            items
                .iter()
                .map(|item| digest(item.get()))
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_answers_and_equal_cars_have_equal_digests_whatever_their_url() {
        let flat = answers(
            r#"{"/api/a":[{"id":1},{"id":2}],"/api/b?x=1":[{"id":1},{"id":2}],"/api/c":{"items":[]},"/api/d":[{"id":2}]}"#,
        )
        .unwrap();
        assert_eq!(flat.len(), 4 * 4);
        let by_url: HashMap<&str, &[String]> = flat
            .chunks(4)
            .map(|four| (four[0].as_str(), four))
            .collect();
        let (a, b, c, d) = (
            by_url["/api/a"],
            by_url["/api/b?x=1"],
            by_url["/api/c"],
            by_url["/api/d"],
        );
        assert_eq!(a[1], r#"[{"id":1},{"id":2}]"#);
        assert_eq!(a[2], b[2]);
        assert_ne!(a[2], c[2]);
        assert_eq!(a[2].len(), 24);
        // A list's items by their own digests: the second car of one list
        // is the only car of another.
        let items: Vec<&str> = a[3].split(',').collect();
        assert_eq!(items.len(), 2);
        assert_eq!(items[1], d[3]);
        assert_eq!(items[1], digest(r#"{"id":2}"#));
        assert_eq!(c[3], "");
        assert!(answers("not json").is_err());
    }
}
