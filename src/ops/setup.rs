//! `dealership setup`: makes this server ready to run the site
//! (docs/operations.md, "Install").
//!
//! Two parts, one implementation for both ways of installing:
//!
//! - the system part, which needs no one's answer: the system user
//!   `dealership`, the data, backup and configuration folders with their
//!   owners and modes, and the configuration when there is none (the
//!   checked-in `dealership.toml`, built in, with `data_dir` set). The
//!   package's postinst runs it as `dealership setup --system`, and so does
//!   `install.sh`;
//! - what only a person can say: the public address (`--base-url`), the
//!   address to listen on (`--listen`), the HTTPS proxy in front
//!   (`--proxy caddy|nginx`: its site file, and the proxy trusted for
//!   `X-Forwarded-For`), the first admin (`--admin NAME`), replication
//!   (`--replica s3://BUCKET/FOLDER ...`, its secret in a file of its own)
//!   and Litestream (`--litestream download|FILE`). These go into the
//!   drop-in `dealership.d/50-setup.toml` (`super::setup_config`), never
//!   into the package's conffile. After an `apt install` the dealer runs
//!   `dealership setup --base-url ... --admin ...` as root; `install.sh`
//!   passes its options on to the same command.
//!
//! With `--root DIR` everything happens inside DIR: no user is made, nothing
//! changes owner, no service is restarted, and what would be run is said
//! (`install.sh --root`, the tests and `scripts/package.sh`, which takes the
//! package's default configuration from there).

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::setup_config::{self, DROP_IN_DIR, REPLICA_SECRET, SETUP_FILE};
use crate::config::Config;

/// The system user and group the service runs as.
pub const SERVICE_USER: &str = "dealership";
pub const CONF_DIR: &str = "/etc/dealership";
pub const CONF: &str = "/etc/dealership/dealership.toml";
pub const DATA_DIR: &str = "/var/lib/dealership";
pub const BACKUP_DIR: &str = "/var/backups/dealership";
const SERVICE: &str = "dealership.service";

/// The configuration a new installation starts from: the checked-in file,
/// which lists every key with its default.
const TEMPLATE: &str = include_str!("../../dealership.toml");

/// The HTTPS proxy in front of the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Proxy {
    Caddy,
    Nginx,
}

impl Proxy {
    fn name(self) -> &'static str {
        match self {
            Proxy::Caddy => "caddy",
            Proxy::Nginx => "nginx",
        }
    }

    /// Its site file for this site.
    fn site_file(self) -> &'static str {
        match self {
            Proxy::Caddy => "/etc/caddy/dealership.caddy",
            Proxy::Nginx => "/etc/nginx/sites-available/dealership",
        }
    }
}

/// What `dealership setup` was asked to do.
#[derive(Debug, Default)]
pub struct Setup {
    /// Work inside this folder instead of `/`.
    pub root: Option<PathBuf>,
    /// Only the system part.
    pub system_only: bool,
    pub base_url: Option<String>,
    pub listen: Option<String>,
    pub proxy: Option<Proxy>,
    /// The first admin's name and password (the password is read by the
    /// command line before anything changes).
    pub admin: Option<(String, String)>,
    /// The first admin's display name (default: the name).
    pub admin_name: Option<String>,
    /// Replication to set (the secret read by the command line).
    pub replica: Option<setup_config::Replica>,
    /// Litestream to install: `download` or a release tarball or program.
    pub litestream: Option<String>,
    /// Restart the running service when the configuration changed.
    pub restart: bool,
}

/// The user and group ids of the service user.
#[derive(Debug, Clone, Copy)]
struct Ids {
    uid: u32,
    gid: u32,
}

/// Where the work happens: the real system, or a scratch root.
struct Host {
    root: Option<PathBuf>,
}

impl Host {
    fn path(&self, absolute: &str) -> PathBuf {
        match &self.root {
            Some(root) => root.join(absolute.trim_start_matches('/')),
            None => PathBuf::from(absolute),
        }
    }

    fn scratch(&self) -> bool {
        self.root.is_some()
    }

    /// Sets the owner on the real system; in a scratch root, nothing.
    fn own(&self, path: &Path, owner: Option<(u32, u32)>) -> anyhow::Result<()> {
        if let (false, Some((uid, gid))) = (self.scratch(), owner) {
            std::os::unix::fs::chown(path, Some(uid), Some(gid))
                .with_context(|| format!("cannot give {} to {uid}:{gid}", path.display()))?;
        }
        Ok(())
    }
}

fn say(text: impl AsRef<str>) {
    println!("==> {}", text.as_ref());
}

fn note(text: impl AsRef<str>) {
    println!("    {}", text.as_ref());
}

/// Runs `dealership setup`.
pub fn run(setup: &Setup) -> anyhow::Result<()> {
    let host = Host {
        root: setup.root.clone(),
    };
    if let Some(root) = &setup.root {
        if !root.is_dir() {
            bail!("--root {} is not a directory", root.display());
        }
    } else if effective_uid()? != 0 {
        bail!(
            "run me as root (su -, or sudo where it is installed): dealership setup ... (I make \
             the system user {SERVICE_USER}, {CONF_DIR}, {DATA_DIR} and {BACKUP_DIR})"
        );
    }
    let asked = setup.base_url.is_some()
        || setup.listen.is_some()
        || setup.proxy.is_some()
        || setup.admin.is_some()
        || setup.replica.is_some()
        || setup.litestream.is_some();
    // Said in full when it is all there is to do; otherwise only what it changes.
    let ids = prepare_system(&host, setup.system_only || !asked)?;
    if setup.system_only {
        return Ok(());
    }
    if let Some(source) = &setup.litestream {
        super::litestream_install::install(&host.path(super::litestream_install::PROGRAM), source)?;
    }
    let changed = configure(&host, setup, ids)?;
    if let Some(proxy) = setup.proxy {
        write_site(&host, proxy)?;
    }
    // The running site reads the new configuration before the admin is made,
    // so a refused admin (the name taken) leaves no change unapplied.
    if changed && setup.restart && !host.scratch() {
        restart_if_running()?;
    }
    if let Some((name, password)) = &setup.admin {
        let shown = setup.admin_name.as_deref().unwrap_or(name);
        create_admin(&host, ids, name, shown, password)?;
    }
    let (base_url, _) = site_of(&host)?;
    if asked {
        say(format!(
            "Set up: the site is {base_url}, its admin panel {base_url}/admin"
        ));
    } else {
        say(format!(
            "The site is {base_url}. Say what only you know with:"
        ));
        note(
            "dealership setup --base-url https://auto.example.ru --admin NAME \
             [--proxy caddy|nginx]   (as root)",
        );
    }
    Ok(())
}

// ------------------------------------------------------------------ system

/// The system user, the folders with their owners and modes, and the
/// configuration when there is none. Returns the service user's ids (None
/// in a scratch root). `tell`: also say what is already as it should be.
fn prepare_system(host: &Host, tell: bool) -> anyhow::Result<Option<Ids>> {
    let ids = if host.scratch() {
        if tell {
            note(format!(
                "(scratch root: not running) useradd --system --user-group {SERVICE_USER}"
            ));
        }
        None
    } else {
        Some(ensure_user(tell)?)
    };
    let service = ids.map(|ids| (ids.uid, ids.gid));
    let root_group = ids.map(|ids| (0, ids.gid));

    if tell {
        say(format!("Data in {DATA_DIR}, backups in {BACKUP_DIR}"));
    }
    for system in ["/etc", "/var", "/var/lib", "/var/backups"] {
        system_folder(host, system)?;
    }
    folder(host, DATA_DIR, 0o750, service)?;
    folder(host, BACKUP_DIR, 0o700, service)?;
    folder(host, CONF_DIR, 0o750, root_group)?;
    // setup's own settings, and any a dealer put there (before the package,
    // say): readable by the service's group, as the configuration is.
    folder(host, DROP_IN_DIR, 0o750, root_group)?;
    setup_config::settle_drop_ins(&host.path(DROP_IN_DIR), root_group)?;
    // The replica's secret put there before the user existed: the user's.
    let secret = host.path(REPLICA_SECRET);
    if secret.is_file() {
        fs::set_permissions(&secret, fs::Permissions::from_mode(0o600))?;
        host.own(&secret, service)?;
    }

    let conf = host.path(CONF);
    if conf.exists() {
        if tell {
            say(format!("Keeping the configuration {CONF}"));
        }
    } else {
        say(format!("Writing the configuration {CONF}"));
        write_config(host, &conf, &default_config(), root_group)?;
        note(format!(
            "data_dir = \"{DATA_DIR}\"; the rest as in the defaults (listen \"127.0.0.1:8080\", \
             base_url \"http://localhost:8080\")"
        ));
    }
    // Read by the service's group, nobody else: it may hold passwords. The
    // package's copy arrives as root's alone.
    fs::set_permissions(&conf, fs::Permissions::from_mode(0o640))
        .with_context(|| format!("cannot set the mode of {}", conf.display()))?;
    host.own(&conf, root_group)?;
    Ok(ids)
}

/// The default configuration of an installation: the built-in template with
/// the data in `/var/lib/dealership`.
pub fn default_config() -> String {
    set_top_key(TEMPLATE, "data_dir", &quote(DATA_DIR))
}

fn ensure_user(tell: bool) -> anyhow::Result<Ids> {
    if let Some(ids) = lookup_user()? {
        if tell {
            note(format!("system user {SERVICE_USER} exists"));
        }
        return Ok(ids);
    }
    say(format!("Creating the system user {SERVICE_USER}"));
    let status = Command::new("useradd")
        .args(["--system", "--user-group", "--home-dir", DATA_DIR])
        .args(["--no-create-home", "--shell", "/usr/sbin/nologin"])
        .args(["--comment", "dealership site", SERVICE_USER])
        .status()
        .context("cannot run useradd (Debian's package passwd)")?;
    if !status.success() {
        bail!("cannot create the system user {SERVICE_USER}: useradd {status}");
    }
    lookup_user()?.with_context(|| format!("useradd made no user {SERVICE_USER}"))
}

/// The user this program runs as (`id -u`).
fn effective_uid() -> anyhow::Result<u32> {
    let out = Command::new("id")
        .arg("-u")
        .output()
        .context("cannot run id")?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.trim()
        .parse()
        .with_context(|| format!("id -u said {text:?}"))
}

fn lookup_user() -> anyhow::Result<Option<Ids>> {
    let id = |flag: &str| -> anyhow::Result<Option<u32>> {
        let out = Command::new("id")
            .args([flag, SERVICE_USER])
            .stderr(Stdio::null())
            .output()
            .context("cannot run id")?;
        if !out.status.success() {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&out.stdout);
        Ok(Some(text.trim().parse().with_context(|| {
            format!("id {flag} {SERVICE_USER} said {text:?}")
        })?))
    };
    Ok(match (id("-u")?, id("-g")?) {
        (Some(uid), Some(gid)) => Some(Ids { uid, gid }),
        _ => None,
    })
}

/// A system folder (`/etc`, `/var/lib`) made when missing, mode 0755; left
/// as it is otherwise.
fn system_folder(host: &Host, path: &str) -> anyhow::Result<()> {
    public_folders(&host.path(path))
}

/// Makes the missing folders of `dir`, each mode 0755 whatever the umask
/// (install.sh runs under 077).
fn public_folders(dir: &Path) -> anyhow::Result<()> {
    let missing: Vec<&Path> = dir.ancestors().take_while(|d| !d.is_dir()).collect();
    for dir in missing.into_iter().rev() {
        fs::create_dir(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// A folder of ours, made when missing, with its mode and owner set.
fn folder(host: &Host, path: &str, mode: u32, owner: Option<(u32, u32)>) -> anyhow::Result<()> {
    let dir = host.path(path);
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    fs::set_permissions(&dir, fs::Permissions::from_mode(mode))
        .with_context(|| format!("cannot set the mode of {}", dir.display()))?;
    host.own(&dir, owner)
}

/// Writes the configuration through a new file renamed over the old one,
/// mode 0640, owned by root and the service group.
fn write_config(
    host: &Host,
    conf: &Path,
    text: &str,
    owner: Option<(u32, u32)>,
) -> anyhow::Result<()> {
    let new = conf.with_extension("toml.new");
    let _ = fs::remove_file(&new);
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&new)
        .with_context(|| format!("cannot create {}", new.display()))?;
    file.set_permissions(fs::Permissions::from_mode(0o640))?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    drop(file);
    host.own(&new, owner)?;
    // As the server will read it, without this shell's DEALERSHIP_* variables.
    if let Err(err) = Config::load_with_env(Some(&new), |_| None) {
        let _ = fs::remove_file(&new);
        bail!("the configuration would not load, so {CONF} was left as it was: {err}");
    }
    fs::rename(&new, conf).with_context(|| format!("cannot replace {}", conf.display()))
}

// ------------------------------------------------------------------ what a person says

/// Sets what was given in setup's drop-in (`super::setup_config`), and the
/// replica's secret in its file; true when either changed.
fn configure(host: &Host, setup: &Setup, ids: Option<Ids>) -> anyhow::Result<bool> {
    let conf = host.path(CONF);
    let current = setup_config::current(&conf)?;
    let mut changes = toml::Table::new();
    let mut said = Vec::new();
    let mut put = |key: &str, value: toml::Value, said: &mut Vec<String>| {
        said.push(format!("{key} = {value}"));
        changes.insert(key.to_string(), value);
    };
    let base_url = match &setup.base_url {
        Some(url) => {
            let url = check_base_url(url)?;
            put("base_url", url.clone().into(), &mut said);
            url
        }
        None => current.base_url.clone(),
    };
    if let Some(listen) = &setup.listen {
        listen.parse::<std::net::SocketAddr>().map_err(|_| {
            anyhow::anyhow!(
                "--listen takes an address and port, e.g. 127.0.0.1:8080, not {listen:?}"
            )
        })?;
        put("listen", listen.clone().into(), &mut said);
    }
    if let Some(proxy) = setup.proxy {
        if !base_url.starts_with("https://") {
            bail!(
                "--proxy {} writes an HTTPS site: the site's address must start with https://, \
                 not {base_url}; give it with --base-url https://...",
                proxy.name()
            );
        }
        // The proxy connects from this machine: believe its X-Forwarded-For.
        let mut trusted: Vec<String> = current
            .trusted_proxies
            .iter()
            .map(ToString::to_string)
            .collect();
        for local in ["127.0.0.1", "::1"] {
            if !trusted.iter().any(|t| t == local) {
                trusted.push(local.to_string());
            }
        }
        let list = toml::Value::Array(trusted.into_iter().map(toml::Value::String).collect());
        put("trusted_proxies", list, &mut said);
    }
    let owner = ids.filter(|_| !host.scratch());
    let mut secret_changed = false;
    if let Some(replica) = &setup.replica {
        let table = replica.table()?;
        secret_changed = setup_config::write_secret(
            &host.path(REPLICA_SECRET),
            &replica.secret,
            owner.map(|ids| (ids.uid, ids.gid)),
        )?;
        if secret_changed {
            say(format!(
                "The replica's secret key in {REPLICA_SECRET} (mode 0600, {SERVICE_USER}'s)"
            ));
        }
        said.push(format!(
            "[replica] bucket {:?}, folder {:?}",
            table["bucket"].as_str().unwrap_or(""),
            table["path"].as_str().unwrap_or("")
        ));
        changes.insert("replica".into(), toml::Value::Table(table));
    }
    let group = owner.map(|ids| (0, ids.gid));
    let changed = setup_config::set(&conf, &host.path(SETUP_FILE), group, &changes)?;
    if changed {
        say(format!("Configuration {SETUP_FILE}: {}", said.join(", ")));
    } else if !said.is_empty() {
        note(format!("{SETUP_FILE} already says {}", said.join(", ")));
    }
    Ok(changed || secret_changed)
}

/// The public address, checked: http or https, a host, no trailing slash.
fn check_base_url(url: &str) -> anyhow::Result<String> {
    let url = url.trim().trim_end_matches('/');
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    match rest {
        Some(rest)
            if !rest.is_empty()
                && !rest.starts_with('/')
                && !rest.contains(|c: char| c.is_whitespace() || c.is_control()) =>
        {
            Ok(url.to_string())
        }
        _ => bail!(
            "--base-url takes the site's public address, e.g. https://auto.example.ru, not {url:?}"
        ),
    }
}

/// The site's public address and the port the server listens on, as the
/// configuration says now (the file and its drop-ins).
fn site_of(host: &Host) -> anyhow::Result<(String, String)> {
    let config = setup_config::current(&host.path(CONF))?;
    let port = config
        .listen
        .rsplit_once(':')
        .map(|(_, port)| port.to_string())
        .unwrap_or_else(|| "8080".to_string());
    Ok((config.base_url.trim_end_matches('/').to_string(), port))
}

/// The proxy's site file for this site, written when it does not exist.
fn write_site(host: &Host, proxy: Proxy) -> anyhow::Result<()> {
    let (base_url, port) = site_of(host)?;
    let name = base_url
        .split_once("://")
        .map_or(base_url.as_str(), |(_, rest)| rest);
    let name = name.split('/').next().unwrap_or(name);
    let name = name.rsplit_once(':').map_or(name, |(h, _)| h);
    let site = proxy.site_file();
    let path = host.path(site);
    if path.exists() {
        say(format!("Keeping the {} site file {site}", proxy.name()));
    } else {
        say(format!(
            "Writing the {} site file {site} for {name}",
            proxy.name()
        ));
        if let Some(parent) = path.parent() {
            public_folders(parent)?;
        }
        let text = match proxy {
            Proxy::Caddy => caddy_site(name, &port),
            Proxy::Nginx => nginx_site(name, &port),
        };
        fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644))?;
    }
    match proxy {
        Proxy::Caddy => note(format!(
            "next: add 'import {site}' to /etc/caddy/Caddyfile, then: systemctl reload caddy"
        )),
        Proxy::Nginx => note(format!(
            "next: ln -s {site} /etc/nginx/sites-enabled/ && nginx -t && systemctl reload nginx"
        )),
    }
    Ok(())
}

fn caddy_site(host: &str, port: &str) -> String {
    format!(
        "# dealership: HTTPS for {host} (certificate from Let's Encrypt, automatic).
# Include it from /etc/caddy/Caddyfile with:  import {site}
{host} {{
\tencode zstd gzip
\theader Strict-Transport-Security \"max-age=31536000; includeSubDomains\"
\treverse_proxy 127.0.0.1:{port}
}}
",
        site = Proxy::Caddy.site_file()
    )
}

fn nginx_site(host: &str, port: &str) -> String {
    format!(
        "# dealership: HTTPS for {host}. Get the certificate first:
#   certbot certonly --webroot -w /var/www/html -d {host}
server {{
    listen 80;
    listen [::]:80;
    server_name {host};
    location /.well-known/acme-challenge/ {{ root /var/www/html; }}
    location / {{ return 301 https://$host$request_uri; }}
}}

server {{
    listen 443 ssl http2;
    listen [::]:443 ssl http2;
    server_name {host};
    ssl_certificate /etc/letsencrypt/live/{host}/fullchain.pem;
    ssl_certificate_key /etc/letsencrypt/live/{host}/privkey.pem;
    add_header Strict-Transport-Security \"max-age=31536000; includeSubDomains\" always;
    # Pictures are uploaded up to 5 MB each.
    client_max_body_size 12m;

    location / {{
        proxy_pass http://127.0.0.1:{port};
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 60s;
    }}
}}
"
    )
}

/// Creates the first admin with `dealership user create`, run as the
/// service user so the database files it touches stay the service's.
fn create_admin(
    host: &Host,
    ids: Option<Ids>,
    name: &str,
    shown: &str,
    password: &str,
) -> anyhow::Result<()> {
    let Some(ids) = ids.filter(|_| !host.scratch()) else {
        note(format!(
            "(scratch root: not running) runuser -u {SERVICE_USER} -- dealership --config {CONF} \
             user create {name} --display-name {shown:?}"
        ));
        return Ok(());
    };
    say(format!("Creating the admin user {name}"));
    let exe = std::env::current_exe().context("cannot find this program")?;
    let mut child = Command::new(exe)
        .arg("--config")
        .arg(CONF)
        .args([
            "user",
            "create",
            name,
            "--password-stdin",
            "--display-name",
            shown,
        ])
        .uid(ids.uid)
        .gid(ids.gid)
        .current_dir("/")
        .stdin(Stdio::piped())
        .spawn()
        .context("cannot run dealership user create")?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(format!("{password}\n").as_bytes())
            .context("cannot pass the password on")?;
    }
    let status = child.wait()?;
    if !status.success() {
        bail!("cannot create the admin user {name} (the reason is above)");
    }
    Ok(())
}

/// Restarts the service when it runs, so it reads the new configuration.
fn restart_if_running() -> anyhow::Result<()> {
    if !Path::new("/run/systemd/system").is_dir() {
        note("systemd does not run here: restart the server yourself to read the configuration");
        return Ok(());
    }
    let active = || {
        Command::new("systemctl")
            .args(["is-active", "--quiet", SERVICE])
            .status()
            .is_ok_and(|s| s.success())
    };
    if !active() {
        note(format!(
            "{SERVICE} is not running: systemctl start dealership"
        ));
        return Ok(());
    }
    say("Restarting the service to read the new configuration");
    let status = Command::new("systemctl")
        .args(["restart", SERVICE])
        .status()
        .context("cannot run systemctl")?;
    let started = Instant::now();
    while !(status.success() && active()) {
        if started.elapsed() > Duration::from_secs(10) {
            bail!("the service did not start again; see journalctl -u dealership");
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    Ok(())
}

// ------------------------------------------------------------------ TOML lines

/// A TOML string.
fn quote(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// Sets a top-level key of a TOML text by its line, keeping every other
/// line (the comments) as it is: the first `key = ...` before any
/// `[section]` is replaced, or the line is added before the first section.
fn set_top_key(text: &str, key: &str, value: &str) -> String {
    let line = format!("{key} = {value}");
    let mut out = Vec::new();
    let mut done = false;
    for current in text.lines() {
        let trimmed = current.trim_start();
        if !done && trimmed.starts_with('[') {
            out.push(line.clone());
            done = true;
        }
        let is_key = trimmed
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='));
        if !done && is_key {
            out.push(line.clone());
            done = true;
            continue;
        }
        out.push(current.to_string());
    }
    if !done {
        out.push(line);
    }
    let mut joined = out.join("\n");
    joined.push('\n');
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_keys_are_set_in_place_or_before_the_first_section() {
        let text = "# c\nbase_url = \"http://a\"\nbase_urls = 1\n\n[smtp]\nbase_url = \"x\"\n";
        assert_eq!(
            set_top_key(text, "base_url", "\"https://b\""),
            "# c\nbase_url = \"https://b\"\nbase_urls = 1\n\n[smtp]\nbase_url = \"x\"\n"
        );
        assert_eq!(
            set_top_key("[smtp]\nhost = \"\"\n", "listen", "\"127.0.0.1:1\""),
            "listen = \"127.0.0.1:1\"\n[smtp]\nhost = \"\"\n"
        );
        assert_eq!(set_top_key("a = 1", "b", "2"), "a = 1\nb = 2\n");
    }

    #[test]
    fn the_default_configuration_loads_with_the_data_in_var_lib() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dealership.toml");
        fs::write(&path, default_config()).unwrap();
        let config = Config::load_with_env(Some(&path), |_| None).unwrap();
        assert_eq!(config.data_dir, Path::new(DATA_DIR));
        assert_eq!(config.listen, "127.0.0.1:8080");
    }

    #[test]
    fn base_urls_are_checked() {
        assert_eq!(
            check_base_url("https://auto.example.ru/").unwrap(),
            "https://auto.example.ru"
        );
        for bad in [
            "auto.example.ru",
            "https://",
            "ftp://x",
            "https://a b",
            "http:///x",
        ] {
            assert!(check_base_url(bad).is_err(), "{bad}");
        }
    }
}
