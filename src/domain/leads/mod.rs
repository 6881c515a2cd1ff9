//! Requests from visitors. A lead is stored before anything else happens
//! (notifications come later through the outbox), so nothing accepted is lost.
//!
//! The pieces: `lead` (the types and messages), `input` (the form's
//! rules), `store` (leads in storage).

mod input;
mod lead;
mod store;

pub use input::*;
pub use lead::*;
pub use store::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        assert!(is_email("a@b.ru"));
        assert!(!is_email("a@b"));
        assert!(!is_email("a b@c.ru"));
        assert!(!is_email("@c.ru"));
        assert!(!is_email("a@@c.ru"));
    }
}
