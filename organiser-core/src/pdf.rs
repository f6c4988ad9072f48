//! PDF thumbnails, as pure functions of the file's bytes: the first page
//! rendered by `hayro` (a PDF rasteriser in pure Rust, so no system library
//! is needed) onto white and encoded as WebP, or a generic document icon
//! when the file cannot be rendered (encrypted with a password, damaged,
//! cut short, no pages). `thumbnail_or_icon` never fails and never
//! panics, so a bad file is never a 500 and never brings the process down.
//!
//! WebP is lossless, as the `image` crate's encoder writes it (the same
//! encoding as the avatars' thumbnails in `resources/uploads/image.rs`).
//!
//! Rendering a page is slow work (milliseconds to hundreds of
//! milliseconds on a heavy page): call these off the request path.
//!
//! A hostile PDF (an image that claims 65,500 by 65,500 pixels, one
//! compressed twice, millions of path operators) can take gigabytes and
//! minutes of any renderer, so the `organiser` binary renders in a child
//! process ([`PdfRenderer::Command`], whose side is [`child_main`]) that
//! limits its own memory ([`CHILD_MEMORY_BYTES`]) and CPU time
//! ([`CHILD_CPU_SECONDS`]) and is killed after [`CHILD_WAIT`]; a render
//! that fails, or runs out of budget, gives the generic icon. At most
//! [`RENDERS_AT_ONCE`] renders run at a time in the process.

use std::panic::{AssertUnwindSafe, catch_unwind};

use hayro::hayro_interpret::InterpreterSettings;
use hayro::hayro_interpret::util::TransformExt;
use hayro::hayro_syntax::{LoadPdfError, Pdf};
use hayro::kurbo::Affine;
use hayro::vello_cpu::color::palette::css::WHITE;
use hayro::vello_cpu::{Pixmap, RasterizerSettings, RenderContext, Resources, TargetInit};
use hayro::{RenderCache, RenderSettings, render_into};
use image::codecs::webp::WebPEncoder;
use image::{DynamicImage, RgbImage, Rgba, RgbaImage};

/// How documents' thumbnails are rendered (`Options::pdf_renderer`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum PdfRenderer {
    /// In this process: for trusted files only, as a hostile PDF can take
    /// the process's memory and time (the default for embedders, whose
    /// program cannot be run as a renderer).
    #[default]
    InProcess,
    /// In a child process for each render: `program args... SIDE`, the PDF
    /// on its standard input and the WebP on its standard output (what
    /// [`child_main`] does), under its budget. The `organiser` binary
    /// runs itself this way.
    Command {
        /// The program.
        program: std::path::PathBuf,
        /// Its arguments before the side.
        args: Vec<String>,
    },
}

/// The most memory (heap) a render in a child process may take.
pub const CHILD_MEMORY_BYTES: u64 = 256 * 1024 * 1024;
/// The most CPU time a render in a child process may take, in seconds.
pub const CHILD_CPU_SECONDS: u64 = 10;
/// How long a child process may take before it is killed.
pub const CHILD_WAIT: std::time::Duration = std::time::Duration::from_secs(15);
/// The most renders at once in the process.
pub const RENDERS_AT_ONCE: usize = 2;
/// The largest answer read from a child (a thumbnail is far smaller).
const MOST_CHILD_OUTPUT: u64 = 16 * 1024 * 1024;

static RENDERING: crate::gate::Gate = crate::gate::Gate::new(RENDERS_AT_ONCE);

/// The thumbnail of `pdf` as `renderer` renders it, or the generic icon
/// when it cannot be rendered within its budget. Never fails, never
/// panics; waits for its turn ([`RENDERS_AT_ONCE`]).
pub(crate) fn thumbnail(renderer: &PdfRenderer, pdf: &[u8], max_side: u32) -> Vec<u8> {
    let _turn = RENDERING.enter();
    match renderer {
        PdfRenderer::InProcess => thumbnail_or_icon(pdf, max_side),
        PdfRenderer::Command { program, args } => match in_child(program, args, pdf, max_side) {
            Ok(webp) => webp,
            Err(e) => {
                tracing::info!(reason = %e, "a PDF thumbnail falls back to the generic icon");
                generic_icon_webp(max_side)
            }
        },
    }
}

/// Renders in a child process: `program args... SIDE`, killed after
/// [`CHILD_WAIT`].
fn in_child(
    program: &std::path::Path,
    args: &[String],
    pdf: &[u8],
    max_side: u32,
) -> Result<Vec<u8>, String> {
    use std::io::{Read as _, Write as _};
    use std::process::{Command, Stdio};
    let started = std::time::Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .arg(max_side.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        // Running out of memory aborts it; a backtrace would map the
        // binary's debug information first.
        .env("RUST_BACKTRACE", "0")
        .env("RUST_LIB_BACKTRACE", "0")
        .spawn()
        .map_err(|e| format!("the renderer could not start: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no standard input")?;
    let mut stdout = child.stdout.take().ok_or("no standard output")?;
    let input = pdf.to_vec();
    // Fed and read on threads of their own, so a child that stops reading
    // or writing cannot hold this one past the deadline.
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = (&mut stdout).take(MOST_CHILD_OUTPUT).read_to_end(&mut out);
        out
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < CHILD_WAIT => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "the renderer ran out of time ({} s)",
                    CHILD_WAIT.as_secs()
                ));
            }
            Err(e) => return Err(format!("the renderer could not be waited for: {e}")),
        }
    };
    let _ = feeder.join();
    let out = reader
        .join()
        .map_err(|_| "the renderer's output was lost")?;
    if !status.success() {
        return Err(format!("the renderer failed ({status})"));
    }
    if !(out.starts_with(b"RIFF") && out.get(8..12) == Some(b"WEBP")) {
        return Err("the renderer's answer is not WebP".to_owned());
    }
    Ok(out)
}

/// The child's side of [`PdfRenderer::Command`]: limits this process's
/// memory ([`CHILD_MEMORY_BYTES`]) and CPU time ([`CHILD_CPU_SECONDS`]),
/// reads a PDF from `input` and writes its first page's WebP thumbnail,
/// `side` pixels on its longer side, to `output`.
///
/// # Errors
///
/// The reason, when the limits cannot be set, `side` is not a size, or
/// the PDF cannot be rendered (its memory running out ends the process).
pub fn child_main(
    side: &str,
    input: &mut dyn std::io::Read,
    output: &mut dyn std::io::Write,
) -> Result<(), String> {
    use std::io::Read as _;
    rlimit::Resource::DATA
        .set(CHILD_MEMORY_BYTES, CHILD_MEMORY_BYTES)
        .map_err(|e| format!("cannot limit the memory: {e}"))?;
    rlimit::Resource::CPU
        .set(CHILD_CPU_SECONDS, CHILD_CPU_SECONDS + 1)
        .map_err(|e| format!("cannot limit the time: {e}"))?;
    let side: u32 = side
        .trim()
        .parse()
        .map_err(|_| format!("{side:?} is not a size in pixels"))?;
    let mut pdf = Vec::new();
    input
        .take(crate::limits::uploads::DOCUMENT_MAX_BYTES + 1)
        .read_to_end(&mut pdf)
        .map_err(|e| format!("cannot read the PDF: {e}"))?;
    let webp = first_page_webp(&pdf, side).map_err(|e| e.to_string())?;
    output
        .write_all(&webp)
        .and_then(|()| output.flush())
        .map_err(|e| format!("cannot write the thumbnail: {e}"))
}

/// The largest thumbnail side asked for, in pixels.
pub(crate) const MAX_THUMB_SIDE: u32 = 4096;
/// The smallest icon drawn, in pixels (a smaller size asked for is raised).
const MIN_ICON_SIDE: u32 = 16;

/// Why a PDF's first page could not be made into a thumbnail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ThumbError {
    /// The bytes are not a PDF that can be read (damaged or cut short).
    #[error("is not a readable PDF: it is damaged or cut short")]
    Unreadable,
    /// The PDF is encrypted and cannot be opened without a password (or
    /// uses an encryption that is not supported).
    #[error("is encrypted and cannot be opened without its password")]
    Encrypted,
    /// The PDF has no page.
    #[error("has no pages")]
    NoPages,
    /// The first page has no area (or a size that is not a number).
    #[error("has a first page with no size")]
    EmptyPage,
    /// The size asked for is 0 or more than [`MAX_THUMB_SIDE`].
    #[error("a thumbnail is 1 to {MAX_THUMB_SIDE} pixels a side, not {0}")]
    BadSize(u32),
    /// The renderer panicked on the file.
    #[error("could not be rendered: the renderer failed on it")]
    Panicked,
    /// The rendered page could not be encoded as WebP.
    #[error("could not be encoded as WebP: {0}")]
    Encode(String),
}

/// The first page of `pdf` as a WebP image whose longer side is `max_side`
/// pixels (the shorter one in proportion, at least 1), on white. An error
/// for a file that cannot be rendered; the renderer's panics are not
/// caught here (see [`thumbnail_or_icon`]).
pub(crate) fn first_page_webp(pdf: &[u8], max_side: u32) -> Result<Vec<u8>, ThumbError> {
    if max_side == 0 || max_side > MAX_THUMB_SIDE {
        return Err(ThumbError::BadSize(max_side));
    }
    let pdf = Pdf::new(pdf.to_vec()).map_err(|e| match e {
        LoadPdfError::Decryption(_) => ThumbError::Encrypted,
        LoadPdfError::Invalid => ThumbError::Unreadable,
    })?;
    let pages = pdf.pages();
    let page = pages.first().ok_or(ThumbError::NoPages)?;

    // The page's size in points, rotation and crop box applied.
    let (w, h) = page.render_dimensions();
    let (w, h) = (f64::from(w), f64::from(h));
    if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0) {
        return Err(ThumbError::EmptyPage);
    }
    let scale = f64::from(max_side) / w.max(h);
    // The longer side is exactly `max_side` (no rounding down to one less).
    let side = |points: f64| {
        if points >= w.max(h) {
            max_side
        } else {
            ((points * scale).round() as u32).clamp(1, max_side)
        }
    };
    let (width, height) = (side(w), side(h));
    // `max_side` is at most 4096, so both fit.
    let (width16, height16) = (width as u16, height as u16);

    let cache = RenderCache::new();
    let mut ctx = RenderContext::new(width16, height16);
    // As `hayro::render` does, with a scale of our own: the page's initial
    // transform handles its rotation and crop box.
    let transform = Affine::scale(scale) * page.initial_transform(true).to_kurbo();
    render_into(
        page,
        &cache,
        &InterpreterSettings::default(),
        &RenderSettings::default(),
        &mut ctx,
        transform,
    );
    ctx.flush();
    let mut pixmap = Pixmap::new(width16, height16);
    ctx.render_with(
        &mut pixmap,
        &mut Resources::default(),
        RasterizerSettings {
            target_init: TargetInit::Clear(WHITE),
            ..Default::default()
        },
    );

    // Premultiplied RGBA, composited onto white (the page is cleared to
    // opaque white, so this only matters if that ever changes).
    let rgb: Vec<u8> = pixmap
        .data_as_u8_slice()
        .chunks_exact(4)
        .flat_map(|p| {
            let under = 255 - p[3];
            [
                p[0].saturating_add(under),
                p[1].saturating_add(under),
                p[2].saturating_add(under),
            ]
        })
        .collect();
    let image = RgbImage::from_raw(width, height, rgb)
        .ok_or_else(|| ThumbError::Encode("the rendered page has the wrong size".to_owned()))?;
    webp(&DynamicImage::ImageRgb8(image)).map_err(ThumbError::Encode)
}

/// The thumbnail of `pdf` ([`first_page_webp`]), or the generic icon
/// ([`generic_icon_webp`]) when it cannot be rendered, including when the
/// renderer panics. Never fails, never panics.
pub(crate) fn thumbnail_or_icon(pdf: &[u8], max_side: u32) -> Vec<u8> {
    or_icon(max_side, || first_page_webp(pdf, max_side))
}

/// `render()`, or the icon when it fails or panics.
fn or_icon(max_side: u32, render: impl FnOnce() -> Result<Vec<u8>, ThumbError>) -> Vec<u8> {
    // The renderer holds no state of ours, so nothing is left broken by
    // a panic inside it.
    let outcome = catch_unwind(AssertUnwindSafe(render)).unwrap_or(Err(ThumbError::Panicked));
    match outcome {
        Ok(webp) => webp,
        Err(e) => {
            tracing::info!(reason = %e, "a PDF thumbnail falls back to the generic icon");
            generic_icon_webp(max_side)
        }
    }
}

/// A generic document icon as WebP, `max_side` pixels tall (raised to 16,
/// lowered to [`MAX_THUMB_SIDE`]) and three quarters as wide: a white page
/// with a grey outline and a folded top-right corner, and a red band
/// reading "PDF", on a transparent background. Never fails.
pub(crate) fn generic_icon_webp(max_side: u32) -> Vec<u8> {
    let icon = DynamicImage::ImageRgba8(draw_icon(max_side.clamp(MIN_ICON_SIDE, MAX_THUMB_SIDE)));
    // Encoding an in-memory RGBA image to a Vec cannot fail in practice;
    // should it, an empty answer is better than a panic.
    webp(&icon).unwrap_or_default()
}

/// The icon is drawn in a design space 96 units wide and 128 tall.
const ICON_W: f64 = 96.0;
const ICON_H: f64 = 128.0;
/// The page: its edges, the size of the folded corner, the outline's width.
const PAGE_L: f64 = 10.0;
const PAGE_R: f64 = 86.0;
const PAGE_T: f64 = 4.0;
const PAGE_B: f64 = 124.0;
const FOLD: f64 = 24.0;
const LINE: f64 = 3.0;
/// The red band, which sticks out left of the page as on common icons.
const BAND_L: f64 = 2.0;
const BAND_R: f64 = 74.0;
const BAND_T: f64 = 70.0;
const BAND_B: f64 = 100.0;
/// The letters: 5 by 7 cells of this size, with one cell between letters.
const CELL: f64 = 3.6;

const OUTLINE: [u8; 4] = [0x75, 0x75, 0x75, 0xFF];
const PAPER: [u8; 4] = [0xFF, 0xFF, 0xFF, 0xFF];
const FOLD_FILL: [u8; 4] = [0xE0, 0xE0, 0xE0, 0xFF];
const BAND: [u8; 4] = [0xD3, 0x2F, 0x2F, 0xFF];
const LETTER: [u8; 4] = [0xFF, 0xFF, 0xFF, 0xFF];
const CLEAR: [u8; 4] = [0, 0, 0, 0];

/// "P", "D" and "F", 5 by 7, a row a byte (bit 4 is the left column).
const GLYPHS: [[u8; 7]; 3] = [
    [
        0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000,
    ],
    [
        0b11110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11110,
    ],
    [
        0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000,
    ],
];

/// The icon's colour at a point of the design space.
fn icon_colour(x: f64, y: f64) -> [u8; 4] {
    // The fold's diagonal runs from (PAGE_R - FOLD, PAGE_T) to
    // (PAGE_R, PAGE_T + FOLD): the page is below and left of it.
    let diagonal = (PAGE_R - FOLD - PAGE_T) - (x - y);
    let on_page =
        (PAGE_L..=PAGE_R).contains(&x) && (PAGE_T..=PAGE_B).contains(&y) && diagonal >= 0.0;

    let in_band = (BAND_L..=BAND_R).contains(&x) && (BAND_T..=BAND_B).contains(&y);
    if in_band {
        let text_w = CELL * 17.0;
        let left = (BAND_L + BAND_R - text_w) / 2.0;
        let top = (BAND_T + BAND_B - CELL * 7.0) / 2.0;
        let (cx, cy) = ((x - left) / CELL, (y - top) / CELL);
        if cx >= 0.0 && cy >= 0.0 && cx < 17.0 && cy < 7.0 {
            let (col, row) = (cx as usize, cy as usize);
            let (letter, within) = (col / 6, col % 6);
            if within < 5 && GLYPHS[letter][row] & (0b10000 >> within) != 0 {
                return LETTER;
            }
        }
        return BAND;
    }
    if !on_page {
        return CLEAR;
    }
    let near_edge = x - PAGE_L < LINE
        || PAGE_R - x < LINE
        || y - PAGE_T < LINE
        || PAGE_B - y < LINE
        || diagonal < LINE * std::f64::consts::SQRT_2;
    if near_edge {
        return OUTLINE;
    }
    // The folded-over flap: the triangle below the diagonal in the corner
    // square, edged on its left and bottom.
    let in_corner = x >= PAGE_R - FOLD && y <= PAGE_T + FOLD;
    if in_corner {
        let edge = x - (PAGE_R - FOLD) < LINE || (PAGE_T + FOLD) - y < LINE;
        return if edge { OUTLINE } else { FOLD_FILL };
    }
    PAPER
}

/// The icon, `height` pixels tall, each pixel the average of 4 by 4
/// samples (smooth edges).
fn draw_icon(height: u32) -> RgbaImage {
    const SAMPLES: u32 = 4;
    let width = (height * 3 / 4).max(1);
    let unit = ICON_H / f64::from(height);
    // Centre the design horizontally when the width rounds.
    let offset = (f64::from(width) * unit - ICON_W) / 2.0;
    RgbaImage::from_fn(width, height, |px, py| {
        let mut sum = [0u32; 4];
        for sy in 0..SAMPLES {
            for sx in 0..SAMPLES {
                let x =
                    (f64::from(px) + (f64::from(sx) + 0.5) / f64::from(SAMPLES)) * unit - offset;
                let y = (f64::from(py) + (f64::from(sy) + 0.5) / f64::from(SAMPLES)) * unit;
                let c = icon_colour(x, y);
                let a = u32::from(c[3]);
                for i in 0..3 {
                    sum[i] += u32::from(c[i]) * a;
                }
                sum[3] += a;
            }
        }
        let n = SAMPLES * SAMPLES;
        if sum[3] == 0 {
            return Rgba(CLEAR);
        }
        // Colours weighted by their alpha, so edges do not darken.
        let channel = |i: usize| (sum[i] / sum[3]) as u8;
        Rgba([channel(0), channel(1), channel(2), (sum[3] / n) as u8])
    })
}

/// Lossless WebP, as the `image` crate writes it.
fn webp(image: &DynamicImage) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    image
        .write_with_encoder(WebPEncoder::new_lossless(&mut out))
        .map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(test)]
#[path = "pdf_fixtures.rs"]
mod fixtures;

#[cfg(test)]
mod tests {
    use super::fixtures::{pdf_with_pages, typical_pdf};
    use super::*;
    use image::{GenericImageView, ImageFormat, Rgb};

    /// A 200 by 100 point page with a red rectangle from (20, 20) to
    /// (80, 60), in PDF space (origin bottom left).
    fn rectangle_pdf() -> Vec<u8> {
        pdf_with_pages(200, 100, &["1 0 0 rg 20 20 60 40 re f"])
    }

    fn decode(webp: &[u8]) -> DynamicImage {
        image::load_from_memory_with_format(webp, ImageFormat::WebP).expect("a WebP that decodes")
    }

    fn is_white(p: Rgb<u8>) -> bool {
        p.0.iter().all(|&c| c >= 250)
    }

    #[test]
    fn a_renderer_that_fails_or_cannot_start_gives_the_icon() {
        let icon = generic_icon_webp(64);
        for (program, args) in [
            ("/nonexistent/renderer", vec![]),
            (
                "sh",
                vec!["-c".to_owned(), "cat >/dev/null; exit 3".to_owned()],
            ),
            (
                "sh",
                vec!["-c".to_owned(), "cat >/dev/null; echo not-webp".to_owned()],
            ),
        ] {
            let renderer = PdfRenderer::Command {
                program: program.into(),
                args,
            };
            assert_eq!(
                thumbnail(&renderer, &rectangle_pdf(), 64),
                icon,
                "{program}"
            );
        }
    }

    #[test]
    fn the_first_page_renders_to_a_webp_of_the_size_asked_for() {
        let webp = first_page_webp(&rectangle_pdf(), 400).unwrap();
        assert!(webp.starts_with(b"RIFF") && &webp[8..12] == b"WEBP");
        let image = decode(&webp).to_rgb8();
        // 200 by 100 points, scaled by 2.
        assert_eq!(image.dimensions(), (400, 200));
        // The rectangle: x 40..160, y (from the top) 80..160 in pixels.
        for (x, y) in [(100, 120), (45, 85), (155, 155)] {
            let p = *image.get_pixel(x, y);
            assert!(
                p[0] > 200 && p[1] < 60 && p[2] < 60,
                "red at ({x}, {y}): {p:?}"
            );
        }
        // White elsewhere, including the background (not transparent black).
        for (x, y) in [
            (0, 0),
            (399, 199),
            (300, 50),
            (100, 40),
            (100, 180),
            (20, 120),
        ] {
            let p = *image.get_pixel(x, y);
            assert!(is_white(p), "white at ({x}, {y}): {p:?}");
        }
    }

    #[test]
    fn the_longer_side_is_max_side_exactly() {
        for (w, h, max, expected) in [
            (612, 792, 512, (396, 512)),
            (792, 612, 512, (512, 396)),
            (595, 842, 256, (181, 256)),
            (300, 300, 97, (97, 97)),
            (2000, 1, 64, (64, 1)),
        ] {
            let pdf = pdf_with_pages(w, h, &["0 g 0 0 1 1 re f"]);
            let image = decode(&first_page_webp(&pdf, max).unwrap());
            assert_eq!(image.dimensions(), expected, "{w}x{h} at {max}");
        }
    }

    #[test]
    fn standard_font_text_renders() {
        let image = decode(&first_page_webp(&typical_pdf(), 512).unwrap()).to_rgb8();
        assert_eq!(image.dimensions(), (396, 512));
        // The body text, below the heading box: some dark pixels.
        let dark = (40..300)
            .flat_map(|x| (80..500).map(move |y| (x, y)))
            .filter(|&(x, y)| image.get_pixel(x, y).0.iter().all(|&c| c < 128))
            .count();
        assert!(dark > 500, "dark pixels of text: {dark}");
        // Only the first page: the second page's blue square is not drawn.
        let blue = image.pixels().filter(|p| p[2] > 200 && p[0] < 80).count();
        assert_eq!(blue, 0);
    }

    #[test]
    fn the_icon_decodes_and_looks_like_a_document() {
        for side in [16, 128, 512] {
            let icon = decode(&generic_icon_webp(side)).to_rgba8();
            assert_eq!(icon.dimensions(), (side * 3 / 4, side));
        }
        let icon = decode(&generic_icon_webp(512)).to_rgba8();
        let at = |x: f64, y: f64| *icon.get_pixel((x * 4.0) as u32, (y * 4.0) as u32);
        // Paper, outline, band, letter, transparent outside, the fold.
        assert_eq!(at(40.0, 40.0).0, PAPER);
        assert_eq!(at(PAGE_L + 1.0, 40.0).0, OUTLINE);
        assert_eq!(at(BAND_L + 1.0, BAND_T + 2.0).0, BAND);
        assert_eq!(at(1.0, 1.0).0[3], 0);
        assert_eq!(at(PAGE_R - 2.0, PAGE_T + 2.0).0[3], 0);
        assert_eq!(at(PAGE_R - 16.0, PAGE_T + FOLD - 6.0).0, FOLD_FILL);
        // The letters: white in the band, a fifth to a half of it.
        let band = icon
            .enumerate_pixels()
            .filter(|(x, y, _)| {
                let (x, y) = (f64::from(*x) / 4.0, f64::from(*y) / 4.0);
                (BAND_L..=BAND_R).contains(&x) && (BAND_T..=BAND_B).contains(&y)
            })
            .map(|(_, _, p)| p.0)
            .collect::<Vec<_>>();
        let letters = band.iter().filter(|p| **p == LETTER).count();
        assert!(
            letters * 5 > band.len() && letters * 2 < band.len(),
            "{letters} of {}",
            band.len()
        );
        // Out-of-range sizes are clamped, never a failure.
        assert_eq!(decode(&generic_icon_webp(0)).height(), MIN_ICON_SIDE);
        assert_eq!(
            decode(&generic_icon_webp(u32::MAX)).height(),
            MAX_THUMB_SIDE
        );
    }

    #[test]
    fn a_bad_size_is_an_error() {
        assert_eq!(
            first_page_webp(&rectangle_pdf(), 0),
            Err(ThumbError::BadSize(0))
        );
        assert_eq!(
            first_page_webp(&rectangle_pdf(), MAX_THUMB_SIDE + 1),
            Err(ThumbError::BadSize(MAX_THUMB_SIDE + 1))
        );
        assert_eq!(thumbnail_or_icon(&rectangle_pdf(), 0), generic_icon_webp(0));
    }

    /// An encrypted PDF (standard security handler, RC4 128-bit) whose
    /// user password is not empty: the /U entry matches no password.
    fn encrypted_pdf() -> Vec<u8> {
        let plain = rectangle_pdf();
        let find = |needle: &[u8]| {
            plain
                .windows(needle.len())
                .position(|w| w == needle)
                .unwrap()
        };
        let xref_at = find(b"xref\n");
        let trailer_at = find(b"trailer");
        let encrypt = format!(
            "6 0 obj\n<< /Filter /Standard /V 2 /R 3 /Length 128 /P -3904 \
             /O <{}> /U <{}> >>\nendobj\n",
            "7A".repeat(32),
            "C4".repeat(32)
        );
        let mut out = plain[..xref_at].to_vec();
        let encrypt_at = out.len();
        out.extend_from_slice(encrypt.as_bytes());
        let xref = out.len();
        // Reuse the object offsets of the plain file, add object 6.
        let table_start = xref_at + "xref\n0 6\n".len();
        out.extend_from_slice(b"xref\n0 7\n");
        out.extend_from_slice(&plain[table_start..trailer_at]);
        out.extend_from_slice(format!("{encrypt_at:010} 00000 n \n").as_bytes());
        out.extend_from_slice(
            format!(
                "trailer\n<< /Size 7 /Root 1 0 R /Encrypt 6 0 R \
                 /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>] >>\n\
                 startxref\n{xref}\n%%EOF\n"
            )
            .as_bytes(),
        );
        out
    }

    #[test]
    fn files_that_cannot_be_rendered_give_the_icon() {
        let icon = generic_icon_webp(256);
        let pdf = rectangle_pdf();
        let mut noise = Vec::new();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..4096 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            noise.push(state as u8);
        }
        let mut noise_with_header = b"%PDF-1.7\n".to_vec();
        noise_with_header.extend_from_slice(&noise);

        assert_eq!(
            first_page_webp(&encrypted_pdf(), 256),
            Err(ThumbError::Encrypted)
        );
        let cases: [(&str, &[u8]); 6] = [
            ("empty", b""),
            ("a header only", b"%PDF-1.4\n"),
            ("random bytes", &noise),
            ("random bytes after a header", &noise_with_header),
            ("cut short before the page", &pdf[..40]),
            ("encrypted with a password", &encrypted_pdf()),
        ];
        for (what, bytes) in cases {
            assert!(first_page_webp(bytes, 256).is_err(), "{what}");
            assert_eq!(thumbnail_or_icon(bytes, 256), icon, "{what}");
        }
        let no_pages = pdf_with_pages(100, 100, &[]);
        assert!(first_page_webp(&no_pages, 256).is_err());
        assert_eq!(thumbnail_or_icon(&no_pages, 256), icon);
    }

    #[test]
    fn damaged_files_never_panic_and_always_give_an_image() {
        let pdf = typical_pdf();
        // Cut short anywhere, and bytes overwritten anywhere: a thumbnail
        // (the renderer repairs much) or the icon, always a WebP.
        let mut damaged: Vec<Vec<u8>> = (1..24)
            .map(|i| pdf[..pdf.len() * i / 24].to_vec())
            .collect();
        for i in 0..24 {
            let mut bytes = pdf.clone();
            let at = bytes.len() * i / 24;
            for b in &mut bytes[at..(at + 64).min(pdf.len())] {
                *b = b'7';
            }
            damaged.push(bytes);
        }
        for bytes in damaged {
            let webp = thumbnail_or_icon(&bytes, 128);
            let image = decode(&webp);
            assert!(image.width() <= 128 && image.height() <= 128);
        }
    }

    #[test]
    fn a_panicking_renderer_gives_the_icon() {
        let webp = or_icon(64, || panic!("a renderer bug"));
        assert_eq!(webp, generic_icon_webp(64));
    }

    /// The typical page renders at every side `benches/pdf.rs` times it
    /// at (the timings are the bench's: `cargo bench --bench pdf`).
    #[test]
    fn the_typical_page_renders_at_each_side_the_bench_times() {
        let pdf = typical_pdf();
        for side in [256, 512, 1024] {
            let webp = first_page_webp(&pdf, side).unwrap();
            assert_eq!(decode(&webp).height(), side, "{side}");
        }
    }
}
