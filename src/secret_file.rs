//! A secret kept in a file of its own (the replica's storage key, the
//! marketplaces' client secret and token, a call-tracking key): it must
//! belong to the user running the site and be readable by nobody else
//! (mode 600), so the configuration itself can stay readable.

use std::path::Path;

use anyhow::{Context, bail};

/// The secret in `path`, trimmed. `key` is the configuration key that named
/// the file ("replica.secret_access_key_file"), `holds` what the secret
/// opens ("the storage's secret key"); both go into every refusal.
pub fn read(path: &Path, key: &str, holds: &str) -> anyhow::Result<String> {
    use std::os::unix::fs::MetadataExt;
    let shown = path.display();
    let meta = std::fs::metadata(path).with_context(|| format!("{key} {shown}: cannot read it"))?;
    if !meta.is_file() {
        bail!("{key} {shown}: not a file");
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        bail!(
            "{key} {shown} can be read by others (mode {mode:04o}): it holds {holds}; make it \
             the service user's alone: chmod 600 {shown}"
        );
    }
    let user = rustix::process::geteuid().as_raw();
    if meta.uid() != user && user != 0 {
        bail!(
            "{key} {shown} belongs to user {}, not to the user running the site ({user}): \
             chown it to the service user (install.sh: chown dealership)",
            meta.uid()
        );
    }
    let secret =
        std::fs::read_to_string(path).with_context(|| format!("{key} {shown}: cannot read it"))?;
    let secret = secret.trim();
    if secret.is_empty() {
        bail!("{key} {shown} is empty");
    }
    Ok(secret.to_string())
}
