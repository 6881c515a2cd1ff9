//! Avito API for business (`[avito]`, `docs/marketplaces.md` "Avito"): the
//! client that reads back what became of the cars the Avito feed publishes:
//! the autoload report per ad, views, contacts and favourites per ad and
//! day, and the calls on Avito's substitute numbers.

mod calls;
mod client;
mod feed;
mod stats;

pub use client::Avito;
pub use feed::Upload;
