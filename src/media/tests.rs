use std::io::Cursor;

use image::{ImageFormat, RgbImage, RgbaImage};

use super::*;

fn conn() -> Connection {
    let mut conn = Connection::open_in_memory().unwrap();
    crate::db::migrate(&mut conn).unwrap();
    conn
}

fn gradient(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x * 255 / width) as u8, (y * 255 / height) as u8, 120])
    })
}

fn encode(image: &RgbImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, format).unwrap();
    out.into_inner()
}

fn media_rows(conn: &Connection) -> i64 {
    conn.query_row("SELECT count(*) FROM media", [], |r| r.get(0))
        .unwrap()
}

/// Width and height of a stored variant, checking it is a WebP file.
fn variant_size(dir: &Path, hash: &str, width: u32) -> (u32, u32) {
    let bytes = std::fs::read(variant_path(dir, hash, width)).unwrap();
    assert_eq!(&bytes[0..4], b"RIFF");
    assert_eq!(&bytes[8..12], b"WEBP");
    ImageReader::with_format(Cursor::new(bytes), ImageFormat::WebP)
        .into_dimensions()
        .unwrap()
}

#[test]
fn stores_three_webp_variants() {
    let dir = tempfile::tempdir().unwrap();
    let conn = conn();
    let jpeg = encode(&gradient(2000, 1000), ImageFormat::Jpeg);
    let stored = store_image(&conn, dir.path(), &jpeg).unwrap();
    assert_eq!(stored.hash.len(), 32);
    assert_eq!(stored.url, format!("/media/{}-800.webp", stored.hash));
    assert_eq!((stored.width, stored.height), (2000, 1000));
    assert_eq!(variant_size(dir.path(), &stored.hash, 400), (400, 200));
    assert_eq!(variant_size(dir.path(), &stored.hash, 800), (800, 400));
    assert_eq!(variant_size(dir.path(), &stored.hash, 1600), (1600, 800));
    assert!(is_recorded(&conn, &stored.hash).unwrap());
    // Only the three variants and the folder of originals, no temporary
    // files left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4);
    // The original as it came, for the replica and to make the variants again.
    let originals: Vec<_> = std::fs::read_dir(dir.path().join(ORIGINALS_FOLDER))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(originals, std::slice::from_ref(&stored.hash));
    assert_eq!(
        std::fs::read(original_path(dir.path(), &stored.hash)).unwrap(),
        jpeg
    );
    // Queued for the replica's bucket with its row.
    let queued: String = conn
        .query_row("SELECT hash FROM media_uploads", [], |r| r.get(0))
        .unwrap();
    assert_eq!(queued, stored.hash);
}

#[test]
fn the_cleanup_removes_an_unused_pictures_original_and_its_place_in_the_queue() {
    let dir = tempfile::tempdir().unwrap();
    let conn = conn();
    let jpeg = encode(&gradient(300, 200), ImageFormat::Jpeg);
    let stored = store_image(&conn, dir.path(), &jpeg).unwrap();
    assert!(original_path(dir.path(), &stored.hash).exists());
    let removed = cleanup::collect_garbage(&conn, dir.path(), chrono::Duration::zero()).unwrap();
    assert_eq!(removed, 1);
    assert!(!original_path(dir.path(), &stored.hash).exists());
    assert!(!variant_path(dir.path(), &stored.hash, 800).exists());
    let queued: i64 = conn
        .query_row("SELECT count(*) FROM media_uploads", [], |r| r.get(0))
        .unwrap();
    assert_eq!(queued, 0);
}

#[test]
fn never_upscales_but_every_variant_exists() {
    let dir = tempfile::tempdir().unwrap();
    let conn = conn();
    let png = encode(&gradient(500, 300), ImageFormat::Png);
    let stored = store_image(&conn, dir.path(), &png).unwrap();
    assert_eq!(variant_size(dir.path(), &stored.hash, 400), (400, 240));
    assert_eq!(variant_size(dir.path(), &stored.hash, 800), (500, 300));
    assert_eq!(variant_size(dir.path(), &stored.hash, 1600), (500, 300));
}

#[test]
fn keeps_transparency_and_reads_gif_and_webp() {
    let dir = tempfile::tempdir().unwrap();
    let conn = conn();
    let rgba = RgbaImage::from_fn(900, 450, |x, _| image::Rgba([200, 30, 30, (x % 256) as u8]));
    let mut png = Cursor::new(Vec::new());
    rgba.write_to(&mut png, ImageFormat::Png).unwrap();
    let stored = store_image(&conn, dir.path(), png.get_ref()).unwrap();
    assert_eq!(variant_size(dir.path(), &stored.hash, 800), (800, 400));
    let gif = encode(&gradient(120, 80), ImageFormat::Gif);
    let stored = store_image(&conn, dir.path(), &gif).unwrap();
    assert_eq!(stored.source_mime, "image/gif");
    let webp = std::fs::read(variant_path(dir.path(), &stored.hash, 400)).unwrap();
    let again = store_image(&conn, dir.path(), &webp).unwrap();
    assert_eq!((again.width, again.height), (120, 80));
}

#[test]
fn same_bytes_same_hash_one_row() {
    let dir = tempfile::tempdir().unwrap();
    let conn = conn();
    let png = encode(&gradient(640, 480), ImageFormat::Png);
    let first = store_image(&conn, dir.path(), &png).unwrap();
    let modified = std::fs::metadata(variant_path(dir.path(), &first.hash, 800))
        .unwrap()
        .modified()
        .unwrap();
    let second = store_image(&conn, dir.path(), &png).unwrap();
    assert_eq!(first, second);
    assert_eq!(media_rows(&conn), 1);
    let again = std::fs::metadata(variant_path(dir.path(), &first.hash, 800))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(modified, again, "the files were not written again");
}

#[test]
fn refuses_a_renamed_text_file() {
    let dir = tempfile::tempdir().unwrap();
    let err = store_image(&conn(), dir.path(), b"just some text, saved as photo.jpg").unwrap_err();
    assert!(matches!(err, AppError::UnsupportedMediaType(ref m) if m == NOT_AN_IMAGE));
    assert_eq!(err.status(), 415);
    // Other image formats are refused the same way.
    let mut bmp = b"BM".to_vec();
    bmp.resize(64, 0);
    let err = store_image(&conn(), dir.path(), &bmp).unwrap_err();
    assert!(matches!(err, AppError::UnsupportedMediaType(_)));
}

#[test]
fn refuses_over_five_megabytes() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = encode(&gradient(16, 16), ImageFormat::Png);
    bytes.resize(MAX_FILE_BYTES + 1, 0);
    let err = store_image(&conn(), dir.path(), &bytes).unwrap_err();
    assert!(matches!(err, AppError::PayloadTooLarge(ref m) if m == FILE_TOO_LARGE));
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

#[test]
fn refuses_a_decompression_bomb_from_its_header() {
    // A PNG of a few dozen bytes that claims to be 100000 x 100000 RGBA
    // (40 GB once decoded).
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::new();
    header.extend_from_slice(&100_000u32.to_be_bytes());
    header.extend_from_slice(&100_000u32.to_be_bytes());
    header.extend_from_slice(&[8, 6, 0, 0, 0]);
    png_chunk(&mut png, b"IHDR", &header);
    png_chunk(
        &mut png,
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    );
    png_chunk(&mut png, b"IEND", &[]);
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let err = store_image(&conn(), dir.path(), &png).unwrap_err();
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    assert!(
        matches!(err, AppError::Invalid { ref message, .. } if message == TOO_MANY_PIXELS),
        "{err:?}"
    );
    assert_eq!(err.status(), 422);
    // Also one side too long within the pixel budget.
    let err = process_pixels(dir.path(), &[], 13_000, 1, Layout::Rgb).unwrap_err();
    assert!(matches!(err, AppError::Invalid { .. }));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn refuses_a_truncated_image() {
    let dir = tempfile::tempdir().unwrap();
    let jpeg = encode(&gradient(300, 200), ImageFormat::Jpeg);
    let err = store_image(&conn(), dir.path(), &jpeg[..40]).unwrap_err();
    assert!(matches!(err, AppError::Invalid { ref message, .. } if message == BROKEN_IMAGE));
}

/// Inserts an EXIF APP1 segment with the given orientation after the SOI.
fn with_exif_orientation(jpeg: &[u8], orientation: u16) -> Vec<u8> {
    let mut tiff = b"MM\x00\x2a\x00\x00\x00\x08".to_vec();
    tiff.extend_from_slice(&1u16.to_be_bytes()); // one entry
    tiff.extend_from_slice(&0x0112u16.to_be_bytes()); // Orientation
    tiff.extend_from_slice(&3u16.to_be_bytes()); // SHORT
    tiff.extend_from_slice(&1u32.to_be_bytes());
    tiff.extend_from_slice(&orientation.to_be_bytes());
    tiff.extend_from_slice(&[0, 0]);
    tiff.extend_from_slice(&0u32.to_be_bytes()); // no next IFD
    let mut segment = b"Exif\x00\x00".to_vec();
    segment.extend_from_slice(&tiff);
    let mut out = jpeg[..2].to_vec();
    out.extend_from_slice(&[0xff, 0xe1]);
    out.extend_from_slice(&((segment.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(&segment);
    out.extend_from_slice(&jpeg[2..]);
    out
}

#[test]
fn applies_exif_orientation() {
    let dir = tempfile::tempdir().unwrap();
    let conn = conn();
    let jpeg = encode(&gradient(1200, 600), ImageFormat::Jpeg);
    let rotated = with_exif_orientation(&jpeg, 6);
    let stored = store_image(&conn, dir.path(), &rotated).unwrap();
    assert_eq!((stored.width, stored.height), (600, 1200));
    assert_eq!(variant_size(dir.path(), &stored.hash, 400), (400, 800));
    assert_eq!(variant_size(dir.path(), &stored.hash, 800), (600, 1200));
    // Stored again: the size still comes out oriented.
    let again = store_image(&conn, dir.path(), &rotated).unwrap();
    assert_eq!((again.width, again.height), (600, 1200));
}

#[test]
fn raw_pixels_are_stored_too() {
    let dir = tempfile::tempdir().unwrap();
    let conn = conn();
    let image = gradient(1600, 1000);
    let stored = store_pixels(&conn, dir.path(), image.as_raw(), 1600, 1000, Layout::Rgb).unwrap();
    assert_eq!(variant_size(dir.path(), &stored.hash, 1600), (1600, 1000));
    assert_eq!(variant_size(dir.path(), &stored.hash, 400), (400, 250));
    let err = process_pixels(dir.path(), &[0; 10], 10, 10, Layout::Rgba).unwrap_err();
    assert!(matches!(err, AppError::Internal(_)));
}

#[test]
fn urls() {
    let hash = "0123456789abcdef0123456789abcdef";
    let url = url_of(hash);
    assert_eq!(url, format!("/media/{hash}-800.webp"));
    assert_eq!(hash_of_url(&url), Some(hash));
    assert_eq!(
        variant_url(&url, 400).unwrap(),
        format!("/media/{hash}-400.webp")
    );
    assert_eq!(
        srcset(&url).unwrap(),
        format!(
            "/media/{hash}-400.webp 400w, /media/{hash}-800.webp 800w, /media/{hash}-1600.webp 1600w"
        )
    );
    let absolute = format!("https://example.ru/media/{hash}-1600.webp");
    assert_eq!(
        variant_url(&absolute, 800).unwrap(),
        format!("https://example.ru/media/{hash}-800.webp")
    );
    assert_eq!(variant_url(&url, 500), None);
    assert_eq!(srcset("https://example.ru/photo.jpg"), None);
    assert_eq!(srcset(&format!("/uploads/{hash}-800.webp")), None);
    assert_eq!(srcset("/media/0123-800.webp"), None);
    assert_eq!(srcset(&format!("/media/{hash}-300.webp")), None);
    assert_eq!(srcset(""), None);
}

/// Timing of a 12-megapixel photo: `cargo test --release --lib
/// media::tests::timing -- --ignored --nocapture`.
#[test]
#[ignore]
fn timing_of_a_4000x3000_jpeg() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let photo = RgbImage::from_fn(4000, 3000, |x, y| {
        let noise: u8 = rng.random_range(0..40);
        image::Rgb([
            ((x / 16) % 200) as u8 + noise,
            ((y / 12) % 200) as u8 + noise / 2,
            ((x + y) / 28 % 200) as u8 + noise,
        ])
    });
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 85)
        .encode_image(&photo)
        .unwrap();
    println!("source: {} bytes", jpeg.len());
    for round in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let started = std::time::Instant::now();
        let stored = process_image(dir.path(), &jpeg).unwrap();
        println!("round {round}: {:?} ({})", started.elapsed(), stored.hash);
    }
}

#[test]
fn drawn_pictures_are_drawn_at_each_size_once() {
    use std::sync::Mutex;
    let dir = tempfile::tempdir().unwrap();
    let conn = conn();
    let calls = Mutex::new(Vec::new());
    let draw = |w: u32, h: u32| {
        calls.lock().unwrap().push((w, h));
        gradient(w, h).into_raw()
    };
    let stored = process_drawn(dir.path(), 1600, 1000, Layout::Rgb, &draw).unwrap();
    record(&conn, &stored).unwrap();
    assert_eq!(
        *calls.lock().unwrap(),
        vec![(400, 250), (1600, 1000), (800, 500)]
    );
    assert_eq!(variant_size(dir.path(), &stored.hash, 1600), (1600, 1000));
    assert_eq!(variant_size(dir.path(), &stored.hash, 800), (800, 500));
    assert_eq!(variant_size(dir.path(), &stored.hash, 400), (400, 250));
    // Stored again: one small drawing names it, nothing is written.
    calls.lock().unwrap().clear();
    let again = process_drawn(dir.path(), 1600, 1000, Layout::Rgb, &draw).unwrap();
    assert_eq!(again, stored);
    assert_eq!(*calls.lock().unwrap(), vec![(400, 250)]);
    // A narrow drawing is drawn once per distinct size.
    calls.lock().unwrap().clear();
    let narrow = process_drawn(dir.path(), 512, 512, Layout::Rgb, &draw).unwrap();
    assert_eq!(*calls.lock().unwrap(), vec![(400, 400), (512, 512)]);
    assert_eq!(variant_size(dir.path(), &narrow.hash, 1600), (512, 512));
    let err = process_drawn(dir.path(), 100, 100, Layout::Rgba, &|_, _| vec![0; 3]).unwrap_err();
    assert!(matches!(err, AppError::Internal(_)));
}

#[test]
fn a_truncated_jpeg_is_refused_as_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let jpeg = encode(&gradient(640, 480), ImageFormat::Jpeg);
    assert_eq!(
        decode::jpeg_scan(&jpeg),
        decode::JpegScan {
            progressive: false,
            complete: true
        }
    );
    // Cut anywhere in the picture data: the header reads, the end is gone.
    for cut in [
        jpeg.len() / 3,
        jpeg.len() / 2,
        jpeg.len() - 2,
        jpeg.len() - 1,
    ] {
        let truncated = &jpeg[..cut];
        assert!(!decode::jpeg_scan(truncated).complete, "cut at {cut}");
        let err = store_image(&conn(), dir.path(), truncated).unwrap_err();
        assert!(
            matches!(err, AppError::Invalid { ref message, field: Some("image") } if message == TRUNCATED_IMAGE),
            "cut at {cut}: {err:?}"
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // Bytes after the end marker (some cameras add them) are no harm.
    let mut trailer = jpeg.clone();
    trailer.extend_from_slice(b"\0\0trailer");
    assert!(decode::jpeg_scan(&trailer).complete);
    store_image(&conn(), dir.path(), &trailer).unwrap();
}

#[test]
fn a_truncated_png_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let png = encode(&gradient(640, 480), ImageFormat::Png);
    let err = store_image(&conn(), dir.path(), &png[..png.len() / 2]).unwrap_err();
    assert!(matches!(err, AppError::Invalid { .. }), "{err:?}");
    // Only the end chunk missing.
    let err = store_image(&conn(), dir.path(), &png[..png.len() - 12]).unwrap_err();
    assert!(matches!(err, AppError::Invalid { .. }), "{err:?}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn sixteen_bit_pngs_are_read_at_eight_bits() {
    let dir = tempfile::tempdir().unwrap();
    let conn = conn();
    let rgba16 = image::ImageBuffer::<image::Rgba<u16>, _>::from_fn(300, 200, |x, _| {
        image::Rgba([65_535, (x * 200) as u16, 0, 32_768])
    });
    let mut png = Cursor::new(Vec::new());
    rgba16.write_to(&mut png, ImageFormat::Png).unwrap();
    let (_, pixels) = decode::open(png.get_ref(), ImageFormat::Png, true).unwrap();
    let pixels = pixels.unwrap();
    assert_eq!(pixels.layout, Layout::Rgba);
    assert_eq!(pixels.pixels.len(), 300 * 200 * 4, "8 bits per channel");
    assert_eq!(&pixels.pixels[..4], &[255, 0, 0, 128]);
    let stored = store_image(&conn, dir.path(), png.get_ref()).unwrap();
    assert_eq!(variant_size(dir.path(), &stored.hash, 800), (300, 200));
    // 16-bit grey with alpha becomes RGBA, 16-bit grey RGB.
    let la16 = image::ImageBuffer::<image::LumaA<u16>, _>::from_fn(40, 30, |_, _| {
        image::LumaA([65_535, 65_535])
    });
    let mut png = Cursor::new(Vec::new());
    la16.write_to(&mut png, ImageFormat::Png).unwrap();
    let (_, pixels) = decode::open(png.get_ref(), ImageFormat::Png, true).unwrap();
    let pixels = pixels.unwrap();
    assert_eq!(
        (pixels.layout, &pixels.pixels[..4]),
        (Layout::Rgba, &[255, 255, 255, 255][..])
    );
    let l16 = image::ImageBuffer::<image::Luma<u16>, _>::from_fn(40, 30, |_, _| image::Luma([0]));
    let mut png = Cursor::new(Vec::new());
    l16.write_to(&mut png, ImageFormat::Png).unwrap();
    let (_, pixels) = decode::open(png.get_ref(), ImageFormat::Png, true).unwrap();
    let pixels = pixels.unwrap();
    assert_eq!(
        (pixels.layout, pixels.pixels.len()),
        (Layout::Rgb, 40 * 30 * 3)
    );
}

/// A PNG header (no pixels) of the given size, bit depth and colour type.
fn png_header(width: u32, height: u32, depth: u8, colour: u8) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::new();
    header.extend_from_slice(&width.to_be_bytes());
    header.extend_from_slice(&height.to_be_bytes());
    header.extend_from_slice(&[depth, colour, 0, 0, 0]);
    png_chunk(&mut png, b"IHDR", &header);
    png_chunk(
        &mut png,
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    );
    png_chunk(&mut png, b"IEND", &[]);
    png
}

#[test]
fn working_memory_is_read_from_the_header() {
    const MIB: u64 = 1024 * 1024;
    let pixels = 6324u64 * 6324;
    // 16-bit RGBA costs what 8-bit RGBA does: it is read at 8 bits.
    let deep = working_bytes(&png_header(6324, 6324, 16, 6));
    assert_eq!(deep, working_bytes(&png_header(6324, 6324, 8, 6)));
    assert_eq!(deep, pixels * 4 + 48 * MIB);
    assert_eq!(
        working_bytes(&png_header(6324, 6324, 8, 2)),
        pixels * 3 + 48 * MIB
    );
    assert_eq!(
        working_bytes(&png_header(1000, 1000, 16, 4)),
        1_000_000 * 6 + 48 * MIB
    );
    let jpeg = encode(&gradient(640, 480), ImageFormat::Jpeg);
    assert_eq!(working_bytes(&jpeg), 640 * 480 * 4 + 48 * MIB);
    assert_eq!(working_bytes(b"not a picture"), 0);
}

#[tokio::test]
async fn the_gate_shares_its_budget_and_queues_briefly() {
    use std::time::Duration;
    const MIB: u64 = 1024 * 1024;
    let gate = Gate::new(2, 1, 200 * MIB, Duration::from_millis(100));
    // Two small pictures at once (each takes at least half the budget).
    let first = gate.turn(gate.enter().unwrap(), MIB).await.unwrap();
    let second = gate.turn(gate.enter().unwrap(), MIB).await.unwrap();
    // A third waits in the queue, then gives up; a fourth finds no place.
    let waiting = gate.enter().unwrap();
    assert!(matches!(gate.enter(), Err(AppError::TooManyRequests(ref m)) if m == gate::BUSY));
    let err = gate.turn(waiting, MIB).await.err().unwrap();
    assert_eq!(err.status(), 429);
    drop((first, second));
    // A picture that needs more than the budget takes all of it, alone.
    let big = gate.turn(gate.enter().unwrap(), 900 * MIB).await.unwrap();
    assert!(gate.turn(gate.enter().unwrap(), MIB).await.is_err());
    drop(big);
    // A picture of 150 MiB leaves no room for a second share of 100.
    let large = gate.turn(gate.enter().unwrap(), 150 * MIB).await.unwrap();
    assert!(gate.turn(gate.enter().unwrap(), MIB).await.is_err());
    drop(large);
    let _again = gate.turn(gate.enter().unwrap(), MIB).await.unwrap();
}
