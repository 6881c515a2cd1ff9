//! What `dealership` checks and says when it starts: one server per data
//! directory, a writable media folder, the demo user, configuration bounds,
//! mistyped environment variables.
#![cfg(unix)]
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod running;

use std::process::{Output, Stdio};
use std::time::Duration;

use running::{Server, command};

fn run(data: &std::path::Path, args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = command(data)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_second_server_on_the_same_data_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = Server::start(dir.path(), &[]);

    let mut second = Server::spawn(dir.path(), &[]);
    let status = second
        .wait(Duration::from_secs(15))
        .expect("the second server stops by itself");
    assert!(!status.success());
    let log = second.log();
    assert!(
        log.contains("another dealership server")
            && log.contains(&first.child.id().to_string())
            && log.contains(&dir.path().display().to_string()),
        "{log}"
    );
    // The first one still serves.
    assert!(running::get(first.port, "/robots.txt").is_some());

    // Commands other than serve work beside it.
    let out = run(
        dir.path(),
        &["user", "create", "manager", "--password-stdin"],
        &[],
        "first-secret\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let copy = dir.path().join("copy.db");
    let out = run(dir.path(), &["backup", copy.to_str().unwrap()], &[], "");
    assert!(out.status.success(), "{}", stderr(&out));

    // Once it has stopped, the directory is free again.
    let (status, _) = first.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success());
    let mut third = Server::start(dir.path(), &[]);
    let (status, _) = third.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success(), "{}", third.log());
}

#[test]
fn a_media_folder_that_cannot_be_made_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the folder should be.
    std::fs::write(dir.path().join("media"), b"not a folder").unwrap();
    let out = run(dir.path(), &["serve", "--listen", "127.0.0.1:0"], &[], "");
    assert!(!out.status.success());
    let media = dir.path().join("media").display().to_string();
    assert!(
        stderr(&out).contains(&format!("media folder {media}")),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_media_folder_that_cannot_be_written_stops_the_start() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let media = dir.path().join("media");
    std::fs::create_dir(&media).unwrap();
    std::fs::set_permissions(&media, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(media.join("probe"), b"").is_ok() {
        // Running as root, which writes anywhere: nothing to check here.
        eprintln!("skipped: permissions do not bind this user");
        return;
    }
    let out = run(dir.path(), &["serve", "--listen", "127.0.0.1:0"], &[], "");
    std::fs::set_permissions(&media, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains(&format!(
            "the media folder {} is not writable",
            media.display()
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_demo_user_is_warned_about_while_it_exists() {
    let dir = tempfile::tempdir().unwrap();
    let warning = "the demo admin user \"demo\" still exists";
    let out = run(
        dir.path(),
        &["user", "create", "demo", "--password-stdin"],
        &[],
        "demo-password\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let mut server = Server::start(dir.path(), &[]);
    assert!(
        server.logs_within(warning, Duration::from_secs(2)),
        "{}",
        server.log()
    );
    server.terminate(Duration::from_secs(10));

    // As the warning says: one's own user first (the last owner stays).
    let out = run(
        dir.path(),
        &["user", "create", "owner", "--password-stdin"],
        &[],
        "owner-password\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(dir.path(), &["user", "delete", "demo"], &[], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let mut server = Server::start(dir.path(), &[]);
    // Stopped first: its whole log is written by then.
    server.terminate(Duration::from_secs(10));
    assert!(!server.log().contains(warning), "{}", server.log());
}

#[test]
fn unknown_environment_variables_are_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &["user", "list"],
        &[
            ("DEALERSHIP_LEADS_RATE_LIMIT", "3"),
            ("DEALERSHIP_LISTEN", "127.0.0.1:9999"),
            ("DEALERSHIP_BIN", "/usr/bin/true"),
        ],
        "",
    );
    assert!(out.status.success(), "only a warning: {}", stderr(&out));
    let log = stderr(&out);
    assert!(
        log.contains(
            "environment variable DEALERSHIP_LEADS_RATE_LIMIT sets no configuration key and is ignored"
        ),
        "{log}"
    );
    assert!(!log.contains("DEALERSHIP_LISTEN"), "{log}");
    assert!(
        !log.contains("DEALERSHIP_BIN"),
        "used by the UI's browser tests: {log}"
    );
}

#[test]
fn bad_settings_stop_the_start_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str)] = &[
        (
            "DEALERSHIP_ADMIN_SESSION_IDLE_MINUTES",
            "2",
            "admin.session_idle_minutes: must be from 5 to 43200",
        ),
        (
            "DEALERSHIP_ADMIN_SESSION_IDLE_MINUTES",
            "100000",
            "admin.session_idle_minutes: must be from 5 to 43200",
        ),
        (
            "DEALERSHIP_TRUSTED_PROXIES",
            "127.0.0.1,nginx",
            "trusted_proxies: not an address or a range",
        ),
        (
            "DEALERSHIP_TRUST_FORWARDED_FOR",
            "true",
            "trust_forwarded_for (from DEALERSHIP_TRUST_FORWARDED_FOR): replaced by trusted_proxies",
        ),
        (
            "DEALERSHIP_MAX_CONNECTIONS",
            "lots",
            "max_connections (from DEALERSHIP_MAX_CONNECTIONS): must be an integer",
        ),
    ];
    for (name, value, message) in cases {
        let out = run(dir.path(), &["serve"], &[(name, value)], "");
        assert!(!out.status.success(), "{name}={value}");
        assert!(
            stderr(&out).contains(message),
            "{name}={value}: {}",
            stderr(&out)
        );
    }
    let config = dir.path().join("old.toml");
    std::fs::write(&config, "trust_forwarded_for = true\n").unwrap();
    let out = run(
        dir.path(),
        &["--config", config.to_str().unwrap(), "migrate"],
        &[],
        "",
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("trust_forwarded_for: replaced by trusted_proxies"),
        "{}",
        stderr(&out)
    );
}
