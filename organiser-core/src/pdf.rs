//! PDF thumbnails (issue 11: a WebP of a document's first page, or a
//! generic icon when it cannot be rendered). Placeholder until the
//! renderer lands: every document shows the icon.

/// A WebP of a generic document icon, `side` pixels high.
pub(crate) fn generic_icon_webp(side: u32) -> Vec<u8> {
    let side = side.max(16);
    let mut img =
        image::RgbaImage::from_pixel(side * 3 / 4, side, image::Rgba([255, 255, 255, 255]));
    let grey = image::Rgba([120, 120, 120, 255]);
    let (w, h) = img.dimensions();
    for x in 0..w {
        img.put_pixel(x, 0, grey);
        img.put_pixel(x, h - 1, grey);
    }
    for y in 0..h {
        img.put_pixel(0, y, grey);
        img.put_pixel(w - 1, y, grey);
    }
    let mut out = std::io::Cursor::new(Vec::new());
    let _ = img.write_to(&mut out, image::ImageFormat::WebP);
    out.into_inner()
}

/// The first page's thumbnail, or the icon.
pub(crate) fn thumbnail_or_icon(_pdf: &[u8], side: u32) -> Vec<u8> {
    generic_icon_webp(side)
}
