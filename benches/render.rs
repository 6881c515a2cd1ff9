//! The server render alone: the UI's server build (`ui/dist-server/render.js`)
//! in QuickJS through `dealership::http::pages::render::Engine`, the same
//! engine the server's rendering threads hold, on page data captured from
//! running servers by `bench/pages.sh`.
//!
//! ```sh
//! cargo bench --bench render
//! RENDER_DATA_DIR=bench/out/render-data RENDER_ITERATIONS=300 cargo bench --bench render
//! ```
//!
//! Environment (all optional):
//!   RENDER_SCRIPT      the server build (default ui/dist-server/render.js)
//!   RENDER_DATA_DIR    a folder of NAME.url + NAME.json pairs: the page's URL
//!                      (path and query) and its embedded JSON (the
//!                      `preload-data` script), default bench/out/render-data
//!   RENDER_ITERATIONS  timed renders per page after the warm-up (default 300)
//!   RENDER_WARMUP      untimed renders per page first (default 30)
//!   RENDER_TSV         also append one tab-separated line per page to this file
//!   RENDER_ENGINES     the rows to run, comma-separated (default
//!                      quickjs,quickjs-cold; also quickjs-ahead)
//!
//! Each render is timed as the server's thread pays it: `Engine::render`
//! calls `ssr.render(url, answers)` (the data split by answer) and runs the job queue until the promise
//! settles. Between renders the engine collects its cycles untimed, as a
//! rendering thread does while no other page waits (under a queue of pages
//! the collections fall between them and QuickJS collects by itself past
//! its headroom). Each
//! page is measured twice: `quickjs` with a store of drawn fragments as the
//! server's threads share (after the warm-up its cards and sections come
//! from the store), `quickjs-cold` without one (everything drawn, as the
//! first render of a page whose cars no page has shown yet). On request,
//! `quickjs-ahead` draws each page once, after drawing its cars' cards into
//! a store the pages share in turn: a page no one has asked for yet, as the
//! server draws it (its cards drawn ahead, what earlier pages drew kept).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use std::sync::Arc;

use dealership::http::pages::render::{Engine, Fragments};

struct Case {
    name: String,
    url: String,
    data: String,
}

fn env_number(name: &str, default: usize) -> Result<usize, String> {
    match std::env::var(name) {
        Ok(text) => text
            .trim()
            .parse()
            .map_err(|_| format!("{name} must be a whole number, got {text:?}")),
        Err(_) => Ok(default),
    }
}

fn cases(dir: &Path) -> Result<Vec<Case>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        format!(
            "{}: {e} (run bench/pages.sh first, or set RENDER_DATA_DIR)",
            dir.display()
        )
    })?;
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".url").map(str::to_string)
        })
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let url = std::fs::read_to_string(dir.join(format!("{name}.url")))
            .map_err(|e| format!("{name}.url: {e}"))?
            .trim()
            .to_string();
        let data = std::fs::read_to_string(dir.join(format!("{name}.json")))
            .map_err(|e| format!("{name}.json: {e}"))?;
        out.push(Case { name, url, data });
    }
    if out.is_empty() {
        return Err(format!("no NAME.url files in {}", dir.display()));
    }
    Ok(out)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The value below which `q` of the sorted samples lie (nearest rank).
fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Draws the cards of every list in the page's `data` into the engine's
/// store, as the server's job "cards ahead" has before a page asks.
fn draw_cards_ahead(engine: &Engine, data: &str) -> Result<(), String> {
    let answers: std::collections::HashMap<String, &serde_json::value::RawValue> =
        serde_json::from_str(data).map_err(|e| e.to_string())?;
    for (url, answer) in &answers {
        if url.starts_with("/api/cars") && answer.get().starts_with('[') {
            engine.draw_cards(data, answer.get())?;
        }
    }
    Ok(())
}

fn run() -> Result<(), String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script_path = std::env::var_os("RENDER_SCRIPT")
        .map_or_else(|| root.join("ui/dist-server/render.js"), PathBuf::from);
    let data_dir = std::env::var_os("RENDER_DATA_DIR")
        .map_or_else(|| root.join("bench/out/render-data"), PathBuf::from);
    let iterations = env_number("RENDER_ITERATIONS", 300)?.max(1);
    let warmup = env_number("RENDER_WARMUP", 30)?;
    let engines =
        std::env::var("RENDER_ENGINES").unwrap_or_else(|_| "quickjs,quickjs-cold".to_string());

    let script = std::fs::read_to_string(&script_path).map_err(|e| {
        format!(
            "{}: {e} (npm run build in ui/ first)",
            script_path.display()
        )
    })?;
    let cases = cases(&data_dir)?;

    let started = Instant::now();
    let store = Arc::new(Fragments::new(16 * 1024 * 1024));
    let warm = Engine::with_fragments(&script, Some(store.clone()))?;
    let load_time = started.elapsed();
    let loaded_memory = warm.memory_used();
    let cold = Engine::load(&script)?;
    let ahead = Engine::with_fragments(&script, Some(Arc::new(Fragments::new(16 * 1024 * 1024))))?;

    println!(
        "render bench: QuickJS (rquickjs) Engine, {} ({} B), data from {}",
        script_path.display(),
        script.len(),
        data_dir.display()
    );
    println!(
        "{iterations} timed renders per page after {warmup} warm-up renders, one engine per row for all pages"
    );
    println!(
        "quickjs: with the server's store of drawn fragments (16 MB), warm after the warm-up;"
    );
    println!("quickjs-cold: no store, every card and section drawn (a page's first render)");
    println!(
        "quickjs-ahead: one render a page (no warm-up) with its cars' cards drawn ahead, in a store \
         shared by the pages in turn: a page no one has asked for, as the server draws it"
    );
    println!(
        "engine load (evaluate the script): {:.1} ms, memory_used after load: {loaded_memory} B",
        ms(load_time)
    );
    println!();
    println!(
        "{:<16} {:<13} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>14}  url",
        "page",
        "engine",
        "data B",
        "html B",
        "p50 ms",
        "p90 ms",
        "p99 ms",
        "max ms",
        "mean ms",
        "memory_used B"
    );
    let mut tsv = String::new();
    for case in &cases {
        for (name, engine) in [
            ("quickjs", &warm),
            ("quickjs-cold", &cold),
            ("quickjs-ahead", &ahead),
        ] {
            if !engines.split(',').any(|e| e.trim() == name) {
                continue;
            }
            let (warmup, iterations) = if name == "quickjs-ahead" {
                draw_cards_ahead(engine, &case.data).map_err(|e| format!("{}: {e}", case.name))?;
                (0, 1)
            } else {
                (warmup, iterations)
            };
            let mut html_len = 0;
            for _ in 0..warmup {
                html_len = engine
                    .render(&case.url, &case.data)
                    .map_err(|e| format!("{}: {e}", case.name))?
                    .len();
            }
            let mut samples = Vec::with_capacity(iterations);
            for _ in 0..iterations {
                let started = Instant::now();
                let html = engine
                    .render(&case.url, &case.data)
                    .map_err(|e| format!("{}: {e}", case.name))?;
                samples.push(started.elapsed());
                html_len = std::hint::black_box(html).len();
                // As a rendering thread does when no other page waits.
                engine.collect();
            }
            let memory = engine.memory_used();
            let total: Duration = samples.iter().sum();
            let mean = total / samples.len() as u32;
            samples.sort();
            let (p50, p90, p99) = (
                quantile(&samples, 0.50),
                quantile(&samples, 0.90),
                quantile(&samples, 0.99),
            );
            let max = samples.last().copied().unwrap_or_default();
            println!(
                "{:<16} {:<13} {:>9} {:>9} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>14}  {}",
                case.name,
                name,
                case.data.len(),
                html_len,
                ms(p50),
                ms(p90),
                ms(p99),
                ms(max),
                ms(mean),
                memory,
                case.url
            );
            let _ = writeln!(
                tsv,
                "{name}\t{}\t{:.3}\t{:.3}\t{:.3}\t{:.3}\t{}\t{}\t{}",
                case.name,
                ms(p50),
                ms(p90),
                ms(p99),
                ms(mean),
                memory,
                case.data.len(),
                html_len
            );
        }
    }
    let stats = store.stats();
    println!();
    println!(
        "fragment store after the run: {} fragments, {} B, {} hits, {} misses",
        stats.entries, stats.bytes, stats.hits, stats.misses
    );
    if let Some(path) = std::env::var_os("RENDER_TSV") {
        use std::io::Write as _;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", PathBuf::from(&path).display()))?;
        file.write_all(tsv.as_bytes())
            .map_err(|e| format!("{}: {e}", PathBuf::from(&path).display()))?;
    }
    Ok(())
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the arguments.
    if let Err(e) = run() {
        eprintln!("render bench: {e}");
        std::process::exit(1);
    }
}
