//! Auto.ru's dealer API (`[autoru]`, `docs/marketplaces.md` "Auto.ru"): the
//! client and its session (`client.rs`), its pace within Auto.ru's 300
//! requests a minute (`pace.rs`), the feed report (`feeds.rs`), the figures
//! per ad and day (`stats.rs`) and the calls (`calls.rs`).

mod calls;
mod client;
mod feeds;
mod pace;
mod stats;

pub use client::Autoru;
pub use pace::DEFAULT_INTERVAL;
