//! The marketplaces wired in (issue 44; `docs/marketplaces.md`, "Jobs and
//! checks"): the clients made once from the config and held by the state
//! (`clients.rs`), the runs that read each marketplace's report, figures and
//! calls into storage and record how they ended (`runs.rs`), calls made
//! leads (`calls.rs`), and the jobs and the on-demand sync (`jobs.rs`).

mod calls;
mod clients;
mod jobs;
mod runs;

pub use calls::{CallsTaken, take_calls};
pub use clients::{Connection, MarketSync, Marketplaces};
pub use jobs::{SYNC_BUSY, start, sync_now};
pub use runs::{check, run_calls, run_report, run_stats};
