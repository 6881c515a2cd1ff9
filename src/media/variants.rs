//! Resizing a decoded picture to the stored widths and writing each variant
//! as lossy WebP, atomically (temporary file, then rename).

use std::borrow::Cow;
use std::path::Path;

use anyhow::Context;
use fast_image_resize::images::{Image, ImageRef};
use fast_image_resize::{FilterType, MulDiv, PixelType, ResizeAlg, ResizeOptions, Resizer};
use image::metadata::Orientation;
use image::{DynamicImage, ImageBuffer};

use super::names::{WEBP_METHOD, WEBP_METHOD_DRAWN, WEBP_QUALITY, WIDTHS, variant_path};
use crate::error::{AppError, AppResult};

/// How raw pixels are laid out: 8 bits per channel, straight alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Rgb,
    Rgba,
}

impl Layout {
    pub fn channels(self) -> usize {
        match self {
            Layout::Rgb => 3,
            Layout::Rgba => 4,
        }
    }

    fn pixel_type(self) -> PixelType {
        match self {
            Layout::Rgb => PixelType::U8x3,
            Layout::Rgba => PixelType::U8x4,
        }
    }
}

/// A decoded picture as stored in its file (before EXIF orientation).
pub(super) struct Source<'a> {
    /// Owned pixels with alpha are premultiplied in place, without a copy
    /// of the picture.
    pub pixels: Cow<'a, [u8]>,
    pub width: u32,
    pub height: u32,
    pub layout: Layout,
    pub orientation: Orientation,
}

/// Pixels of one size.
struct Frame<'a> {
    pixels: Cow<'a, [u8]>,
    width: u32,
    height: u32,
}

fn swaps_sides(orientation: Orientation) -> bool {
    matches!(
        orientation,
        Orientation::Rotate90
            | Orientation::Rotate270
            | Orientation::Rotate90FlipH
            | Orientation::Rotate270FlipH
    )
}

/// The size as shown, once the orientation is applied.
pub(super) fn oriented(width: u32, height: u32, orientation: Orientation) -> (u32, u32) {
    if swaps_sides(orientation) {
        (height, width)
    } else {
        (width, height)
    }
}

pub(super) fn all_exist(media_dir: &Path, hash: &str) -> bool {
    WIDTHS
        .iter()
        .all(|&w| variant_path(media_dir, hash, w).is_file())
}

/// The stored sizes (target width, width, height) in the file's orientation,
/// largest first: the shown width capped at each target, never upscaled,
/// the height keeping the aspect ratio.
pub(super) fn sizes(width: u32, height: u32, orientation: Orientation) -> Vec<(u32, u32, u32)> {
    let (shown_width, shown_height) = oriented(width, height, orientation);
    WIDTHS
        .iter()
        .rev()
        .map(|&target| {
            let w = target.min(shown_width);
            let h = (u64::from(shown_height) * u64::from(w) + u64::from(shown_width) / 2)
                / u64::from(shown_width);
            let (fw, fh) = oriented(w, (h as u32).max(1), orientation);
            (target, fw, fh)
        })
        .collect()
}

/// Writes the variants of a drawn picture: `draw` gives it at each size
/// (straight alpha); `smallest` is the drawing at the last of `sizes`,
/// already made to name the picture.
pub(super) fn write_drawn(
    media_dir: &Path,
    hash: &str,
    smallest: Vec<u8>,
    sizes: &[(u32, u32, u32)],
    layout: Layout,
    draw: &dyn Fn(u32, u32) -> Vec<u8>,
) -> AppResult<()> {
    std::fs::create_dir_all(media_dir)
        .with_context(|| format!("cannot create {}", media_dir.display()))?;
    let (_, small_w, small_h) = sizes[sizes.len() - 1];
    let mut smallest = Some(smallest);
    let mut frame: Option<Frame> = None;
    for &(target, w, h) in sizes {
        let reuse = frame
            .as_ref()
            .is_some_and(|f| (f.width, f.height) == (w, h));
        if !reuse {
            let pixels = match smallest.take() {
                Some(pixels) if (w, h) == (small_w, small_h) => pixels,
                other => {
                    smallest = other;
                    draw(w, h)
                }
            };
            if pixels.len() != w as usize * h as usize * layout.channels() {
                return Err(AppError::Internal(anyhow::anyhow!(
                    "drawn {} bytes for {w}x{h}",
                    pixels.len()
                )));
            }
            frame = Some(Frame {
                pixels: Cow::Owned(pixels),
                width: w,
                height: h,
            });
        }
        if let Some(frame) = &frame {
            encode_and_write(
                media_dir,
                hash,
                target,
                frame,
                layout,
                Orientation::NoTransforms,
                WEBP_METHOD_DRAWN,
            )?;
        }
    }
    Ok(())
}

/// Writes every variant: the largest is resized from the source and encoded
/// on its own thread while the smaller ones are resized from it in turn.
///
/// Pictures with alpha are resized premultiplied (as the resizer would do
/// on a copy): the source is premultiplied in place, and each variant
/// divided again on its own small copy before encoding.
pub(super) fn write_all(media_dir: &Path, hash: &str, source: Source) -> AppResult<()> {
    std::fs::create_dir_all(media_dir)
        .with_context(|| format!("cannot create {}", media_dir.display()))?;
    let sizes = sizes(source.width, source.height, source.orientation);
    let options = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3))
        .use_alpha(false);
    let premultiplied = source.layout == Layout::Rgba;
    let mut pixels = source.pixels;
    if premultiplied {
        let buffer = pixels.to_mut();
        let mut image = Image::from_slice_u8(source.width, source.height, buffer, PixelType::U8x4)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("premultiply: {e}")))?;
        MulDiv::default()
            .multiply_alpha_inplace(&mut image)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("premultiply: {e}")))?;
    }
    let mut resizer = Resizer::new();
    let original = Frame {
        pixels,
        width: source.width,
        height: source.height,
    };
    let encoding = Encoding {
        layout: source.layout,
        orientation: source.orientation,
        premultiplied,
    };
    let (first_target, w, h) = sizes[0];
    // The source is freed once the largest variant is made from it.
    let largest = match resize(&mut resizer, &options, &original, w, h, source.layout)? {
        Some(resized) => {
            drop(original);
            resized
        }
        None => original,
    };
    std::thread::scope(|scope| {
        let big = scope.spawn(|| encoding.write(media_dir, hash, first_target, &largest));
        let mut resized: Option<Frame<'static>> = None;
        let mut result = Ok(());
        for &(target, w, h) in &sizes[1..] {
            let previous = resized.as_ref().unwrap_or(&largest);
            let step =
                resize(&mut resizer, &options, previous, w, h, encoding.layout).and_then(|next| {
                    let frame = next.as_ref().unwrap_or(previous);
                    encoding.write(media_dir, hash, target, frame)?;
                    Ok(next)
                });
            match step {
                Ok(Some(next)) => resized = Some(next),
                Ok(None) => {}
                Err(err) => {
                    result = Err(err);
                    break;
                }
            }
        }
        let big = big
            .join()
            .unwrap_or_else(|_| Err(AppError::Internal(anyhow::anyhow!("encoder panicked"))));
        result.and(big)
    })
}

/// How the variants of one source are encoded.
struct Encoding {
    layout: Layout,
    orientation: Orientation,
    /// The frames hold premultiplied alpha.
    premultiplied: bool,
}

impl Encoding {
    fn write(&self, media_dir: &Path, hash: &str, target: u32, frame: &Frame) -> AppResult<()> {
        let straight;
        let frame = if self.premultiplied {
            let mut pixels = frame.pixels.to_vec();
            let mut image =
                Image::from_slice_u8(frame.width, frame.height, &mut pixels, PixelType::U8x4)
                    .map_err(|e| AppError::Internal(anyhow::anyhow!("unpremultiply: {e}")))?;
            MulDiv::default()
                .divide_alpha_inplace(&mut image)
                .map_err(|e| AppError::Internal(anyhow::anyhow!("unpremultiply: {e}")))?;
            straight = Frame {
                pixels: Cow::Owned(pixels),
                width: frame.width,
                height: frame.height,
            };
            &straight
        } else {
            frame
        };
        encode_and_write(
            media_dir,
            hash,
            target,
            frame,
            self.layout,
            self.orientation,
            WEBP_METHOD,
        )
    }
}

/// The frame at another size; `None` when it already has that size.
fn resize(
    resizer: &mut Resizer,
    options: &ResizeOptions,
    from: &Frame<'_>,
    width: u32,
    height: u32,
    layout: Layout,
) -> AppResult<Option<Frame<'static>>> {
    if (width, height) == (from.width, from.height) {
        return Ok(None);
    }
    let src = ImageRef::new(from.width, from.height, &from.pixels, layout.pixel_type())
        .map_err(|e| AppError::Internal(anyhow::anyhow!("resize source: {e}")))?;
    let mut dst = Image::new(width, height, layout.pixel_type());
    resizer
        .resize(&src, &mut dst, options)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("resize: {e}")))?;
    Ok(Some(Frame {
        pixels: Cow::Owned(dst.into_vec()),
        width,
        height,
    }))
}

fn encode_and_write(
    media_dir: &Path,
    hash: &str,
    target: u32,
    frame: &Frame,
    layout: Layout,
    orientation: Orientation,
    method: i32,
) -> AppResult<()> {
    let oriented_frame;
    let frame = if orientation == Orientation::NoTransforms {
        frame
    } else {
        oriented_frame = orient(frame, layout, orientation)?;
        &oriented_frame
    };
    let webp_layout = match layout {
        Layout::Rgb => webp::PixelLayout::Rgb,
        Layout::Rgba => webp::PixelLayout::Rgba,
    };
    let mut config =
        webp::WebPConfig::new().map_err(|_| AppError::Internal(anyhow::anyhow!("webp config")))?;
    config.quality = WEBP_QUALITY;
    config.method = method;
    let encoded = webp::Encoder::new(&frame.pixels, webp_layout, frame.width, frame.height)
        .encode_advanced(&config)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("webp encoding: {e:?}")))?;
    write_atomically(&variant_path(media_dir, hash, target), &encoded)
}

fn orient(frame: &Frame, layout: Layout, orientation: Orientation) -> AppResult<Frame<'static>> {
    let pixels = frame.pixels.to_vec();
    let bad = || AppError::Internal(anyhow::anyhow!("pixel buffer size"));
    let mut image = match layout {
        Layout::Rgb => DynamicImage::ImageRgb8(
            ImageBuffer::from_raw(frame.width, frame.height, pixels).ok_or_else(bad)?,
        ),
        Layout::Rgba => DynamicImage::ImageRgba8(
            ImageBuffer::from_raw(frame.width, frame.height, pixels).ok_or_else(bad)?,
        ),
    };
    image.apply_orientation(orientation);
    Ok(Frame {
        width: image.width(),
        height: image.height(),
        pixels: Cow::Owned(image.into_bytes()),
    })
}

fn write_atomically(path: &Path, bytes: &[u8]) -> AppResult<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.{:016x}.tmp", rand::random::<u64>()));
    let written = std::fs::write(&temp, bytes).and_then(|()| std::fs::rename(&temp, path));
    if let Err(err) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(AppError::Internal(
            anyhow::Error::new(err).context(format!("cannot write {}", path.display())),
        ));
    }
    Ok(())
}
