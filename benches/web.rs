//! The web app's today page on the 100,000-task store (EXTENSIONS.md §6,
//! "the today page under 60 kB transferred and rendered by the server in
//! under 5 ms with 100,000 tasks"). On a copy of the tasks bench's store
//! (`target/bench-store-100000`, made by `cargo bench --bench tasks`),
//! with a password set and a session signed in through the sign-in form,
//! it measures:
//!
//! - `GET /` rendered by the server: the router called in process
//!   (`tower::ServiceExt::oneshot`, no socket), the session checked, the
//!   today queue and the counts read, the page written and compressed:
//!   at most 5 ms median;
//! - what the page costs to transfer: the page, the stylesheet and the
//!   script, each gzip-compressed as the server sends them to a browser
//!   that accepts it: at most 60 kB together.
//!
//! ```text
//! cargo bench --bench tasks   # once, to make the store
//! cargo bench --bench web
//! ```
//!
//! Environment: `BENCH_RUNS` (page renders, default 500),
//! `BENCH_STORE_DIR` (the store, default `target/bench-store-100000`).

#[path = "common/mod.rs"]
mod common;

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, header};
use common::{bench_main, copy_store, env_number, ms, options, stats, target_dir};
use organiser::Organiser;
use organiser::clock::ManualClock;
use tower::ServiceExt;

/// The tasks bench's clock (owner zone UTC).
const NOW: &str = "2026-10-14T09:30:00Z";
/// The render's target, median.
const RENDER_TARGET: Duration = Duration::from_millis(5);
/// The most the page, stylesheet and script may take together, compressed.
const TRANSFER_TARGET: usize = 60 * 1024;
const PASSWORD: &str = "bench password 1";

fn main() -> ExitCode {
    bench_main("web", |_| run())
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn run() -> Result<(), String> {
    let runs = env_number("BENCH_RUNS", 500)?;
    let store = match std::env::var("BENCH_STORE_DIR") {
        Ok(dir) => dir.into(),
        Err(_) => target_dir()?.join("bench-store-100000"),
    };
    if !store.exists() {
        return Err(format!(
            "{} is missing: run `cargo bench --bench tasks` first, which makes it",
            store.display()
        ));
    }
    let copy = target_dir()?.join("bench-web-store");
    let _ = std::fs::remove_dir_all(&copy);
    copy_store(&store, &copy, "bench-store.json")?;
    let org = Organiser::open_with(&copy, options(ManualClock::at(NOW))).map_err(err)?;
    org.account().set_password(None, PASSWORD).map_err(err)?;
    let username = org.account().me().map_err(err)?.username;
    let router = organiser_server::router(org, organiser_server::Config::default());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(err)?;
    let result = runtime.block_on(async move {
        // Sign in through the form, as a browser does.
        let form = format!(
            "username={username}&password={}",
            PASSWORD.replace(' ', "+")
        );
        let signed = router
            .clone()
            .oneshot(
                Request::post("/sign-in")
                    .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                    .body(Body::from(form))
                    .map_err(err)?,
            )
            .await
            .map_err(err)?;
        let cookie = signed
            .headers()
            .get(header::SET_COOKIE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .ok_or("the sign-in set no cookie")?
            .to_owned();
        let get = |path: &str| {
            Request::get(path)
                .header(header::COOKIE, &cookie)
                .header(header::ACCEPT_ENCODING, "gzip")
                .body(Body::empty())
                .map_err(err)
        };
        let mut sizes = Vec::new();
        for path in ["/", "/assets/app.css", "/assets/app.js"] {
            let answer = router.clone().oneshot(get(path)?).await.map_err(err)?;
            if !answer.status().is_success() {
                return Err(format!("{path}: {}", answer.status()));
            }
            let gzip = answer
                .headers()
                .get(header::CONTENT_ENCODING)
                .is_some_and(|v| v == "gzip");
            let bytes = axum::body::to_bytes(answer.into_body(), usize::MAX)
                .await
                .map_err(err)?;
            sizes.push((path, bytes.len(), gzip));
        }
        let mut samples = Vec::with_capacity(runs);
        for i in 0..runs + 20 {
            let request = get("/")?;
            let start = Instant::now();
            let answer = router.clone().oneshot(request).await.map_err(err)?;
            let _ = axum::body::to_bytes(answer.into_body(), usize::MAX)
                .await
                .map_err(err)?;
            if i >= 20 {
                samples.push(start.elapsed());
            }
        }
        Ok::<_, String>((sizes, stats(samples)))
    });
    let _ = std::fs::remove_dir_all(&copy);
    let (sizes, render) = result?;

    let mut out = String::new();
    let _ = writeln!(out, "web: the today page on the 100,000-task store\n");
    let _ = writeln!(out, "| what | bytes transferred | compressed |");
    let _ = writeln!(out, "|---|---:|---|");
    let mut total = 0;
    for (path, bytes, gzip) in &sizes {
        total += bytes;
        let _ = writeln!(
            out,
            "| {path} | {bytes} | {} |",
            if *gzip { "gzip" } else { "no" }
        );
    }
    let _ = writeln!(out, "| together | {total} | |");
    let _ = writeln!(
        out,
        "\n`GET /` rendered by the server: median {}, p90 {} ({} runs)",
        ms(render.median),
        ms(render.p90),
        render.runs
    );
    let mut missed = 0;
    if render.median > RENDER_TARGET {
        missed += 1;
        let _ = writeln!(out, "missed: the render is over {}", ms(RENDER_TARGET));
    }
    if total > TRANSFER_TARGET {
        missed += 1;
        let _ = writeln!(
            out,
            "missed: {total} bytes transferred, over {TRANSFER_TARGET}"
        );
    }
    let _ = writeln!(out, "\n{}", common::targets_verdict(missed));
    print!("{out}");
    if missed > 0 {
        return Err(format!("{missed} target(s) missed"));
    }
    Ok(())
}
