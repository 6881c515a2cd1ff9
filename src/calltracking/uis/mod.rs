//! UIS / CoMagic (`docs/calls-uis.md`): its notification of a finished or
//! lost call (`hook`), the Data API's calls report polled for what a
//! notification missed and the Call API's callback (`client`), and how UIS
//! spells values in both (`values`).

mod client;
mod hook;
mod values;

pub use client::Uis;
pub use hook::read_hook;
