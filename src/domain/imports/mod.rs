//! Import runs of the inventory parser and what applying one writes
//! (`docs/parser.md`): the preview compares a feed's cars with the catalogue
//! (matched by external id, then VIN); applying writes the same comparison,
//! made again on the current catalogue, in the caller's transaction.
//!
//! The pieces: `plan` (the comparison), `runs` (runs in storage), `items`
//! (a run's report and rows a line each, paged), `apply` (writing a
//! preview), `photos` (pictures still to fetch), `feeds` (a dealer's feeds
//! and their schedules), `report` (the types the API shows), `values` (a car's fields as a feed
//! writes them, and the re-import's merge).

mod apply;
mod feeds;
mod items;
mod photos;
mod plan;
mod report;
mod runs;
mod values;

pub use apply::*;
pub use feeds::*;
pub use items::*;
pub use photos::*;
pub use plan::*;
pub use report::*;
pub use runs::*;
pub use values::Values;
