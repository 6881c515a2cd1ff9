//! The PBX's key and salt, and the signature every VPBX API request carries
//! both ways (Mango Office VPBX API v1.9, "Поле sign"): the lowercase hex of
//! sha256(vpbx_api_key + json + vpbx_api_salt), `json` being the exact text
//! of the form's `json` field.

use sha2::{Digest, Sha256};

/// The PBX's key (`vpbx_api_key`, the PBX's unique code) and the
/// signature's salt (`vpbx_api_salt`, the key for the signature).
#[derive(Clone)]
pub struct MangoKeys {
    pub api_key: String,
    pub api_salt: String,
}

impl std::fmt::Debug for MangoKeys {
    /// Never prints the salt; the key only by its length.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MangoKeys")
            .field("api_key", &format_args!("<{} chars>", self.api_key.len()))
            .finish_non_exhaustive()
    }
}

impl MangoKeys {
    /// The `sign` of `json`.
    pub fn sign(&self, json: &str) -> String {
        let mut hash = Sha256::new();
        hash.update(self.api_key.as_bytes());
        hash.update(json.as_bytes());
        hash.update(self.api_salt.as_bytes());
        hex::encode(hash.finalize())
    }

    /// Whether `key` is this PBX's key (compared in constant time).
    pub fn is_our_key(&self, key: &str) -> bool {
        same(self.api_key.as_bytes(), key.trim().as_bytes())
    }

    /// Whether `sign` is the signature of `json` (hex in either case,
    /// compared in constant time).
    pub fn signs(&self, json: &str, sign: &str) -> bool {
        let given = sign.trim().to_ascii_lowercase();
        same(self.sign(json).as_bytes(), given.as_bytes())
    }

    /// The form of a request to the API: `vpbx_api_key`, `sign`, `json`.
    pub fn form(&self, json: &str) -> String {
        form_urlencoded::Serializer::new(String::new())
            .append_pair("vpbx_api_key", &self.api_key)
            .append_pair("sign", &self.sign(json))
            .append_pair("json", json)
            .finish()
    }
}

/// Equal bytes, in time that depends only on the lengths.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> MangoKeys {
        MangoKeys {
            api_key: "key".into(),
            api_salt: "salt".into(),
        }
    }

    #[test]
    fn the_sign_is_sha256_of_key_json_salt_in_hex() {
        // printf 'key{"a":1}salt' | sha256sum
        let vector = "0a14249b7c9fe83386698debbe9dd7e4a3c0adca8a825e1b5b6d2ed4dfb58f00";
        let made = keys().sign(r#"{"a":1}"#);
        assert_eq!(made.len(), 64);
        assert_eq!(made, vector);
        assert!(keys().signs(r#"{"a":1}"#, &vector.to_uppercase()));
        assert!(!keys().signs(r#"{"a":2}"#, vector));
        assert!(!keys().signs(r#"{"a":1}"#, ""));
    }

    #[test]
    fn the_key_is_compared_whole() {
        assert!(keys().is_our_key("key"));
        assert!(!keys().is_our_key("ke"));
        assert!(!keys().is_our_key("keyy"));
        assert!(!format!("{:?}", keys()).contains("salt"));
    }
}
