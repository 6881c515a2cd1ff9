//! Import runs of the inventory parser and what applying one writes
//! (`docs/parser.md`): the preview compares a feed's cars with the catalogue
//! (matched by external id, then VIN); applying writes the same comparison,
//! made again on the current catalogue, in the caller's transaction.
//!
//! The pieces: `plan` (the comparison), `runs` (runs in storage), `apply`
//! (writing a preview), `photos` (pictures still to fetch), `schedule` (the
//! parser's schedule). This file keeps the types the API shows.

mod apply;
mod feeds;
mod photos;
mod plan;
mod report;
mod runs;

pub use apply::*;
pub use feeds::*;
pub use photos::*;
pub use plan::*;
pub use report::*;
pub use runs::*;
