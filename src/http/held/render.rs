//! Server rendering of the public pages: the UI's server build
//! (`ui/dist-server/render.js`, from `ui/src/server.tsx`) runs in QuickJS, an
//! interpreter (no JIT, so it lives under the unit's
//! `MemoryDenyWriteExecute=yes`). It draws the same components the browser
//! hydrates, from the same data the page embeds (`docs/rendering.md`).
//!
//! A few threads each hold one QuickJS runtime with the script loaded; a
//! page hands its URL and data to whichever is free. The work is bounded: a
//! queue of [`QUEUE`] pages, a memory limit per runtime and a deadline per
//! render. A page that cannot be rendered (queue full, an error, no server
//! build) is sent as the shell alone, which the browser draws as before.
//!
//! The threads share one store of drawn fragments ([`Fragments`]): a car's
//! card is drawn once per its data and inserted as HTML into every later
//! page that shows it (`ui/src/lib/serverFragments.tsx`).
//!
//! The state keeps the [`Renderer`] (`AppState::renderer`); the page routes
//! (`http::pages`) leave a [`PendingMarkup`] for [`server_render`] to fill.
//!
//! Memory: every page drawn and every answer built takes its bytes from one
//! process-wide [`MemoryBudget`] ([`BUDGET`]) before it is drawn or sent; a
//! page the budget cannot hold goes out as its shell, an answer it cannot
//! hold is a 503 with `Retry-After` (`http::cache::cached`).

use std::sync::mpsc::{
    Receiver, RecvTimeoutError, SyncSender, TryRecvError, TrySendError, sync_channel,
};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use rquickjs::function::Opt;
use rquickjs::{CatchResultExt, Context, Function, Object, Promise, Runtime};
use rust_embed::RustEmbed;
use tokio::sync::oneshot;

use super::ahead::{Ahead, AheadBatch};
pub use super::fragments::{FRAGMENTS_BYTES, FragmentStats, Fragments};
pub use super::memory_budget::{BUDGET, BUDGET_BYTES, Held, MemoryBudget};
use super::page_answers::{answers, item_digests};
use super::placed::{Placed, eager_first_picture};
use crate::http::kept_styles;
use crate::http::negotiation::{Encoding, preferred_encoding};
use crate::http::screen::Screen;
use crate::http::spliced::{self, BrotliForm};

/// A missing ui/dist-server (a clean clone before `npm run build`) embeds
/// nothing: pages are then sent as their shells.
#[derive(RustEmbed)]
#[folder = "ui/dist-server"]
#[allow_missing = true]
struct ServerBuild;

const SCRIPT: &str = "render.js";
/// Pages waiting for a thread; beyond it a page goes out unrendered.
const QUEUE: usize = 64;
/// Longest a render may run before QuickJS interrupts it.
const DEADLINE: Duration = Duration::from_secs(2);
/// Memory of one runtime: the script, its compiled functions and one page.
pub const MEMORY_LIMIT_BYTES: usize = 64 * 1024 * 1024;
const STACK_BYTES: usize = 1024 * 1024;
/// Rendering threads at most (fewer on a machine with fewer cores).
const MAX_THREADS: usize = 4;
/// A rendering thread makes its runtime again after so long without a
/// page: what the last pages left in it (QuickJS keeps what it has
/// allocated, a large page's worth) goes back to the system, and a fresh
/// runtime with the script loaded waits for the next page, which would
/// otherwise pay the loading (some 30 ms; `docs/rendering.md`).
pub const IDLE_RUNTIME: Duration = Duration::from_secs(10);
/// Longest a thread waits for the queue at a time.
const WAIT_SLICE: Duration = Duration::from_secs(1);
/// Garbage a runtime may gather past what it holds before QuickJS collects
/// in the middle of a page: the threads collect between pages
/// ([`Engine::collect`], at most every [`COLLECT_AFTER_PAGES`] pages while
/// pages keep coming), so a page rarely pays for a collection. A page
/// leaves some of its tree as cycles (the server build breaks each drawn
/// element's links to its parent and component: `ui/src/server/render.tsx`),
/// about a hundred kilobytes.
const GC_HEADROOM_BYTES: usize = 8 * 1024 * 1024;
/// Pages a thread draws between two collections while pages keep coming; a
/// thread that waited a whole [`WAIT_SLICE`] for none collects at once.
/// A collection walks the whole runtime, the script's functions included
/// (1.5-3 ms on this project's 2-core machine): after every page it took a
/// core from the next page's drawing.
const COLLECT_AFTER_PAGES: u32 = 4;

/// What drawing a page costs per byte of its data: the copy handed to the
/// thread, the string and the objects QuickJS parses it into, the markup
/// and its copies in Rust.
pub const RENDER_BYTES_PER_DATA_BYTE: usize = 10;

/// A shell waiting for its markup: [`server_render`] draws the page
/// from `data` and puts it between `before` and `after`. The response's body
/// is already the complete shell with the no-script line, sent as it is when
/// the page cannot be drawn.
#[derive(Clone)]
pub struct PendingMarkup {
    pub before: String,
    pub after: String,
    /// The page's embedded JSON (API URL → answer).
    pub data: String,
}

/// How the shell's part before the page's markup ends.
const APP_OPENING: &str = "<div id=\"app\">";

struct Job {
    url: String,
    data: String,
    screen: Screen,
    reply: oneshot::Sender<Option<String>>,
}

/// The rendering threads, started on the first page.
pub struct Renderer {
    queue: OnceLock<Option<SyncSender<Job>>>,
    threads: usize,
    fragments: Option<Arc<Fragments>>,
    /// Cards to draw while no page waits (`cards_ahead`).
    ahead: Arc<Ahead>,
}

impl Default for Renderer {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Renderer::with_threads(cores.clamp(1, MAX_THREADS))
    }
}

impl Renderer {
    /// As `[pages]` says: off, or so many threads (0: one per core).
    pub fn for_config(config: &crate::config::PagesConfig) -> Renderer {
        if !config.server_render {
            let off = Renderer::with_threads(1);
            let _ = off.queue.set(None);
            return off;
        }
        let mut renderer = match config.render_threads {
            0 => Renderer::default(),
            n => Renderer::with_threads(n as usize),
        };
        renderer.fragments = (config.fragment_cache_mb > 0).then(|| {
            Arc::new(Fragments::new(
                u64::from(config.fragment_cache_mb) * 1024 * 1024,
            ))
        });
        renderer
    }

    /// So many threads, and a fragment store of [`FRAGMENTS_BYTES`].
    pub fn with_threads(threads: usize) -> Renderer {
        Renderer {
            queue: OnceLock::new(),
            threads: threads.max(1),
            fragments: Some(Arc::new(Fragments::new(FRAGMENTS_BYTES))),
            ahead: Arc::default(),
        }
    }

    /// Starts the rendering threads (each loads its runtime), so that the
    /// first page does not wait for them; `serve` calls it at the start.
    pub fn start(&self) {
        let _ = self.queue();
    }

    /// Whether the rendering threads are running (a page has been asked
    /// for since the start, or [`Renderer::start`]).
    pub fn started(&self) -> bool {
        self.queue.get().is_some_and(Option::is_some)
    }

    /// Cards to draw ahead of the pages that will show them, in this order
    /// and before those still waiting, while no page waits.
    pub fn draw_ahead(&self, batches: Vec<AheadBatch>) {
        if self.fragments.is_some() && self.started() {
            self.ahead.add(batches);
        }
    }

    /// Batches waiting to be drawn ahead (or being drawn), and cards drawn
    /// ahead so far.
    pub fn ahead(&self) -> (usize, u64) {
        self.ahead.progress()
    }

    /// The shared fragment store, when there is one.
    pub fn fragments(&self) -> Option<&Fragments> {
        self.fragments.as_deref()
    }

    /// Whether the binary holds the server build.
    pub fn available() -> bool {
        ServerBuild::get(SCRIPT).is_some()
    }

    fn queue(&self) -> Option<&SyncSender<Job>> {
        self.queue
            .get_or_init(|| {
                let script = ServerBuild::get(SCRIPT)?;
                let script = Arc::new(String::from_utf8_lossy(&script.data).into_owned());
                let (tx, rx) = sync_channel::<Job>(QUEUE);
                let rx = Arc::new(Mutex::new(rx));
                for n in 0..self.threads {
                    let (script, rx) = (script.clone(), rx.clone());
                    let (fragments, ahead) = (self.fragments.clone(), self.ahead.clone());
                    let spawned = std::thread::Builder::new()
                        .name(format!("render-{n}"))
                        .spawn(move || work(&script, fragments, &rx, &ahead));
                    if let Err(e) = spawned {
                        tracing::error!("page rendering thread: {e}");
                        return None;
                    }
                }
                Some(tx)
            })
            .as_ref()
    }

    /// The page's markup for `<div id="app">`, or `None` to send the shell
    /// alone. `url` is the page's path and query, `data` its embedded JSON,
    /// `screen` the screen it is drawn for (`http::screen`).
    pub async fn render(&self, url: &str, data: &str, screen: Screen) -> Option<String> {
        let queue = self.queue()?;
        let (reply, answer) = oneshot::channel();
        let job = Job {
            url: url.to_string(),
            data: data.to_string(),
            screen,
            reply,
        };
        match queue.try_send(job) {
            Ok(()) => answer.await.ok().flatten(),
            Err(TrySendError::Full(_)) => {
                tracing::warn!("page rendering queue full: {url} sent unrendered");
                None
            }
            Err(TrySendError::Disconnected(_)) => None,
        }
    }
}

/// One thread: its own runtime, loaded when the thread starts and rebuilt
/// after any failure. When no page is waiting it collects what the pages
/// before left, so that the next page does not pay for it; after
/// [`IDLE_RUNTIME`] without a page it drops the runtime, gives the freed
/// memory back to the system and loads a fresh one for the next page.
fn work(
    script: &str,
    fragments: Option<Arc<Fragments>>,
    jobs: &Mutex<Receiver<Job>>,
    ahead: &Ahead,
) {
    let load = || {
        Engine::with_fragments(script, fragments.clone())
            .inspect_err(|e| tracing::error!("page renderer: {e}"))
            .ok()
    };
    let mut engine: Option<Engine> = load();
    let mut last_page = Instant::now();
    let mut collected = true;
    // Pages drawn since the last collection.
    let mut drawn: u32 = 0;
    // The runtime has drawn nothing since it was loaded.
    let mut fresh = true;
    loop {
        // With a collection due, or cards to draw ahead, only a look: a
        // collection waits for a quiet queue or a few pages.
        let due = drawn >= COLLECT_AFTER_PAGES;
        let wait = if (collected || !due) && !ahead.waiting() {
            WAIT_SLICE
        } else {
            Duration::ZERO
        };
        let job = match next_job(jobs, wait) {
            Waited::Job(job) => job,
            Waited::Gone => return,
            Waited::Nothing => {
                if collected && let Some(batch) = ahead.take() {
                    // One thread at a time: the others stay free for pages.
                    if engine.is_none() {
                        engine = load();
                    }
                    fresh = false;
                    match engine
                        .as_ref()
                        .map(|e| e.draw_cards(&batch.data, &batch.cars))
                    {
                        Some(Ok(drawn)) => ahead.done(drawn),
                        Some(Err(error)) => {
                            tracing::error!("drawing cards ahead: {error}");
                            ahead.done(0);
                            engine = None;
                        }
                        None => ahead.done(0),
                    }
                    last_page = Instant::now();
                    collected = false;
                    continue;
                }
                if let Some(idle) = &engine {
                    if !collected {
                        idle.collect();
                        drawn = 0;
                    } else if !fresh && last_page.elapsed() >= IDLE_RUNTIME {
                        drop(engine.take());
                        crate::allocator::give_memory_back();
                        engine = load();
                        fresh = true;
                    }
                }
                collected = true;
                // The other threads get the queue between waits.
                std::thread::yield_now();
                continue;
            }
        };
        if engine.is_none() {
            engine = load();
        }
        fresh = false;
        let html = engine
            .as_ref()
            .and_then(|e| match e.draw(&job.url, &job.data, job.screen) {
                Ok(html) => Some(html),
                Err(error) => {
                    tracing::error!("rendering {}: {error}", job.url);
                    None
                }
            });
        let failed = html.is_none();
        let _ = job.reply.send(html);
        // The page is on its way; what it drew goes into the store now.
        if failed {
            engine = None;
            drawn = 0;
        } else if let Some(done) = &engine {
            done.keep_drawn();
            drawn += 1;
        }
        last_page = Instant::now();
        collected = false;
    }
}

/// What a look at the queue found.
enum Waited {
    Job(Job),
    Nothing,
    /// The renderer is gone.
    Gone,
}

/// The next page within `wait` (none: only a look). The threads share the
/// queue behind a lock, so each waits at most [`WAIT_SLICE`] at a time and
/// every thread gets to look at its idle runtime.
fn next_job(jobs: &Mutex<Receiver<Job>>, wait: Duration) -> Waited {
    let rx = if wait.is_zero() {
        // Another thread waiting on the queue takes the next page.
        match jobs.try_lock() {
            Ok(rx) => rx,
            Err(std::sync::TryLockError::WouldBlock) => return Waited::Nothing,
            Err(std::sync::TryLockError::Poisoned(_)) => return Waited::Gone,
        }
    } else {
        let Ok(rx) = jobs.lock() else {
            return Waited::Gone;
        };
        rx
    };
    let got = if wait.is_zero() {
        rx.try_recv().map_err(|e| matches!(e, TryRecvError::Empty))
    } else {
        rx.recv_timeout(wait)
            .map_err(|e| matches!(e, RecvTimeoutError::Timeout))
    };
    match got {
        Ok(job) => Waited::Job(job),
        Err(true) => Waited::Nothing,
        Err(false) => Waited::Gone,
    }
}

/// A QuickJS runtime with the server build evaluated.
pub struct Engine {
    runtime: Runtime,
    context: Context,
    deadline: Arc<Mutex<Option<Instant>>>,
    /// The fragments the page being drawn has taken from the store: the
    /// script holds a short token for each, and the page's markup gets
    /// their HTML in Rust ([`Placed::expand`]), so no fragment's HTML is
    /// copied into the runtime and back.
    placed: Arc<Mutex<Placed>>,
    /// The store the fragments a page drew go into after it.
    fragments: Option<Arc<Fragments>>,
}

impl Engine {
    /// Loads the server build embedded in the binary.
    pub fn embedded() -> Result<Engine, String> {
        let script = ServerBuild::get(SCRIPT).ok_or("no server build in this binary")?;
        Engine::load(&String::from_utf8_lossy(&script.data))
    }

    /// The script evaluated, drawing every fragment afresh.
    pub fn load(script: &str) -> Result<Engine, String> {
        Engine::with_fragments(script, None)
    }

    /// The script evaluated with `fragments` as its store of drawn
    /// fragments (the global `fragments`, with `get(key)` and
    /// `put(key, html)`), or none.
    pub fn with_fragments(
        script: &str,
        fragments: Option<Arc<Fragments>>,
    ) -> Result<Engine, String> {
        let runtime = Runtime::new().map_err(|e| e.to_string())?;
        runtime.set_memory_limit(MEMORY_LIMIT_BYTES);
        runtime.set_max_stack_size(STACK_BYTES);
        let deadline: Arc<Mutex<Option<Instant>>> = Arc::default();
        let watched = deadline.clone();
        runtime.set_interrupt_handler(Some(Box::new(move || {
            watched
                .lock()
                .ok()
                .and_then(|d| *d)
                .is_some_and(|d| Instant::now() > d)
        })));
        let context = Context::full(&runtime).map_err(|e| e.to_string())?;
        let engine = Engine {
            runtime,
            context,
            deadline,
            placed: Arc::new(Mutex::new(Placed::new())),
            fragments: fragments.clone(),
        };
        engine.within_deadline(|| {
            engine.context.with(|ctx| {
                let load = || -> rquickjs::Result<()> {
                    let console = Object::new(ctx.clone())?;
                    let log = Function::new(ctx.clone(), |text: rquickjs::Coerced<String>| {
                        tracing::warn!("page renderer: {}", text.0);
                    })?;
                    for name in ["log", "info", "warn", "error", "debug"] {
                        console.set(name, log.clone())?;
                    }
                    ctx.globals().set("console", console)?;
                    if let Some(store) = fragments {
                        // get(key, eager): the token of the kept fragment,
                        // or undefined; put(key, html, eager): keeps it
                        // (its own tokens expanded; deflated once the page
                        // is sent: [`Engine::keep_drawn`]) and gives its
                        // token. With `eager` the token's HTML has its
                        // first picture loaded first ([`eager_first_picture`]).
                        let host = Object::new(ctx.clone())?;
                        let (read, placed) = (store.clone(), engine.placed.clone());
                        host.set(
                            "get",
                            Function::new(ctx.clone(), move |key: String, eager: Opt<bool>| {
                                let html = read.get(&key)?;
                                let html = match eager.0 {
                                    Some(true) => Arc::from(eager_first_picture(&html)),
                                    _ => html,
                                };
                                Some(placed.lock().ok()?.place(html))
                            })?,
                        )?;
                        let placed = engine.placed.clone();
                        host.set(
                            "put",
                            Function::new(
                                ctx.clone(),
                                move |key: String, html: String, eager: Opt<bool>| {
                                    let Ok(mut placed) = placed.lock() else {
                                        return html;
                                    };
                                    let html: Arc<str> = Arc::from(placed.expand(&html));
                                    store.put_plain(&key, html.clone());
                                    placed.note_drawn(key, html.clone());
                                    match eager.0 {
                                        Some(true) => {
                                            placed.place(Arc::from(eager_first_picture(&html)))
                                        }
                                        _ => placed.place(html),
                                    }
                                },
                            )?,
                        )?;
                        ctx.globals().set("fragments", host)?;
                    }
                    ctx.eval::<(), _>(script)
                };
                load()
                    .catch(&ctx)
                    .map_err(|e| format!("loading the server build: {e}"))
            })
        })?;
        engine.collect();
        Ok(engine)
    }

    fn within_deadline<T>(&self, f: impl FnOnce() -> T) -> T {
        if let Ok(mut d) = self.deadline.lock() {
            *d = Some(Instant::now() + DEADLINE);
        }
        let out = f();
        if let Ok(mut d) = self.deadline.lock() {
            *d = None;
        }
        out
    }

    /// Calls the server build's `ssr` object with `call` within the
    /// deadline, the fragments drawn before kept and none placed.
    fn call_ssr<T>(
        &self,
        call: impl for<'js> FnOnce(Object<'js>) -> rquickjs::Result<T>,
    ) -> Result<T, String> {
        self.keep_drawn();
        self.within_deadline(|| {
            self.context.with(|ctx| {
                let ssr = ctx.globals().get::<_, Object>("ssr");
                ssr.and_then(call).catch(&ctx).map_err(|e| e.to_string())
            })
        })
    }

    /// The markup of the page at `url` drawn from `data`, the fragments it
    /// drew kept in the store.
    pub fn render(&self, url: &str, data: &str) -> Result<String, String> {
        let html = self.draw(url, data, Screen::Wide);
        self.keep_drawn();
        html
    }

    /// [`Engine::render`], the fragments the page drew kept as they are
    /// until [`Engine::keep_drawn`] (or the next page) deflates them: the
    /// rendering threads do that after the page is sent.
    pub fn draw(&self, url: &str, data: &str, screen: Screen) -> Result<String, String> {
        let answers = answers(data)?;
        let html = self.call_ssr(|ssr| {
            let render: Function = ssr.get("render")?;
            // A promise: lazy pages resolve on the job queue.
            let page: Promise = render.call((url, answers, screen.name()))?;
            page.finish::<String>()
        });
        // No collection here: reference counting frees most of a page at
        // once, and the cycles (hooks' state, templates) are collected
        // between pages ([`Engine::collect`]) or, past the headroom, by
        // QuickJS itself.
        let placed = self.placed.lock().map_err(|e| e.to_string())?;
        html.map(|markup| placed.expand(&markup))
    }

    /// Keeps the fragments the last page drew deflated in the store (they
    /// are kept as they are while it is drawn), and forgets the page's
    /// fragments.
    pub fn keep_drawn(&self) {
        let Ok(mut placed) = self.placed.lock() else {
            return;
        };
        match &self.fragments {
            Some(store) => placed.keep(|key, html| store.put(key, html)),
            None => placed.keep(|_, _| {}),
        }
    }

    /// Draws the cards of `cars` into the fragment store (`drawCards` of
    /// the server build) with `data` as the answers a card reads; answers
    /// how many were not kept yet.
    pub fn draw_cards(&self, data: &str, cars: &str) -> Result<u32, String> {
        let drawn = self.call_ssr(|ssr| {
            let draw: Function = ssr.get("drawCards")?;
            draw.call((data, cars, item_digests(cars)))
        });
        self.keep_drawn();
        drawn
    }

    /// Collects the cycles the pages before left, and lets the runtime
    /// gather [`GC_HEADROOM_BYTES`] more before QuickJS collects by itself
    /// (its own threshold is half of what it holds, which a page of a few
    /// megabytes passes more than once).
    pub fn collect(&self) {
        self.runtime.run_gc();
        let held = usize::try_from(self.runtime.memory_usage().malloc_size).unwrap_or(0);
        self.runtime.set_gc_threshold(held + GC_HEADROOM_BYTES);
    }

    /// Bytes the runtime holds now.
    pub fn memory_used(&self) -> i64 {
        self.runtime.memory_usage().memory_used_size
    }
}

/// Middleware of the page routes: draws the page a handler left as a shell
/// ([`PendingMarkup`]) into it. Runs inside the answer cache, so a page is
/// drawn once per URL and content version.
pub async fn server_render(
    State(renderer): State<Arc<Renderer>>,
    request: Request,
    next: Next,
) -> Response {
    let url = request
        .uri()
        .path_and_query()
        .map_or_else(|| request.uri().path().to_string(), |p| p.to_string());
    let screen = Screen::of(request.headers()).for_path(request.uri().path());
    // A browser that keeps no stylesheet gets the page as drawn (another
    // gets its form linking them, made later from it): its brotli form is
    // begun beside the drawing.
    let early_brotli = preferred_encoding(request.headers()) == Encoding::Brotli
        && kept_styles::kept(request.headers()).is_none();
    let response = next.run(request).await;
    fill_within(&BUDGET, &renderer, &url, response, early_brotli, screen).await
}

/// The response with the page's markup in its shell, when it is waiting for
/// it and can be drawn; otherwise as it came.
pub async fn fill(renderer: &Renderer, url: &str, response: Response) -> Response {
    fill_within(&BUDGET, renderer, url, response, false, Screen::Wide).await
}

/// [`fill`] taking the drawing's bytes from `budget`: a page whose data
/// would pass a runtime's memory limit, or whose drawing does not fit in
/// what the budget has left now, goes out as its shell. With
/// `early_brotli` the page's brotli form is made beside its drawing
/// ([`spliced::begin_brotli`]) and goes with the response ([`BrotliForm`])
/// for the answer cache. A page drawn for a phone says so in its markup
/// (`<div id="app" data-screen="phone">`): the browser takes it over as
/// drawn (`ui/src/main.tsx`).
pub async fn fill_within(
    budget: &MemoryBudget,
    renderer: &Renderer,
    url: &str,
    mut response: Response,
    early_brotli: bool,
    screen: Screen,
) -> Response {
    let Some(mut pending) = response.extensions_mut().remove::<PendingMarkup>() else {
        return response;
    };
    if screen == Screen::Phone
        && let Some(shell) = pending.before.strip_suffix(APP_OPENING)
    {
        pending.before = format!("{shell}<div id=\"app\" data-screen=\"phone\">");
    }
    let cost = render_cost(pending.data.len());
    if cost > MEMORY_LIMIT_BYTES {
        tracing::warn!(
            "{url}: {} bytes of data are more than a renderer can draw; sent as the shell",
            pending.data.len()
        );
        return response;
    }
    let Some(_held) = budget.take(cost) else {
        tracing::warn!(
            "{url}: the memory budget is taken ({} of {} MB); sent as the shell",
            budget.in_use_bytes() >> 20,
            budget.total_bytes() >> 20
        );
        return response;
    };
    let begun = early_brotli
        .then(|| spliced::begin_brotli(&pending.before))
        .flatten();
    let Some(markup) = renderer.render(url, &pending.data, screen).await else {
        return response;
    };
    let (mut parts, _) = response.into_parts();
    let html = Bytes::from([pending.before.as_str(), &markup, &pending.after].concat());
    if let Some(begun) = begun
        && let Some(brotli) = begun.finish(html.slice(pending.before.len()..)).await
    {
        parts.extensions.insert(BrotliForm(brotli));
    }
    Response::from_parts(parts, Body::from(html))
}

/// What drawing a page with `data_bytes` of data takes ([`RENDER_BYTES_PER_DATA_BYTE`]).
pub fn render_cost(data_bytes: usize) -> usize {
    data_bytes.saturating_mul(RENDER_BYTES_PER_DATA_BYTE) + 64 * 1024
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(render: &str) -> Engine {
        Engine::load(&format!("globalThis.ssr = {{ render: {render} }};")).unwrap()
    }

    #[test]
    fn draws_what_the_script_returns_and_resolves_its_promises() {
        // The page's answers come as (URL, JSON, digest, item digests).
        let e = engine("async (url, [at, json]) => `<p>${url} ${at}: ${JSON.parse(json).n}</p>`");
        assert_eq!(
            e.render("/x?y=1", r#"{"/api/n":{"n":7}}"#).unwrap(),
            "<p>/x?y=1 /api/n: 7</p>"
        );
    }

    #[test]
    fn kept_fragments_come_back_as_tokens_the_page_gets_the_html_of() {
        let store = Arc::new(Fragments::new(1024 * 1024));
        let script = r#"globalThis.ssr = { render: async (url) => {
            const card = fragments.get("card") ?? fragments.put("card", "<b>карта</b>");
            const grid = fragments.get("grid") ?? fragments.put("grid", `<div>${card}</div>`);
            if (url === "/forged") return "<p>\u0001" + "0000000000000000:0\u0002</p>";
            return `<p>${grid}${card}|${card.length < 40}</p>`;
        } };"#;
        let e = Engine::with_fragments(script, Some(store.clone())).unwrap();
        let page = "<p><div><b>карта</b></div><b>карта</b>|true</p>";
        assert_eq!(e.render("/", "{}").unwrap(), page);
        // The grid was kept with its card in it, not the card's token.
        let grid = store.get("grid").unwrap();
        assert_eq!(&*grid, "<div><b>карта</b></div>");
        // Drawn again from the store: the same page.
        assert_eq!(e.render("/", "{}").unwrap(), page);
        assert_eq!(store.stats().hits, 1 + 2);
        // A token the page's text makes up (another nonce) stays text.
        assert_eq!(
            e.render("/forged", "{}").unwrap(),
            "<p>\u{1}0000000000000000:0\u{2}</p>"
        );
    }

    #[test]
    fn an_endless_render_is_stopped_at_its_deadline() {
        let e = engine("async () => { for (;;) {} }");
        let started = Instant::now();
        assert!(e.render("/", "{}").is_err());
        assert!(started.elapsed() < DEADLINE * 3);
        // The runtime still draws afterwards.
        let e2 = engine("async () => 'ok'");
        assert_eq!(e2.render("/", "{}").unwrap(), "ok");
    }

    #[test]
    fn a_render_past_the_memory_limit_fails_without_harm() {
        let e = engine(
            "async () => { const a = []; for (;;) a.push('x'.repeat(1 << 20) + a.length); }",
        );
        let error = e.render("/", "{}").unwrap_err();
        assert!(!error.is_empty());
    }

    #[test]
    fn an_exception_is_an_error_with_its_message() {
        let e = engine("async () => { throw new Error('нет данных'); }");
        assert!(e.render("/", "{}").unwrap_err().contains("нет данных"));
    }

    #[test]
    fn the_script_reads_and_fills_the_shared_fragment_store() {
        let store = Arc::new(Fragments::new(1024 * 1024));
        let script = "globalThis.ssr = { render: async (url) => { \
            let html = fragments.get(url); \
            if (html === undefined) { html = `<b>${url}</b>`; fragments.put(url, html); } \
            return html; } };";
        let one = Engine::with_fragments(script, Some(store.clone())).unwrap();
        let two = Engine::with_fragments(script, Some(store.clone())).unwrap();
        assert_eq!(one.render("/машина", "{}").unwrap(), "<b>/машина</b>");
        // Another runtime finds what the first drew.
        assert_eq!(two.render("/машина", "{}").unwrap(), "<b>/машина</b>");
        let stats = store.stats();
        assert_eq!((stats.entries, stats.hits, stats.misses), (1, 1, 1));
        // Without a store the script sees none.
        let alone = Engine::load("globalThis.ssr = { render: async () => typeof fragments };");
        assert_eq!(alone.unwrap().render("/", "{}").unwrap(), "undefined");
    }

    #[test]
    fn the_fragment_store_keeps_to_its_bytes() {
        let store = Fragments::new(64 * 1024);
        let html = "x".repeat(1000);
        for n in 0..1000 {
            store.put(&format!("card {n}"), &html);
        }
        let stats = store.stats();
        assert!(stats.bytes <= 64 * 1024, "{stats:?}");
        assert!(stats.entries > 0 && stats.entries < 1000, "{stats:?}");
        // Keys are told apart by their whole text.
        store.put("card {\"price\":1}", "<p>1</p>");
        store.put("card {\"price\":2}", "<p>2</p>");
        assert_eq!(store.get("card {\"price\":2}").as_deref(), Some("<p>2</p>"));
    }

    #[test]
    fn the_budget_gives_what_fits_and_takes_it_back_when_dropped() {
        let budget = MemoryBudget::new(1024 * 1024);
        let one = budget.take(600 * 1024).unwrap();
        assert_eq!(budget.in_use_bytes(), 600 * 1024);
        // What is left is not enough, whoever asks.
        assert!(budget.take(500 * 1024).is_none());
        assert!(
            budget.take(2 * 1024 * 1024).is_none(),
            "more than the whole"
        );
        let mut two = budget.take(300 * 1024).unwrap();
        assert!(!budget.grow(&mut two, 500 * 1024));
        assert_eq!(two.bytes(), 300 * 1024, "a refused grow changes nothing");
        // Fitting down gives the rest back at once.
        assert!(budget.fit(&mut two, 100 * 1024));
        assert_eq!(budget.in_use_bytes(), 700 * 1024);
        drop(one);
        assert!(budget.grow(&mut two, 900 * 1024));
        assert_eq!(budget.take_peak(), 900 * 1024);
        // A body holds its bytes until it is dropped.
        let body = two.with_body(Body::from("страница"));
        assert_eq!(budget.in_use_bytes(), 900 * 1024);
        drop(body);
        assert_eq!(budget.in_use_bytes(), 0);
        assert_eq!(
            budget.take_peak(),
            900 * 1024,
            "the peak since the last look"
        );
        assert_eq!(budget.take_peak(), 0);
    }

    #[tokio::test]
    async fn a_page_the_budget_cannot_draw_goes_out_as_its_shell() {
        let shell = "<html><div id=\"app\"></div><script>данные</script></html>";
        let page = |data: String| {
            let mut response = Response::new(Body::from(shell));
            response.extensions_mut().insert(PendingMarkup {
                before: "<html><div id=\"app\">".to_string(),
                after: "</div></html>".to_string(),
                data,
            });
            response
        };
        let body = |response: Response| async {
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX);
            String::from_utf8(bytes.await.unwrap().to_vec()).unwrap()
        };
        let renderer = Renderer::with_threads(1);
        // Its drawing needs more than the budget has.
        let budget = MemoryBudget::new(1024 * 1024);
        let data = format!("{{\"x\":\"{}\"}}", "я".repeat(100 * 1024));
        let sent = fill_within(&budget, &renderer, "/", page(data), false, Screen::Wide).await;
        assert_eq!(body(sent).await, shell);
        assert_eq!(budget.in_use_bytes(), 0);
        // The budget taken by others: the shell too.
        let big = MemoryBudget::new(64 * 1024 * 1024);
        let _others = big.take(64 * 1024 * 1024 - 32 * 1024).unwrap();
        let sent = fill_within(
            &big,
            &renderer,
            "/",
            page("{}".to_string()),
            false,
            Screen::Wide,
        )
        .await;
        assert_eq!(body(sent).await, shell);
        // Data no runtime could draw: the shell, whatever the budget.
        let huge = MemoryBudget::new(usize::MAX >> 20);
        let data = "1".repeat(MEMORY_LIMIT_BYTES / RENDER_BYTES_PER_DATA_BYTE + 1);
        let sent = fill_within(&huge, &renderer, "/", page(data), false, Screen::Wide).await;
        assert_eq!(body(sent).await, shell);
        assert_eq!(huge.in_use_bytes(), 0);
    }

    #[test]
    fn the_page_is_drawn_for_the_screen_it_is_asked_for() {
        let e = engine("(url, data, screen) => Promise.resolve(`${url} ${screen}`)");
        assert_eq!(
            e.draw("/new-cars", "{}", Screen::Phone).unwrap(),
            "/new-cars phone"
        );
        assert_eq!(e.render("/new-cars", "{}").unwrap(), "/new-cars wide");
    }

    #[test]
    fn a_broken_script_does_not_load() {
        assert!(Engine::load("globalThis.ssr = {").is_err());
    }
}
