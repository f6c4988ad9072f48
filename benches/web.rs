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
//! Then every family's main pages on the benchmark stores of issue 30
//! (people 5,000 from `cargo bench --bench people`, notes 10,000 from
//! `cargo bench --bench notes`, documents 2,000 from `BENCH_DOCUMENTS=2000
//! cargo bench --bench documents`): each rendered by the server in under
//! 10 ms (median) and under 100 kB transferred with the stylesheet and
//! the script.
//!
//! ```text
//! cargo bench --bench tasks   # once, to make the stores
//! cargo bench --bench people
//! cargo bench --bench notes
//! BENCH_DOCUMENTS=2000 cargo bench --bench documents
//! cargo bench --bench web
//! ```
//!
//! Environment: `BENCH_RUNS` (page renders, default 500; the families'
//! pages take a fifth of it each), `BENCH_STORE_DIR` (the today page's
//! store, default `target/bench-store-100000`), `BENCH_ONLY` (`today` or
//! `families`; default both).

#[path = "common/mod.rs"]
mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, header};
use common::{Stats, bench_main, copy_store, env_number, ms, options, stats, target_dir};
use organiser::clock::ManualClock;
use organiser::{ListParams, Organiser};
use tower::ServiceExt;

/// The benches' clock (owner zone UTC).
const NOW: &str = "2026-10-14T09:30:00Z";
/// The today page's render target, median.
const RENDER_TARGET: Duration = Duration::from_millis(5);
/// The most the today page, stylesheet and script may take together,
/// compressed.
const TRANSFER_TARGET: usize = 60 * 1024;
/// Every other page's render target, median (issue 30).
const PAGE_TARGET: Duration = Duration::from_millis(10);
/// The most any other page may take with the stylesheet and script.
const PAGE_TRANSFER_TARGET: usize = 100 * 1024;
const PASSWORD: &str = "bench password 1";

fn main() -> ExitCode {
    bench_main("web", |_| run())
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// A store opened on a copy, signed in through the sign-in form.
struct Site {
    router: Router,
    cookie: String,
    runtime: tokio::runtime::Runtime,
    copy: PathBuf,
}

impl Site {
    /// Copies `store` (without `skip`) and opens it with a password, then
    /// signs in as a browser does.
    fn open(store: &Path, skip: &str, name: &str) -> Result<(Site, Organiser), String> {
        let copy = target_dir()?.join(format!("bench-web-{name}"));
        let _ = std::fs::remove_dir_all(&copy);
        copy_store(store, &copy, skip)?;
        let org = Organiser::open_with(&copy, options(ManualClock::at(NOW))).map_err(err)?;
        org.account().set_password(None, PASSWORD).map_err(err)?;
        let username = org.account().me().map_err(err)?.username;
        let router = organiser_server::router(org.clone(), organiser_server::Config::default());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(err)?;
        let form = format!(
            "username={username}&password={}",
            PASSWORD.replace(' ', "+")
        );
        let signed = runtime.block_on(
            router.clone().oneshot(
                Request::post("/sign-in")
                    .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                    .body(Body::from(form))
                    .map_err(err)?,
            ),
        );
        let cookie = signed
            .map_err(err)?
            .headers()
            .get(header::SET_COOKIE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .ok_or("the sign-in set no cookie")?
            .to_owned();
        Ok((
            Site {
                router,
                cookie,
                runtime,
                copy,
            },
            org,
        ))
    }

    fn request(&self, path: &str) -> Result<Request<Body>, String> {
        Request::get(path)
            .header(header::COOKIE, &self.cookie)
            .header(header::ACCEPT_ENCODING, "gzip")
            .body(Body::empty())
            .map_err(err)
    }

    /// `path` once: its bytes as sent (gzip when the server compresses).
    fn bytes(&self, path: &str) -> Result<(usize, bool), String> {
        self.runtime.block_on(async {
            let answer = self
                .router
                .clone()
                .oneshot(self.request(path)?)
                .await
                .map_err(err)?;
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
            Ok((bytes.len(), gzip))
        })
    }

    /// `path` rendered `runs` times (after 20 unmeasured), whole answers.
    fn time(&self, path: &str, runs: usize) -> Result<Stats, String> {
        self.runtime.block_on(async {
            let mut samples = Vec::with_capacity(runs);
            for i in 0..runs + 20 {
                let request = self.request(path)?;
                let start = Instant::now();
                let answer = self.router.clone().oneshot(request).await.map_err(err)?;
                let _ = axum::body::to_bytes(answer.into_body(), usize::MAX)
                    .await
                    .map_err(err)?;
                if i >= 20 {
                    samples.push(start.elapsed());
                }
            }
            Ok(stats(samples))
        })
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.copy);
    }
}

fn run() -> Result<(), String> {
    let runs = env_number("BENCH_RUNS", 500)?;
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    let mut out = String::new();
    let mut missed = 0;
    if only.is_empty() || only == "today" {
        missed += today(runs, &mut out)?;
    }
    if only.is_empty() || only == "families" {
        missed += families((runs / 5).max(20), &mut out)?;
    }
    let _ = writeln!(out, "\n{}", common::targets_verdict(missed));
    print!("{out}");
    if missed > 0 {
        return Err(format!("{missed} target(s) missed"));
    }
    Ok(())
}

/// The today page on the 100,000-task store.
fn today(runs: usize, out: &mut String) -> Result<usize, String> {
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
    let (site, _org) = Site::open(&store, "bench-store.json", "today")?;
    let mut sizes = Vec::new();
    for path in ["/", "/assets/app.css", "/assets/app.js"] {
        let (bytes, gzip) = site.bytes(path)?;
        sizes.push((path, bytes, gzip));
    }
    let render = site.time("/", runs)?;

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
    Ok(missed)
}

/// A benchmark store of another bench, and how to make it.
struct Store {
    name: &'static str,
    dir: &'static str,
    /// The file beside the store that its bench writes.
    done: &'static str,
    make: &'static str,
}

const STORES: &[Store] = &[
    Store {
        name: "people (5,000)",
        dir: "bench-people-5000",
        done: "bench-people.json",
        make: "cargo bench --bench people",
    },
    Store {
        name: "notes (10,000)",
        dir: "bench-notes-10000",
        done: "bench-notes.json",
        make: "cargo bench --bench notes",
    },
    Store {
        name: "documents (2,000)",
        dir: "bench-documents-2000",
        done: "bench-documents.json",
        make: "BENCH_DOCUMENTS=2000 cargo bench --bench documents",
    },
];

/// The pages of a store's family, found from its records.
fn pages(index: usize, org: &Organiser) -> Result<Vec<String>, String> {
    let first = ListParams {
        limit: 100,
        ..ListParams::default()
    };
    Ok(match index {
        0 => {
            let people = org
                .people()
                .list(&organiser::people::PersonQuery {
                    params: first,
                    ..Default::default()
                })
                .map_err(err)?
                .items;
            let middle = people.get(people.len() / 2).ok_or("no people")?;
            vec![
                "/people".into(),
                format!("/people?q={}", middle.name.split(' ').next().unwrap_or("a")),
                format!("/people/{}", middle.id),
                "/calendar".into(),
                "/calendar?view=month".into(),
                "/projects".into(),
                "/search?q=ann".into(),
            ]
        }
        1 => {
            let notes = org
                .notes()
                .list(&organiser::notes::NoteQuery {
                    params: first,
                    ..Default::default()
                })
                .map_err(err)?
                .items;
            let middle = notes.get(notes.len() / 2).ok_or("no notes")?;
            let tagged = notes
                .iter()
                .find_map(|n| n.tag_ids.first())
                .ok_or("no tagged note")?;
            vec![
                "/notes".into(),
                "/notes?q=meeting".into(),
                format!("/notes?tag={tagged}"),
                format!("/notes/{}", middle.id),
                format!("/notes/{}/edit", middle.id),
                "/notes/suggestions?kind=person&q=an".into(),
                "/notes/suggestions?kind=tag&q=pl".into(),
                "/projects".into(),
            ]
        }
        _ => {
            let documents = org
                .documents()
                .list(&organiser::documents::DocumentQuery {
                    params: first,
                    ..Default::default()
                })
                .map_err(err)?
                .items;
            let middle = documents.get(documents.len() / 2).ok_or("no documents")?;
            let mut paths = vec!["/documents".to_owned()];
            if let Some(folder) = middle.folder_id {
                paths.push(format!("/documents?folder={folder}"));
            }
            paths.push(format!("/documents/{}", middle.id));
            paths.push("/documents?q=invoice".into());
            paths
        }
    })
}

/// Every family's pages on its benchmark store.
fn families(runs: usize, out: &mut String) -> Result<usize, String> {
    let mut missed = 0;
    for (index, store) in STORES.iter().enumerate() {
        let dir = target_dir()?.join(store.dir);
        if !dir.join(store.done).exists() {
            return Err(format!(
                "{} is missing: run `{}` first, which makes it",
                dir.display(),
                store.make
            ));
        }
        let (site, org) = Site::open(&dir, store.done, &format!("family-{index}"))?;
        let (css, _) = site.bytes("/assets/app.css")?;
        let (js, _) = site.bytes("/assets/app.js")?;
        let _ = writeln!(
            out,
            "\nweb: pages on the {} store (with app.css {css} B and app.js {js} B, gzip)\n",
            store.name
        );
        let _ = writeln!(
            out,
            "| page | bytes (gzip) | with css and js | median | p90 |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|");
        for path in pages(index, &org)? {
            let (bytes, _) = site.bytes(&path)?;
            let render = site.time(&path, runs)?;
            let whole = bytes + css + js;
            let _ = writeln!(
                out,
                "| `{path}` | {bytes} | {whole} | {} | {} |",
                ms(render.median),
                ms(render.p90)
            );
            if render.median > PAGE_TARGET {
                missed += 1;
                let _ = writeln!(out, "missed: `{path}` renders over {}", ms(PAGE_TARGET));
            }
            if whole > PAGE_TRANSFER_TARGET {
                missed += 1;
                let _ = writeln!(
                    out,
                    "missed: `{path}` transfers {whole} bytes, over {PAGE_TRANSFER_TARGET}"
                );
            }
        }
    }
    Ok(missed)
}
