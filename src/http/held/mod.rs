//! What the state keeps besides the database and the config: the holders of
//! memory and limits shared by every request (`AppState`'s parts). They sit
//! below the state and the handlers: none of them names `AppState` or any
//! handler module, so the state depends on no code that answers a request.

pub mod ahead;
pub mod cards_ahead;
pub mod catalogue;
pub mod feeds;
pub mod fragments;
pub mod memory_budget;
pub mod page_answers;
pub mod page_basics;
pub mod passwords;
pub mod placed;
pub mod render;
pub mod site_views;
pub mod write_probe;

#[cfg(test)]
mod tests {
    /// The modules that answer requests (and name `AppState`).
    const HANDLERS: [&str; 8] = [
        "admin", "auth", "extract", "feeds", "health", "pages", "public", "router",
    ];

    /// The code of a file without its comments and its tests.
    fn code(text: &str) -> String {
        let text = text.split("#[cfg(test)]").next().unwrap_or_default();
        text.lines()
            .map(|l| l.split("//").next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The state and its holders name no handler module, and the holders do
    /// not name the state: the import graph has no circle through the state.
    #[test]
    fn the_state_and_its_holders_depend_on_no_handler() {
        let files = [
            ("state.rs", include_str!("../state.rs")),
            ("held/mod.rs", include_str!("mod.rs")),
            ("held/catalogue.rs", include_str!("catalogue.rs")),
            ("held/feeds.rs", include_str!("feeds.rs")),
            ("held/passwords.rs", include_str!("passwords.rs")),
            ("held/render.rs", include_str!("render.rs")),
            ("held/placed.rs", include_str!("placed.rs")),
            ("held/fragments.rs", include_str!("fragments.rs")),
            ("held/cards_ahead.rs", include_str!("cards_ahead.rs")),
            ("held/ahead.rs", include_str!("ahead.rs")),
            ("held/site_views.rs", include_str!("site_views.rs")),
            ("held/write_probe.rs", include_str!("write_probe.rs")),
        ];
        for (name, text) in files {
            let code = code(text);
            for handler in HANDLERS {
                for path in [
                    format!("super::{handler}"),
                    format!("http::{handler}"),
                    format!("super::super::{handler}"),
                ] {
                    assert!(!code.contains(&path), "{name} names {path}");
                }
            }
            if name != "state.rs" {
                assert!(!code.contains("AppState"), "{name} names AppState");
                assert!(!code.contains("state::"), "{name} names the state");
            }
        }
    }
}
