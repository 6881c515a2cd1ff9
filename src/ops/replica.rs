//! Continuous replication of the database to S3 by Litestream, supervised
//! by `serve` (`[replica]` in the configuration; docs/operations.md,
//! "Replication (Litestream)").
//!
//! `serve` writes `litestream.yml` into the data directory (mode 600,
//! without the secret key), starts `litestream replicate` as a child with a
//! clean environment (only `PATH` and the two `LITESTREAM_*` credentials: a
//! stray `AWS_CA_BUNDLE`, for example, makes Litestream 0.5 refuse to start
//! its S3 client), forwards its output to the site's log line by line,
//! starts it again with a growing pause (1 s, doubled up to 60 s, back to
//! 1 s after a minute of running) whenever it ends, and stops it last, once
//! the HTTP server, the jobs and the database work have finished: a last
//! `litestream sync` through its control socket, then SIGTERM, SIGKILL after
//! [`STOP_WAIT`].
//!
//! The child runs in its own process group, so a Ctrl-C in a terminal does
//! not stop it before the site's last writes; should the site be killed
//! outright, the Litestream it leaves is found by its pid file and command
//! line at the next start and stopped before a new one starts.
//!
//! Replication never stops the site: a wrong key, an unreachable endpoint
//! or a dying Litestream is logged and retried while the site serves. Nor
//! does it replace the bucket's copy with nothing: a database that holds
//! nothing is not replicated over a replica (`super::replica_guard`).

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::{Child, Command};
use tokio_util::sync::CancellationToken;

use super::bucket::{Bucket, read_secret};
use super::replica_guard::{self, Guard};
use super::replica_state::ReplicaMonitor;
use crate::config::{Config, ReplicaConfig};

/// Litestream's configuration, written by `serve` into the data directory.
pub const CONFIG_FILE: &str = "litestream.yml";
/// The running Litestream's process id, in the data directory.
pub const PID_FILE: &str = "litestream.pid";
/// The first pause before Litestream is started again.
pub const FIRST_RESTART_PAUSE: Duration = Duration::from_secs(1);
/// The longest pause between two starts.
pub const LONGEST_RESTART_PAUSE: Duration = Duration::from_secs(60);
/// A run this long counts as healthy: the next pause is the first again.
pub const HEALTHY_RUN: Duration = Duration::from_secs(60);
/// Litestream's control socket, in the data directory: the site asks
/// through it for a last sync before it stops Litestream.
pub const SOCKET_FILE: &str = "litestream.sock";
/// How long the last sync may take.
pub const LAST_SYNC_WAIT: Duration = Duration::from_secs(5);
/// How long Litestream gets to end after SIGTERM.
pub const STOP_WAIT: Duration = Duration::from_secs(5);
/// The longest path of a Unix socket (108 bytes with its final zero).
const SOCKET_PATH_MAX: usize = 100;
/// `PATH` for Litestream when the site has none.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Litestream running under the site's watch; stopped when dropped.
pub struct Replication {
    stop: CancellationToken,
    supervisor: Option<std::thread::JoinHandle<()>>,
}

impl Replication {
    /// Starts replication when `[replica]` names a bucket: checks the secret
    /// key's file and finds Litestream (either missing refuses the start),
    /// writes its configuration, stops a Litestream an earlier run left, and
    /// starts the supervisor on a thread of its own, so it outlives the
    /// server's runtime and stops Litestream after it.
    /// Whether Litestream runs is told to `monitor`.
    pub fn start(
        config: &Config,
        monitor: Arc<ReplicaMonitor>,
    ) -> anyhow::Result<Option<Replication>> {
        let replica = &config.replica;
        if !replica.is_enabled() {
            return Ok(None);
        }
        let litestream = Litestream::prepare(config, monitor)?;
        let stop = CancellationToken::new();
        let supervisor = std::thread::Builder::new()
            .name("replica".into())
            .spawn({
                let stop = stop.clone();
                move || {
                    let runtime = match tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                    {
                        Ok(runtime) => runtime,
                        Err(err) => {
                            tracing::error!("replication not started: no runtime: {err}");
                            return;
                        }
                    };
                    runtime.block_on(litestream.supervise(stop));
                }
            })
            .context("cannot start the replication thread")?;
        tracing::info!(
            "replicating the database to s3 bucket {:?}, folder {:?}{}",
            replica.bucket.trim(),
            replica.bucket_path(),
            match replica.endpoint.trim() {
                "" => String::new(),
                endpoint => format!(" at {endpoint}"),
            }
        );
        Ok(Some(Replication {
            stop,
            supervisor: Some(supervisor),
        }))
    }

    /// Stops Litestream (a last sync, SIGTERM, SIGKILL after [`STOP_WAIT`])
    /// and waits for the supervisor to end.
    pub fn stop(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        self.stop.cancel();
        if let Some(supervisor) = self.supervisor.take()
            && supervisor.join().is_err()
        {
            tracing::error!("the replication supervisor panicked");
        }
    }
}

impl Drop for Replication {
    fn drop(&mut self) {
        self.stop_now();
    }
}

/// How to run Litestream for this site.
struct Litestream {
    program: PathBuf,
    config_file: PathBuf,
    pid_file: PathBuf,
    database: PathBuf,
    /// Litestream's control socket, when its path is short enough for one.
    socket: Option<PathBuf>,
    access_key_id: String,
    secret_access_key: String,
    /// The storage's `host:port`, looked at by [`watch_storage`].
    storage_address: Option<String>,
    /// Told whether Litestream runs.
    monitor: Arc<ReplicaMonitor>,
    /// What is looked at before Litestream first starts.
    guard: Guard,
}

impl Litestream {
    fn prepare(config: &Config, monitor: Arc<ReplicaMonitor>) -> anyhow::Result<Litestream> {
        let replica = &config.replica;
        let secret_access_key = read_secret(&replica.secret_access_key_file)?;
        let program = find_litestream(&replica.litestream_bin)?;
        let data_dir = std::path::absolute(&config.data_dir).with_context(|| {
            format!(
                "cannot resolve the data directory {}",
                config.data_dir.display()
            )
        })?;
        let config_file = data_dir.join(CONFIG_FILE);
        let pid_file = data_dir.join(PID_FILE);
        let database = data_dir.join(crate::ops::DB_ENTRY);
        let socket = Some(data_dir.join(SOCKET_FILE))
            .filter(|path| path.as_os_str().len() <= SOCKET_PATH_MAX);
        if socket.is_none() {
            tracing::warn!(
                "replication: the data directory's path is too long for Litestream's control \
                 socket; the site cannot ask for a last sync when it stops"
            );
        }
        stop_orphan(&pid_file, &config_file);
        // Before the site takes its first request: a lead taken meanwhile
        // does not make a new host's database the bucket's.
        let guard = Guard {
            here: replica_guard::look_here(&data_dir),
            allow_overwrite: replica.allow_overwrite,
            bucket: Bucket::open(replica, &secret_access_key)?,
            data_dir: data_dir.clone(),
        };
        write_private(
            &config_file,
            &litestream_config(&database, socket.as_deref(), replica),
        )?;
        Ok(Litestream {
            program,
            config_file,
            pid_file,
            database,
            socket,
            access_key_id: replica.access_key_id.trim().to_string(),
            secret_access_key,
            storage_address: storage_address(replica),
            monitor,
            guard,
        })
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command
            .arg("replicate")
            .arg("-config")
            .arg(&self.config_file)
            // Values are written as they are: a `$` in them stays.
            .arg("-no-expand-env")
            .env_clear()
            .env(
                "PATH",
                std::env::var_os("PATH").unwrap_or_else(|| DEFAULT_PATH.into()),
            )
            .env("LITESTREAM_ACCESS_KEY_ID", &self.access_key_id)
            .env("LITESTREAM_SECRET_ACCESS_KEY", &self.secret_access_key)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Not in the site's process group: a Ctrl-C reaches the site,
            // which stops Litestream last.
            .process_group(0)
            .kill_on_drop(true);
        command
    }

    /// Runs Litestream until `stop`, starting it again whenever it ends.
    async fn supervise(self, stop: CancellationToken) {
        if let Some(address) = &self.storage_address {
            tokio::spawn(watch_storage(address.clone(), stop.clone()));
        }
        if !self.guard.cleared(&self.monitor, &stop).await {
            return;
        }
        let mut pause = FIRST_RESTART_PAUSE;
        loop {
            let started = Instant::now();
            let ended = match self.command().spawn() {
                Ok(child) => {
                    self.monitor.litestream_up();
                    self.watch(child, &stop).await
                }
                Err(err) => Some(format!("cannot start {}: {err}", self.program.display())),
            };
            let Some(why) = ended else {
                // Stopped on purpose.
                return;
            };
            self.monitor.litestream_down(&why);
            if stop.is_cancelled() {
                return;
            }
            if started.elapsed() >= HEALTHY_RUN {
                pause = FIRST_RESTART_PAUSE;
            }
            tracing::warn!(
                "replication: {why}; starting Litestream again in {} s",
                pause.as_secs()
            );
            tokio::select! {
                () = tokio::time::sleep(pause) => {}
                () = stop.cancelled() => return,
            }
            pause = (pause * 2).min(LONGEST_RESTART_PAUSE);
        }
    }

    /// Forwards the output of a started Litestream until it ends (giving
    /// why) or `stop` (stopping it, giving None).
    async fn watch(&self, mut child: Child, stop: &CancellationToken) -> Option<String> {
        let pid = child.id();
        if let Some(pid) = pid
            && let Err(err) = std::fs::write(&self.pid_file, format!("{pid}\n"))
        {
            tracing::warn!(
                "replication: cannot write {}: {err}",
                self.pid_file.display()
            );
        }
        let mut forwarders = tokio::task::JoinSet::new();
        if let Some(out) = child.stdout.take() {
            forwarders.spawn(forward_lines(out));
        }
        if let Some(err) = child.stderr.take() {
            forwarders.spawn(forward_lines(err));
        }
        let ended = tokio::select! {
            status = child.wait() => Some(match status {
                Ok(status) => format!("Litestream ended ({})", describe(status)),
                Err(err) => format!("cannot wait for Litestream: {err}"),
            }),
            () = stop.cancelled() => {
                self.last_sync().await;
                terminate(&mut child).await;
                None
            }
        };
        // Its last lines, once its pipes close.
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            while forwarders.join_next().await.is_some() {}
        })
        .await;
        let _ = std::fs::remove_file(&self.pid_file);
        ended
    }

    /// Asks the running Litestream to send what it has not sent yet, and
    /// waits for it ([`LAST_SYNC_WAIT`] at most): on SIGTERM alone it ends
    /// without a last sync (one that had not looked at the database yet sent
    /// nothing at all).
    async fn last_sync(&self) {
        let Some(socket) = &self.socket else { return };
        let wait = LAST_SYNC_WAIT.as_secs().to_string();
        let synced = Command::new(&self.program)
            .arg("sync")
            .args(["-wait", "-timeout", &wait, "-socket"])
            .arg(socket)
            .arg(&self.database)
            .env_clear()
            .env(
                "PATH",
                std::env::var_os("PATH").unwrap_or_else(|| DEFAULT_PATH.into()),
            )
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .output();
        match tokio::time::timeout(LAST_SYNC_WAIT + Duration::from_secs(1), synced).await {
            Ok(Ok(out)) if out.status.success() => {
                tracing::info!("replication: the last writes are in the replica");
            }
            Ok(Ok(out)) => tracing::warn!(
                "replication: the last sync failed ({}): {}",
                describe(out.status),
                String::from_utf8_lossy(&out.stderr).trim()
            ),
            Ok(Err(err)) => tracing::warn!("replication: cannot ask for a last sync: {err}"),
            Err(_) => tracing::warn!(
                "replication: the last sync did not end within {} s",
                LAST_SYNC_WAIT.as_secs()
            ),
        }
    }
}

/// How often the storage's address is tried.
const STORAGE_LOOK_EVERY: Duration = Duration::from_secs(60);
/// How long a connection to the storage may take.
const STORAGE_CONNECT_WAIT: Duration = Duration::from_secs(10);

/// The `host:port` replication connects to: the endpoint's, or Amazon's
/// for the region.
fn storage_address(replica: &ReplicaConfig) -> Option<String> {
    let endpoint = replica.endpoint.trim();
    if endpoint.is_empty() {
        let region = match replica.region.trim() {
            "" => "us-east-1",
            region => region,
        };
        return Some(format!("s3.{region}.amazonaws.com:443"));
    }
    let (default_port, rest) = if let Some(rest) = endpoint.strip_prefix("https://") {
        (443, rest)
    } else {
        (80, endpoint.strip_prefix("http://")?)
    };
    let authority = rest.split(['/', '?']).next()?;
    let authority = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    if authority.is_empty() {
        return None;
    }
    // A port is what follows the last colon outside IPv6 brackets.
    let has_port = authority.rsplit_once(':').is_some_and(|(host, port)| {
        !port.contains(']') && (!host.contains('[') || host.ends_with(']'))
    });
    Some(if has_port {
        authority.to_string()
    } else {
        format!("{authority}:{default_port}")
    })
}

/// Says in the log when the storage cannot be reached, and when it can
/// again: Litestream itself retries quietly for minutes (an unreachable
/// endpoint left no line in its log for over a minute).
async fn watch_storage(address: String, stop: CancellationToken) {
    let mut reachable = true;
    loop {
        let attempt = tokio::time::timeout(
            STORAGE_CONNECT_WAIT,
            tokio::net::TcpStream::connect(address.as_str()),
        )
        .await;
        let failure = match attempt {
            Ok(Ok(_)) => None,
            Ok(Err(err)) => Some(err.to_string()),
            Err(_) => Some(format!(
                "no answer within {} s",
                STORAGE_CONNECT_WAIT.as_secs()
            )),
        };
        match (failure, reachable) {
            (Some(why), true) => {
                tracing::warn!(
                    "replication: the storage at {address} cannot be reached ({why}); \
                     nothing is replicated until it can, the site goes on"
                );
                reachable = false;
            }
            (None, false) => {
                tracing::info!("replication: the storage at {address} can be reached again");
                reachable = true;
            }
            _ => {}
        }
        tokio::select! {
            () = tokio::time::sleep(STORAGE_LOOK_EVERY) => {}
            () = stop.cancelled() => return,
        }
    }
}

/// SIGTERM, then SIGKILL when Litestream has not ended within [`STOP_WAIT`].
async fn terminate(child: &mut Child) {
    if let Some(pid) = child.id().and_then(|id| i32::try_from(id).ok()) {
        signal(pid, rustix::process::Signal::TERM);
        match tokio::time::timeout(STOP_WAIT, child.wait()).await {
            Ok(Ok(status)) => {
                tracing::info!("replication: Litestream stopped ({})", describe(status));
                return;
            }
            Ok(Err(err)) => tracing::warn!("replication: cannot wait for Litestream: {err}"),
            Err(_) => tracing::warn!(
                "replication: Litestream did not stop within {} s of SIGTERM; killing it",
                STOP_WAIT.as_secs()
            ),
        }
    }
    if let Err(err) = child.kill().await {
        tracing::warn!("replication: cannot kill Litestream: {err}");
    }
}

fn signal(pid: i32, signal: rustix::process::Signal) {
    if let Some(pid) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process(pid, signal);
    }
}

fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        (None, None) => status.to_string(),
    }
}

/// Logs each line Litestream writes, without its own time stamp (the log
/// has one), at warning level for its warnings and errors.
async fn forward_lines(stream: impl AsyncRead + Unpin) {
    let mut lines = BufReader::new(stream).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let line = strip_time(&line);
        if line.is_empty() {
            continue;
        }
        if line.contains("level=ERROR") || line.contains("level=WARN") || line.starts_with("Error")
        {
            tracing::warn!("litestream: {line}");
        } else {
            tracing::info!("litestream: {line}");
        }
    }
}

fn strip_time(line: &str) -> &str {
    let line = line.trim();
    match line.strip_prefix("time=") {
        Some(rest) => rest
            .split_once(' ')
            .map_or("", |(_, rest)| rest.trim_start()),
        None => line,
    }
}

/// The Litestream program: `litestream_bin` when set, else `litestream`
/// on `PATH`.
pub fn find_litestream(litestream_bin: &Path) -> anyhow::Result<PathBuf> {
    if !litestream_bin.as_os_str().is_empty() {
        if litestream_bin.is_file() {
            return Ok(litestream_bin.to_path_buf());
        }
        bail!(
            "replica.litestream_bin {}: no such program (install.sh --litestream installs it)",
            litestream_bin.display()
        );
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| DEFAULT_PATH.into());
    std::env::split_paths(&path)
        .map(|dir| dir.join("litestream"))
        .find(|candidate| candidate.is_file())
        .context(
            "replication is configured ([replica] bucket) but Litestream is not on PATH: \
             install it (install.sh --litestream) or set replica.litestream_bin",
        )
}

/// Litestream's configuration for the database at `database`, with its
/// control socket at `socket`: no secret in it (the key comes through the
/// environment), every value quoted.
pub(super) fn litestream_config(
    database: &Path,
    socket: Option<&Path>,
    replica: &ReplicaConfig,
) -> String {
    let quoted = |text: &str| serde_json::Value::from(text).to_string();
    let mut yaml = String::from(
        "# Written by `dealership serve` from the [replica] section of its\n\
         # configuration at every start: change that, not this.\n",
    );
    if let Some(socket) = socket {
        yaml.push_str(&format!(
            "socket:\n  enabled: true\n  path: {}\n  permissions: 0600\n",
            quoted(&socket.to_string_lossy())
        ));
    }
    yaml.push_str(&format!(
        "dbs:\n  - path: {}\n    replica:\n      type: s3\n      bucket: {}\n      path: {}\n",
        quoted(&database.to_string_lossy()),
        quoted(replica.bucket.trim()),
        quoted(replica.bucket_path()),
    ));
    let region = replica.region.trim();
    if !region.is_empty() {
        yaml.push_str(&format!("      region: {}\n", quoted(region)));
    }
    let endpoint = replica.endpoint.trim();
    if !endpoint.is_empty() {
        // Every S3-compatible service takes path-style addresses; not all
        // take the bucket as a host name.
        yaml.push_str(&format!(
            "      endpoint: {}\n      force-path-style: true\n",
            quoted(endpoint)
        ));
    }
    yaml
}

/// Writes `text` to `path` for the service user alone, replacing it whole.
fn write_private(path: &Path, text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let partial = path.with_extension("yml.partial");
    let _ = std::fs::remove_file(&partial);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&partial)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Stops the Litestream an earlier run of the site left running (killed
/// with SIGKILL, it could not stop its child): the process its pid file
/// names, when that is still `litestream replicate` with this data
/// directory's configuration.
fn stop_orphan(pid_file: &Path, config_file: &Path) {
    let Some(pid) = std::fs::read_to_string(pid_file)
        .ok()
        .and_then(|text| text.trim().parse::<i32>().ok())
    else {
        return;
    };
    if is_our_litestream(pid, config_file) {
        tracing::warn!(
            "replication: a Litestream left by an earlier run (process {pid}) is still \
             replicating this database; stopping it"
        );
        signal(pid, rustix::process::Signal::TERM);
        let deadline = Instant::now() + STOP_WAIT;
        while is_running(pid) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        if is_running(pid) {
            signal(pid, rustix::process::Signal::KILL);
            let deadline = Instant::now() + Duration::from_secs(2);
            while is_running(pid) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
    let _ = std::fs::remove_file(pid_file);
}

/// Whether process `pid` is `litestream replicate -config <config_file>`.
fn is_our_litestream(pid: i32, config_file: &Path) -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    let config = config_file.as_os_str().as_encoded_bytes();
    args.contains(&b"replicate".as_slice()) && args.contains(&config) && is_running(pid)
}

/// Whether process `pid` exists and has not ended (a zombie has).
fn is_running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command's name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_quotes_values_and_holds_no_secret() {
        let replica = ReplicaConfig {
            endpoint: "http://127.0.0.1:9000".into(),
            bucket: "backups".into(),
            path: "/site: \"a\"/".into(),
            region: "ru-central1".into(),
            access_key_id: "KEY".into(),
            secret_access_key_file: "/etc/secret".into(),
            litestream_bin: PathBuf::new(),
            allow_overwrite: false,
        };
        let yaml = litestream_config(
            Path::new("/var/lib/dealership/dealership.db"),
            Some(Path::new("/var/lib/dealership/litestream.sock")),
            &replica,
        );
        assert!(
            yaml.contains(
                "socket:\n  enabled: true\n  path: \"/var/lib/dealership/litestream.sock\"\n"
            ),
            "{yaml}"
        );
        assert!(
            yaml.contains("  - path: \"/var/lib/dealership/dealership.db\"\n"),
            "{yaml}"
        );
        assert!(yaml.contains("      bucket: \"backups\"\n"), "{yaml}");
        assert!(yaml.contains("      path: \"site: \\\"a\\\"\"\n"), "{yaml}");
        assert!(yaml.contains("      region: \"ru-central1\"\n"), "{yaml}");
        assert!(yaml.contains("      force-path-style: true\n"), "{yaml}");
        assert!(
            !yaml.contains("KEY") && !yaml.contains("/etc/secret"),
            "{yaml}"
        );
        let aws = litestream_config(
            Path::new("/d/dealership.db"),
            None,
            &ReplicaConfig {
                bucket: "b".into(),
                ..ReplicaConfig::default()
            },
        );
        assert!(aws.contains("      path: \"dealership\"\n"), "{aws}");
        assert!(
            !aws.contains("endpoint") && !aws.contains("region"),
            "{aws}"
        );
        assert!(!aws.contains("socket"), "{aws}");
    }

    #[test]
    fn a_secret_file_others_can_read_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret");
        std::fs::write(&path, "s3cr3t\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let err = read_secret(&path).unwrap_err().to_string();
        assert!(err.contains("can be read by others (mode 0640)"), "{err}");
        assert!(err.contains("chmod 600"), "{err}");
        assert!(!err.contains("s3cr3t"), "{err}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o400)).unwrap();
        assert_eq!(read_secret(&path).unwrap(), "s3cr3t");
        let err = read_secret(&dir.path().join("none")).unwrap_err();
        assert!(format!("{err:#}").contains("cannot read it"), "{err:#}");
    }

    #[test]
    fn litestream_lines_lose_their_time_stamp() {
        assert_eq!(
            strip_time("time=2026-11-27T00:08:00.668Z level=INFO msg=\"initialized db\""),
            "level=INFO msg=\"initialized db\""
        );
        assert_eq!(
            strip_time("Error: cannot open store"),
            "Error: cannot open store"
        );
    }

    #[test]
    fn the_storage_address_has_a_port() {
        let with = |endpoint: &str| {
            storage_address(&ReplicaConfig {
                endpoint: endpoint.into(),
                bucket: "b".into(),
                ..ReplicaConfig::default()
            })
        };
        assert_eq!(
            with("http://127.0.0.1:9000").as_deref(),
            Some("127.0.0.1:9000")
        );
        assert_eq!(
            with("https://storage.yandexcloud.net/").as_deref(),
            Some("storage.yandexcloud.net:443")
        );
        assert_eq!(with("http://[::1]:9000/x").as_deref(), Some("[::1]:9000"));
        assert_eq!(with("http://[::1]").as_deref(), Some("[::1]:80"));
        assert_eq!(with("").as_deref(), Some("s3.us-east-1.amazonaws.com:443"));
    }

    #[test]
    fn a_missing_program_is_named() {
        let err = find_litestream(Path::new("/nonexistent/litestream"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("replica.litestream_bin /nonexistent/litestream"),
            "{err}"
        );
    }
}
