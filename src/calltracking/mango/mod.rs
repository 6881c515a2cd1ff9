//! Mango Office's virtual PBX (`docs/calls.md`, "Mango Office"): its
//! signed events (`hook`: one call per inbound `events/summary`) and its
//! API (`client`: the connection check and the callback command), both
//! signed with the PBX's key and salt (`keys`).

mod client;
mod hook;
mod keys;

pub use client::{Mango, meaning};
pub use hook::read_hook;
pub use keys::MangoKeys;
