//! The dealership's business settings: one row, edited in the admin.
//!
//! This file keeps the types and defaults; the pieces: `store` (the row),
//! `patch` (an admin's change and its rules).

mod patch;
mod store;
mod values;

pub use patch::*;
pub use store::*;
pub use values::*;
