//! The command line: `serve`, `migrate`, `user ...`, `backup`, `restore`,
//! `check`, `setup`.

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};

use crate::config::Config;
use crate::db::Db;
use crate::domain::roles::Role;
use crate::domain::users;
use crate::ops;

#[derive(Debug, Parser)]
#[command(
    name = "dealership",
    version,
    about = "Car dealership website and admin panel in one binary"
)]
pub struct Cli {
    /// Config file (default: ./dealership.toml when it exists).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Data directory (database and media); overrides the config's data_dir.
    #[arg(long, global = true, value_name = "DIR")]
    pub data: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the site and the API.
    Serve {
        /// Address to listen on, e.g. 127.0.0.1:8080 (overrides the config).
        #[arg(long, value_name = "ADDR")]
        listen: Option<String>,
        /// Fill an empty database with a demo dealership first.
        #[arg(long)]
        demo: bool,
        /// Replicate this database even when it holds nothing and the
        /// bucket holds a replica, replacing the bucket's copy (as
        /// replica.allow_overwrite = true; docs/operations.md).
        #[arg(long)]
        replica_overwrite: bool,
    },
    /// Create or upgrade the database schema, then exit.
    Migrate,
    /// Manage admin users.
    #[command(subcommand)]
    User(UserCommand),
    /// Write one archive of the database and the pictures (safe while serving).
    ///
    /// A .tar.gz holding a consistent copy of the database, the media folder
    /// and a manifest with SHA-256 checksums.
    Backup {
        /// Where to write the archive; must not exist yet.
        #[arg(required_unless_present = "dir")]
        file: Option<PathBuf>,
        /// Write into DIR instead, named dealership-YYYYMMDD-HHMMSS.tar.gz (UTC).
        #[arg(long, value_name = "DIR", conflicts_with = "file")]
        dir: Option<PathBuf>,
        /// With --dir: then delete all but the N newest archives there.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        keep: Option<u32>,
    },
    /// Restore an archive of `backup`, or the replica (the server must be
    /// stopped).
    ///
    /// Checks the whole archive first, then puts it in place of the data
    /// directory's database and pictures; the data there before is moved to
    /// before-restore-<time>/ in the data directory. With --from-replica,
    /// the database and pictures come from the bucket of [replica] instead
    /// (docs/operations.md, "Restore from the replica").
    Restore {
        /// The archive written by `dealership backup`.
        #[arg(
            required_unless_present = "from_replica",
            conflicts_with = "from_replica"
        )]
        archive: Option<PathBuf>,
        /// Restore the latest database and its pictures from the replica's
        /// bucket ([replica] settings), into an empty data directory.
        #[arg(long)]
        from_replica: bool,
        /// With --from-replica: the state at this moment, "YYYY-MM-DD HH:MM"
        /// in Moscow time, or RFC 3339 (2026-11-24T12:00:00Z).
        #[arg(long, value_name = "TIME", requires = "from_replica")]
        at: Option<String>,
        /// With --from-replica: restore into a data directory that holds
        /// data, moving it into before-restore-<time>/ first.
        #[arg(long, requires = "from_replica")]
        force: bool,
    },
    /// Check the configuration, the data directory and the database.
    ///
    /// Prints what it finds; exits with an error when something is wrong.
    Check,
    /// Set up this server, as root: the system user, the folders and the
    /// configuration, then what only you can say.
    ///
    /// Makes the user `dealership`, /var/lib/dealership (0750),
    /// /var/backups/dealership (0700) and /etc/dealership/dealership.toml
    /// (0640, kept when it exists), then sets what is given: the public
    /// address, the HTTPS proxy's site file, the first admin. Restarts the
    /// running service when the configuration changed. Works on the system's
    /// paths: --config and --data are not used.
    #[command(
        after_help = "Examples, as root after `apt install ./dealership_*.deb`:\n  \
        dealership setup --base-url https://auto.example.ru --admin manager --proxy caddy\n  \
        dealership setup --litestream download --replica s3://auto-backups/site \\\n    \
        --replica-endpoint https://storage.yandexcloud.net --replica-region ru-central1 \\\n    \
        --replica-key-id YCAJE..."
    )]
    Setup {
        /// The site's public address, e.g. https://auto.example.ru.
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,
        /// Create the first admin user NAME (role owner); the password is
        /// asked for twice.
        #[arg(long, value_name = "NAME")]
        admin: Option<String>,
        /// With --admin: read the password from the first line of standard input.
        #[arg(long, requires = "admin")]
        password_stdin: bool,
        /// With --admin: the name the admin panel shows for them (default: NAME).
        #[arg(long, value_name = "TEXT", requires = "admin")]
        admin_name: Option<String>,
        /// Replicate the database to S3-compatible storage: the bucket and
        /// the folder in it. Written to /etc/dealership/dealership.d/50-setup.toml,
        /// the secret key (asked for) to /etc/dealership/replica-secret.
        #[arg(long, value_name = "s3://BUCKET/FOLDER", requires = "replica_key_id")]
        replica: Option<String>,
        /// With --replica: the storage's address (default: Amazon S3), e.g.
        /// https://storage.yandexcloud.net.
        #[arg(long, value_name = "URL", requires = "replica")]
        replica_endpoint: Option<String>,
        /// With --replica: the bucket's region, e.g. ru-central1.
        #[arg(long, value_name = "REGION", requires = "replica")]
        replica_region: Option<String>,
        /// With --replica: the access key's id.
        #[arg(long, value_name = "ID", requires = "replica")]
        replica_key_id: Option<String>,
        /// With --replica: read the secret access key from standard input
        /// (its next line after the password of --password-stdin).
        #[arg(long, requires = "replica")]
        replica_secret_stdin: bool,
        /// Install Litestream 0.5.17 (for --replica) as /usr/local/bin/litestream,
        /// its SHA-256 checked: "download" fetches the release from GitHub,
        /// or give its tarball or the program.
        #[arg(long, value_name = "download|FILE")]
        litestream: Option<String>,
        /// Write an HTTPS site file for this proxy in front (kept when it
        /// exists) and trust it for X-Forwarded-For.
        #[arg(long, value_enum)]
        proxy: Option<ops::setup::Proxy>,
        /// The address the server listens on (default 127.0.0.1:8080).
        #[arg(long, value_name = "ADDR")]
        listen: Option<String>,
        /// Only the system part (user, folders, modes, the configuration when
        /// there is none): what the package's postinst and install.sh run.
        #[arg(long, conflicts_with_all = ["base_url", "admin", "proxy", "listen", "replica", "litestream"])]
        system: bool,
        /// Do not restart the service after changing the configuration.
        #[arg(long)]
        no_restart: bool,
        /// Set up inside DIR instead of / (tests): no user is made, nothing
        /// changes owner, nothing is restarted.
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
    },
}

/// The umask every command runs under: files 0600, folders 0700.
pub const PRIVATE_UMASK: u32 = 0o077;

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create an admin user; the password is asked for, or read from stdin.
    Create {
        name: String,
        /// owner (everything), manager (sales: leads), editor (content) or
        /// viewer (figures only); see docs/admin.md, "Roles".
        #[arg(long, default_value = "owner")]
        role: String,
        /// Read the password from the first line of standard input.
        #[arg(long)]
        password_stdin: bool,
        /// The name the admin panel shows for them (default: none).
        #[arg(long, value_name = "TEXT")]
        display_name: Option<String>,
    },
    /// Set a new password for a user (ends the user's sessions).
    Password {
        name: String,
        /// Read the password from the first line of standard input.
        #[arg(long)]
        password_stdin: bool,
    },
    /// List admin users.
    List,
    /// Delete an admin user.
    Delete { name: String },
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    // Whoever starts it (the unit, root by hand, a cron job): what the
    // program creates, the database and its log, media, archives, logs, is
    // its user's alone (docs/operations.md, "Files are private"). Modes set
    // on purpose (setup's 0755 folders, 0640 configuration) are set
    // explicitly and stay.
    rustix::process::umask(rustix::fs::Mode::from_raw_mode(PRIVATE_UMASK));
    // Held while the command runs: dropped, it writes the queued lines.
    let _log = init_tracing(matches!(cli.command, Command::Serve { .. }));
    warn_of_unknown_env_vars();
    if let Command::Setup { .. } = cli.command {
        // Before any configuration is read: setup may be what writes it.
        if cli.config.is_some() || cli.data.is_some() {
            bail!(
                "setup works on {} and {}: --config and --data are not used (--root DIR sets up inside DIR)",
                ops::setup::CONF,
                ops::setup::DATA_DIR
            );
        }
        return setup(cli.command);
    }
    let mut config = Config::load(cli.config.as_deref())?;
    let config_file = cli.config.clone();
    if let Some(data) = cli.data {
        config.data_dir = data;
    }
    if !matches!(cli.command, Command::Serve { .. } | Command::Restore { .. }) {
        // A restore killed after its archive was checked is finished before
        // anything reads the data directory (serve and restore do it under
        // their own lock).
        ops::restore::finish_interrupted(&config.data_dir)?;
    }
    match cli.command {
        Command::Serve {
            listen,
            demo,
            replica_overwrite,
        } => {
            if let Some(listen) = listen {
                config.listen = listen;
                config.listen_addr()?;
            }
            if replica_overwrite {
                config.replica.allow_overwrite = true;
            }
            crate::server::serve(config, demo)
        }
        Command::Migrate => {
            Db::open(&config.database_path())?;
            println!(
                "Database is up to date: {}",
                config.database_path().display()
            );
            Ok(())
        }
        Command::User(command) => user(&config, command),
        Command::Backup { file, dir, keep } => backup(&config, file, dir, keep),
        Command::Restore {
            archive: None,
            at,
            force,
            ..
        } => restore_from_replica(&config, at.as_deref(), force),
        Command::Restore {
            archive: Some(archive),
            ..
        } => {
            let restored = ops::restore::restore(&config, &archive)?;
            let manifest = &restored.manifest;
            println!(
                "Restored {} (made {} by dealership {}, {} picture files) into {}",
                archive.display(),
                manifest.created_at,
                manifest.dealership_version,
                manifest.files.len().saturating_sub(1),
                config.data_dir.display()
            );
            println!("{}", reapplied_line(&restored.reapplied));
            match restored.previous {
                Some(previous) => println!(
                    "The data that was there is kept in {}; delete it once the site works.",
                    previous.display()
                ),
                None => println!("There was no data there before."),
            }
            Ok(())
        }
        Command::Check => {
            let report = ops::check::check(&config, config_file.as_deref());
            for finding in &report.findings {
                println!("{finding}");
            }
            match report.problems() {
                0 => {
                    println!("No problems found.");
                    Ok(())
                }
                n => bail!("{n} problem(s) found"),
            }
        }
        Command::Setup { .. } => setup(cli.command),
    }
}

fn setup(command: Command) -> anyhow::Result<()> {
    let Command::Setup {
        base_url,
        admin,
        password_stdin,
        admin_name,
        replica,
        replica_endpoint,
        replica_region,
        replica_key_id,
        replica_secret_stdin,
        litestream,
        proxy,
        listen,
        system,
        no_restart,
        root,
    } = command
    else {
        bail!("not the setup command");
    };
    // Asked for before anything changes, so a mistyped one changes nothing.
    let admin = match admin {
        Some(name) if root.is_none() => {
            if !password_stdin && !std::io::stdin().is_terminal() {
                bail!("the password of {name}: give it on standard input with --password-stdin");
            }
            if !password_stdin {
                eprintln!("The password of the admin user {name}:");
            }
            Some((name, read_password(password_stdin, true)?))
        }
        Some(name) => Some((name, String::new())),
        None => None,
    };
    let replica = match replica {
        Some(url) => {
            // Checked before the secret is asked for.
            let mut replica = ops::setup_config::Replica {
                url,
                endpoint: replica_endpoint,
                region: replica_region,
                access_key_id: replica_key_id.unwrap_or_default(),
                secret: "-".into(),
            };
            replica.table()?;
            let stdin = std::io::stdin();
            let secret = if replica_secret_stdin || !stdin.is_terminal() {
                let mut line = String::new();
                stdin
                    .lock()
                    .read_line(&mut line)
                    .context("cannot read the secret access key from standard input")?;
                line.trim().to_string()
            } else {
                rpassword::prompt_password("The replica's secret access key: ")?
                    .trim()
                    .to_string()
            };
            if secret.is_empty() {
                bail!("--replica: no secret access key given");
            }
            replica.secret = secret;
            Some(replica)
        }
        None => None,
    };
    ops::setup::run(&ops::setup::Setup {
        root,
        system_only: system,
        base_url,
        listen,
        proxy,
        admin,
        admin_name,
        replica,
        litestream,
        restart: !no_restart,
    })
}

/// What a restore says of the erasures it applied again.
fn reapplied_line(done: &crate::domain::erasure_reapply::Reapplied) -> String {
    format!(
        "Erasures re-applied: {} made after the copy (leads erased again: {}, subscriptions: {})",
        done.erasures, done.leads, done.subscriptions
    )
}

fn restore_from_replica(config: &Config, at: Option<&str>, force: bool) -> anyhow::Result<()> {
    use ops::replica_restore::{parse_moment, restore_from_replica};
    let at = at.map(parse_moment).transpose()?;
    let restored = restore_from_replica(config, at, force)?;
    let moment = match restored.at {
        Some(at) => format!(
            "as it was at {} Moscow time ({})",
            at.with_timezone(&chrono::FixedOffset::east_opt(3 * 3600).expect("valid offset"))
                .format("%Y-%m-%d %H:%M:%S"),
            at.to_rfc3339()
        ),
        None => "its latest state".to_string(),
    };
    println!(
        "Restored the replica {moment} into {} in {:.1} s: the database ({} leads) passes \
         SQLite's integrity check; {} pictures, {} rebuilt from their originals",
        config.data_dir.display(),
        restored.took.as_secs_f64(),
        restored.leads,
        restored.pictures,
        restored.rebuilt
    );
    println!("{}", reapplied_line(&restored.reapplied));
    if !restored.missing.is_empty() {
        println!(
            "WARNING: {} picture(s) the database uses are not in the bucket (their pages show \
             no image until they are uploaded again): {}",
            restored.missing.len(),
            restored.missing.join(", ")
        );
    }
    match restored.previous {
        Some(previous) => println!(
            "The data that was there is kept in {}; delete it once the site works.",
            previous.display()
        ),
        None => println!("There was no data there before."),
    }
    println!("Ready: start the site (systemctl start dealership, or dealership serve).");
    Ok(())
}

fn backup(
    config: &Config,
    file: Option<PathBuf>,
    dir: Option<PathBuf>,
    keep: Option<u32>,
) -> anyhow::Result<()> {
    if keep.is_some() && dir.is_none() {
        bail!("--keep counts the archives of a --dir folder; give --dir too");
    }
    let target = match (file, &dir) {
        (Some(file), _) => file,
        (None, Some(dir)) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            dir.join(ops::backup::dated_name())
        }
        (None, None) => bail!("name the archive to write, or a folder with --dir"),
    };
    let written = ops::backup::backup(config, &target)?;
    println!(
        "Backup written to {} ({} picture files, {} bytes)",
        written.path.display(),
        written.pictures,
        written.bytes
    );
    if !written.missing.is_empty() {
        tracing::warn!(
            "the database names {} picture(s) that were already missing from {}: {}",
            written.missing.len(),
            config.media_dir().display(),
            written.missing.join(", ")
        );
    }
    if let (Some(dir), Some(keep)) = (dir, keep) {
        let years = u32::try_from(written.retention_years.clamp(1, 10)).unwrap_or(3);
        let older_than = chrono::Utc::now().checked_sub_months(chrono::Months::new(12 * years));
        for removed in ops::backup::prune(&dir, keep as usize, older_than)? {
            println!("Removed the old backup {}", removed.display());
        }
    }
    Ok(())
}

/// The server logs to standard output (journald keeps it under systemd) at
/// info: its progress and one line per request, written by a thread of its
/// own so that a full disk or a stalled journald never holds or fails a
/// request (`crate::logging`). Other commands log only warnings, to standard
/// error, beside what they print. Colours only on a terminal; under
/// journald, which stamps each line itself, no time stamps.
fn init_tracing(serving: bool) -> Option<crate::logging::WriterGuard> {
    let default = if serving {
        "info,tower_http=warn"
    } else {
        "warn"
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    if !serving {
        let _ = builder
            .with_ansi(std::io::stderr().is_terminal())
            .with_writer(std::io::stderr)
            .try_init();
        return None;
    }
    let terminal = std::io::stdout().is_terminal();
    let (writer, guard) = crate::logging::off_the_request_path(std::io::stdout());
    let _ = if std::env::var_os("JOURNAL_STREAM").is_some() {
        builder
            .with_ansi(false)
            .without_time()
            .with_writer(writer)
            .try_init()
    } else {
        builder
            .with_ansi(terminal)
            .with_timer(crate::logging::Stamps)
            .with_writer(writer)
            .try_init()
    };
    Some(guard)
}

/// A mistyped `DEALERSHIP_*` variable would be ignored without a word.
fn warn_of_unknown_env_vars() {
    let names = std::env::vars_os().filter_map(|(name, _)| name.into_string().ok());
    for name in Config::unknown_env_vars(names) {
        tracing::warn!(
            "environment variable {name} sets no configuration key and is ignored \
             (the keys are listed in dealership.toml)"
        );
    }
}

fn user(config: &Config, command: UserCommand) -> anyhow::Result<()> {
    let db = Db::open(&config.database_path())?;
    let conn = db.conn()?;
    match command {
        UserCommand::Create {
            name,
            role,
            password_stdin,
            display_name,
        } => {
            let role = Role::parse(&role).map_err(user_error)?;
            let password = read_password(password_stdin, true)?;
            let user = users::create(&conn, &name, &password, role).map_err(user_error)?;
            if let Some(shown) = display_name {
                let change = crate::domain::staff::StaffChange {
                    name: Some(shown),
                    ..Default::default()
                };
                crate::domain::staff::change(&conn, &user.id, change).map_err(user_error)?;
            }
            println!("User {} created ({}).", user.username, user.role.as_str());
        }
        UserCommand::Password {
            name,
            password_stdin,
        } => {
            if users::find_for_login(&conn, &name)
                .map_err(user_error)?
                .is_none()
            {
                bail!("no user named {name:?}; see `dealership user list`");
            }
            let password = read_password(password_stdin, true)?;
            users::set_password(&conn, &name, &password).map_err(user_error)?;
            println!("Password of {name} changed; their sessions were ended.");
        }
        UserCommand::List => {
            let list = users::list(&conn).map_err(user_error)?;
            if list.is_empty() {
                println!("No users yet. Create one with `dealership user create NAME`.");
            }
            for u in list {
                println!(
                    "{}\t{}\tcreated {}",
                    u.username,
                    u.role.as_str(),
                    u.created_at
                );
            }
        }
        UserCommand::Delete { name } => {
            let Some((user, _)) = users::find_for_login(&conn, &name).map_err(user_error)? else {
                bail!("no user named {name:?}; see `dealership user list`");
            };
            // The panel's rule (docs/admin.md, "The team"): the last active
            // owner stays.
            match crate::domain::staff::delete(&conn, &user.id) {
                Err(crate::error::AppError::Conflict { message, .. })
                    if message == crate::domain::staff::LAST_OWNER =>
                {
                    bail!(
                        "{name} is the last active owner and cannot be deleted: make another owner first \
                     (`dealership user create NAME --role owner`, or give a team member the role \
                     'owner' in the panel), then delete {name}"
                    )
                }
                other => other.map_err(user_error)?,
            };
            println!("User {name} deleted.");
        }
    }
    Ok(())
}

fn user_error(err: crate::error::AppError) -> anyhow::Error {
    anyhow::anyhow!("{err}")
}

fn read_password(from_stdin: bool, confirm: bool) -> anyhow::Result<String> {
    let stdin = std::io::stdin();
    if from_stdin || !stdin.is_terminal() {
        let mut line = String::new();
        stdin
            .lock()
            .read_line(&mut line)
            .context("cannot read the password from standard input")?;
        let password = line.trim_end_matches(['\r', '\n']).to_string();
        if password.is_empty() {
            bail!("empty password on standard input");
        }
        return Ok(password);
    }
    let password = rpassword::prompt_password("Password: ")?;
    if confirm {
        let again = rpassword::prompt_password("Repeat password: ")?;
        if again != password {
            bail!("the two passwords differ");
        }
    }
    Ok(password)
}
