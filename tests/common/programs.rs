//! The programs people use, run by the tests that read our output with
//! them (khard reads the vCard export, khal the iCalendar export and a
//! calendar subscription's feed): `.ci/run` installs them, and a test
//! fails, saying how to install one, when it is missing.

use std::path::Path;
use std::process::Command;

/// Fails, saying how to install it, unless `program` is on `PATH`.
#[track_caller]
pub fn require(program: &str) {
    let found = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()))
        .unwrap_or(false);
    assert!(
        found,
        "`{program}` is not on PATH: this test reads our output with the real \
         {program}. Install it with `apt-get install {program}` (`.ci/run` \
         installs khard and khal)"
    );
}

/// Runs `program ARGS...` with `home` as its home, in the C locale and UTC
/// (so that dates are written one way), and expects success.
#[track_caller]
pub fn tool(program: &str, home: &Path, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("LC_ALL", "C.UTF-8")
        .env("TZ", "UTC")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "`{program} {}` failed ({}):\n--- stdout ---\n{stdout}\n--- stderr ---\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Writes a khal configuration in `home` with one calendar, `organiser`,
/// kept in the directory `calendar` (dates written `2026-03-31`, zone
/// UTC); its path.
pub fn khal_config(home: &Path, calendar: &Path) -> std::path::PathBuf {
    let config = home.join("khal.conf");
    std::fs::write(
        &config,
        format!(
            "[calendars]\n[[organiser]]\npath = {}\ntype = calendar\n\n\
             [sqlite]\npath = {}\n\n\
             [locale]\nlocal_timezone = UTC\ndefault_timezone = UTC\n\
             timeformat = %H:%M\ndateformat = %Y-%m-%d\nlongdateformat = %Y-%m-%d\n\
             datetimeformat = %Y-%m-%d %H:%M\nlongdatetimeformat = %Y-%m-%d %H:%M\n",
            calendar.display(),
            home.join("khal.db").display()
        ),
    )
    .expect("the khal configuration");
    config
}

/// `khal list` from `from` to `to` under `config`: each item as
/// `<start date> <title>`, a line each.
#[track_caller]
pub fn khal_list(home: &Path, config: &Path, from: &str, to: &str) -> Vec<String> {
    let config = config.to_str().expect("a UTF-8 path");
    let out = tool(
        "khal",
        home,
        &[
            "-c",
            config,
            "list",
            "--day-format",
            "",
            "--format",
            "{start-date} {title}",
            from,
            to,
        ],
    );
    out.lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}
