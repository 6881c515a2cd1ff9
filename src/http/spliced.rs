//! A page's compressed forms made around its stylesheet (`docs/cache.md`,
//! "Compressed around the stylesheet"): a first page carries the site's
//! stylesheet inline (110 KB, half the page), the same bytes in every page.
//! Their brotli and gzip forms are made once, at the highest quality, on a
//! thread of their own the first time a page shows them; every later page
//! compresses only what is its own (the part before the `<style>` element
//! and the part after it) and joins the three: brotli streams made
//! "catable" and joined by the brotli crate's `BroCatli`, deflate parts
//! ended on a full flush and wrapped in one gzip member. A page compressed
//! so is smaller than compressed whole (the stylesheet at quality 11) in
//! under half the time.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use axum::body::Bytes;
use brotli::concat::{BroCatli, BroCatliResult};
use flate2::{Compress, Compression, Crc, FlushCompress};

use crate::http::negotiation::Encoding;

/// A `<style>` element shorter than this is compressed with its page.
const MIN_STYLE_BYTES: usize = 8 * 1024;
/// Stylesheets kept compressed (one a build, a lazy page's own beside it).
const MAX_KEPT: usize = 8;
/// The joined page's window (log2 of its bytes), the stylesheet's.
const BROTLI_WINDOW: i32 = 22;
/// A page's own parts' window: 256 KB holds a list page's own part
/// (120 KB) whole, and makes the same bytes as 4 MB a fifth sooner (the
/// encoder clears less memory: 1.34 → 1.10 ms for a list page's).
const PAGE_WINDOW: i32 = 18;
/// The quality of a page's own parts (the cache's, `kept_answer`).
const PAGE_QUALITY: i32 = 5;
/// The stylesheet's, once.
const STYLE_QUALITY: i32 = 11;
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];

/// A stylesheet's compressed forms, by a digest of its element.
#[derive(Default)]
struct Kept {
    brotli: Option<Arc<[u8]>>,
    gzip: Option<Arc<[u8]>>,
}

/// The stylesheets' forms by digest, each made once.
type KeptForms = Mutex<HashMap<[u8; 16], Arc<OnceLock<Kept>>>>;

fn kept() -> &'static KeptForms {
    static KEPT: OnceLock<KeptForms> = OnceLock::new();
    KEPT.get_or_init(Mutex::default)
}

/// The page's first large `<style>` element of its head: the parts
/// before, the element, after.
fn split(html: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    // `str::find` is the standard library's fast search; a page is UTF-8.
    let text = std::str::from_utf8(html).ok()?;
    text.find("</head>")?;
    split_head(html)
}

/// [`split`] of a page's start that holds at least its stylesheet.
fn split_head(html: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let text = std::str::from_utf8(html).ok()?;
    let head = &text[..text.find("</head>").unwrap_or(text.len())];
    let start = head.find("<style>")?;
    let end = start + head[start..].find("</style>")? + "</style>".len();
    (end - start >= MIN_STYLE_BYTES).then(|| (&html[..start], &html[start..end], &html[end..]))
}

/// What the kept forms are found by: the stylesheet is the build's own
/// bytes (no stranger writes a page's head), and every page hashes its
/// 110 KB, so a fast hash rather than a cryptographic one.
fn style_digest(style: &[u8]) -> [u8; 16] {
    xxhash_rust::xxh3::xxh3_128(style).to_le_bytes()
}

/// The kept forms of the stylesheet `style`, and whether they were just
/// put there (empty: the caller makes them).
fn forms_of(style: &[u8]) -> (Arc<OnceLock<Kept>>, bool) {
    let digest = style_digest(style);
    let mut kept = kept().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(forms) = kept.get(&digest) {
        return (forms.clone(), false);
    }
    if kept.len() >= MAX_KEPT {
        kept.clear();
    }
    let forms: Arc<OnceLock<Kept>> = Arc::default();
    kept.insert(digest, forms.clone());
    (forms, true)
}

/// The stylesheet compressed once, at the highest quality.
fn make(style: &[u8]) -> Kept {
    Kept {
        brotli: brotli_part(style, STYLE_QUALITY, BROTLI_WINDOW).map(Arc::from),
        gzip: deflate_part(style, Compression::best(), false).map(Arc::from),
    }
}

/// The stylesheet's forms when they are made; otherwise starts making
/// them (on a thread of its own) and answers None: this page is compressed
/// whole.
fn style_forms(style: &[u8]) -> Option<Arc<OnceLock<Kept>>> {
    let (forms, new) = forms_of(style);
    if !new {
        return forms.get().is_some().then_some(forms);
    }
    let style = style.to_vec();
    let spawned = std::thread::Builder::new()
        .name("compress-style".into())
        .spawn(move || {
            let _ = forms.set(make(&style));
        });
    if let Err(e) = spawned {
        tracing::warn!("compressing the stylesheet once: {e}");
    }
    None
}

/// Makes the compressed forms of the `<style>` element `element` now, on
/// this thread, unless they are made or being made (then waits for them,
/// at most a few seconds): the pages drawn ahead after a start are then
/// compressed around it like every later page (they are kept until the
/// next change; compressed whole, the home page was 2.6 % heavier).
pub(crate) fn make_style_forms(element: &[u8]) {
    let (forms, new) = forms_of(element);
    if new {
        let _ = forms.set(make(element));
        return;
    }
    let started = std::time::Instant::now();
    while forms.get().is_none() && started.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// The `encoding` form of an HTML page made around its stylesheet; None
/// when the page has none or its forms are not made yet (the caller then
/// compresses the page whole).
pub(crate) fn compress(html: &[u8], encoding: Encoding) -> Option<Vec<u8>> {
    let (before, style, after) = split(html)?;
    let forms = style_forms(style)?;
    let forms = forms.get()?;
    match encoding {
        Encoding::Brotli => {
            let style = forms.brotli.as_deref()?;
            let before = brotli_part(before, PAGE_QUALITY, PAGE_WINDOW)?;
            let after = brotli_part(after, PAGE_QUALITY, PAGE_WINDOW)?;
            join_brotli(&[&before, style, &after])
        }
        Encoding::Gzip => {
            let style = forms.gzip.as_deref()?;
            let before = deflate_part(before, Compression::default(), false)?;
            let after = deflate_part(after, Compression::default(), true)?;
            let mut crc = Crc::new();
            crc.update(html);
            let mut out = Vec::with_capacity(before.len() + style.len() + after.len() + 18);
            out.extend_from_slice(&GZIP_HEADER);
            out.extend_from_slice(&before);
            out.extend_from_slice(style);
            out.extend_from_slice(&after);
            out.extend_from_slice(&crc.sum().to_le_bytes());
            out.extend_from_slice(&(html.len() as u32).to_le_bytes());
            Some(out)
        }
        Encoding::Identity => None,
    }
}

/// A page's brotli form begun before its markup is drawn
/// ([`begin_brotli`]): the part before the stylesheet is compressed, the
/// stylesheet's kept form taken, and the part after it (the page's data,
/// up to its markup) fed to an encoder while the page is drawn.
pub(crate) struct BrotliBegun {
    started: tokio::task::JoinHandle<Option<(Vec<u8>, PartWriter)>>,
    style: Arc<[u8]>,
}

type PartWriter = brotli::CompressorWriter<Vec<u8>>;

/// Begins the brotli form of a page whose markup is still to be drawn and
/// which starts with `before` (up to its markup: the head with the
/// stylesheet and the data): the work runs on the blocking pool beside the
/// drawing, and the same encoder then takes the markup, so the page is
/// compressed as [`compress`] would (the markup may point back into the
/// data), only sooner. None when `before` has no large stylesheet or its
/// forms are not made yet.
pub(crate) fn begin_brotli(before: &str) -> Option<BrotliBegun> {
    let (head, style, rest) = split_head(before.as_bytes())?;
    let forms = style_forms(style)?;
    let style = forms.get()?.brotli.clone()?;
    let (head, rest) = (head.to_vec(), rest.to_vec());
    let started = tokio::task::spawn_blocking(move || {
        let head = brotli_part(&head, PAGE_QUALITY, PAGE_WINDOW)?;
        let mut writer = part_writer();
        writer.write_all(&rest).ok()?;
        // Compressed now (the encoder waits for a block's worth of input
        // otherwise); its window keeps it for the markup to point into.
        writer.flush().ok()?;
        Some((head, writer))
    });
    Some(BrotliBegun { started, style })
}

impl BrotliBegun {
    /// The page's brotli form once the `rest` of the page (its markup and
    /// what follows it) is known.
    pub(crate) async fn finish(self, rest: Bytes) -> Option<Bytes> {
        let (head, mut writer) = self.started.await.ok()??;
        let style = self.style;
        let rest = move || {
            writer.write_all(&rest).ok()?;
            // Finishes the stream.
            let tail = writer.into_inner();
            let page = join_brotli(&[&head, &style, &tail])?;
            Some(Bytes::from(page.into_boxed_slice()))
        };
        // On this thread, which has the markup at hand, when the runtime can
        // spare it (its other tasks move to another worker meanwhile): the
        // visitor waits for this, and handing it to the blocking pool woke
        // one more thread (the tests' runtime has one thread: there it goes
        // to the pool).
        match tokio::runtime::Handle::current().runtime_flavor() {
            tokio::runtime::RuntimeFlavor::MultiThread => tokio::task::block_in_place(rest),
            _ => tokio::task::spawn_blocking(rest).await.ok()?,
        }
    }
}

/// A drawn page's brotli form, made beside its drawing: the answer cache
/// keeps it as the page's brotli form (`kept_answer::Answer::keep_brotli`).
#[derive(Clone)]
pub(crate) struct BrotliForm(pub(crate) Bytes);

fn part_params(quality: i32, window: i32) -> brotli::enc::BrotliEncoderParams {
    brotli::enc::BrotliEncoderParams {
        quality,
        lgwin: window,
        catable: true,
        appendable: true,
        use_dictionary: false,
        ..Default::default()
    }
}

fn part_writer() -> PartWriter {
    brotli::CompressorWriter::with_params(
        Vec::with_capacity(64 * 1024),
        4096,
        &part_params(PAGE_QUALITY, PAGE_WINDOW),
    )
}

/// A brotli stream that can be joined to others (no reference to the
/// static dictionary, whose distances would not survive the join), its
/// window `window` at most the joined page's ([`BROTLI_WINDOW`]).
fn brotli_part(bytes: &[u8], quality: i32, window: i32) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() / 4);
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &part_params(quality, window)).ok()?;
    Some(out)
}

fn join_brotli(parts: &[&[u8]]) -> Option<Vec<u8>> {
    let mut joiner = BroCatli::new_with_window_size(BROTLI_WINDOW as u8);
    let mut out = vec![0; parts.iter().map(|p| p.len()).sum::<usize>() + 16];
    let mut written = 0;
    for part in parts {
        joiner.new_brotli_file();
        let mut read = 0;
        match joiner.stream(part, &mut read, &mut out, &mut written) {
            BroCatliResult::NeedsMoreInput => {}
            other => {
                tracing::warn!("joining brotli parts: {other:?}");
                return None;
            }
        }
    }
    match joiner.finish(&mut out, &mut written) {
        BroCatliResult::Success => {
            out.truncate(written);
            Some(out)
        }
        other => {
            tracing::warn!("joining brotli parts: {other:?}");
            None
        }
    }
}

/// Raw deflate of `bytes`: ended on a full flush (byte-aligned, no
/// reference before it) so more may follow, or finished when `last`.
fn deflate_part(bytes: &[u8], level: Compression, last: bool) -> Option<Vec<u8>> {
    let mut compress = Compress::new(level, false);
    let mut out = Vec::with_capacity(bytes.len() / 3 + 64);
    let flush = if last {
        FlushCompress::Finish
    } else {
        FlushCompress::Full
    };
    let mut input = bytes;
    loop {
        if out.capacity() - out.len() < 1024 {
            out.reserve(out.capacity().max(4096));
        }
        let before_in = compress.total_in();
        let status = compress.compress_vec(input, &mut out, flush).ok()?;
        input = &input[(compress.total_in() - before_in) as usize..];
        let done = match status {
            flate2::Status::StreamEnd => true,
            flate2::Status::Ok | flate2::Status::BufError => {
                input.is_empty() && !last && out.capacity() > out.len()
            }
        };
        if done {
            return Some(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// For a test: waits until the stylesheet of `html` is kept compressed.
    fn wait_for_style(html: &[u8]) {
        let Some((_, style, _)) = split(html) else {
            return;
        };
        let _ = style_forms(style);
        let digest = style_digest(style);
        loop {
            let forms = kept()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&digest)
                .cloned();
            if forms.is_some_and(|f| f.get().is_some()) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    fn page() -> Vec<u8> {
        let css: String = (0..2000)
            .map(|i| format!(".rule-{i}{{color:#{:06x};margin:{}px}}", i * 97, i % 13))
            .collect();
        format!(
            "<!doctype html><html><head><title>Страница</title><style>{css}</style><link rel=\"stylesheet\" href=\"/assets/main-AbCd1234.css\" disabled></head><body>{}</body></html>",
            "<p class=\"rule-7\">Автомобиль с пробегом, 1 500 000 ₽</p>".repeat(300)
        )
        .into_bytes()
    }

    #[test]
    fn a_page_compressed_around_its_stylesheet_reads_back_as_the_page() {
        let html = page();
        wait_for_style(&html);
        let br = compress(&html, Encoding::Brotli).expect("brotli around the stylesheet");
        let mut plain = Vec::new();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, html);
        let gz = compress(&html, Encoding::Gzip).expect("gzip around the stylesheet");
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, html);
        assert!(
            gz.len() < html.len() / 4 && br.len() < gz.len(),
            "{} {}",
            br.len(),
            gz.len()
        );
    }

    #[tokio::test]
    async fn a_page_begun_before_its_markup_reads_back_as_the_page() {
        let html = page();
        wait_for_style(&html);
        let text = std::str::from_utf8(&html).unwrap();
        let markup = text.find("<body>").unwrap() + "<body>".len();
        let begun = begin_brotli(&text[..markup]).expect("begun beside the drawing");
        let br = begun
            .finish(Bytes::copy_from_slice(&html[markup..]))
            .await
            .expect("finished");
        let mut plain = Vec::new();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, html);
        // As small as the page compressed at once, within a flush's bytes.
        let whole = compress(&html, Encoding::Brotli).unwrap();
        assert!(br.len() <= whole.len() + 64, "{} {}", br.len(), whole.len());
    }

    #[test]
    fn forms_made_beforehand_compress_the_first_page_around_its_stylesheet() {
        let css: String = (0..1500)
            .map(|i| format!(".made-{i}{{padding:{}px}}", i % 17))
            .collect();
        let element = format!("<style>{css}</style>");
        let html = format!(
            "<html><head><title>Заранее</title>{element}</head><body>{}</body></html>",
            "<p class=\"made-3\">Страница</p>".repeat(200)
        );
        make_style_forms(element.as_bytes());
        let br = compress(html.as_bytes(), Encoding::Brotli)
            .expect("the forms made: the first page compressed around them");
        let mut plain = Vec::new();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, html.as_bytes());
        // Made once: asked again, they are there at once.
        make_style_forms(element.as_bytes());
        assert!(compress(html.as_bytes(), Encoding::Gzip).is_some());
    }

    #[test]
    fn a_page_without_a_large_stylesheet_is_compressed_whole() {
        let html = b"<html><head><style>p{}</style></head><body></body></html>";
        assert_eq!(compress(html, Encoding::Brotli), None);
        assert_eq!(compress(b"{\"json\":1}", Encoding::Gzip), None);
        assert!(begin_brotli("<html><head><style>p{}</style>").is_none());
    }
}
