//! The HTTP side: router, middleware, handlers.

pub mod cache;
pub mod extract;
pub mod openapi;
pub mod public;
pub mod rate_limit;
pub mod router;
pub mod state;

pub use router::router;
pub use state::AppState;
