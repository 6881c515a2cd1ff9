//! `dealership check`: looks over an installation (the configuration, the
//! data directory and its permissions, the database) without changing
//! anything, and says what is wrong. (Before it, like every command, the CLI
//! finishes a restore that was interrupted: `ops::restore::finish_interrupted`.)

use std::fmt;
use std::fs::File;
use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use crate::config::Config;

/// How a finding counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Ok,
    /// Worth knowing; nothing to fix.
    Note,
    /// Something to fix: `check` exits with an error.
    Problem,
}

/// One line of the report.
#[derive(Debug, Clone)]
pub struct Finding {
    pub level: Level,
    pub text: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tag = match self.level {
            Level::Ok => "ok",
            Level::Note => "note",
            Level::Problem => "PROBLEM",
        };
        write!(f, "{tag:>7}: {}", self.text)
    }
}

#[derive(Debug, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
}

impl Report {
    fn add(&mut self, level: Level, text: impl Into<String>) {
        self.findings.push(Finding {
            level,
            text: text.into(),
        });
    }

    pub fn problems(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.level == Level::Problem)
            .count()
    }
}

/// Checks the installation `config` describes, read from `file` when one
/// was named. The configuration itself was validated when it was loaded.
pub fn check(config: &Config, file: Option<&Path>) -> Report {
    let mut report = Report::default();
    if let Some(file) = file {
        config_file(file, &mut report);
    }
    match config.listen_addr() {
        Ok(addr) => report.add(
            Level::Ok,
            format!(
                "configuration: listens on {addr}, public URL {}",
                config.base_url
            ),
        ),
        Err(err) => report.add(Level::Problem, format!("configuration: {err}")),
    }
    if !config.is_https() {
        report.add(
            Level::Note,
            format!(
                "base_url {} is not https: fine for a test, but a public site needs HTTPS \
                 (a proxy in front, see docs/operations.md)",
                config.base_url
            ),
        );
    }
    if config.is_https() && config.trusted_proxies.is_empty() {
        report.add(
            Level::Note,
            "trusted_proxies is empty: behind a proxy every visitor has the proxy's address \
             (the lead rate limit counts them as one)",
        );
    }
    if data_dir(config, &mut report) {
        database(config, &mut report);
        server(config, &mut report);
    }
    replication(config, &mut report);
    marketplaces(config, &mut report);
    report
}

/// Each configured marketplace's connection, checked as «Проверить
/// подключение» checks it (`docs/marketplaces.md`, "Jobs and checks"): its
/// secret files and a call with its keys. Not configured: a note.
fn marketplaces(config: &Config, report: &mut Report) {
    use crate::marketplaces::{Channel, MarketError, Patience};
    use crate::marketplaces::{autoru::Autoru, avito::Avito};
    // A check answers within seconds: two tries, short pauses.
    let patience = Patience {
        attempts: 2,
        first: std::time::Duration::from_secs(1),
        longest: std::time::Duration::from_secs(5),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            report.add(Level::Problem, format!("marketplaces: {err}"));
            return;
        }
    };
    let http = Avito::http_client;
    for channel in [Channel::Avito, Channel::Autoru] {
        let checked: Result<String, MarketError> = runtime.block_on(async {
            match channel {
                Channel::Avito => Avito::new(&config.avito, http(), patience)?.check().await,
                _ => Autoru::new(&config.autoru, http(), patience)?.check().await,
            }
        });
        let name = channel.label();
        match checked {
            Ok(line) => report.add(Level::Ok, format!("marketplace {name}: {line}")),
            Err(MarketError::NotConfigured(_)) => report.add(
                Level::Note,
                format!(
                    "marketplace {name} is not configured ([{}])",
                    channel.as_str()
                ),
            ),
            Err(err) => report.add(Level::Problem, format!("marketplace {name}: {err}")),
        }
    }
}

/// With `[replica]`: the secret key's file and Litestream, as `serve`
/// checks them before it starts.
fn replication(config: &Config, report: &mut Report) {
    use crate::ops::replica;
    let replica = &config.replica;
    if !replica.is_enabled() {
        report.add(Level::Note, "replication is off (no [replica] bucket)");
        return;
    }
    let secret = match super::bucket::read_secret(&replica.secret_access_key_file) {
        Ok(secret) => {
            report.add(
                Level::Ok,
                format!(
                    "replication: the secret key's file {} is the service user's alone",
                    replica.secret_access_key_file.display()
                ),
            );
            Some(secret)
        }
        Err(err) => {
            report.add(Level::Problem, format!("{err:#}"));
            None
        }
    };
    match replica::find_litestream(&replica.litestream_bin) {
        Ok(program) => report.add(
            Level::Ok,
            format!("replication: Litestream is {}", program.display()),
        ),
        Err(err) => report.add(Level::Problem, format!("{err:#}")),
    }
    if let Some(secret) = secret {
        replication_state(config, &secret, report);
    }
}

/// How far replication got, as the bucket and the data directory show it
/// (`crate::ops::replica_state`): the bucket must answer to the key, and no
/// change may have waited more than its limit to reach it.
fn replication_state(config: &Config, secret: &str, report: &mut Report) {
    use crate::ops::replica_state::{LAG_LIMIT, look};
    let bucket = match crate::ops::bucket::Bucket::open(&config.replica, secret) {
        Ok(bucket) => bucket,
        Err(err) => {
            report.add(Level::Problem, format!("replication: {err:#}"));
            return;
        }
    };
    let queue =
        Connection::open_with_flags(config.database_path(), OpenFlags::SQLITE_OPEN_READ_ONLY)
            .ok()
            .and_then(|conn| crate::media::uploads::state(&conn).ok())
            .unwrap_or_default();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            report.add(Level::Problem, format!("replication: no runtime: {err}"));
            return;
        }
    };
    let status = runtime.block_on(look(&bucket, &config.data_dir, queue, None, None));
    if let Some(why) = &status.bucket_error {
        report.add(
            Level::Problem,
            format!(
                "replication: the bucket {} cannot be read with the key: {why}",
                status.target
            ),
        );
        return;
    }
    // What `serve` would do (`crate::ops::replica_guard`).
    {
        use crate::ops::replica_guard::{Verdict, decide, look_here, refusal};
        let here = look_here(&config.data_dir);
        let has_replica = status.replicated_txid.is_some();
        if decide(here, has_replica, config.replica.allow_overwrite) == Verdict::Refuse {
            report.add(Level::Problem, refusal(&status.target, here));
        }
    }
    let age = |at: &Option<String>| {
        at.as_deref()
            .and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok())
            .map(|at| {
                let age = (chrono::Utc::now() - at.with_timezone(&chrono::Utc))
                    .to_std()
                    .unwrap_or_default();
                format!("{at} ({} ago)", english_duration(age))
            })
            .unwrap_or_else(|| "none yet".to_string())
    };
    report.add(
        Level::Ok,
        format!(
            "replication: the bucket {} answers; last replicated transaction {} uploaded {}; \
             last snapshot {}",
            status.target,
            status.replicated_txid.as_deref().unwrap_or("none"),
            age(&status.replicated_at),
            age(&status.snapshot_at)
        ),
    );
    match status.lag_seconds {
        Some(lag) if lag > LAG_LIMIT.as_secs() as i64 => report.add(
            Level::Problem,
            format!(
                "replication lags: a change has waited {} to reach the bucket (limit {}); \
                 see journalctl -u dealership | grep litestream",
                english_duration(std::time::Duration::from_secs(lag as u64)),
                english_duration(LAG_LIMIT)
            ),
        ),
        Some(0) => report.add(
            Level::Ok,
            format!(
                "replication: the bucket has every change Litestream took from the database \
                 here (its last: {})",
                status.local_txid.as_deref().unwrap_or("none kept")
            ),
        ),
        Some(lag) => report.add(
            Level::Ok,
            format!(
                "replication: the bucket has every change but those of the last {} \
                 (the database's transaction {} here)",
                english_duration(std::time::Duration::from_secs(lag as u64)),
                status.local_txid.as_deref().unwrap_or("none")
            ),
        ),
        None => {}
    }
    let pictures = match (status.media_pending, status.media_failing) {
        (0, _) => "replication: every picture is in the bucket".to_string(),
        (pending, 0) => {
            format!("replication: {pending} picture(s) wait to be copied to the bucket")
        }
        (pending, failing) => format!(
            "replication: {pending} picture(s) wait to be copied to the bucket, {failing} of them \
             failed last time: {}",
            status.media_last_error.as_deref().unwrap_or("")
        ),
    };
    report.add(
        if status.media_failing > 0 {
            Level::Note
        } else {
            Level::Ok
        },
        pictures,
    );
}

/// A duration for the report: "42 s", "6 min", "3 h 2 min".
fn english_duration(duration: std::time::Duration) -> String {
    let seconds = duration.as_secs();
    match seconds {
        0..60 => format!("{seconds} s"),
        60..3600 => format!("{} min", seconds / 60),
        _ => format!("{} h {} min", seconds / 3600, seconds % 3600 / 60),
    }
}

/// A configuration holding passwords must not be readable by everyone.
#[cfg(unix)]
fn config_file(file: &Path, report: &mut Report) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::metadata(file) else {
        return;
    };
    let mode = meta.permissions().mode() & 0o777;
    let secrets = std::fs::read_to_string(file)
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .is_some_and(|table| holds_secrets(&table));
    if mode & 0o004 != 0 && secrets {
        report.add(
            Level::Problem,
            format!(
                "configuration {} holds passwords and can be read by every user of the machine \
                 (mode {mode:o}); chmod 640 it (owner root, group dealership)",
                file.display()
            ),
        );
    }
}

#[cfg(not(unix))]
fn config_file(_file: &Path, _report: &mut Report) {}

/// Whether a key named like a password, secret or token has a value.
fn holds_secrets(table: &toml::Table) -> bool {
    table.iter().any(|(key, value)| match value {
        toml::Value::Table(inner) => holds_secrets(inner),
        toml::Value::String(text) => {
            let key = key.to_ascii_lowercase();
            ["password", "secret", "token"]
                .iter()
                .any(|word| key.contains(word))
                && !text.trim().is_empty()
        }
        _ => false,
    })
}

/// Gives whether the directory is there to look into.
fn data_dir(config: &Config, report: &mut Report) -> bool {
    let dir = &config.data_dir;
    let meta = match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => meta,
        Ok(_) => {
            report.add(
                Level::Problem,
                format!("data directory {} is not a directory", dir.display()),
            );
            return false;
        }
        Err(err) => {
            report.add(
                Level::Problem,
                format!(
                    "data directory {} cannot be read ({err}); \
                     `dealership serve` creates it, install.sh makes /var/lib/dealership",
                    dir.display()
                ),
            );
            return false;
        }
    };
    writable(dir, "data directory", report);
    permissions(dir, &meta, "data directory", report);
    let media = config.media_dir();
    match std::fs::metadata(&media) {
        Ok(meta) if meta.is_dir() => writable(&media, "media folder", report),
        Ok(_) => report.add(
            Level::Problem,
            format!("media folder {} is not a directory", media.display()),
        ),
        Err(_) => report.add(
            Level::Note,
            format!(
                "media folder {} does not exist yet (the server creates it)",
                media.display()
            ),
        ),
    }
    true
}

fn writable(dir: &Path, what: &str, report: &mut Report) {
    let probe = dir.join(format!(".check-{}", std::process::id()));
    match std::fs::write(&probe, b"ok") {
        Ok(()) => {
            let _ = std::fs::remove_file(&probe);
            report.add(Level::Ok, format!("{what} {} is writable", dir.display()));
        }
        Err(err) => report.add(
            Level::Problem,
            format!(
                "{what} {} is not writable by this user ({err}); the server must write there \
                 (run check as the service user: runuser -u dealership -- dealership check, as root)",
                dir.display()
            ),
        ),
    }
}

#[cfg(unix)]
fn permissions(path: &Path, meta: &std::fs::Metadata, what: &str, report: &mut Report) {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode() & 0o7777;
    if mode & 0o002 != 0 && mode & 0o1000 == 0 {
        report.add(
            Level::Problem,
            format!(
                "{what} {} can be written by every user of the machine (mode {mode:o}); \
                 chmod o-w it",
                path.display()
            ),
        );
    }
}

#[cfg(not(unix))]
fn permissions(_path: &Path, _meta: &std::fs::Metadata, _what: &str, _report: &mut Report) {}

fn database(config: &Config, report: &mut Report) {
    let path = config.database_path();
    let meta = match std::fs::metadata(&path) {
        Ok(meta) => meta,
        Err(_) => {
            report.add(
                Level::Problem,
                format!(
                    "no database at {}: start the server or run `dealership migrate`",
                    path.display()
                ),
            );
            return;
        }
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        // Others reach the file only through a directory they may enter.
        let enterable = std::fs::metadata(&config.data_dir)
            .map(|d| d.permissions().mode() & 0o001 != 0)
            .unwrap_or(true);
        if mode & 0o004 != 0 && enterable {
            report.add(
                Level::Problem,
                format!(
                    "database {} can be read by every user of the machine (mode {mode:o}, in a \
                     directory anyone may enter) and holds personal data (leads); chmod o-rwx \
                     the file or the data directory",
                    path.display()
                ),
            );
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    let conn = match Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY) {
        Ok(conn) => conn,
        Err(err) => {
            report.add(
                Level::Problem,
                format!("database {} cannot be opened: {err}", path.display()),
            );
            return;
        }
    };
    let _ = conn.busy_timeout(std::time::Duration::from_secs(5));
    let integrity: rusqlite::Result<Vec<String>> = conn
        .prepare("PRAGMA integrity_check")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect());
    match integrity {
        Ok(rows) if rows == ["ok"] => report.add(
            Level::Ok,
            format!(
                "database {} passes SQLite's integrity check",
                path.display()
            ),
        ),
        Ok(rows) => report.add(
            Level::Problem,
            format!(
                "database {} is damaged: {}; restore a backup (docs/operations.md)",
                path.display(),
                rows.into_iter().take(5).collect::<Vec<_>>().join("; ")
            ),
        ),
        Err(err) => {
            report.add(
                Level::Problem,
                format!("database {} cannot be read: {err}", path.display()),
            );
            return;
        }
    }
    let known = crate::db::known_version();
    let by = match crate::db::migrated_by(&conn) {
        Ok(Some(version)) => format!(" (migrated by dealership {version})"),
        _ => String::new(),
    };
    match crate::db::applied_version(&conn) {
        Ok(Some(applied)) if applied == known => report.add(
            Level::Ok,
            format!("database schema is at version {applied}{by}, the one this binary knows"),
        ),
        Ok(Some(applied)) if applied < known => report.add(
            Level::Note,
            format!(
                "database schema is at version {applied}; the server migrates it to {known} \
                 when it starts (or run `dealership migrate`)"
            ),
        ),
        Ok(Some(applied)) => report.add(
            Level::Problem,
            format!(
                "database schema is at version {applied}{by}, but this dealership {} knows \
                 versions up to {known}: a newer version of dealership migrated it",
                env!("CARGO_PKG_VERSION")
            ),
        ),
        Ok(None) => report.add(
            Level::Problem,
            format!(
                "{} is not a dealership database (it has no schema history)",
                path.display()
            ),
        ),
        Err(err) => report.add(Level::Problem, format!("{err:#}")),
    }
}

/// Says whether a server holds the data directory (a shared lock attempt,
/// which changes nothing).
fn server(config: &Config, report: &mut Report) {
    let path = config.data_dir.join(super::lock::LOCK_FILE);
    let Ok(file) = File::open(&path) else {
        report.add(Level::Note, "no server is running on this data directory");
        return;
    };
    match file.try_lock_shared() {
        Ok(()) => report.add(Level::Note, "no server is running on this data directory"),
        Err(std::fs::TryLockError::WouldBlock) => {
            let pid = std::fs::read_to_string(&path).unwrap_or_default();
            report.add(
                Level::Ok,
                format!(
                    "a server is running on this data directory (process {})",
                    pid.trim()
                ),
            );
        }
        Err(std::fs::TryLockError::Error(_)) => {}
    }
}
