//! Images, as pure functions of their bytes: what type the bytes say they
//! are (their magic numbers, never the header or the file name), a full
//! decode (so a corrupt or truncated image is refused, not stored), and an
//! avatar's square WebP thumbnails (centre crop, EXIF orientation
//! honoured; lossless, as the `image` crate's encoder writes WebP).

use std::io::Cursor;

use image::codecs::gif::GifDecoder;
use image::codecs::webp::WebPEncoder;
use image::imageops::FilterType;
use image::{AnimationDecoder, DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader};

/// The thumbnail sizes, in pixels (square).
pub(crate) const THUMBNAIL_SIZES: [u32; 2] = [128, 256];

/// The widest or tallest image decoded, in pixels.
const MAX_SIDE: u32 = 12_000;
/// The most memory a decode may take, in bytes.
const MAX_ALLOC: u64 = 256 * 1024 * 1024;

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

fn unusable(error: ImageError) -> Unusable {
    Unusable(match error {
        ImageError::Limits(_) => format!(
            "is too large an image to process (at most {MAX_SIDE} pixels a side and {} MB decoded)",
            MAX_ALLOC / (1024 * 1024)
        ),
        ImageError::Unsupported(_) => "is an image in a form that is not supported".to_owned(),
        _ => "is not a readable image: it is corrupt or cut short".to_owned(),
    })
}

fn limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    limits
}

/// Decodes the whole image (every frame of a GIF), upright as its EXIF
/// orientation says; an [`Unusable`] for bytes that are not a complete
/// image of a type [`sniff`] names.
pub(crate) fn decode(bytes: &[u8]) -> Result<DynamicImage, Unusable> {
    let format = sniff(bytes)
        .and_then(format_of)
        .ok_or_else(|| Unusable("is not a JPEG, PNG, WebP or GIF image".to_owned()))?;
    let complete = match format {
        ImageFormat::Jpeg => jpeg_is_complete(bytes),
        // The IEND chunk, with its fixed CRC: decoders stop before it.
        ImageFormat::Png => bytes.windows(8).any(|w| w == b"IEND\xAE\x42\x60\x82"),
        _ => true,
    };
    if !complete {
        return Err(Unusable(
            "is not a readable image: it is cut short".to_owned(),
        ));
    }
    if format == ImageFormat::Gif {
        // The first frame is the picture; the rest must decode too.
        let mut decoder = GifDecoder::new(Cursor::new(bytes)).map_err(unusable)?;
        decoder.set_limits(limits()).map_err(unusable)?;
        for frame in decoder.into_frames() {
            frame.map_err(unusable)?;
        }
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits());
    let mut decoder = reader.into_decoder().map_err(unusable)?;
    let orientation = decoder.orientation().map_err(unusable)?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(unusable)?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// Whether a JPEG's image data ends with its end-of-image marker: JPEG
/// decoders fill in a picture cut short, so the marker is checked here.
/// The segments before the first scan are stepped over by their lengths
/// (an EXIF thumbnail in them has an end marker of its own); in the scans
/// a 0xFF byte is followed by 0x00, a restart marker or another marker.
fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let mut at = 2;
    loop {
        // Markers may be padded with extra 0xFF bytes.
        while bytes.get(at) == Some(&0xFF) && bytes.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        let (Some(0xFF), Some(&marker)) = (bytes.get(at), bytes.get(at + 1)) else {
            return false;
        };
        match marker {
            0xDA => break,
            0xD9 => return false,
            0x01 | 0xD0..=0xD7 => at += 2,
            _ => {
                let (Some(&hi), Some(&lo)) = (bytes.get(at + 2), bytes.get(at + 3)) else {
                    return false;
                };
                at += 2 + usize::from(u16::from_be_bytes([hi, lo]));
            }
        }
    }
    bytes
        .get(at..)
        .is_some_and(|scans| scans.windows(2).any(|w| w == [0xFF, 0xD9]))
}

/// The 128 and 256 pixel square thumbnails of an image, as WebP.
#[cfg(test)]
pub(crate) fn thumbnails(bytes: &[u8]) -> Result<(Vec<u8>, Vec<u8>), Unusable> {
    thumbnails_of(&decode(bytes)?)
}

/// The 128 and 256 pixel square thumbnails of a decoded image, as WebP:
/// the largest centred square, scaled.
pub(crate) fn thumbnails_of(image: &DynamicImage) -> Result<(Vec<u8>, Vec<u8>), Unusable> {
    let (w, h) = (image.width(), image.height());
    if w == 0 || h == 0 {
        return Err(Unusable("is an image with no pixels".to_owned()));
    }
    let side = w.min(h);
    let square = image.crop_imm((w - side) / 2, (h - side) / 2, side, side);
    let [small, large] = THUMBNAIL_SIZES;
    // A fast area average down to the larger size, then a fine filter for
    // the smaller one.
    let big = if side > large {
        square.thumbnail_exact(large, large)
    } else {
        square.resize_exact(large, large, FilterType::Triangle)
    };
    let little = big.resize_exact(small, small, FilterType::Triangle);
    Ok((webp(&little)?, webp(&big)?))
}

fn webp(image: &DynamicImage) -> Result<Vec<u8>, Unusable> {
    let image = if image.color().has_alpha() {
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
        // A wide image marked "rotate 90": upright it is tall.
        let p = picture(20, 10);
        let mut bytes = Vec::new();
        let mut encoder = image::codecs::jpeg::JpegEncoder::new(&mut bytes);
        // EXIF, big-endian TIFF, one IFD entry: Orientation (0x0112) = 6.
        let exif: &[u8] = &[
            b'M', b'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0,
            0,
        ];
        encoder.set_exif_metadata(exif.to_vec()).unwrap();
        encoder
            .write_image(p.as_bytes(), 20, 10, image::ExtendedColorType::Rgb8)
            .unwrap();
        let upright = decode(&bytes).unwrap();
        assert_eq!((upright.width(), upright.height()), (10, 20));
    }

    #[test]
    fn a_decompression_bomb_is_refused() {
        // A PNG that says it is 20,000 pixels wide.
        let bytes = encoded(&picture(20_000, 1), ImageFormat::Png);
        assert!(decode(&bytes).unwrap_err().0.contains("too large"));
    }
}
