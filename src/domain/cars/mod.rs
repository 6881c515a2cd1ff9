//! Cars of the catalogue, one job a file: `car` the types (a car, its
//! kinds, the filter and sort), `row` (the SELECT every read shares and its
//! row), `read` (queries), `json` (rows written as JSON), `input` (what an
//! admin sends and its rules), `write` (create, update, delete). The body
//! type's slug lives with the body types (`super::body_types`).

mod car;
mod input;
mod json;
mod read;
mod row;
mod write;

pub use super::body_types::BodyType;
pub use car::*;
pub use input::*;
pub use json::*;
pub use read::*;
pub use write::*;
