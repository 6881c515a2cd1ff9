//! The HTTP side: router, middleware, handlers.

pub mod admin;
pub mod answer_key;
pub mod auth;
pub mod cache;
pub mod credentials;
pub mod extract;
pub mod feed_photos;
pub mod feeds;
pub mod health;
pub mod held;
pub mod hooks;
pub mod kept_answer;
pub mod kept_styles;
pub mod log;
pub mod negotiation;
pub mod openapi;
pub mod pages;
pub mod pages_ahead;
pub mod permissions;
pub mod public;
pub mod query_patterns;
pub mod rate_limit;
pub mod router;
pub mod screen;
pub mod spliced;
pub mod state;

pub use router::router;
pub use state::AppState;
