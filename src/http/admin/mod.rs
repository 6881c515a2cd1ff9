//! The admin API: everything staff do, behind `auth::require_admin`; each
//! module lists its routes in `routes()`.

pub mod catalogue;
pub mod content;
pub mod leads;
pub mod session;
pub mod uploads;
