//! A document's thumbnail: the first page of a typical PDF (a US Letter
//! invoice: a heading on a grey box, 50 ruled lines of text in a standard
//! font, and a second page that is never drawn) rendered to WebP at 256,
//! 512 and 1024 pixels on its longer side by `organiser::pdf::child_main`,
//! the renderer's side of the child process the server starts for each
//! thumbnail. It measures:
//!
//! - the first render in a process: what each thumbnail costs, as the
//!   server renders each in a new process;
//! - the renders after it in the same process: the renderer alone;
//! - for reference, the whole child process as the server runs it
//!   (`organiser __render-pdf-thumbnail 512`, the PDF on its standard
//!   input), from its start to its exit.
//!
//! ```text
//! cargo bench --bench pdf
//! ```
//!
//! `child_main` limits the memory and the CPU time of the process that
//! calls it (`pdf::CHILD_MEMORY_BYTES`, `pdf::CHILD_CPU_SECONDS`), so the
//! renders run in children of this bench (`pdf --render SIDE RUNS`, the
//! PDF on standard input, a line `NANOSECONDS BYTES` out for each render),
//! at most [`RENDERS_PER_CHILD`] in each, each render timed in the child.
//! No targets: it reports.
//!
//! Environment: `BENCH_RUNS` (renders timed at each side, default 50; one
//! in [`RENDERS_PER_CHILD`] is a first one).

use std::io::{Read as _, Write as _};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

#[path = "common/mod.rs"]
mod common;
// The very pages the core's tests render.
#[path = "../organiser-core/src/pdf_fixtures.rs"]
mod pdf_fixtures;
use common::{Stats, bench_main, env_number, ms, organiser_binary, stats};
use pdf_fixtures::typical_pdf;

/// The sides rendered at, in pixels.
const SIDES: [u32; 3] = [256, 512, 1024];
/// The most renders in one child: well within its CPU time.
const RENDERS_PER_CHILD: usize = 10;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--render") {
        return match render_child(&args[2..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("pdf --render: {message}");
                ExitCode::FAILURE
            }
        };
    }
    bench_main("pdf", |_| run())
}

fn run() -> Result<(), String> {
    let runs = env_number("BENCH_RUNS", 50)?.max(1);
    let pdf = typical_pdf();
    let line = |what: &str, s: &Stats, note: &str| {
        println!(
            "{what:<46} median {:>10}  p90 {:>10}  ({} runs){note}",
            ms(s.median),
            ms(s.p90),
            s.runs
        );
    };
    println!(
        "pdf: the first page of a typical US Letter PDF ({} bytes) to a WebP thumbnail",
        pdf.len()
    );
    for side in SIDES {
        let mut first = Vec::new();
        let mut later = Vec::new();
        let mut bytes = 0;
        let mut left = runs;
        while left > 0 {
            let batch = left.min(RENDERS_PER_CHILD);
            let renders = renders_in_a_child(&pdf, side, batch)?;
            for (i, (took, size)) in renders.into_iter().enumerate() {
                bytes = size;
                let samples = if i == 0 { &mut first } else { &mut later };
                samples.push(took);
            }
            left -= batch;
        }
        let note = format!(", {bytes} bytes of WebP");
        line(
            &format!("{side} px, the first render in a process"),
            &stats(first),
            &note,
        );
        if !later.is_empty() {
            line(
                &format!("{side} px, the renders after it"),
                &stats(later),
                "",
            );
        }
    }
    match organiser_binary() {
        Ok(binary) => {
            let samples = (0..runs.min(20))
                .map(|_| whole_process(&binary, &pdf, 512))
                .collect::<Result<Vec<_>, _>>()?;
            line(
                "512 px, the child process the server runs",
                &stats(samples),
                "",
            );
        }
        Err(why) => println!("the child process the server runs: not measured ({why})"),
    }
    Ok(())
}

/// Runs `pdf --render SIDE RUNS` with `pdf` on its standard input: each
/// render's time and size, in order.
fn renders_in_a_child(
    pdf: &[u8],
    side: u32,
    runs: usize,
) -> Result<Vec<(Duration, usize)>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("where am I: {e}"))?;
    let out = run_with_input(
        Command::new(exe)
            .args(["--render", &side.to_string(), &runs.to_string()])
            .stderr(Stdio::inherit()),
        pdf,
    )?;
    if !out.status.success() {
        return Err(format!(
            "the render child at {side} px failed ({}); its CPU time is limited to {} s",
            out.status,
            organiser::pdf::CHILD_CPU_SECONDS
        ));
    }
    let text = String::from_utf8(out.stdout).map_err(|e| e.to_string())?;
    let renders: Vec<(Duration, usize)> = text
        .lines()
        .map(|l| {
            let (nanos, bytes) = l.split_once(' ')?;
            Some((
                Duration::from_nanos(nanos.parse().ok()?),
                bytes.parse().ok()?,
            ))
        })
        .collect::<Option<_>>()
        .ok_or_else(|| format!("the render child said {text:?}"))?;
    if renders.len() != runs {
        return Err(format!(
            "the render child made {} renders of {runs}",
            renders.len()
        ));
    }
    Ok(renders)
}

/// The child's side: reads the PDF, renders it `RUNS` times at `SIDE`
/// with `child_main` (which limits this process), and says each render's
/// time and size.
fn render_child(args: &[String]) -> Result<(), String> {
    let [side, runs] = args else {
        return Err("usage: pdf --render SIDE RUNS".to_owned());
    };
    let runs: usize = runs
        .parse()
        .map_err(|_| format!("{runs:?} is not a number"))?;
    let mut pdf = Vec::new();
    std::io::stdin()
        .read_to_end(&mut pdf)
        .map_err(|e| format!("cannot read the PDF: {e}"))?;
    let mut said = String::new();
    for _ in 0..runs {
        let mut webp = Vec::new();
        let started = Instant::now();
        organiser::pdf::child_main(side, &mut pdf.as_slice(), &mut webp)?;
        let took = started.elapsed();
        std::hint::black_box(&webp);
        said.push_str(&format!("{} {}\n", took.as_nanos(), webp.len()));
    }
    std::io::stdout()
        .write_all(said.as_bytes())
        .map_err(|e| e.to_string())
}

/// `organiser __render-pdf-thumbnail SIDE` on `pdf`, from its start to
/// its exit.
fn whole_process(binary: &std::path::Path, pdf: &[u8], side: u32) -> Result<Duration, String> {
    let started = Instant::now();
    let out = run_with_input(
        Command::new(binary)
            .args(["__render-pdf-thumbnail", &side.to_string()])
            .stderr(Stdio::piped()),
        pdf,
    )?;
    let took = started.elapsed();
    if !out.status.success() || !out.stdout.starts_with(b"RIFF") {
        return Err(format!(
            "{} __render-pdf-thumbnail failed ({}): {}",
            binary.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(took)
}

/// Runs `command` with `input` on its standard input (written by a thread
/// of its own) and its standard output captured.
fn run_with_input(command: &mut Command, input: &[u8]) -> Result<std::process::Output, String> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no standard input")?;
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    feeder
        .join()
        .map_err(|_| "the feeder panicked".to_owned())?
        .map_err(|e| format!("cannot send the PDF: {e}"))?;
    Ok(out)
}
