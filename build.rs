//! Rebuilds the binary when the built UI (ui/dist, embedded by rust-embed)
//! changes. Before the UI is built the binary still compiles; it then serves
//! pages without scripts.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::path::Path::new("ui/dist").exists() {
        println!("cargo:rerun-if-changed=ui/dist");
    } else if std::path::Path::new("ui").exists() {
        // Notices ui/dist appearing.
        println!("cargo:rerun-if-changed=ui");
    }
}
