//! Rebuilds the binary when the built UI (ui/dist, embedded by rust-embed)
//! changes. A release build refuses to go on without it, so no binary ships
//! without its web UI; a debug build still compiles before the UI is built
//! (it then serves pages without scripts).

use std::path::Path;

const MANIFEST: &str = "ui/dist/.vite/manifest.json";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if Path::new("ui/dist").exists() {
        println!("cargo:rerun-if-changed=ui/dist");
    } else if Path::new("ui").exists() {
        // Notices ui/dist appearing.
        println!("cargo:rerun-if-changed=ui");
    }
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    if release && !Path::new(MANIFEST).is_file() {
        eprintln!(
            "error: {MANIFEST} is missing: a release build embeds the web UI, so build it \
             first:\n\n    (cd ui && npm install && npm run build)\n\n\
             (scripts/run.sh and scripts/test.sh do this before `cargo build --release`)"
        );
        std::process::exit(1);
    }
}
