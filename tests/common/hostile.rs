//! Hostile files of a few kilobytes each (issue 22), made here: images
//! that claim gigapixels or thousands of frames, and PDFs whose first page
//! takes gigabytes or minutes to render. A server must refuse them before
//! the work, or do the work within a budget, and keep answering.

// The core tests' writer of a PDF's objects (and the pages they render,
// unused here).
#[allow(dead_code)]
#[path = "../../organiser-core/src/pdf_fixtures.rs"]
mod pdf_fixtures;

/// A PNG whose header claims `width` by `height` pixels of `bit_depth`
/// and `colour` type (6: RGBA), with a tiny valid image stream: a decoder
/// that trusts the header allocates for the claim.
pub fn png_claiming(width: u32, height: u32, bit_depth: u8, colour: u8) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[bit_depth, colour, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &zlib_repeating(&[0], 4096, b""));
    chunk(&mut out, b"IEND", &[]);
    out
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

/// A GIF of `frames` one-pixel frames on a `side` by `side` canvas (about
/// 20 bytes a frame: 3,000 frames on 4,000 by 4,000 are 60 KB).
pub fn gif_of_frames(side: u16, frames: usize) -> Vec<u8> {
    let mut out = b"GIF89a".to_vec();
    out.extend_from_slice(&side.to_le_bytes());
    out.extend_from_slice(&side.to_le_bytes());
    out.extend_from_slice(&[0x80, 0, 0, 0, 0, 0, 255, 255, 255]);
    for _ in 0..frames {
        out.extend_from_slice(&[0x21, 0xF9, 4, 0, 1, 0, 0, 0]);
        out.extend_from_slice(&[0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]);
        // LZW, minimum code size 2: clear, pixel 0, end.
        out.extend_from_slice(&[2, 2, 0x44, 0x01, 0]);
    }
    out.push(0x3B);
    out
}

/// A one-page PDF that draws image XObject `image` (its dictionary
/// entries and stream) over the page, with `content` after it.
fn pdf_drawing(image: Option<(&str, &[u8])>, content: (&str, &[u8])) -> Vec<u8> {
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
    ];
    let resources = match image {
        Some(_) => "/Resources << /XObject << /Im0 5 0 R >> >>",
        None => "/Resources << >>",
    };
    objects.push(
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] {resources} /Contents 4 0 R >>"
        )
        .into_bytes(),
    );
    let stream = |dict: &str, data: &[u8]| {
        let mut o = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
        o.extend_from_slice(data);
        o.extend_from_slice(b"\nendstream");
        o
    };
    objects.push(stream(content.0, content.1));
    if let Some((dict, data)) = image {
        objects.push(stream(dict, data));
    }
    pdf_fixtures::assemble("1.7", &objects)
}

/// A 1 KB PDF whose JPEG says it is 65,500 by 65,500 pixels (12.8 GB
/// decoded).
pub fn pdf_with_a_huge_jpeg() -> Vec<u8> {
    let small = image::RgbImage::from_pixel(8, 8, image::Rgb([200, 30, 30]));
    let mut jpeg = std::io::Cursor::new(Vec::new());
    small
        .write_to(&mut jpeg, image::ImageFormat::Jpeg)
        .expect("a JPEG");
    let mut jpeg = jpeg.into_inner();
    let sof = jpeg
        .windows(2)
        .position(|w| w == [0xFF, 0xC0])
        .expect("a baseline frame header");
    // Marker, length (2), precision (1), height (2), width (2).
    jpeg[sof + 5..sof + 7].copy_from_slice(&65_500u16.to_be_bytes());
    jpeg[sof + 7..sof + 9].copy_from_slice(&65_500u16.to_be_bytes());
    pdf_drawing(
        Some((
            "/Type /XObject /Subtype /Image /Width 65500 /Height 65500 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode",
            &jpeg,
        )),
        ("", b"q 612 0 0 792 0 0 cm /Im0 Do Q"),
    )
}

/// A PDF of a few kilobytes holding a 20,000 by 20,000 grey image
/// compressed twice (400 MB decoded).
pub fn pdf_with_a_twice_compressed_image() -> Vec<u8> {
    let inner = zlib_repeating(&[0], 20_000 * 20_000 + 20_000, b"");
    let outer = miniz_oxide::deflate::compress_to_vec_zlib(&inner, 9);
    pdf_drawing(
        Some((
            "/Type /XObject /Subtype /Image /Width 20000 /Height 20000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter [/FlateDecode /FlateDecode]",
            &outer,
        )),
        ("", b"q 612 0 0 792 0 0 cm /Im0 Do Q"),
    )
}

/// A PDF of a few kilobytes whose page is 14 million path operators.
pub fn pdf_with_millions_of_paths() -> Vec<u8> {
    let pattern = b"1 1 m 2 2 l ";
    let inner = zlib_repeating(pattern, pattern.len() as u64 * 7_000_000, b"S\n");
    let outer = miniz_oxide::deflate::compress_to_vec_zlib(&inner, 9);
    pdf_drawing(None, ("/Filter [/FlateDecode /FlateDecode]", &outer))
}

/// Bits written least significant first, as deflate packs them.
struct Bits {
    out: Vec<u8>,
    bit: u64,
    used: u32,
}

impl Bits {
    fn put(&mut self, value: u64, count: u32) {
        self.bit |= value << self.used;
        self.used += count;
        while self.used >= 8 {
            self.out.push(self.bit as u8);
            self.bit >>= 8;
            self.used -= 8;
        }
    }

    /// A Huffman code, most significant bit first.
    fn code(&mut self, code: u32, length: u32) {
        let mut reversed = 0u64;
        for i in 0..length {
            reversed |= u64::from((code >> i) & 1) << (length - 1 - i);
        }
        self.put(reversed, length);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.used > 0 {
            self.out.push(self.bit as u8);
        }
        self.out
    }
}

/// A literal or length symbol with the fixed Huffman codes (RFC 1951
/// 3.2.6).
fn fixed(bits: &mut Bits, symbol: u32) {
    match symbol {
        0..=143 => bits.code(0x30 + symbol, 8),
        144..=255 => bits.code(0x190 + symbol - 144, 9),
        256..=279 => bits.code(symbol - 256, 7),
        _ => bits.code(0xC0 + symbol - 280, 8),
    }
}

/// The length symbol, its extra bits and their count for a match length
/// of 3 to 258.
fn length_code(length: u32) -> (u32, u32, u32) {
    const BASE: [u32; 29] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227, 258,
    ];
    const EXTRA: [u32; 29] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ];
    let i = BASE.iter().rposition(|b| *b <= length).expect("3 to 258");
    (257 + i as u32, length - BASE[i], EXTRA[i])
}

/// The distance symbol, extra bits and count for a distance of 1 to 256.
fn distance_code(distance: u32) -> (u32, u32, u32) {
    const BASE: [u32; 16] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193];
    const EXTRA: [u32; 16] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6];
    let i = BASE.iter().rposition(|b| *b <= distance).expect("1 to 256");
    (i as u32, distance - BASE[i], EXTRA[i])
}

/// A zlib stream of `pattern` repeated to `total` bytes, then `tail`,
/// written without compressing anything: the pattern once, then copies
/// of 258 bytes from its own distance (RFC 1951 fixed codes), with the
/// Adler-32 worked out per period, so a stream of gigabytes takes
/// milliseconds.
pub fn zlib_repeating(pattern: &[u8], total: u64, tail: &[u8]) -> Vec<u8> {
    assert!(!pattern.is_empty() && pattern.len() <= 256 && total >= pattern.len() as u64);
    let mut bits = Bits {
        out: vec![0x78, 0x01],
        bit: 0,
        used: 0,
    };
    bits.put(1, 1); // final block
    bits.put(1, 2); // fixed codes
    for &b in pattern {
        fixed(&mut bits, u32::from(b));
    }
    let (dist, dist_extra, dist_bits) = distance_code(pattern.len() as u32);
    let mut left = total - pattern.len() as u64;
    while left > 0 {
        let length = match left {
            1 | 2 => {
                // Too short to copy: the next pattern bytes as literals.
                let done = total - left;
                let byte = pattern[(done % pattern.len() as u64) as usize];
                fixed(&mut bits, u32::from(byte));
                left -= 1;
                continue;
            }
            n if n >= 258 + 3 || n == 258 => 258,
            n if n > 258 => n as u32 - 3,
            n => n as u32,
        };
        let (symbol, extra, count) = length_code(length);
        fixed(&mut bits, symbol);
        bits.put(u64::from(extra), count);
        bits.code(dist, 5);
        bits.put(u64::from(dist_extra), dist_bits);
        left -= u64::from(length);
    }
    for &b in tail {
        fixed(&mut bits, u32::from(b));
    }
    fixed(&mut bits, 256);
    let mut out = bits.finish();
    out.extend_from_slice(&adler32_repeating(pattern, total, tail).to_be_bytes());
    out
}

/// Adler-32 of `pattern` repeated to `total` bytes, then `tail`.
fn adler32_repeating(pattern: &[u8], total: u64, tail: &[u8]) -> u32 {
    const M: u128 = 65_521;
    let (mut a, mut b): (u128, u128) = (1, 0);
    let len = pattern.len() as u128;
    // One period from (a, b): a + S, b + L*a + T (T: the prefix sums' sum).
    let s: u128 = pattern.iter().map(|&x| u128::from(x)).sum();
    let mut prefix = 0u128;
    let mut t = 0u128;
    for &x in pattern {
        prefix += u128::from(x);
        t += prefix;
    }
    let n = u128::from(total) / len;
    b = (b + n * len % M * a + (len * s % M) * ((n * (n.saturating_sub(1)) / 2) % M) + n % M * t)
        % M;
    a = (a + n % M * s) % M;
    let rest = (u128::from(total) % len) as usize;
    for &x in pattern[..rest].iter().chain(tail) {
        a = (a + u128::from(x)) % M;
        b = (b + a) % M;
    }
    ((b << 16) | a) as u32
}
