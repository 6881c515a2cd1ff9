//! The marketplaces heard back (issue 44, `docs/marketplaces.md`): each
//! outside service is one module with its client (its base address the
//! config key `api_url`), tested against a fake written from the service's
//! documentation. What every client answers in is in `report.rs`; how a
//! call is retried (429, 5xx, a dropped connection) in `patience.rs`; the
//! clients held, their jobs and the on-demand sync in `sync/`.

pub mod autoru;
pub mod avito;
mod patience;
pub(crate) mod report;
pub mod sync;

/// A call on a marketplace's substitute number: the one call model, of
/// which a marketplace fills the ad, the VIN, the numbers, the time and the
/// talk.
pub use crate::domain::calls::Call as MarketCall;
pub use patience::{Patience, send};
pub use report::{AdReport, AdStatus, Channel, DayFigures, MarketError};
