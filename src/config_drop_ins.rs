//! The drop-in files of a configuration file: `dealership.d/*.toml` beside
//! `dealership.toml`, read by `crate::config` after it, in name order.
//! `dealership setup` writes its settings into one of them
//! (`ops::setup_config`), so the package's conffile is never edited.

use std::path::{Path, PathBuf};

/// The folder of drop-in files beside the configuration file `file`:
/// `/etc/dealership/dealership.toml` → `/etc/dealership/dealership.d/`.
pub fn drop_in_dir(file: &Path) -> PathBuf {
    file.with_extension("d")
}

/// The drop-in files of `file` (`*.toml` in [`drop_in_dir`]), in name
/// order: a later one sets a key again over an earlier one. No folder:
/// none. A folder that cannot be read: its path and why.
pub fn files(file: &Path) -> Result<Vec<PathBuf>, (PathBuf, std::io::Error)> {
    let dir = drop_in_dir(file);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err((dir, err)),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml") && path.is_file())
        .collect();
    files.sort();
    Ok(files)
}
