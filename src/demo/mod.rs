//! Demo data for `serve --demo`.

use std::path::Path;

use crate::db::Db;

/// Fills an empty database with a demo dealership; false when it has data.
pub fn seed(_db: &Db, _media_dir: &Path) -> anyhow::Result<bool> {
    Ok(false)
}
