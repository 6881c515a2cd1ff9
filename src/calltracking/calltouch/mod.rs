//! Calltouch (`docs/calls.md`, "Calltouch"): its webhook of calls (`hook`)
//! and its calls journal API (`client`), polled by day to catch a call a
//! webhook missed. Both read a call's parameters the same way (`fields`).

mod client;
mod fields;
mod hook;

use super::{HookRequest, Hooked};
use crate::error::AppResult;

pub use client::Calltouch;

/// Reads a Calltouch webhook (GET query or POST form).
pub fn read_hook(req: &HookRequest<'_>) -> AppResult<Hooked> {
    hook::read(req)
}
