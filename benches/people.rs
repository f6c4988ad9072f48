//! People on a store of 5,000 people, each with three email addresses, two
//! phone numbers, two key dates and a position at one of 200 companies:
//! the first page of `GET /people`, one person, and the typed listing, in
//! process; and `organiser people show NAME` from a cold process.
//!
//! ```text
//! cargo bench --bench people
//! BENCH_REGENERATE=1 cargo bench --bench people     # build the store again
//! ```
//!
//! The store is generated once through the public API (one transaction per
//! person, as an app would write them) and kept in
//! `target/bench-people-5000`; it is made again when missing or when
//! `BENCH_REGENERATE=1`. The reads run on the system clock (the store's
//! trial starts when it is generated).
//!
//! Environment: `BENCH_PEOPLE` (default 5000), `BENCH_COMPANIES` (200),
//! `BENCH_RUNS` (runs per measurement, default 500), `BENCH_CLI_RUNS` (30).

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use organiser::{
    Auth, Id, ListParams, Organiser, account::AppearanceChange, people::PersonInput,
    people::PersonQuery, server::Method, server::Request,
};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
use common::{
    Stats, bench_main, env_number, get, mib, ms, organiser_binary, run_cli, stats, target_dir,
    targets_verdict, time, time_between,
};

/// A page.
const PAGE: usize = 50;
/// The target of every in-process read (median).
const TARGET_READ: Duration = Duration::from_millis(1);
/// The target of `organiser people show NAME` (median).
const TARGET_CLI: Duration = Duration::from_millis(10);
/// The file beside the store that says it is complete.
const DONE: &str = "bench-people.json";

fn main() -> ExitCode {
    bench_main("people", |_| run())
}

fn run() -> Result<(), String> {
    let people = env_number("BENCH_PEOPLE", 5000)?;
    let companies = env_number("BENCH_COMPANIES", 200)?;
    let runs = env_number("BENCH_RUNS", 500)?;
    let cli_runs = env_number("BENCH_CLI_RUNS", 30)?;
    let dir = target_dir()?.join(format!("bench-people-{people}"));
    let regenerate = std::env::var_os("BENCH_REGENERATE").is_some_and(|v| v != "0");
    if regenerate || !dir.join(DONE).exists() {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let start = Instant::now();
        generate(&dir, people, companies)?;
        println!(
            "generated {people} people in {:.1} s",
            start.elapsed().as_secs_f64()
        );
        std::fs::write(dir.join(DONE), json!({"people": people}).to_string())
            .map_err(|e| e.to_string())?;
    }
    let size = dir_size(&dir.join(organiser::data::STORE_FILE));
    let org = Organiser::open(&dir).map_err(|e| format!("open {}: {e}", dir.display()))?;

    // A person in the middle of the listing, and its name.
    let first: Value = org
        .handle(&get("/people", &format!("limit={PAGE}"))?)
        .json_value();
    let items = first["data"].as_array().cloned().unwrap_or_default();
    if items.len() != PAGE {
        return Err(format!("GET /people gave {} people: {first}", items.len()));
    }
    let ids: Vec<Id> = items
        .iter()
        .filter_map(|p| p["id"].as_str().and_then(Id::parse))
        .collect();
    let name = items[PAGE / 2]["name"].as_str().unwrap_or("").to_owned();

    println!("\nin-process, {runs} runs each:");
    let mut rows = Vec::new();
    let page = get("/people", &format!("limit={PAGE}"))?;
    checked(&org, &page)?;
    rows.push(row(
        "GET /people?limit=50, handle (kept listing)",
        time(20, runs, || {
            std::hint::black_box(org.handle(&page));
        }),
        Some(TARGET_READ),
    ));
    rows.push(row(
        "GET /people?limit=50, handle, first read after a commit",
        time_between(
            5,
            runs,
            || {
                org.account()
                    .change_appearance(AppearanceChange::default())
                    .expect("a commit");
            },
            || {
                std::hint::black_box(org.handle(&page));
            },
        ),
        Some(TARGET_READ),
    ));
    let one: Vec<Request> = ids
        .iter()
        .map(|id| Request::new(Method::Get, format!("/people/{id}"), Auth::Local))
        .collect();
    for request in &one {
        checked(&org, request)?;
    }
    let mut n = 0;
    rows.push(row(
        "GET /people/{id}, handle",
        time(20, runs, || {
            n += 1;
            std::hint::black_box(org.handle(&one[n % one.len()]));
        }),
        Some(TARGET_READ),
    ));
    let query = PersonQuery {
        q: None,
        relationship: None,
        params: ListParams {
            limit: PAGE,
            ..ListParams::default()
        },
    };
    org.people().list(&query).map_err(|e| e.to_string())?;
    rows.push(row(
        "org.people().list(limit 50), typed",
        time(20, runs, || {
            std::hint::black_box(org.people().list(&query).expect("people"));
        }),
        Some(TARGET_READ),
    ));
    rows.push(row(
        "org.people().get(id), typed",
        time(20, runs, || {
            n += 1;
            std::hint::black_box(org.people().get(ids[n % ids.len()]).expect("a person"));
        }),
        Some(TARGET_READ),
    ));
    drop(org);

    println!("\ncold process, {cli_runs} runs:");
    match organiser_binary() {
        Ok(binary) => {
            let mut samples = Vec::new();
            for i in 0..cli_runs + 2 {
                let took = run_cli(&binary, &dir, None, &["people", "show", &name])?;
                if i >= 2 {
                    samples.push(took);
                }
            }
            rows.push(row(
                &format!("organiser people show {name:?}"),
                stats(samples),
                Some(TARGET_CLI),
            ));
        }
        Err(e) => println!("  skipped: {e}"),
    }

    println!("\n## People on {people} people\n");
    println!(
        "{people} people, each with 3 email addresses, 2 phone numbers, 2 key dates and a position (one of {companies} companies). Store: {}.\n",
        mib(size)
    );
    println!(
        "| measurement | median | p90 | runs | target | result |\n|---|---:|---:|---:|---:|---|"
    );
    let mut missed = 0;
    for r in &rows {
        let (target, result) = match r.target {
            Some(t) if r.stats.median <= t => (format!("≤ {}", ms(t)), "met"),
            Some(t) => {
                missed += 1;
                (format!("≤ {}", ms(t)), "**missed**")
            }
            None => (String::new(), ""),
        };
        println!(
            "| {} | {} | {} | {} | {target} | {result} |",
            r.name,
            ms(r.stats.median),
            ms(r.stats.p90),
            r.stats.runs
        );
    }
    println!("\n{}", targets_verdict(missed));
    Ok(())
}

// ---------------------------------------------------------------- the store

/// A small deterministic generator (xorshift), so every run builds the same store.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const FIRST: &[&str] = &[
    "Ada",
    "Alan",
    "Grace",
    "Edsger",
    "Barbara",
    "Donald",
    "Frances",
    "John",
    "Margaret",
    "Ken",
    "Dennis",
    "Radia",
    "Tim",
    "Hedy",
    "Niklaus",
    "Sophie",
    "Leslie",
    "Katherine",
    "Claude",
    "Annie",
    "Linus",
    "Shafi",
    "Judea",
    "Evelyn",
    "Tony",
    "Jean",
    "Robin",
    "Mary",
    "Vint",
    "Lynn",
];
const LAST: &[&str] = &[
    "Lovelace",
    "Turing",
    "Hopper",
    "Dijkstra",
    "Liskov",
    "Knuth",
    "Allen",
    "McCarthy",
    "Hamilton",
    "Thompson",
    "Ritchie",
    "Perlman",
    "Berners-Lee",
    "Lamarr",
    "Wirth",
    "Wilson",
    "Lamport",
    "Johnson",
    "Shannon",
    "Easley",
    "Torvalds",
    "Goldwasser",
    "Pearl",
    "Boyd",
    "Hoare",
    "Sammet",
    "Milner",
    "Keller",
    "Cerf",
    "Conway",
];
const TITLES: &[&str] = &[
    "Engineer",
    "Designer",
    "Manager",
    "Director",
    "Analyst",
    "Consultant",
    "Teacher",
    "Nurse",
];
const RELATIONSHIPS: &[&str] = &["friend", "colleague", "client", "cousin", "neighbour"];

/// One person's fields, as an app sends them.
fn person(rng: &mut Rng, i: usize, companies: usize) -> PersonInput {
    let first = rng.pick(FIRST);
    let last = rng.pick(LAST);
    let name = format!("{first} {last} {i}");
    let handle = format!("{}.{}{i}", first.to_lowercase(), last.to_lowercase());
    use organiser::Field::Value as Set;
    use organiser::people::{
        EmailAddressFields, KeyDateFields, PhoneNumberFields, PositionFields, RowInput,
    };
    let email = |address: String, label: Option<&str>| {
        RowInput::add(EmailAddressFields {
            address: Set(address),
            label: label.map_or(organiser::Field::Absent, |l| Set(l.to_owned())),
        })
    };
    let email_addresses = vec![
        email(format!("{handle}@home.example"), Some("home")),
        email(format!("{handle}@work.example"), Some("work")),
        email(format!("{handle}@other.example"), None),
    ];
    let phone = |number: String, label: &str| {
        RowInput::add(PhoneNumberFields {
            number: Set(number),
            label: Set(label.to_owned()),
        })
    };
    let mobile = format!("+44 7700 {:06}", rng.below(1_000_000));
    let work = format!("+44 20 {:04} {:04}", rng.below(10_000), rng.below(10_000));
    let phone_numbers = vec![phone(mobile, "mobile"), phone(work, "work")];
    let birthday = KeyDateFields {
        kind: Set("birthday".to_owned()),
        day: Set((1 + rng.below(28)) as i64),
        month: Set((1 + rng.below(12)) as i64),
        year: Set((1950 + rng.below(55)) as i64),
        ..KeyDateFields::default()
    };
    let anniversary = KeyDateFields {
        kind: Set("anniversary".to_owned()),
        day: Set((1 + rng.below(28)) as i64),
        month: Set((1 + rng.below(12)) as i64),
        ..KeyDateFields::default()
    };
    let position = PositionFields {
        title: Set(rng.pick(TITLES).to_owned()),
        company_name: Set(format!("Company {}", rng.below(companies))),
        ..PositionFields::default()
    };
    PersonInput {
        name: Some(name),
        relationships: Some(vec![rng.pick(RELATIONSHIPS).to_owned()]),
        key_dates: Some(vec![RowInput::add(birthday), RowInput::add(anniversary)]),
        email_addresses: Some(email_addresses),
        phone_numbers: Some(phone_numbers),
        positions: Some(vec![RowInput::add(position)]),
        ..PersonInput::default()
    }
}

fn generate(dir: &Path, people: usize, companies: usize) -> Result<(), String> {
    let org = Organiser::open(dir).map_err(|e| format!("open {}: {e}", dir.display()))?;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..people {
        org.people()
            .create(person(&mut rng, i, companies))
            .map_err(|e| format!("person {i}: {e}"))?;
    }
    Ok(())
}

// ---------------------------------------------------------------- timing

/// Fails unless `request` is answered 200.
fn checked(org: &Organiser, request: &Request) -> Result<(), String> {
    let response = org.handle(request);
    if response.status != 200 {
        return Err(format!(
            "{} answered {}: {}",
            request.path,
            response.status,
            response.json_value()
        ));
    }
    Ok(())
}

struct Row {
    name: String,
    stats: Stats,
    target: Option<Duration>,
}

fn row(name: &str, stats: Stats, target: Option<Duration>) -> Row {
    println!(
        "  {:<58} median {:>9}  p90 {:>9}",
        name,
        ms(stats.median),
        ms(stats.p90)
    );
    Row {
        name: name.to_owned(),
        stats,
        target,
    }
}

// ---------------------------------------------------------------- the CLI

// ---------------------------------------------------------------- report

fn dir_size(file: &Path) -> u64 {
    std::fs::metadata(file).map_or(0, |m| m.len())
}
