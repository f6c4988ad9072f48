//! `cargo bench --bench uploads`: an avatar upload of a 4000x3000 JPEG
//! (quality 85) through `Organiser::handle` on a store in a temporary data
//! directory: the full decode, the two WebP thumbnails, the file written
//! and synced, and the metadata committed. Prints the median of 5 runs;
//! the target is at most 1 s (docs/benchmarks.md).

use std::time::{Duration, Instant};

use organiser::{Auth, Organiser, list::Query, server::Method, server::Request};

fn photo() -> Vec<u8> {
    let (w, h) = (4000u32, 3000u32);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let image = image::RgbImage::from_fn(w, h, |x, y| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let noise = (seed & 0x1F) as u32;
        image::Rgb([
            ((x * 255 / w) + noise).min(255) as u8,
            ((y * 255 / h) + noise).min(255) as u8,
            (((x + y) * 255 / (w + h)) + noise).min(255) as u8,
        ])
    });
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85)
        .encode_image(&image)
        .expect("encodes");
    out
}

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let org = Organiser::open(dir.path()).expect("a store");
    let bytes = photo();
    println!("avatar: 4000x3000 JPEG, {} bytes", bytes.len());
    let query = Query::parse("kind=avatar&filename=photo.jpg").expect("a query");
    let mut times: Vec<Duration> = (0..5)
        .map(|_| {
            let request = Request::new(Method::Post, "/uploads", Auth::Local)
                .with_query(query.clone())
                .with_raw("image/jpeg", bytes.clone());
            let started = Instant::now();
            let response = org.handle(&request);
            let took = started.elapsed();
            assert_eq!(response.status, 201, "{:?}", response.json_value());
            took
        })
        .collect();
    times.sort();
    println!(
        "upload (decode, 2 thumbnails, file written): median {:.1} ms (min {:.1}, max {:.1}); target 1000 ms",
        times[2].as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
        times[4].as_secs_f64() * 1e3,
    );
}
