//! Decoding a checked file to 8-bit pixels. PNG goes through the `png`
//! crate with its rows reduced to 8 bits per channel as they are read, so a
//! 16-bit picture never exists in memory at full depth; the other formats
//! are 8-bit anyway. A JPEG must be complete (its last scan ends with the
//! end-of-image marker): the decoder would paint a missing end grey.

use std::io::Cursor;

use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

use super::names::{MAX_PIXELS, MAX_SIDE, TOO_MANY_PIXELS, TRUNCATED_IMAGE, broken};
use super::variants::Layout;
use crate::error::{AppError, AppResult};

/// Memory the variants take on top of the decoded pixels (resized frames
/// and the WebP encoder), in bytes.
const VARIANTS_BYTES: u64 = 48 * 1024 * 1024;

/// Decoded pixels: 8 bits per channel, straight alpha.
pub(super) struct Pixels {
    pub pixels: Vec<u8>,
    pub layout: Layout,
}

/// The orientation of a checked file and, when `decode`, its pixels.
pub(super) fn open(
    bytes: &[u8],
    format: ImageFormat,
    decode: bool,
) -> AppResult<(Orientation, Option<Pixels>)> {
    match format {
        ImageFormat::Png => open_png(bytes, decode),
        ImageFormat::Jpeg => {
            if !jpeg_scan(bytes).complete {
                return Err(AppError::invalid("image", TRUNCATED_IMAGE));
            }
            open_other(bytes, format, decode)
        }
        _ => open_other(bytes, format, decode),
    }
}

fn open_png(bytes: &[u8], decode: bool) -> AppResult<(Orientation, Option<Pixels>)> {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(png_error)?;
    let orientation = reader
        .info()
        .exif_metadata
        .as_deref()
        .and_then(Orientation::from_exif_chunk)
        .unwrap_or(Orientation::NoTransforms);
    if !decode {
        return Ok((orientation, None));
    }
    let size = reader.output_buffer_size().ok_or_else(broken)?;
    let mut buffer = vec![0; size];
    let frame = reader.next_frame(&mut buffer).map_err(png_error)?;
    // The rest of the file up to its end chunk: a cut file is refused.
    reader.finish().map_err(png_error)?;
    buffer.truncate(frame.buffer_size());
    let pixels = match frame.color_type {
        png::ColorType::Rgb => Pixels {
            pixels: buffer,
            layout: Layout::Rgb,
        },
        png::ColorType::Rgba => Pixels {
            pixels: buffer,
            layout: Layout::Rgba,
        },
        png::ColorType::Grayscale => Pixels {
            pixels: buffer.iter().flat_map(|&v| [v, v, v]).collect(),
            layout: Layout::Rgb,
        },
        png::ColorType::GrayscaleAlpha => Pixels {
            pixels: buffer
                .chunks_exact(2)
                .flat_map(|p| [p[0], p[0], p[0], p[1]])
                .collect(),
            layout: Layout::Rgba,
        },
        // Expanded to RGB or RGBA by the transformations.
        png::ColorType::Indexed => return Err(broken()),
    };
    Ok((orientation, Some(pixels)))
}

fn png_error(err: png::DecodingError) -> AppError {
    match err {
        png::DecodingError::LimitsExceeded => AppError::invalid("image", TOO_MANY_PIXELS),
        png::DecodingError::IoError(ref e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            AppError::invalid("image", TRUNCATED_IMAGE)
        }
        _ => broken(),
    }
}

fn open_other(
    bytes: &[u8],
    format: ImageFormat,
    decode: bool,
) -> AppResult<(Orientation, Option<Pixels>)> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(decode_limits());
    let mut decoder = reader.into_decoder().map_err(decode_error)?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    if !decode {
        return Ok((orientation, None));
    }
    let decoded = DynamicImage::from_decoder(decoder).map_err(decode_error)?;
    let pixels = if decoded.color().has_alpha() {
        Pixels {
            pixels: decoded.into_rgba8().into_raw(),
            layout: Layout::Rgba,
        }
    } else {
        Pixels {
            pixels: decoded.into_rgb8().into_raw(),
            layout: Layout::Rgb,
        }
    };
    Ok((orientation, Some(pixels)))
}

fn decode_limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    // 8-bit RGBA at the largest size, with room for the decoders' own
    // buffers (a progressive JPEG keeps its coefficients).
    limits.max_alloc = Some(MAX_PIXELS * 10);
    limits
}

fn decode_error(err: image::ImageError) -> AppError {
    match err {
        image::ImageError::Limits(_) => AppError::invalid("image", TOO_MANY_PIXELS),
        _ => broken(),
    }
}

/// What the markers of a JPEG say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct JpegScan {
    /// Progressive: the decoder keeps every coefficient until the end.
    pub progressive: bool,
    /// The markers run from SOI to EOI without the data ending first.
    pub complete: bool,
}

/// Walks the markers of a JPEG: segments by their length, entropy-coded
/// data up to the next marker (a 0xFF byte in the data is always followed
/// by 0x00 or a restart marker).
pub(super) fn jpeg_scan(bytes: &[u8]) -> JpegScan {
    let mut scan = JpegScan {
        progressive: false,
        complete: false,
    };
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return scan;
    }
    let mut at = 2;
    loop {
        // Fill bytes before a marker.
        while bytes.get(at) == Some(&0xFF) && bytes.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        let (Some(&0xFF), Some(&marker)) = (bytes.get(at), bytes.get(at + 1)) else {
            return scan;
        };
        at += 2;
        match marker {
            0xD9 => {
                scan.complete = true;
                return scan;
            }
            0x01 | 0xD0..=0xD7 => continue,
            _ => {}
        }
        let Some(length) = bytes
            .get(at..at + 2)
            .map(|l| usize::from(u16::from_be_bytes([l[0], l[1]])))
        else {
            return scan;
        };
        if length < 2 {
            return scan;
        }
        if matches!(marker, 0xC2 | 0xC6 | 0xCA | 0xCE) {
            scan.progressive = true;
        }
        at += length;
        if at > bytes.len() {
            return scan;
        }
        if marker == 0xDA {
            // Entropy-coded data up to the next real marker.
            loop {
                let Some(offset) = bytes[at..].iter().position(|&b| b == 0xFF) else {
                    return scan;
                };
                at += offset;
                match bytes.get(at + 1) {
                    None => return scan,
                    Some(0x00 | 0xD0..=0xD7) => at += 2,
                    Some(_) => break,
                }
            }
        }
    }
}

/// The memory decoding and resizing a file takes at most, read from its
/// header alone; 0 when the header cannot be read (the file is refused
/// later, before any decoding).
pub fn working_bytes(bytes: &[u8]) -> u64 {
    let Ok(format) = image::guess_format(bytes) else {
        return 0;
    };
    let mut probe = ImageReader::with_format(Cursor::new(bytes), format);
    probe.no_limits();
    let Ok((width, height)) = probe.into_dimensions() else {
        return 0;
    };
    let pixels = u64::from(width) * u64::from(height);
    let per_pixel = match format {
        ImageFormat::Png => png_bytes_per_pixel(bytes),
        // RGB out (grey converted), plus 16-bit coefficients of three
        // components when progressive.
        ImageFormat::Jpeg if jpeg_scan(bytes).progressive => 4 + 6,
        ImageFormat::Jpeg => 4,
        // RGBA out plus the lossy decoder's YUV planes.
        ImageFormat::WebP => 6,
        // RGBA out plus the indexed frame.
        ImageFormat::Gif => 5,
        _ => 4,
    };
    pixels * per_pixel + VARIANTS_BYTES
}

/// Bytes per pixel of a PNG once decoded to 8 bits and expanded to RGB or
/// RGBA: grey is read into its own buffer first.
fn png_bytes_per_pixel(bytes: &[u8]) -> u64 {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    match decoder.read_info().map(|r| r.output_color_type().0) {
        Ok(png::ColorType::Rgb) => 3,
        Ok(png::ColorType::Grayscale) => 1 + 3,
        Ok(png::ColorType::GrayscaleAlpha) => 2 + 4,
        _ => 4,
    }
}
