//! The `dealership` command line, run as a user would.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

fn dealership(data: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dealership"))
        .arg("--data")
        .arg(data)
        .args(args)
        .env_remove("DEALERSHIP_LISTEN")
        .current_dir(data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn help_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["migrate", "--help"],
        vec!["user", "--help"],
        vec!["user", "create", "--help"],
        vec!["user", "password", "--help"],
        vec!["user", "list", "--help"],
        vec!["user", "delete", "--help"],
        vec!["backup", "--help"],
        vec!["restore", "--help"],
        vec!["check", "--help"],
        vec!["setup", "--help"],
    ] {
        let out = dealership(dir.path(), &args, None);
        assert!(out.status.success(), "{args:?}");
        assert!(stdout(&out).contains("Usage"), "{args:?}");
    }
}

#[test]
fn users_are_created_listed_changed_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let out = dealership(data, &["user", "list"], None);
    assert!(out.status.success());
    assert!(stdout(&out).contains("No users yet"));

    let out = dealership(
        data,
        &["user", "create", "manager", "--password-stdin"],
        Some("first-secret\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("User manager created"));

    let db = rusqlite::Connection::open(data.join("dealership.db")).unwrap();
    let hash: String = db
        .query_row(
            "SELECT password_hash FROM users WHERE username = 'manager'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(dealership::domain::users::verify_password(
        "first-secret",
        &hash
    ));

    let out = dealership(
        data,
        &["user", "create", "manager", "--password-stdin"],
        Some("other-secret\n"),
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("уже существует"), "{}", stderr(&out));

    let out = dealership(
        data,
        &["user", "create", "short", "--password-stdin"],
        Some("abc\n"),
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("Пароль должен быть не короче 8"),
        "{}",
        stderr(&out)
    );

    let out = dealership(
        data,
        &["user", "password", "manager", "--password-stdin"],
        Some("second-secret\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let hash: String = db
        .query_row(
            "SELECT password_hash FROM users WHERE username = 'manager'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(dealership::domain::users::verify_password(
        "second-secret",
        &hash
    ));
    assert!(!dealership::domain::users::verify_password(
        "first-secret",
        &hash
    ));

    let out = dealership(
        data,
        &["user", "password", "nobody", "--password-stdin"],
        Some("second-secret\n"),
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no user named"));

    // A role other than the owner's, named on the command line.
    let out = dealership(
        data,
        &[
            "user",
            "create",
            "olga",
            "--role",
            "editor",
            "--password-stdin",
        ],
        Some("olga-secret\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("User olga created (editor)"));
    let out = dealership(
        data,
        &[
            "user",
            "create",
            "boss",
            "--role",
            "admin",
            "--password-stdin",
        ],
        Some("boss-secret\n"),
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("Роль: owner, manager, editor или viewer"),
        "{}",
        stderr(&out)
    );

    let out = dealership(data, &["user", "list"], None);
    let list = stdout(&out);
    assert!(
        list.contains("manager\towner"),
        "created without --role: an owner\n{list}"
    );
    assert!(list.contains("olga\teditor"), "{list}");
    assert!(!list.contains("boss"), "{list}");

    // The last active owner stays (the panel's rule), with how to go on.
    let out = dealership(data, &["user", "delete", "manager"], None);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("manager is the last active owner")
            && stderr(&out).contains("dealership user create NAME --role owner"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&dealership(data, &["user", "list"], None)).contains("manager\towner"));
    let out = dealership(
        data,
        &[
            "user",
            "create",
            "anna",
            "--role",
            "owner",
            "--password-stdin",
        ],
        Some("anna-secret\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = dealership(data, &["user", "delete", "manager"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = dealership(data, &["user", "delete", "manager"], None);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).lines().count(),
        1,
        "one clear line: {}",
        stderr(&out)
    );
}

#[test]
fn migrate_and_bad_config() {
    let dir = tempfile::tempdir().unwrap();
    let out = dealership(dir.path(), &["migrate"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join("dealership.db").exists());

    let config = dir.path().join("bad.toml");
    std::fs::write(&config, "[leads]\nrate_limit_per_minute = -3\n").unwrap();
    let out = dealership(
        dir.path(),
        &["--config", config.to_str().unwrap(), "migrate"],
        None,
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("leads.rate_limit_per_minute"),
        "{}",
        stderr(&out)
    );

    let out = Command::new(env!("CARGO_BIN_EXE_dealership"))
        .args(["--data", dir.path().to_str().unwrap(), "migrate"])
        .env("DEALERSHIP_BASE_URL", "ftp://nowhere")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("base_url"), "{}", stderr(&out));

    let out = dealership(
        dir.path(),
        &["--config", "/no/such/file.toml", "migrate"],
        None,
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("/no/such/file.toml"));
}

/// The newest migration this source tree has, from the names of its files.
fn newest_migration() -> i32 {
    std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_prefix('V')?.split("__").next()?.parse().ok()
        })
        .max()
        .unwrap()
}

fn user_version(db: &Path) -> i32 {
    rusqlite::Connection::open(db)
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap()
}

/// An older program (a package installed over a newer one) refuses the
/// database a newer one migrated, naming both versions, and leaves it as it
/// was; serve refuses the same way instead of starting.
#[test]
fn refuses_a_database_from_a_newer_version() {
    let dir = tempfile::tempdir().unwrap();
    let db_path = dir.path().join("dealership.db");
    assert!(dealership(dir.path(), &["migrate"], None).status.success());
    // The program that migrated it is recorded: 0.1.0 as 1000.
    let this = env!("CARGO_PKG_VERSION");
    let mut parts = this.split(['.', '-']).map(|p| p.parse::<i32>().unwrap());
    let (major, minor, patch) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    assert_eq!(
        user_version(&db_path),
        major * 1_000_000 + minor * 1_000 + patch
    );
    let db = rusqlite::Connection::open(&db_path).unwrap();
    db.execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum) VALUES (999, 'future', '2030-01-01T00:00:00.000000000Z', '0')",
        [],
    )
    .unwrap();
    db.pragma_update(None, "user_version", 9_012_003).unwrap();
    drop(db);
    let before = std::fs::read(&db_path).unwrap();

    let newest = newest_migration();
    for args in [&["migrate"][..], &["serve", "--listen", "127.0.0.1:0"]] {
        let out = dealership(dir.path(), args, None);
        assert!(!out.status.success(), "{args:?} accepted a newer database");
        let said = stderr(&out);
        assert!(
            said.contains(&format!(
                "the database is at schema version 999 (migrated by dealership 9.12.3), \
                 but this dealership {this} knows versions up to {newest}"
            )),
            "{args:?}: {said}"
        );
        assert!(
            said.contains("install that version (or a newer one)"),
            "{said}"
        );
    }
    let out = dealership(dir.path(), &["check"], None);
    assert!(!out.status.success());
    assert!(
        stdout(&out).contains(&format!(
            "database schema is at version 999 (migrated by dealership 9.12.3), but this \
             dealership {this} knows versions up to {newest}"
        )),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        std::fs::read(&db_path).unwrap(),
        before,
        "the database changed"
    );

    // Not recorded (a database from before the version was kept): both
    // versions are still named, the schema's and this program's.
    let db = rusqlite::Connection::open(&db_path).unwrap();
    db.pragma_update(None, "user_version", 0).unwrap();
    drop(db);
    let out = dealership(dir.path(), &["migrate"], None);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains(&format!(
            "the database is at schema version 999, but this dealership {this} knows versions up to {newest}"
        )),
        "{}",
        stderr(&out)
    );
}

/// `dealership setup ...`, without the `--data` the other commands get.
fn setup(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dealership"))
        .arg("setup")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// `setup` in a scratch root: the folders with their modes, the
/// configuration written once and never edited after (it is the package's
/// conffile: dpkg would ask about it at the next upgrade), what a person
/// says set in setup's drop-in, the proxy's site file; what it cannot do
/// there it says.
#[test]
fn setup_prepares_a_server_and_sets_what_a_person_says() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let root_arg = root.to_str().unwrap();
    // A drop-in the dealer wrote before installing, for root alone.
    let drop_ins = root.join("etc/dealership/dealership.d");
    std::fs::create_dir_all(&drop_ins).unwrap();
    std::fs::write(drop_ins.join("10-mine.toml"), "max_connections = 77\n").unwrap();
    std::fs::set_permissions(
        drop_ins.join("10-mine.toml"),
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .unwrap();
    let out = setup(dir.path(), &["--system", "--root", root_arg]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Writing the configuration /etc/dealership/dealership.toml"));
    let conf = root.join("etc/dealership/dealership.toml");
    assert_eq!(mode(&conf), 0o640);
    assert_eq!(mode(&root.join("etc/dealership")), 0o750);
    assert_eq!(mode(&drop_ins), 0o750);
    // Readable by the service's group, as the configuration is.
    assert_eq!(mode(&drop_ins.join("10-mine.toml")), 0o640);
    assert_eq!(mode(&root.join("var/lib/dealership")), 0o750);
    assert_eq!(mode(&root.join("var/backups/dealership")), 0o700);
    let text = std::fs::read_to_string(&conf).unwrap();
    assert!(
        text.contains("\ndata_dir = \"/var/lib/dealership\"\n"),
        "{text}"
    );
    assert!(
        text.contains("\nbase_url = \"http://localhost:8080\"\n"),
        "{text}"
    );

    // An https address is needed for a proxy: refused, nothing changed.
    let out = setup(dir.path(), &["--root", root_arg, "--proxy", "caddy"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("must start with https://"),
        "{}",
        stderr(&out)
    );
    assert!(!root.join("etc/caddy/dealership.caddy").exists());
    assert!(!drop_ins.join("50-setup.toml").exists());

    let out = setup(
        dir.path(),
        &[
            "--root",
            root_arg,
            "--base-url",
            "https://auto.example.ru/",
            "--proxy",
            "nginx",
            "--listen",
            "127.0.0.1:8090",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(
            "Configuration /etc/dealership/dealership.d/50-setup.toml: base_url = \"https://auto.example.ru\""
        ),
        "{}",
        stdout(&out)
    );
    // The conffile is as the package ships it.
    assert_eq!(std::fs::read_to_string(&conf).unwrap(), text);
    let set = std::fs::read_to_string(drop_ins.join("50-setup.toml")).unwrap();
    assert!(
        set.contains("\nbase_url = \"https://auto.example.ru\"\n"),
        "{set}"
    );
    assert!(set.contains("\nlisten = \"127.0.0.1:8090\"\n"), "{set}");
    assert!(
        set.contains("\ntrusted_proxies = [\"127.0.0.1\", \"::1\"]\n"),
        "{set}"
    );
    assert_eq!(mode(&drop_ins.join("50-setup.toml")), 0o640);
    let site = std::fs::read_to_string(root.join("etc/nginx/sites-available/dealership")).unwrap();
    assert!(site.contains("server_name auto.example.ru;"), "{site}");
    assert!(site.contains("proxy_pass http://127.0.0.1:8090;"), "{site}");
    assert!(site.contains("Strict-Transport-Security"), "{site}");

    // Replication: the keys in the drop-in, the secret in a file of its own.
    let out = Command::new(env!("CARGO_BIN_EXE_dealership"))
        .args([
            "setup",
            "--root",
            root_arg,
            "--replica",
            "s3://auto-backups/site",
        ])
        .args(["--replica-endpoint", "https://storage.yandexcloud.net"])
        .args([
            "--replica-region",
            "ru-central1",
            "--replica-key-id",
            "YCAJE1",
        ])
        .arg("--replica-secret-stdin")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"s3cr3t-key\n")
                .unwrap();
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let secret = root.join("etc/dealership/replica-secret");
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "s3cr3t-key\n");
    assert_eq!(mode(&secret), 0o600);
    let set = std::fs::read_to_string(drop_ins.join("50-setup.toml")).unwrap();
    assert!(set.contains("[replica]\n"), "{set}");
    assert!(set.contains("bucket = \"auto-backups\"\n"), "{set}");
    assert!(
        set.contains("secret_access_key_file = \"/etc/dealership/replica-secret\"\n"),
        "{set}"
    );
    assert!(!set.contains("s3cr3t"), "{set}");
    assert!(
        set.contains("base_url = \"https://auto.example.ru\""),
        "{set}"
    );
    assert_eq!(std::fs::read_to_string(&conf).unwrap(), text);
    let out = setup(
        dir.path(),
        &[
            "--root",
            root_arg,
            "--replica",
            "backups",
            "--replica-key-id",
            "K",
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("s3://BUCKET/FOLDER"),
        "{}",
        stderr(&out)
    );

    // The configuration and its drop-ins are what the server reads.
    std::fs::create_dir(dir.path().join("data")).unwrap();
    let out = dealership(
        &dir.path().join("data"),
        &["--config", conf.to_str().unwrap(), "migrate"],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));

    // --config and --data are not what setup works on.
    let out = dealership(dir.path(), &["setup", "--root", root_arg], None);
    assert!(!out.status.success(), "setup with --data");
    assert!(
        stderr(&out).contains("--config and --data are not used"),
        "{}",
        stderr(&out)
    );
}

/// The owner `setup --admin` makes has a name the admin panel shows (the
/// panel showed «—» beside «(вы)»): setup passes it to `user create`.
#[test]
fn the_admin_setup_makes_has_a_display_name() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let root_arg = root.to_str().unwrap();
    let out = setup(dir.path(), &["--root", root_arg, "--admin", "manager"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // In a scratch root setup says what it would run; run that.
    let said = stdout(&out);
    let line = said
        .lines()
        .find(|l| l.contains("user create manager"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(line.contains("--display-name \"manager\""), "{line}");
    let out = setup(
        dir.path(),
        &[
            "--root",
            root_arg,
            "--admin",
            "manager",
            "--admin-name",
            "Иван Петров",
        ],
    );
    assert!(
        stdout(&out).contains("--display-name \"Иван Петров\""),
        "{}",
        stdout(&out)
    );

    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let out = dealership(
        &data,
        &[
            "user",
            "create",
            "manager",
            "--password-stdin",
            "--display-name",
            "Иван Петров",
        ],
        Some("a-long-password-1\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let conn = rusqlite::Connection::open(data.join("dealership.db")).unwrap();
    let (shown, role): (String, String) = conn
        .query_row(
            "SELECT display_name, role FROM users WHERE username = 'manager'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((shown.as_str(), role.as_str()), ("Иван Петров", "owner"));
}

#[test]
fn backup_of_a_database_being_written_is_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    assert!(dealership(&data, &["migrate"], None).status.success());
    let stop = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicUsize::new(0));
    let writer = {
        let stop = stop.clone();
        let written = written.clone();
        let path = data.join("dealership.db");
        std::thread::spawn(move || {
            let conn = rusqlite::Connection::open(path).unwrap();
            conn.busy_timeout(std::time::Duration::from_secs(5))
                .unwrap();
            let mut i = 0u64;
            while !stop.load(Ordering::Relaxed) {
                conn.execute(
                    "INSERT INTO leads (id, type, name, phone, consent_version, consent_at, consent_ip, created_at, updated_at)
                     VALUES (?1, 'auto_credit', 'Тест', '+79215551234', 1, 'now', '127.0.0.1', 'now', 'now')",
                    [format!("lead-{i}")],
                )
                .unwrap();
                i += 1;
                written.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    while written.load(Ordering::Relaxed) < 200 {
        std::thread::yield_now();
    }
    let target = data.join("copy.tar.gz");
    let out = dealership(&data, &["backup", target.to_str().unwrap()], None);
    let during = written.load(Ordering::Relaxed);
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Backup written"));
    assert!(written.load(Ordering::Relaxed) > 200);

    // The archive's database, taken out of it.
    let unpacked = data.join("copy.db");
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(
        std::fs::File::open(&target).unwrap(),
    ));
    let mut entry = archive
        .entries()
        .unwrap()
        .map(Result::unwrap)
        .find(|e| e.path().unwrap().to_str() == Some("dealership.db"))
        .expect("the archive holds the database");
    entry.unpack(&unpacked).unwrap();
    drop(entry);
    let copy = rusqlite::Connection::open(&unpacked).unwrap();
    let check: String = copy
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let leads: i64 = copy
        .query_row("SELECT count(*) FROM leads", [], |r| r.get(0))
        .unwrap();
    assert!(
        leads >= 200 && leads as usize <= during + 1,
        "{leads} of {during}"
    );
    let mode: String = copy
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");

    // An existing file is never overwritten.
    let out = dealership(&data, &["backup", target.to_str().unwrap()], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("already exists"));
}

/// Files the program makes are its user's alone whoever starts it (issue
/// 42, docs/operations.md "Files are private"): run with a loose umask
/// (022, a person's shell), the database, its log, the media folder and a
/// backup archive are 0600/0700; a database left 0644 by an older version
/// is narrowed when it opens.
#[test]
fn files_it_makes_are_private_under_a_loose_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let loose = |args: &[&str]| {
        Command::new("sh")
            .arg("-c")
            .arg("umask 022; exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_dealership"))
            .arg("--data")
            .arg(&data)
            .args(args)
            .env_remove("DEALERSHIP_LISTEN")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;

    let out = loose(&["migrate"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let database = data.join("dealership.db");
    assert_eq!(mode(&data), 0o700, "the data directory");
    assert_eq!(mode(&database), 0o600, "the database");
    for suffix in ["-wal", "-shm"] {
        let file = data.join(format!("dealership.db{suffix}"));
        if file.exists() {
            assert_eq!(mode(&file), 0o600, "{}", file.display());
        }
    }

    let archive = dir.path().join("copy.tar.gz");
    let out = loose(&["backup", archive.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(mode(&archive), 0o600, "the backup archive");
    let media = data.join("media");
    if media.exists() {
        assert_eq!(mode(&media), 0o700, "the media folder");
    }

    // Left readable by everyone (an older version, a copy by hand): narrowed.
    std::fs::set_permissions(&database, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = loose(&["migrate"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(mode(&database), 0o600, "narrowed when opened");
}
