//! What `dealership setup` sets goes into a drop-in file of its own,
//! `/etc/dealership/dealership.d/50-setup.toml`, read after
//! `/etc/dealership/dealership.toml` (`crate::config`), and never into that
//! file: it is the package's conffile, and a conffile changed on the host
//! makes dpkg ask at the next upgrade (a non-interactive `apt-get install`
//! fails). The replica's secret key goes into a file of its own, the
//! service user's alone (docs/operations.md, "Install", "Replication").

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::config::Config;
use crate::config_drop_ins::drop_in_dir;

/// The folder of drop-in files.
pub const DROP_IN_DIR: &str = "/etc/dealership/dealership.d";
/// The drop-in `setup` writes (other names sort before or after it).
pub const SETUP_FILE: &str = "/etc/dealership/dealership.d/50-setup.toml";
/// The replica's secret access key.
pub const REPLICA_SECRET: &str = "/etc/dealership/replica-secret";

/// The replication `setup --replica` sets.
#[derive(Debug, Clone, Default)]
pub struct Replica {
    /// `s3://BUCKET/PATH`.
    pub url: String,
    pub endpoint: Option<String>,
    pub region: Option<String>,
    pub access_key_id: String,
    pub secret: String,
}

impl Replica {
    /// The bucket and the folder of `s3://BUCKET[/PATH]`.
    pub fn bucket_and_path(&self) -> anyhow::Result<(String, String)> {
        let rest = self.url.trim().strip_prefix("s3://").with_context(|| {
            format!(
                "--replica takes the bucket and its folder as s3://BUCKET/FOLDER, not {:?}",
                self.url
            )
        })?;
        let (bucket, path) = rest.split_once('/').unwrap_or((rest, ""));
        let path = path.trim_matches('/');
        let fine = |text: &str| {
            !text.is_empty()
                && text
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-._/".contains(c))
        };
        if !fine(bucket) || bucket.contains('/') || !(path.is_empty() || fine(path)) {
            bail!(
                "--replica takes s3://BUCKET/FOLDER (letters, digits, '-', '.', '_'), not {:?}",
                self.url
            );
        }
        Ok((bucket.to_string(), path.to_string()))
    }

    /// The `[replica]` table of the drop-in.
    pub fn table(&self) -> anyhow::Result<toml::Table> {
        let (bucket, path) = self.bucket_and_path()?;
        let key_id = self.access_key_id.trim();
        if key_id.is_empty() {
            bail!("--replica needs --replica-key-id, the access key's id");
        }
        if self.secret.trim().is_empty() {
            bail!("--replica needs the secret access key (asked for, or --replica-secret-stdin)");
        }
        let mut table = toml::Table::new();
        let mut set = |key: &str, value: &str| {
            table.insert(key.to_string(), toml::Value::String(value.to_string()));
        };
        set("bucket", &bucket);
        set("path", &path);
        set("endpoint", self.endpoint.as_deref().unwrap_or("").trim());
        set("region", self.region.as_deref().unwrap_or("").trim());
        set("access_key_id", key_id);
        set("secret_access_key_file", REPLICA_SECRET);
        Ok(table)
    }
}

/// The configuration as the server reads it now: the file and its
/// drop-ins, without this shell's `DEALERSHIP_*` variables.
pub fn current(conf: &Path) -> anyhow::Result<Config> {
    Config::load_with_env(Some(conf), |_| None)
        .with_context(|| format!("the configuration {} does not load", conf.display()))
}

/// Sets `changes` (top-level keys, and a `[replica]` table whose keys are
/// set one by one) in the drop-in `file` of the configuration `conf`,
/// checking that the server reads the result before it is put in place;
/// true when the file changed. The file is mode 0640, `owner`'s.
pub fn set(
    conf: &Path,
    file: &Path,
    owner: Option<(u32, u32)>,
    changes: &toml::Table,
) -> anyhow::Result<bool> {
    if changes.is_empty() {
        return Ok(false);
    }
    let before = match fs::read_to_string(file) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", file.display())),
    };
    let mut table: toml::Table = toml::from_str(&before)
        .map_err(|e| anyhow::anyhow!("{} is not valid TOML: {}", file.display(), e.message()))?;
    for (key, value) in changes {
        match (table.get_mut(key), value) {
            (Some(toml::Value::Table(into)), toml::Value::Table(from)) => {
                into.extend(from.clone());
            }
            _ => {
                table.insert(key.clone(), value.clone());
            }
        }
    }
    let text = format!(
        "# Written by `dealership setup` (docs/operations.md, \"Install\"): run it again to\n\
         # change these. Read after {} and before the files of this folder\n\
         # whose names sort after it; your own keys go in a file of your own here.\n{}",
        conf.display(),
        toml::to_string(&table).context("cannot write the settings as TOML")?
    );
    if text == before {
        return Ok(false);
    }
    check_loads(conf, file, &text)?;
    let dir = file.parent().context("a drop-in file has a folder")?;
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    write_new(file, text.as_bytes(), 0o640, owner)?;
    Ok(true)
}

/// Fails unless the configuration loads with `text` as the drop-in `file`:
/// read from a copy of the configuration and its drop-ins.
fn check_loads(conf: &Path, file: &Path, text: &str) -> anyhow::Result<()> {
    let scratch = tempfile_dir()?;
    let copy = scratch.join("dealership.toml");
    fs::copy(conf, &copy).with_context(|| format!("cannot read {}", conf.display()))?;
    let drop_ins = drop_in_dir(&copy);
    fs::create_dir(&drop_ins)?;
    if let Ok(entries) = fs::read_dir(drop_in_dir(conf)) {
        for entry in entries.filter_map(Result::ok) {
            if entry.path().is_file() {
                fs::copy(entry.path(), drop_ins.join(entry.file_name()))?;
            }
        }
    }
    let name = file.file_name().context("a drop-in file has a name")?;
    fs::write(drop_ins.join(name), text)?;
    let loaded = Config::load_with_env(Some(&copy), |_| None);
    let _ = fs::remove_dir_all(&scratch);
    if let Err(err) = loaded {
        bail!(
            "the configuration would not load, so {} was left as it was: {err}",
            file.display()
        );
    }
    Ok(())
}

/// A private scratch folder under the system's temporary folder.
fn tempfile_dir() -> anyhow::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = std::env::temp_dir().join(format!(
        "dealership-setup-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    fs::DirBuilder::new()
        .mode(0o700)
        .create(&dir)
        .with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}

/// Writes `bytes` to `path` through a new file renamed over it, with `mode`
/// and, when given, `owner`.
pub fn write_new(
    path: &Path,
    bytes: &[u8],
    mode: u32,
    owner: Option<(u32, u32)>,
) -> anyhow::Result<()> {
    let new = path.with_extension("new");
    let _ = fs::remove_file(&new);
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&new)
        .with_context(|| format!("cannot create {}", new.display()))?;
    file.set_permissions(fs::Permissions::from_mode(mode))?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    if let Some((uid, gid)) = owner {
        std::os::unix::fs::chown(&new, Some(uid), Some(gid))
            .with_context(|| format!("cannot give {} to {uid}:{gid}", new.display()))?;
    }
    fs::rename(&new, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes the secret key to `path` (mode 0600, `owner`'s); true when it
/// changed.
pub fn write_secret(path: &Path, secret: &str, owner: Option<(u32, u32)>) -> anyhow::Result<bool> {
    let text = format!("{}\n", secret.trim());
    if fs::read_to_string(path).is_ok_and(|before| before == text) {
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(path, Some(uid), Some(gid))?;
        }
        fs::set_permissions(path, fs::Permissions::from_mode(0o600))?;
        return Ok(false);
    }
    write_new(path, text.as_bytes(), 0o600, owner)?;
    Ok(true)
}

/// The drop-in files a dealer wrote (before the package, say): readable by
/// the service's group, nobody else (mode 0640, root:group), as the
/// configuration is.
pub fn settle_drop_ins(dir: &Path, owner: Option<(u32, u32)>) -> anyhow::Result<()> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_some_and(|ext| ext == "toml") && path.is_file() {
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640))
                .with_context(|| format!("cannot set the mode of {}", path.display()))?;
            if let Some((uid, gid)) = owner {
                std::os::unix::fs::chown(&path, Some(uid), Some(gid))
                    .with_context(|| format!("cannot give {} to {uid}:{gid}", path.display()))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replica_is_named_as_s3_bucket_and_folder() {
        let replica = |url: &str| Replica {
            url: url.into(),
            access_key_id: "k".into(),
            secret: "s".into(),
            ..Replica::default()
        };
        assert_eq!(
            replica("s3://auto-backups/site").bucket_and_path().unwrap(),
            ("auto-backups".to_string(), "site".to_string())
        );
        assert_eq!(
            replica("s3://auto-backups").bucket_and_path().unwrap(),
            ("auto-backups".to_string(), String::new())
        );
        for bad in [
            "auto-backups",
            "s3://",
            "s3:///site",
            "s3://a b/c",
            "https://x/y",
        ] {
            assert!(replica(bad).bucket_and_path().is_err(), "{bad}");
        }
        let table = replica("s3://b/f").table().unwrap();
        assert_eq!(
            table["secret_access_key_file"].as_str(),
            Some(REPLICA_SECRET)
        );
        let mut keyless = replica("s3://b/f");
        keyless.access_key_id = String::new();
        assert!(keyless.table().is_err());
    }

    #[test]
    fn the_drop_in_is_set_key_by_key_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let conf = dir.path().join("dealership.toml");
        fs::write(&conf, crate::ops::setup::default_config()).unwrap();
        let file = drop_in_dir(&conf).join("50-setup.toml");
        let mut changes = toml::Table::new();
        changes.insert("base_url".into(), "https://auto.example.ru".into());
        assert!(set(&conf, &file, None, &changes).unwrap());
        assert!(!set(&conf, &file, None, &changes).unwrap());
        let mut replica = toml::Table::new();
        replica.insert("bucket".into(), "b".into());
        replica.insert("access_key_id".into(), "k".into());
        replica.insert("secret_access_key_file".into(), "/s".into());
        let mut changes = toml::Table::new();
        changes.insert("replica".into(), toml::Value::Table(replica));
        assert!(set(&conf, &file, None, &changes).unwrap());
        let config = current(&conf).unwrap();
        assert_eq!(config.base_url, "https://auto.example.ru");
        assert_eq!(config.replica.bucket, "b");
        let mode = fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // What would not load is refused, and the file stays.
        let before = fs::read_to_string(&file).unwrap();
        let mut bad = toml::Table::new();
        bad.insert("listen".into(), "nowhere".into());
        let err = set(&conf, &file, None, &bad).unwrap_err().to_string();
        assert!(err.contains("would not load"), "{err}");
        assert_eq!(fs::read_to_string(&file).unwrap(), before);
        // The conffile is never touched.
        assert_eq!(
            fs::read_to_string(&conf).unwrap(),
            crate::ops::setup::default_config()
        );
    }
}
