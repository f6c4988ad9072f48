//! Runs the real `organiser` binary in a temporary data directory, with a
//! clean environment, and captures what it says (in the manner of
//! ripgrep's `tests/util.rs`). [`Server`] runs `organiser serve` as a child
//! process that is killed if the test panics.
//!
//! Nothing here sleeps to wait for a state: a command's end is a blocking
//! `wait` on a thread of its own, and a server's state is read when its
//! standard error (a pipe read to the end by a thread) says something.

use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

/// Today's date in the IANA zone `zone`, as the API writes it. (The
/// commands run on the real clock: `ORGANISER_NOW` would restart the clock
/// at one instant in every process, and time would run backwards between
/// two commands.)
pub(crate) fn today(zone: &str) -> String {
    jiff::Timestamp::now()
        .in_tz(zone)
        .expect("a known zone")
        .date()
        .to_string()
}

/// How long any one command may take before the test gives up on it.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a server may take to write `server.json`, or to stop.
const SERVER_TIMEOUT: Duration = Duration::from_secs(15);

/// The binary under test.
pub(crate) fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_organiser")
}

/// A temporary directory; the data directory is `data` inside it, not yet
/// made, so every test starts from an empty directory.
pub(crate) struct Dir {
    tmp: TempDir,
    data: PathBuf,
}

impl Dir {
    /// A data directory with a store whose owner is the default one
    /// ("Owner", `owner`, UTC), as a first command that changes something
    /// makes it.
    #[track_caller]
    pub(crate) fn new() -> Dir {
        let dir = Dir::empty();
        dir.init("Owner", "owner", "UTC");
        dir
    }

    /// A data directory not yet made: no store.
    pub(crate) fn empty() -> Dir {
        let tmp = tempfile::Builder::new()
            .prefix("organiser-cli-")
            .tempdir()
            .expect("a temporary directory");
        let data = tmp.path().join("data");
        Dir { tmp, data }
    }

    /// The temporary directory (the data directory's parent).
    pub(crate) fn root(&self) -> &Path {
        self.tmp.path()
    }

    /// The data directory.
    pub(crate) fn data(&self) -> &Path {
        &self.data
    }

    /// `organiser --data-dir DATA ARGS...`, with `XDG_CONFIG_HOME` in the
    /// temporary directory (see [`Dir::config`]).
    pub(crate) fn cmd(&self, args: &[&str]) -> Cmd {
        Cmd::new(args)
            .env("XDG_CONFIG_HOME", self.config_home())
            .data_dir(&self.data)
    }

    /// `XDG_CONFIG_HOME` of [`Dir::cmd`]: `config` in the temporary directory.
    pub(crate) fn config_home(&self) -> PathBuf {
        self.tmp.path().join("config")
    }

    /// Writes the configuration file that [`Dir::cmd`]'s commands read
    /// (`config/organiser/config.toml`) and returns its path.
    pub(crate) fn config(&self, text: &str) -> PathBuf {
        let dir = self.config_home().join("organiser");
        std::fs::create_dir_all(&dir).expect("the configuration directory");
        let path = dir.join("config.toml");
        std::fs::write(&path, text).expect("the configuration file");
        path
    }

    /// Runs `organiser --data-dir DATA ARGS...`.
    pub(crate) fn run(&self, args: &[&str]) -> Outcome {
        self.cmd(args).run()
    }

    /// Runs it and panics unless it succeeds.
    #[track_caller]
    pub(crate) fn ok(&self, args: &[&str]) -> Outcome {
        self.run(args).success()
    }

    /// Runs it with `--json`, expects success and one JSON document on stdout.
    #[track_caller]
    pub(crate) fn json(&self, args: &[&str]) -> Value {
        let mut args = args.to_vec();
        args.push("--json");
        self.ok(&args).json()
    }

    /// `organiser init` with these values; panics unless it succeeds.
    #[track_caller]
    pub(crate) fn init(&self, name: &str, username: &str, zone: &str) -> Outcome {
        self.ok(&[
            "init",
            "--name",
            name,
            "--username",
            username,
            "--time-zone",
            zone,
        ])
    }

    /// Starts `organiser serve --listen 127.0.0.1:0` on the data directory
    /// and waits for its `server.json`.
    #[track_caller]
    pub(crate) fn serve(&self) -> Server {
        Server::start(self, &[])
    }

    /// [`Dir::serve`] with more environment variables.
    #[track_caller]
    pub(crate) fn serve_with(&self, envs: &[(&str, &str)]) -> Server {
        Server::start(self, envs)
    }

    /// The data directory's `server.json`, if there is one.
    pub(crate) fn server_json(&self) -> PathBuf {
        self.data.join("server.json")
    }
}

/// One invocation of the binary, with a clean environment: no
/// `ORGANISER_*` variable of the test's own environment, no `NO_COLOR`,
/// no configuration file of the person running the tests
/// (`XDG_CONFIG_HOME` names a directory that does not exist), standard
/// input empty.
pub(crate) struct Cmd {
    program: OsString,
    args: Vec<OsString>,
    envs: Vec<(OsString, Option<OsString>)>,
    current_dir: Option<PathBuf>,
    stdin: Option<Vec<u8>>,
    stdout: Option<Stdio>,
}

impl Cmd {
    pub(crate) fn new(args: &[&str]) -> Cmd {
        let envs: Vec<(OsString, Option<OsString>)> = std::env::vars_os()
            .map(|(name, _)| name)
            .filter(|name| {
                let text = name.to_string_lossy();
                text.starts_with("ORGANISER_")
                    || ["NO_COLOR", "CLICOLOR_FORCE", "RUST_LOG", "COMPLETE"].contains(&&*text)
            })
            .map(|name| (name, None))
            .chain([(
                "XDG_CONFIG_HOME".into(),
                Some(
                    Path::new(env!("CARGO_TARGET_TMPDIR"))
                        .join("no-config")
                        .into(),
                ),
            )])
            .collect();
        Cmd {
            program: bin().into(),
            args: args.iter().map(OsString::from).collect(),
            envs,
            current_dir: None,
            stdin: None,
            stdout: None,
        }
    }

    /// `sh -c SCRIPT sh ARGS...` in the same clean environment, for what
    /// the test itself cannot do fast enough (`$0` is this binary).
    pub(crate) fn shell(script: &str, args: &[&OsStr]) -> Cmd {
        let mut cmd = Cmd::new(&[]);
        cmd.program = "sh".into();
        cmd.args = ["-c".into(), script.into(), bin().into()]
            .into_iter()
            .chain(args.iter().map(|a| a.to_os_string()))
            .collect();
        cmd
    }

    /// Puts `--data-dir DIR` before the other arguments.
    pub(crate) fn data_dir(mut self, dir: &Path) -> Cmd {
        self.args.splice(0..0, ["--data-dir".into(), dir.into()]);
        self
    }

    pub(crate) fn env(mut self, name: &str, value: impl AsRef<OsStr>) -> Cmd {
        self.envs
            .push((name.into(), Some(value.as_ref().to_owned())));
        self
    }

    pub(crate) fn env_remove(mut self, name: &str) -> Cmd {
        self.envs.push((name.into(), None));
        self
    }

    pub(crate) fn current_dir(mut self, dir: &Path) -> Cmd {
        self.current_dir = Some(dir.to_owned());
        self
    }

    /// Feeds `text` on standard input.
    pub(crate) fn stdin(mut self, text: &str) -> Cmd {
        self.stdin = Some(text.as_bytes().to_vec());
        self
    }

    /// Runs it on a terminal, as a person at the keyboard would: under
    /// `script(1)` (util-linux, always on Debian), whose pseudo-terminal
    /// is its standard input, output and error; what it reads comes from
    /// [`Cmd::stdin`], and all it says arrives on standard output.
    pub(crate) fn on_terminal(self) -> Cmd {
        self.on_terminal_of(None)
    }

    /// [`Cmd::on_terminal`], on a terminal `columns` wide.
    pub(crate) fn on_terminal_of(mut self, columns: Option<u16>) -> Cmd {
        let quoted: Vec<String> = std::iter::once(&self.program)
            .chain(&self.args)
            .map(|a| format!("'{}'", a.to_string_lossy().replace('\'', "'\\''")))
            .collect();
        let size = match columns {
            Some(n) => format!("stty cols {n} rows 50; "),
            None => String::new(),
        };
        self.program = "script".into();
        self.args = vec![
            "-q".into(),
            "-e".into(),
            "-c".into(),
            format!("{size}{}", quoted.join(" ")).into(),
            "/dev/null".into(),
        ];
        self
    }

    /// Sends standard output here instead of capturing it.
    pub(crate) fn stdout(mut self, stdout: impl Into<Stdio>) -> Cmd {
        self.stdout = Some(stdout.into());
        self
    }

    fn description(&self) -> String {
        let mut text = if self.program == bin() {
            String::from("organiser")
        } else {
            self.program.to_string_lossy().into_owned()
        };
        for arg in &self.args {
            text.push(' ');
            text.push_str(&arg.to_string_lossy());
        }
        text
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(&self.args);
        for (name, value) in &self.envs {
            match value {
                Some(value) => command.env(name, value),
                None => command.env_remove(name),
            };
        }
        if let Some(dir) = &self.current_dir {
            command.current_dir(dir);
        }
        command
    }

    /// Runs it to the end (at most [`COMMAND_TIMEOUT`]) and captures what it said.
    pub(crate) fn run(mut self) -> Outcome {
        let description = self.description();
        let mut command = self.command();
        command
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(self.stdout.take().unwrap_or_else(Stdio::piped))
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {description}: {e}"));
        if let Some(bytes) = self.stdin.take() {
            let mut stdin = child.stdin.take().expect("piped stdin");
            // The command may exit without reading: that is for the test to judge.
            let _ = stdin.write_all(&bytes);
        }
        let stdout = child.stdout.take().map(reader);
        let stderr = child.stderr.take().map(reader);
        let status = wait_for(&mut child, COMMAND_TIMEOUT)
            .unwrap_or_else(|| panic!("{description} did not finish in {COMMAND_TIMEOUT:?}"));
        let collect = |handle: Option<std::thread::JoinHandle<Vec<u8>>>| {
            handle
                .map(|h| String::from_utf8(h.join().expect("reader thread")).expect("UTF-8 output"))
                .unwrap_or_default()
        };
        Outcome {
            description,
            status,
            stdout: collect(stdout),
            stderr: collect(stderr),
        }
    }
}

fn reader(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// Waits for `child` for at most `timeout`; kills it and returns `None` when it runs over.
///
/// A thread blocks in `wait`; this one blocks on its answer until the
/// deadline. Past it, the child is killed by its pid with `kill(1)` (the
/// thread holds the `Child`); the pid is the child's until that `wait`
/// returns, which the kill makes it do.
fn wait_for(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let pid = child.id();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        scope.spawn(move || {
            let _ = tx.send(child.wait().expect("waiting for a child"));
        });
        match rx.recv_timeout(timeout) {
            Ok(status) => Some(status),
            Err(RecvTimeoutError::Timeout) => {
                // One that ended at the deadline is taken as ended.
                if let Ok(status) = rx.try_recv() {
                    return Some(status);
                }
                let _ = Command::new("kill")
                    .arg("-KILL")
                    .arg(pid.to_string())
                    .status();
                None
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the thread waiting for a child panicked")
            }
        }
    })
}

/// What a command did.
pub(crate) struct Outcome {
    pub(crate) description: String,
    pub(crate) status: ExitStatus,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl std::fmt::Debug for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` exited with {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.description, self.status, self.stdout, self.stderr
        )
    }
}

impl Outcome {
    /// The exit code (`None` when a signal ended it).
    pub(crate) fn code(&self) -> Option<i32> {
        self.status.code()
    }

    /// Panics unless the exit code is 0.
    #[track_caller]
    pub(crate) fn success(self) -> Outcome {
        assert_eq!(self.code(), Some(0), "expected success: {self:?}");
        self
    }

    /// Panics unless the exit code is `code`.
    #[track_caller]
    pub(crate) fn failure(self, code: i32) -> Outcome {
        assert_eq!(
            self.code(),
            Some(code),
            "expected exit code {code}: {self:?}"
        );
        self
    }

    /// Exit 1, nothing on stdout, and exactly one line on stderr:
    /// `error: MESSAGE`, or with `--json` the error as JSON
    /// (`{"error": {"code", "message", ...}}`): returns MESSAGE.
    #[track_caller]
    pub(crate) fn error(&self) -> String {
        assert_eq!(self.code(), Some(1), "expected exit code 1: {self:?}");
        assert_eq!(self.stdout, "", "expected nothing on stdout: {self:?}");
        assert!(
            self.stderr.ends_with('\n') && self.stderr.lines().count() == 1,
            "expected one line on stderr: {self:?}"
        );
        if self.description.split(' ').any(|a| a == "--json") {
            let said = self.json_error();
            return said["message"].as_str().unwrap_or_default().to_owned();
        }
        self.stderr
            .trim_end()
            .strip_prefix("error: ")
            .unwrap_or_else(|| panic!("expected `error: ` first: {self:?}"))
            .to_owned()
    }

    /// With `--json`, the error object on stderr (`{code, message,
    /// details?}`), checked to have a code and a message.
    #[track_caller]
    pub(crate) fn json_error(&self) -> Value {
        let body: Value = serde_json::from_str(&self.stderr)
            .unwrap_or_else(|e| panic!("stderr is not JSON ({e}): {self:?}"));
        let error = body["error"].clone();
        assert!(
            error["code"].is_string() && error["message"].is_string(),
            "{self:?}"
        );
        error
    }

    /// Standard output as one JSON document.
    #[track_caller]
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {self:?}"))
    }

    /// Panics if either stream holds an ANSI escape.
    #[track_caller]
    pub(crate) fn assert_no_ansi(&self) {
        assert!(
            !self.stdout.contains('\x1b') && !self.stderr.contains('\x1b'),
            "expected no ANSI escapes: {self:?}"
        );
    }
}

/// Every key of every object, with each scalar replaced by its kind
/// (arrays by the shape of their first item): two documents with the same
/// shape have the same fields of the same kinds (null matches anything).
pub(crate) fn shape(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), shape(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().take(1).map(shape).collect()),
        Value::Null => Value::Null,
        Value::Bool(_) => "bool".into(),
        Value::Number(_) => "number".into(),
        Value::String(_) => "string".into(),
    }
}

/// Sends a signal to a process with `kill(1)` (the test package has no
/// `libc`), e.g. `signal(pid, "TERM")`.
pub(crate) fn signal(pid: u32, name: &str) {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(pid.to_string())
        .status()
        .expect("kill(1) runs");
    assert!(status.success(), "kill -{name} {pid} failed");
}

/// `organiser serve --listen 127.0.0.1:0` as a child process; dropping it
/// kills the process if it still runs.
pub(crate) struct Server {
    child: Option<Child>,
    description: String,
    /// What it says on standard error.
    said: Arc<Said>,
    /// The data directory's `server.json`, as read once it appeared.
    pub(crate) info: Value,
    /// `info.url`.
    pub(crate) url: String,
    /// `info.token`: the local administrator token.
    pub(crate) token: String,
}

impl Server {
    #[track_caller]
    fn start(dir: &Dir, envs: &[(&str, &str)]) -> Server {
        let mut cmd = dir
            .cmd(&["serve", "--listen", "127.0.0.1:0"])
            .env("ORGANISER_RATE_LIMIT", "0");
        for (name, value) in envs {
            cmd = cmd.env(name, value);
        }
        let description = cmd.description();
        let mut child = cmd
            .command()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {description}: {e}"));
        let said = Said::read(child.stderr.take().expect("piped stderr"));
        let mut server = Server {
            child: Some(child),
            description,
            said,
            info: Value::Null,
            url: String::new(),
            token: String::new(),
        };
        server.info = server.wait_for_server_json(&dir.server_json());
        server.url = server.info["url"].as_str().expect("url").to_owned();
        server.token = server.info["token"].as_str().expect("token").to_owned();
        server
    }

    /// Waits until `server.json` holds a complete document naming this
    /// server's pid: looked at first, then each time the server says
    /// something (it logs `serving` once it has written the file); panics
    /// if the server exits first or takes too long.
    #[track_caller]
    fn wait_for_server_json(&mut self, path: &Path) -> Value {
        let deadline = Instant::now() + SERVER_TIMEOUT;
        let pid = self.pid();
        // A file left by an earlier server does not count: wait for ours.
        let ours = || {
            std::fs::read_to_string(path)
                .ok()
                .and_then(|text| serde_json::from_str::<Value>(&text).ok())
                .filter(|info| info["pid"] == pid)
        };
        let mut seen = 0;
        loop {
            if let Some(info) = ours() {
                return info;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let (said, _) = self
                .said
                .wait_while(left, |said| said.text.len() == seen && !said.ended);
            if said.text.len() > seen {
                seen = said.text.len();
                continue;
            }
            let ended = said.ended;
            drop(said);
            if !ended {
                panic!(
                    "{} wrote no server.json in {SERVER_TIMEOUT:?}; stderr:\n{}",
                    self.description,
                    self.stderr()
                );
            }
            // Its standard error closed: it is exiting.
            if let Some(info) = ours() {
                return info;
            }
            let child = self.child.as_mut().expect("a child");
            let status = wait_for(child, SERVER_TIMEOUT).map_or_else(
                || "no exit (it closed its standard error)".to_owned(),
                |status| status.to_string(),
            );
            panic!(
                "{} exited with {status} before writing server.json; stderr:\n{}",
                self.description,
                self.stderr()
            );
        }
    }

    /// The server's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.as_ref().expect("a running server").id()
    }

    /// What the server said on stderr so far (the lines read from it by
    /// now).
    pub(crate) fn stderr(&self) -> String {
        self.said.lock().text.clone()
    }

    /// Blocks until stderr contains `text` (looked at again each time the
    /// server says something): all it said by then; panics if its stderr
    /// ends first, or after a while.
    #[track_caller]
    pub(crate) fn wait_for_stderr(&self, text: &str) -> String {
        let (said, timed_out) = self.said.wait_while(SERVER_TIMEOUT, |said| {
            !said.text.contains(text) && !said.ended
        });
        let stderr = said.text.clone();
        assert!(
            stderr.contains(text),
            "the server never said {text:?}{}; stderr:\n{stderr}",
            if timed_out { "" } else { " (its stderr ended)" }
        );
        stderr
    }

    /// Whether the server has said `text` at least `times` times, waiting
    /// for it no longer than `within`.
    pub(crate) fn said_times(&self, text: &str, times: usize, within: Duration) -> bool {
        let (said, _) = self.said.wait_while(within, |said| {
            said.text.matches(text).count() < times && !said.ended
        });
        said.text.matches(text).count() >= times
    }

    /// Sends `signal` (e.g. "TERM") and waits for the server to exit.
    #[track_caller]
    pub(crate) fn stop_with(mut self, name: &str) -> ExitStatus {
        signal(self.pid(), name);
        let mut child = self.child.take().expect("a running server");
        wait_for(&mut child, SERVER_TIMEOUT).unwrap_or_else(|| {
            panic!(
                "{} did not stop within {SERVER_TIMEOUT:?} of SIG{name}; stderr:\n{}",
                self.description,
                self.stderr()
            )
        })
    }

    /// SIGTERM, then waits for the exit.
    #[track_caller]
    pub(crate) fn stop(self) -> ExitStatus {
        self.stop_with("TERM")
    }

    /// `GET /api/v1{path}` with `Authorization: Bearer {token}` (none when
    /// `token` is `None`): the status and the JSON body.
    pub(crate) fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        http_get(&format!("{}/api/v1{path}", self.url), token)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A blocking GET: the status and the JSON body (null when empty).
pub(crate) fn http_get(url: &str, token: Option<&str>) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("an HTTP client");
    let mut request = client.get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let status = response.status().as_u16();
    let bytes = response.bytes().expect("a body");
    let body = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            panic!(
                "GET {url} answered {status} with a body that is not JSON ({e}): {}",
                String::from_utf8_lossy(&bytes)
            )
        })
    };
    (status, body)
}

/// What a server says on standard error: a pipe a thread of its own reads
/// to the end (so it never fills up and stalls the server), kept whole and
/// signalled line by line.
#[derive(Default)]
struct Said {
    so_far: Mutex<SaidSoFar>,
    /// Notified after each line read, and at the end.
    more: Condvar,
}

#[derive(Default)]
struct SaidSoFar {
    text: String,
    /// Whether the pipe has ended (the server exited).
    ended: bool,
}

impl Said {
    /// Starts the thread that reads `pipe` to its end.
    fn read(pipe: ChildStderr) -> Arc<Said> {
        let said = Arc::new(Said::default());
        let into = said.clone();
        std::thread::spawn(move || {
            let mut pipe = BufReader::new(pipe);
            let mut line = Vec::new();
            loop {
                line.clear();
                let read = pipe.read_until(b'\n', &mut line);
                let mut so_far = into.lock();
                match read {
                    Ok(n) if n > 0 => so_far.text.push_str(&String::from_utf8_lossy(&line)),
                    _ => so_far.ended = true,
                }
                into.more.notify_all();
                if so_far.ended {
                    return;
                }
            }
        });
        said
    }

    fn lock(&self) -> MutexGuard<'_, SaidSoFar> {
        self.so_far.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Blocks while `waiting` holds of what was said (looked at now and
    /// after each line), for at most `timeout`: what was said, and whether
    /// the time ran out.
    fn wait_while(
        &self,
        timeout: Duration,
        mut waiting: impl FnMut(&SaidSoFar) -> bool,
    ) -> (MutexGuard<'_, SaidSoFar>, bool) {
        let (so_far, result) = self
            .more
            .wait_timeout_while(self.lock(), timeout, |so_far| waiting(so_far))
            .unwrap_or_else(|e| e.into_inner());
        (so_far, result.timed_out())
    }
}

/// Mode bits of a file (permissions only).
#[cfg(unix)]
pub(crate) fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}
