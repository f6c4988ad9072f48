//! Images, as pure functions of their bytes: what type the bytes say they
//! are (their magic numbers, never the header or the file name), a
//! decode (so a corrupt or truncated image is refused, not stored), and an
//! avatar's square WebP thumbnails (centre crop, EXIF orientation
//! honoured; lossless, as the `image` crate's encoder writes WebP).
//!
//! Hostile images are ordinary input (docs/api.md "Uploads"): the size an
//! image says it has is checked before a pixel is decoded (at most
//! [`MAX_SIDE`] a side, [`MAX_PIXELS`] in all, [`MAX_DECODED_BYTES`] of
//! memory counting a progressive JPEG's coefficients), an animation's
//! frames are walked without decoding them (at most [`MAX_FRAMES`]; the
//! first frame is the picture), and one image is decoded at a time in the
//! process, so a few kilobytes claiming gigapixels cost nothing and a
//! burst of uploads cannot add up.

use std::io::Cursor;

use image::codecs::webp::WebPEncoder;
use image::imageops::FilterType;
use image::metadata::Orientation;
use image::{
    DynamicImage, GenericImageView, ImageDecoder, ImageError, ImageFormat, ImageReader, RgbaImage,
};

/// The thumbnail sizes, in pixels (square).
pub(crate) const THUMBNAIL_SIZES: [u32; 2] = [128, 256];

/// The widest or tallest image decoded, in pixels.
pub(crate) const MAX_SIDE: u32 = 12_000;
/// The most pixels an image may have: 48 megapixels (an 8000 by 6000
/// photo).
pub(crate) const MAX_PIXELS: u64 = 48_000_000;
/// The most memory a decode may take, in bytes.
pub(crate) const MAX_DECODED_BYTES: u64 = 160 * 1024 * 1024;
/// The most frames an animated GIF may have.
pub(crate) const MAX_FRAMES: usize = 5_000;

/// The media type the bytes say they are, from their magic numbers:
/// JPEG, PNG, WebP, GIF or PDF; `None` for anything else.
pub(crate) fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else if bytes.starts_with(b"%PDF-") {
        Some("application/pdf")
    } else {
        None
    }
}

fn format_of(media_type: &str) -> Option<ImageFormat> {
    Some(match media_type {
        "image/jpeg" => ImageFormat::Jpeg,
        "image/png" => ImageFormat::Png,
        "image/gif" => ImageFormat::Gif,
        "image/webp" => ImageFormat::WebP,
        _ => return None,
    })
}

/// Why an image could not be used, in words for its owner (the phrase of a
/// 422 on the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unusable(pub(crate) String);

fn too_large() -> Unusable {
    Unusable(format!(
        "is too large an image to process (at most {MAX_SIDE} pixels a side, {} megapixels and {} decoded)",
        MAX_PIXELS / 1_000_000,
        crate::limits::size(MAX_DECODED_BYTES)
    ))
}

fn unusable(error: ImageError) -> Unusable {
    match error {
        ImageError::Limits(_) => too_large(),
        ImageError::Unsupported(_) => {
            Unusable("is an image in a form that is not supported".to_owned())
        }
        _ => Unusable("is not a readable image: it is corrupt or cut short".to_owned()),
    }
}

fn limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODED_BYTES);
    limits
}

/// One decode at a time in the process: the memory budget is the
/// process's, not each request's.
static DECODING: crate::gate::Gate = crate::gate::Gate::new(1);

/// A decoded picture (the first frame of an animation) and how its EXIF
/// says to turn it upright.
#[derive(Debug)]
pub(crate) struct Decoded {
    pub(crate) image: DynamicImage,
    pub(crate) orientation: Orientation,
}

/// Decodes the image (the first frame of an animation, the others walked
/// and checked), after checking the size it says it has against the
/// budget; an [`Unusable`] for bytes that are not a complete image of a
/// type [`sniff`] names, or one too large.
pub(crate) fn decode(bytes: &[u8]) -> Result<Decoded, Unusable> {
    let format = sniff(bytes)
        .and_then(format_of)
        .ok_or_else(|| Unusable("is not a JPEG, PNG, WebP or GIF image".to_owned()))?;
    let complete = match format {
        ImageFormat::Jpeg => jpeg_is_complete(bytes),
        // The IEND chunk, with its fixed CRC: decoders stop before it.
        ImageFormat::Png => bytes.windows(8).any(|w| w == b"IEND\xAE\x42\x60\x82"),
        ImageFormat::Gif => gif_frames(bytes)?.is_some(),
        _ => true,
    };
    if !complete {
        return Err(Unusable(
            "is not a readable image: it is cut short".to_owned(),
        ));
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits());
    let mut decoder = reader.into_decoder().map_err(unusable)?;
    let (width, height) = decoder.dimensions();
    let per_pixel = u64::from(decoder.color_type().bytes_per_pixel());
    // A progressive JPEG keeps its coefficients (two bytes a sample) as
    // well as the picture.
    let copies = match format == ImageFormat::Jpeg && jpeg_is_progressive(bytes) {
        true => 3,
        false => 1,
    };
    let pixels = u64::from(width) * u64::from(height);
    if width > MAX_SIDE
        || height > MAX_SIDE
        || pixels > MAX_PIXELS
        || pixels * per_pixel * copies > MAX_DECODED_BYTES
    {
        return Err(too_large());
    }
    let orientation = decoder.orientation().map_err(unusable)?;
    let _pass = DECODING.enter();
    let image = DynamicImage::from_decoder(decoder).map_err(unusable)?;
    Ok(Decoded { image, orientation })
}

/// A GIF's frames, walked block by block without decoding a pixel: the
/// number of frames when the file is whole; `None` when it is cut short;
/// refused when its canvas or a frame is too large, or it has more than
/// [`MAX_FRAMES`] frames.
fn gif_frames(bytes: &[u8]) -> Result<Option<usize>, Unusable> {
    let u16_at = |at: usize| -> Option<u32> {
        Some(u32::from(u16::from_le_bytes([
            *bytes.get(at)?,
            *bytes.get(at + 1)?,
        ])))
    };
    let (Some(width), Some(height), Some(&flags)) = (u16_at(6), u16_at(8), bytes.get(10)) else {
        return Ok(None);
    };
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(too_large());
    }
    let mut at = 13;
    if flags & 0x80 != 0 {
        at += 3 << ((flags & 0x07) + 1);
    }
    // Data sub-blocks: lengths, until a zero.
    let skip_blocks = |mut at: usize| -> Option<usize> {
        loop {
            let len = usize::from(*bytes.get(at)?);
            at += 1;
            if len == 0 {
                return Some(at);
            }
            at += len;
        }
    };
    let mut frames = 0usize;
    loop {
        let Some(&block) = bytes.get(at) else {
            return Ok(None);
        };
        match block {
            // An extension: its label, then sub-blocks.
            0x21 => match skip_blocks(at + 2) {
                Some(next) => at = next,
                None => return Ok(None),
            },
            // An image: descriptor, local colour table, LZW size, data.
            0x2C => {
                let (Some(w), Some(h), Some(&local)) =
                    (u16_at(at + 5), u16_at(at + 7), bytes.get(at + 9))
                else {
                    return Ok(None);
                };
                if u64::from(w) * u64::from(h) > MAX_PIXELS {
                    return Err(too_large());
                }
                frames += 1;
                if frames > MAX_FRAMES {
                    return Err(Unusable(format!(
                        "is an animation of more than {MAX_FRAMES} frames"
                    )));
                }
                at += 10;
                if local & 0x80 != 0 {
                    at += 3 << ((local & 0x07) + 1);
                }
                match skip_blocks(at + 1) {
                    Some(next) => at = next,
                    None => return Ok(None),
                }
            }
            0x3B => return Ok((frames > 0).then_some(frames)),
            _ => return Ok(None),
        }
    }
}

/// The markers of a JPEG's header, each with its place: from the first
/// after start-of-image through the first start-of-scan (0xDA), stepping
/// over each segment by its length (an EXIF thumbnail in one has markers
/// of its own) and over the extra 0xFF bytes a marker may be padded with;
/// the walk ends early at a byte that is no marker or a cut length.
fn jpeg_header_markers(bytes: &[u8]) -> impl Iterator<Item = (u8, usize)> + '_ {
    let mut at = Some(2);
    std::iter::from_fn(move || {
        let mut here = at.take()?;
        while bytes.get(here) == Some(&0xFF) && bytes.get(here + 1) == Some(&0xFF) {
            here += 1;
        }
        let (Some(0xFF), Some(&marker)) = (bytes.get(here), bytes.get(here + 1)) else {
            return None;
        };
        at = match marker {
            0xDA | 0xD9 => None,
            0x01 | 0xD0..=0xD7 => Some(here + 2),
            _ => match (bytes.get(here + 2), bytes.get(here + 3)) {
                (Some(&hi), Some(&lo)) => {
                    Some(here + 2 + usize::from(u16::from_be_bytes([hi, lo])))
                }
                _ => None,
            },
        };
        Some((marker, here))
    })
}

/// Whether a JPEG's first frame header is a progressive one (SOF2, SOF6,
/// SOF10 or SOF14).
fn jpeg_is_progressive(bytes: &[u8]) -> bool {
    jpeg_header_markers(bytes)
        .find_map(|(marker, _)| match marker {
            0xC2 | 0xC6 | 0xCA | 0xCE => Some(true),
            0xC0 | 0xC1 | 0xC3 | 0xC5 | 0xC7 | 0xC9 | 0xCB | 0xCD | 0xCF | 0xDA | 0xD9 => {
                Some(false)
            }
            _ => None,
        })
        .unwrap_or(false)
}

/// Whether a JPEG's image data ends with its end-of-image marker: JPEG
/// decoders fill in a picture cut short, so the marker is checked here.
/// In the scans a 0xFF byte is followed by 0x00, a restart marker or
/// another marker.
fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let scans = jpeg_header_markers(bytes).find_map(|(marker, at)| (marker == 0xDA).then_some(at));
    scans
        .and_then(|at| bytes.get(at..))
        .is_some_and(|scans| scans.windows(2).any(|w| w == [0xFF, 0xD9]))
}

/// The 128 and 256 pixel square thumbnails of an image, as WebP.
#[cfg(test)]
pub(crate) fn thumbnails(bytes: &[u8]) -> Result<(Vec<u8>, Vec<u8>), Unusable> {
    thumbnails_of(&decode(bytes)?)
}

/// The 128 and 256 pixel square thumbnails of a decoded image, as WebP:
/// the largest centred square, scaled (read in place, never copied at
/// full size), then turned upright.
pub(crate) fn thumbnails_of(decoded: &Decoded) -> Result<(Vec<u8>, Vec<u8>), Unusable> {
    let image = &decoded.image;
    let (w, h) = (image.width(), image.height());
    if w == 0 || h == 0 {
        return Err(Unusable("is an image with no pixels".to_owned()));
    }
    let side = w.min(h);
    let square = image.view((w - side) / 2, (h - side) / 2, side, side);
    let [small, large] = THUMBNAIL_SIZES;
    // A fast area average down to the larger size, then a fine filter for
    // the smaller one.
    let big: RgbaImage = if side > large {
        image::imageops::thumbnail(&*square, large, large)
    } else {
        image::imageops::resize(&*square, large, large, FilterType::Triangle)
    };
    let mut big = DynamicImage::ImageRgba8(big);
    // The centre square turns into itself: turning the thumbnail is
    // turning the picture.
    big.apply_orientation(decoded.orientation);
    let little = big.resize_exact(small, small, FilterType::Triangle);
    let alpha = image.color().has_alpha();
    Ok((webp(&little, alpha)?, webp(&big, alpha)?))
}

fn webp(image: &DynamicImage, alpha: bool) -> Result<Vec<u8>, Unusable> {
    let image = if alpha {
        DynamicImage::ImageRgba8(image.to_rgba8())
    } else {
        DynamicImage::ImageRgb8(image.to_rgb8())
    };
    let mut out = Vec::new();
    image
        .write_with_encoder(WebPEncoder::new_lossless(&mut out))
        .map_err(|e| Unusable(format!("could not be made into a thumbnail: {e}")))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{ImageEncoder, RgbImage};

    fn encoded(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, format).unwrap();
        out.into_inner()
    }

    fn picture(w: u32, h: u32) -> DynamicImage {
        DynamicImage::ImageRgb8(RgbImage::from_fn(w, h, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
        }))
    }

    #[test]
    fn the_type_is_what_the_bytes_say() {
        let p = picture(8, 6);
        assert_eq!(sniff(&encoded(&p, ImageFormat::Jpeg)), Some("image/jpeg"));
        assert_eq!(sniff(&encoded(&p, ImageFormat::Png)), Some("image/png"));
        assert_eq!(sniff(&encoded(&p, ImageFormat::Gif)), Some("image/gif"));
        assert_eq!(sniff(&encoded(&p, ImageFormat::WebP)), Some("image/webp"));
        assert_eq!(sniff(b"%PDF-1.7\n"), Some("application/pdf"));
        for other in [
            &b""[..],
            b"RIFF",
            b"RIFF\0\0\0\0WAVE",
            b"<svg/>",
            b"\xFF\xD8",
        ] {
            assert_eq!(sniff(other), None, "{other:?}");
        }
    }

    #[test]
    fn every_accepted_type_decodes_and_thumbnails_are_square_webp() {
        let p = picture(40, 30);
        for format in [
            ImageFormat::Jpeg,
            ImageFormat::Png,
            ImageFormat::Gif,
            ImageFormat::WebP,
        ] {
            let (small, large) = thumbnails(&encoded(&p, format)).unwrap();
            for (bytes, side) in [(small, 128), (large, 256)] {
                assert_eq!(sniff(&bytes), Some("image/webp"));
                let t = image::load_from_memory(&bytes).unwrap();
                assert_eq!((t.width(), t.height()), (side, side), "{format:?}");
            }
        }
    }

    #[test]
    fn corrupt_and_truncated_images_are_refused_without_panicking() {
        let p = picture(64, 48);
        for format in [
            ImageFormat::Jpeg,
            ImageFormat::Png,
            ImageFormat::Gif,
            ImageFormat::WebP,
        ] {
            let bytes = encoded(&p, format);
            for cut in [12, bytes.len() / 2, bytes.len() - 3] {
                assert!(decode(&bytes[..cut]).is_err(), "{format:?} cut at {cut}");
            }
            let mut garbled = bytes.clone();
            for b in garbled.iter_mut().skip(40).step_by(7) {
                *b ^= 0x5A;
            }
            let _ = decode(&garbled);
        }
        assert!(decode(b"%PDF-1.7").is_err());
    }

    #[test]
    fn the_exif_orientation_is_honoured() {
        // A wide image, red on the left and blue on the right, marked
        // "rotate 90": upright, red is on top.
        let p = DynamicImage::ImageRgb8(RgbImage::from_fn(40, 20, |x, _| {
            if x < 20 {
                image::Rgb([255, 0, 0])
            } else {
                image::Rgb([0, 0, 255])
            }
        }));
        let mut bytes = Vec::new();
        let mut encoder = image::codecs::jpeg::JpegEncoder::new(&mut bytes);
        // EXIF, big-endian TIFF, one IFD entry: Orientation (0x0112) = 6.
        let exif: &[u8] = &[
            b'M', b'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0,
            0,
        ];
        encoder.set_exif_metadata(exif.to_vec()).unwrap();
        encoder
            .write_image(p.as_bytes(), 40, 20, image::ExtendedColorType::Rgb8)
            .unwrap();
        let decoded = decode(&bytes).unwrap();
        assert_eq!(decoded.orientation, Orientation::Rotate90);
        let (_, large) = thumbnails_of(&decoded).unwrap();
        let t = image::load_from_memory(&large).unwrap().to_rgb8();
        let (top, bottom) = (t.get_pixel(128, 20), t.get_pixel(128, 235));
        assert!(top[0] > 200 && top[2] < 60, "red on top: {top:?}");
        assert!(bottom[2] > 200 && bottom[0] < 60, "blue below: {bottom:?}");
    }

    /// A PNG header claiming `width` by `height` pixels of `bit_depth` and
    /// `colour` type, with a tiny valid IDAT: the size alone must refuse it.
    fn png_claiming(width: u32, height: u32, bit_depth: u8, colour: u8) -> Vec<u8> {
        fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
            out.extend_from_slice(&(data.len() as u32).to_be_bytes());
            let start = out.len();
            out.extend_from_slice(kind);
            out.extend_from_slice(data);
            let crc = crc32(&out[start..]);
            out.extend_from_slice(&crc.to_be_bytes());
        }
        fn crc32(bytes: &[u8]) -> u32 {
            let mut crc = 0xFFFF_FFFFu32;
            for &b in bytes {
                crc ^= u32::from(b);
                for _ in 0..8 {
                    crc = if crc & 1 != 0 {
                        (crc >> 1) ^ 0xEDB8_8320
                    } else {
                        crc >> 1
                    };
                }
            }
            !crc
        }
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&width.to_be_bytes());
        ihdr.extend_from_slice(&height.to_be_bytes());
        ihdr.extend_from_slice(&[bit_depth, colour, 0, 0, 0]);
        chunk(&mut out, b"IHDR", &ihdr);
        // zlib of a few zero bytes (a stored block).
        chunk(
            &mut out,
            b"IDAT",
            &[
                0x78, 0x01, 0x01, 0x04, 0x00, 0xFB, 0xFF, 0, 0, 0, 0, 0, 4, 0, 1,
            ],
        );
        chunk(&mut out, b"IEND", &[]);
        out
    }

    #[test]
    fn the_size_an_image_claims_is_checked_before_decoding() {
        // 12,000 by 12,000 16-bit RGBA: 1.15 GB decoded.
        let huge = png_claiming(12_000, 12_000, 16, 6);
        let started = std::time::Instant::now();
        assert!(decode(&huge).unwrap_err().0.contains("too large"));
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        // Within each side, but too many pixels; too many bytes.
        assert!(decode(&png_claiming(10_000, 10_000, 8, 2)).is_err());
        assert!(
            decode(&png_claiming(7_000, 6_000, 16, 6))
                .unwrap_err()
                .0
                .contains("too large")
        );
    }

    /// A GIF of `frames` one-pixel frames on a `side` by `side` canvas.
    fn gif_of_frames(side: u16, frames: usize) -> Vec<u8> {
        let mut out = b"GIF89a".to_vec();
        out.extend_from_slice(&side.to_le_bytes());
        out.extend_from_slice(&side.to_le_bytes());
        out.extend_from_slice(&[0x80, 0, 0]);
        out.extend_from_slice(&[0, 0, 0, 255, 255, 255]);
        for _ in 0..frames {
            out.extend_from_slice(&[0x21, 0xF9, 4, 0, 1, 0, 0, 0]);
            out.extend_from_slice(&[0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]);
            // LZW, minimum code size 2: clear, pixel 0, end.
            out.extend_from_slice(&[2, 2, 0x44, 0x01, 0]);
        }
        out.push(0x3B);
        out
    }

    #[test]
    fn an_animation_is_walked_not_decoded_frame_by_frame() {
        let many = gif_of_frames(4_000, 3_000);
        assert!(many.len() < 70_000, "{}", many.len());
        let started = std::time::Instant::now();
        let decoded = decode(&many).unwrap();
        assert_eq!(
            (decoded.image.width(), decoded.image.height()),
            (4_000, 4_000)
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert!(
            decode(&gif_of_frames(4, MAX_FRAMES + 1))
                .unwrap_err()
                .0
                .contains("frames")
        );
        // Cut short: refused.
        let whole = gif_of_frames(4, 3);
        assert!(decode(&whole[..whole.len() - 3]).is_err());
        assert_eq!(gif_frames(&whole).unwrap(), Some(3));
    }

    #[test]
    fn a_decompression_bomb_is_refused() {
        // A PNG that says it is 20,000 pixels wide.
        let bytes = encoded(&picture(20_000, 1), ImageFormat::Png);
        assert!(decode(&bytes).unwrap_err().0.contains("too large"));
    }
}
