//! The site's self-checks (`docs/self-checks.md`): what would embarrass the
//! dealer or get them fined, each with the admin page that fixes it. A few
//! aggregate queries over what the public sees, on the Moscow date.
//!
//! [`SelfChecks`] holds the last result keyed by the content version and the
//! Moscow date, so the admin screen and the dashboard badge recompute only
//! after a change or at midnight; the nightly job reads it too.
//!
//! The pieces: `problem` (the report's types), `run` (every check on a
//! date), `data` (the checks themselves), `wording` (rates read from
//! texts), `held` (the last result kept).

mod data;
mod held;
mod problem;
mod run;
mod wording;

pub use held::*;
pub use problem::*;
pub use run::*;
pub use wording::*;
