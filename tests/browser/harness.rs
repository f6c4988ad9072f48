//! A real Chromium driven over WebDriver: Debian's `chromedriver` started
//! on a free loopback port for one test, one headless browser session in
//! it, and what every scenario asks of a page (its viewport and colour
//! scheme, keys, clicks, waiting for what a person would wait for) and
//! checks on every page it reaches: axe-core's serious and critical
//! violations, the policy violations the page raised, and its
//! `DOMContentLoaded`.
//!
//! Nothing here skips: a browser that cannot start fails the test with how
//! to install one.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use thirtyfour::prelude::*;

/// How to get a browser, said by every failure to start one.
const INSTALL: &str = "the browser tests need Debian's Chromium and its WebDriver: \
     `apt-get install chromium chromium-driver` (`.ci/run` installs them when missing), \
     and axe-core from npm: `npm install --prefix target/npm axe-core@4.14.1`";

/// Where `.ci/run` installs axe-core (outside the sources: `target/` is
/// ignored by git).
const AXE: &str = "target/npm/node_modules/axe-core/axe.min.js";

/// The longest a page may take to reach `DOMContentLoaded` on loopback.
pub(crate) const DOM_CONTENT_LOADED_MS: f64 = 100.0;

/// How long a person waits for something to show before the test fails.
const PATIENCE: Duration = Duration::from_secs(5);

/// A width and a colour scheme every scenario is lived in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Variant {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) dark: bool,
}

impl Variant {
    /// `light` or `dark`.
    pub(crate) fn theme(self) -> &'static str {
        if self.dark { "dark" } else { "light" }
    }

    /// `360-dark`.
    pub(crate) fn name(self) -> String {
        format!("{}-{}", self.width, self.theme())
    }
}

/// A phone and a desktop, each in light and dark.
pub(crate) const VARIANTS: [Variant; 4] = [
    Variant {
        width: 360,
        height: 800,
        dark: false,
    },
    Variant {
        width: 360,
        height: 800,
        dark: true,
    },
    Variant {
        width: 1280,
        height: 900,
        dark: false,
    },
    Variant {
        width: 1280,
        height: 900,
        dark: true,
    },
];

/// A page reached in the browser, as every check reports it.
#[derive(Debug, Default)]
struct Seen {
    /// `page@variant` axe-core has been run on (once each per test).
    audited: BTreeSet<String>,
    /// Navigations (their `performance.timeOrigin`) already timed.
    timed: BTreeSet<String>,
    /// Navigations made by loading an address (not by sending a form).
    loaded: BTreeSet<String>,
    /// What failed a check, in the order found.
    problems: Vec<String>,
    /// Each page's `DOMContentLoaded`, in milliseconds.
    timings: Vec<(String, f64)>,
}

/// One browser at a time: the tests time their pages, and two browsers
/// on CI's two cores would time each other.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `chromedriver` and one browser session in it, for one test.
pub(crate) struct Browser {
    rt: tokio::runtime::Runtime,
    driver: Option<WebDriver>,
    chromedriver: Child,
    variant: Variant,
    seen: RefCell<Seen>,
    started: Instant,
    _turn: std::sync::MutexGuard<'static, ()>,
}

/// A free port on loopback (taken, then let go for chromedriver).
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    listener.local_addr().unwrap().port()
}

/// The program named by `var`, else the first of `names` on the path.
fn program(var: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(var) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

impl Browser {
    /// Starts chromedriver and a headless Chromium at the first variant;
    /// fails with how to install them when either cannot start.
    pub(crate) fn start() -> Browser {
        // A test that failed let go of its turn as it unwound.
        let turn = ONE_AT_A_TIME
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let started = Instant::now();
        let chromedriver = program("CHROMEDRIVER", &["chromedriver"]).unwrap_or_else(|| {
            panic!("no chromedriver on the PATH (or in $CHROMEDRIVER): {INSTALL}")
        });
        let chromium = program(
            "CHROMIUM",
            &["chromium", "chromium-browser", "google-chrome"],
        )
        .unwrap_or_else(|| panic!("no chromium on the PATH (or in $CHROMIUM): {INSTALL}"));
        let port = free_port();
        let mut child = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("{} did not start ({e}): {INSTALL}", chromedriver.display())
            });
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        // reqwest (under thirtyfour) is built with rustls and no provider
        // of its own: the tests' provider.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let url = format!("http://127.0.0.1:{port}");
        let ready = rt.block_on(async {
            let client = reqwest::Client::new();
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                if let Ok(r) = client.get(format!("{url}/status")).send().await
                    && r.status().is_success()
                {
                    return true;
                }
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
            false
        });
        if !ready {
            let _ = child.kill();
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            panic!(
                "{} did not answer on port {port} within 10 s ({}): {INSTALL}",
                chromedriver.display(),
                err.trim()
            );
        }
        let mut caps = DesiredCapabilities::chrome();
        let as_root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
        let mut args = vec![
            "--headless=new",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-extensions",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--window-size=1280,900",
        ];
        if as_root {
            // Chromium's sandbox refuses to run as root (CI's user).
            args.push("--no-sandbox");
        }
        let made = caps
            .set_binary(&chromium.to_string_lossy())
            .and_then(|()| args.iter().try_for_each(|a| caps.add_arg(a)));
        made.expect("Chromium's options");
        let driver = rt
            .block_on(WebDriver::new(url.as_str(), caps))
            .unwrap_or_else(|e| {
                let _ = child.kill();
                panic!(
                    "chromedriver could not start {} ({e}): {INSTALL}",
                    chromium.display()
                )
            });
        let mut browser = Browser {
            rt,
            driver: Some(driver),
            chromedriver: child,
            variant: VARIANTS[0],
            seen: RefCell::default(),
            started,
            _turn: turn,
        };
        browser.prepare_tab();
        browser.set_variant(VARIANTS[0]);
        eprintln!(
            "browser: chromedriver and Chromium started in {} ms",
            started.elapsed().as_millis()
        );
        browser
    }

    fn driver(&self) -> &WebDriver {
        self.driver.as_ref().expect("a browser session")
    }

    /// A Chrome DevTools command.
    pub(crate) fn cdp(&self, method: &str, params: Value) -> Value {
        self.rt
            .block_on(self.driver().cdp().send_raw(method, params))
            .unwrap_or_else(|e| panic!("{method}: {e}"))
    }

    /// Makes the tab shown record the policy violations each page raises,
    /// from before its first script runs.
    fn prepare_tab(&self) {
        self.cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": "window.__violations = [];\
                document.addEventListener('securitypolicyviolation', e => \
                window.__violations.push(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + \
                (e.sample ? ' (' + e.sample + ')' : '') + ' at line ' + e.lineNumber));"}),
        );
    }

    /// Opens a second tab (as prepared as the first, at the variant) and
    /// shows it; gives back the tab shown before.
    pub(crate) fn new_tab(&mut self) -> WindowHandle {
        let before = self.rt.block_on(self.driver().window()).unwrap();
        let tab = self.rt.block_on(self.driver().new_tab()).unwrap();
        self.rt
            .block_on(self.driver().switch_to_window(tab))
            .unwrap();
        self.prepare_tab();
        self.set_variant(self.variant);
        before
    }

    /// Closes the tab shown and shows `tab`.
    pub(crate) fn close_tab(&self, tab: WindowHandle) {
        self.rt.block_on(self.driver().close_window()).unwrap();
        self.rt
            .block_on(self.driver().switch_to_window(tab))
            .unwrap();
    }

    /// Shows `tab`; gives back the tab shown before.
    pub(crate) fn show_tab(&self, tab: WindowHandle) -> WindowHandle {
        let before = self.rt.block_on(self.driver().window()).unwrap();
        self.rt
            .block_on(self.driver().switch_to_window(tab))
            .unwrap();
        before
    }

    /// The width and colour scheme pages are seen in from now on (the
    /// page's own appearance setting is the site's: `Site::theme`).
    pub(crate) fn set_variant(&mut self, variant: Variant) {
        self.variant = variant;
        self.cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": variant.width, "height": variant.height,
                   "deviceScaleFactor": 1, "mobile": variant.width < 600}),
        );
        self.cdp(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": variant.theme()}]}),
        );
    }

    /// Forgets every cookie (a new site is a new person).
    pub(crate) fn forget(&self) {
        self.rt
            .block_on(self.driver().delete_all_cookies())
            .unwrap();
    }

    /// Loads `url` and waits for it.
    pub(crate) fn goto(&self, url: &str) {
        self.rt
            .block_on(self.driver().goto(url))
            .unwrap_or_else(|e| panic!("loading {url}: {e}"));
        let origin = self.js("return String(performance.timeOrigin)", vec![]);
        if let Some(origin) = origin.as_str() {
            self.seen.borrow_mut().loaded.insert(origin.to_owned());
        }
    }

    /// The path (and query) of the page shown.
    pub(crate) fn path(&self) -> String {
        let url = self.rt.block_on(self.driver().current_url()).unwrap();
        match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_owned(),
        }
    }

    /// Runs `script` (a function body; `arguments` are `args`) in the page.
    pub(crate) fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.rt
            .block_on(self.driver().execute(script, args))
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
            .json()
            .clone()
    }

    /// Waits until `script` returns something truthy, and returns it;
    /// fails saying `what` was awaited.
    #[track_caller]
    pub(crate) fn wait(&self, what: &str, script: &str, args: Vec<Value>) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let v = self.js(script, args.clone());
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::String(s) => !s.is_empty(),
                Value::Array(a) => !a.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            if Instant::now() > deadline {
                panic!(
                    "[{}] waited {} s for {what} on {}; the page says:\n{}",
                    self.variant.name(),
                    PATIENCE.as_secs(),
                    self.path(),
                    self.text("main, body")
                );
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Waits for the page at `path` (its path and query, or the start
    /// of them when `path` ends with `*`).
    #[track_caller]
    pub(crate) fn wait_for_path(&self, path: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let here = self.path();
            let found = match path.strip_suffix('*') {
                Some(start) => here.starts_with(start),
                None => here == path,
            };
            if found && self.js("return document.readyState === 'complete'", vec![]) == true {
                return;
            }
            if Instant::now() > deadline {
                panic!(
                    "[{}] waited for {path}, still on {here}:\n{}",
                    self.variant.name(),
                    self.text("main, body")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The text of the first element matching `css` (empty without one).
    pub(crate) fn text(&self, css: &str) -> String {
        self.js(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';",
            vec![json!(css)],
        )
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }

    /// The texts of every element matching `css`, trimmed.
    pub(crate) fn texts(&self, css: &str) -> Vec<String> {
        let v = self.js(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.innerText.trim());",
            vec![json!(css)],
        );
        serde_json::from_value(v).unwrap_or_default()
    }

    /// The `h1` of the page.
    pub(crate) fn heading(&self) -> String {
        self.text("h1").trim().to_owned()
    }

    /// Whether a button or link named `name` is on the page.
    pub(crate) fn has_named(&self, name: &str) -> bool {
        self.js(
            "const name = e => (e.getAttribute('aria-label') || e.innerText || e.value || '').trim();\
             return [...document.querySelectorAll('button, a, [role=button], input[type=submit]')]\
               .some(e => name(e) === arguments[0]);",
            vec![json!(name)],
        ) == true
    }

    /// The id of the field labelled `label`; fails listing the labels.
    #[track_caller]
    pub(crate) fn field(&self, label: &str) -> String {
        let id = self.js(
            "const l = [...document.querySelectorAll('label')].find(l => l.innerText.trim() === arguments[0]);\
             return l ? (l.htmlFor || (l.control && l.control.id) || '') : null;",
            vec![json!(label)],
        );
        match id.as_str() {
            Some(id) if !id.is_empty() => id.to_owned(),
            _ => panic!(
                "[{}] no field labelled {label:?} on {}; the labels are {:?}",
                self.variant.name(),
                self.path(),
                self.texts("label")
            ),
        }
    }

    /// Tabs to the field labelled `label` and types `text` over what it
    /// holds (Ctrl+A first).
    #[track_caller]
    pub(crate) fn type_in(&self, label: &str, text: &str) {
        let id = self.field(label);
        self.tab_to(label, |f| f.id == id);
        self.rt
            .block_on(
                self.driver()
                    .action_chain()
                    .key_down(Key::Control)
                    .send_keys("a")
                    .key_up(Key::Control)
                    .send_keys(Key::Backspace)
                    .perform(),
            )
            .unwrap();
        self.press(text);
    }

    /// Presses `keys` (typed text and `Key`s) wherever the focus is. A key
    /// that starts a navigation (Enter on a link) can leave chromedriver
    /// waiting on the page it left ("aborted by navigation"): the key was
    /// delivered, and the caller waits for the page it leads to.
    pub(crate) fn press(&self, keys: impl Into<TypingData>) {
        let keys = keys.into();
        let pressed = self
            .rt
            .block_on(self.driver().action_chain().send_keys(keys).perform());
        if let Err(e) = pressed
            && !e.to_string().contains("aborted by navigation")
        {
            panic!(
                "[{}] pressing keys on {}: {e}",
                self.variant.name(),
                self.path()
            );
        }
    }

    /// The navigation being shown now (to tell when a form's answer,
    /// drawn at the same address, has replaced it).
    pub(crate) fn navigation(&self) -> Value {
        self.js("return String(performance.timeOrigin)", vec![])
    }

    /// Waits for the answer to a form sent from the page of `before` (a
    /// [`Browser::navigation`]): a new page, drawn whole.
    #[track_caller]
    pub(crate) fn wait_for_new_page(&self, before: &Value, what: &str) {
        self.wait(
            what,
            "return String(performance.timeOrigin) !== arguments[0] && document.readyState === 'complete'",
            vec![before.clone()],
        );
    }

    /// Tabs to the button named `name` and presses it (Enter).
    #[track_caller]
    pub(crate) fn press_button(&self, name: &str) {
        self.tab_to(name, |f| f.tag == "button" && f.name == name);
        self.press(Key::Enter);
    }

    /// Tabs to the control (of any kind) named `name` and presses Enter.
    #[track_caller]
    pub(crate) fn press_named(&self, name: &str) {
        self.tab_to(name, |f| f.name == name);
        self.press(Key::Enter);
    }

    /// Waits for the page's notice (`role=status`) and returns it.
    #[track_caller]
    pub(crate) fn notice(&self) -> String {
        self.wait(
            "the page's notice",
            "return document.querySelector('[role=status]')?.innerText",
            vec![],
        )
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }

    /// Presses Ctrl with `key` wherever the focus is.
    pub(crate) fn press_ctrl(&self, key: &str) {
        self.rt
            .block_on(
                self.driver()
                    .action_chain()
                    .key_down(Key::Control)
                    .send_keys(key)
                    .key_up(Key::Control)
                    .perform(),
            )
            .unwrap();
    }

    /// What has the focus: its tag, id, accessible name, and whether its
    /// focus is drawn (a visible outline or box shadow; the browser
    /// itself marks the focused part of a date or time field).
    pub(crate) fn focused(&self) -> Focus {
        let v = self.js(
            "const e = document.activeElement;\
             if (!e || e === document.body) return {tag: 'body', id: '', name: '', field: '', drawn: false};\
             const s = getComputedStyle(e);\
             const label = e.labels && e.labels[0] ? e.labels[0].innerText : '';\
             return {tag: e.tagName.toLowerCase(), id: e.id, field: e.getAttribute('name') || '',\
               name: (e.getAttribute('aria-label') || label || e.innerText || e.value || '').trim(),\
               drawn: (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none'\
                 || /^(date|datetime-local|time|month|week)$/.test(e.type)};",
            vec![],
        );
        serde_json::from_value(v).unwrap()
    }

    /// Waits for the page's first focus (`autofocus` takes its place once
    /// the page is drawn) and returns its id.
    #[track_caller]
    pub(crate) fn autofocus(&self) -> String {
        self.wait(
            "the page's first focus",
            "const e = document.activeElement; return e && e !== document.body ? (e.id || e.tagName) : null;",
            vec![],
        )
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }

    /// Presses Tab until `wanted` says yes of what has the focus, and
    /// returns what Tab went through; fails after 60 presses. Every stop
    /// must show where the focus is.
    #[track_caller]
    pub(crate) fn tab_to(&self, what: &str, wanted: impl Fn(&Focus) -> bool) -> Vec<Focus> {
        let mut path = Vec::new();
        for _ in 0..60 {
            self.press(Key::Tab);
            let f = self.focused();
            if f.tag != "body" && !f.drawn {
                self.problem(format!(
                    "{}: the focus on {} {:?} is not drawn",
                    self.path(),
                    f.tag,
                    f.name
                ));
            }
            let hit = wanted(&f);
            path.push(f);
            if hit {
                return path;
            }
        }
        panic!(
            "[{}] Tab never reached {what} on {}; it went through {:?}",
            self.variant.name(),
            self.path(),
            path.iter()
                .map(|f| format!("{} {}", f.tag, f.name))
                .collect::<Vec<_>>()
        );
    }

    /// Records a failed check (the test fails at [`Browser::finish`],
    /// with every one found).
    pub(crate) fn problem(&self, what: String) {
        let line = format!("[{}] {what}", self.variant.name());
        eprintln!("browser: PROBLEM {line}");
        self.seen.borrow_mut().problems.push(line);
    }

    /// The checks of every page, on the page shown, named `page`: the
    /// policy violations it raised, its `DOMContentLoaded` (once per
    /// navigation, from the fetch of the page itself: the work of a form
    /// that answered with a redirect to it, such as hashing a password,
    /// is not counted), and axe-core (once per page and variant).
    pub(crate) fn check(&self, page: &str) {
        let kind = self.js("return document.contentType", vec![]);
        if kind != "text/html" {
            panic!(
                "[{}] {page}: no page at {} (a {kind} answer): {}",
                self.variant.name(),
                self.path(),
                self.text("body")
            );
        }
        let violations = self.js("return window.__violations || [];", vec![]);
        if let Some(list) = violations.as_array()
            && !list.is_empty()
        {
            self.problem(format!(
                "{page}: the page broke its Content-Security-Policy: {list:?}"
            ));
        }
        self.time(page, true);
        let key = format!("{page}@{}", self.variant.name());
        if self.seen.borrow_mut().audited.insert(key) {
            self.axe(page);
        }
    }

    /// Times the page's `DOMContentLoaded` (once per navigation). A page
    /// loaded by its address is timed whole, and once more after a
    /// reload when it was slow (a moment's load on the machine is not the
    /// page's); the answer to a form is timed without the server's work on
    /// the form (a refused sign-in hashes the password it was sent).
    fn time(&self, page: &str, may_reload: bool) {
        let nav = self.js(
            "const n = performance.getEntriesByType('navigation')[0];\
             return n ? {origin: String(performance.timeOrigin), dcl: n.domContentLoadedEventEnd - n.fetchStart,\
                         server: n.responseStart - n.requestStart} : null;",
            vec![],
        );
        let origin = nav["origin"].as_str().unwrap_or_default().to_owned();
        if origin.is_empty() || !self.seen.borrow_mut().timed.insert(origin.clone()) {
            return;
        }
        let loaded = self.seen.borrow().loaded.contains(&origin);
        let whole = nav["dcl"].as_f64().unwrap_or(f64::MAX);
        let server = nav["server"].as_f64().unwrap_or(0.0);
        let ms = if loaded { whole } else { whole - server };
        if ms > DOM_CONTENT_LOADED_MS && loaded && may_reload {
            eprintln!(
                "browser: [{}] {page}: DOMContentLoaded after {ms:.1} ms; loading it again",
                self.variant.name()
            );
            self.rt.block_on(self.driver().refresh()).unwrap();
            let origin = self.js("return String(performance.timeOrigin)", vec![]);
            if let Some(origin) = origin.as_str() {
                self.seen.borrow_mut().loaded.insert(origin.to_owned());
            }
            return self.time(page, false);
        }
        let how = if loaded {
            "loaded by its address".to_owned()
        } else {
            format!("answering a form, without the server's {server:.1} ms")
        };
        self.seen
            .borrow_mut()
            .timings
            .push((format!("{page}@{}", self.variant.name()), ms));
        if ms > DOM_CONTENT_LOADED_MS {
            self.problem(format!(
                "{page}: DOMContentLoaded after {ms:.1} ms, {how} (at most {DOM_CONTENT_LOADED_MS} ms)"
            ));
        }
    }

    /// Runs axe-core in the page: every serious or critical violation is a
    /// problem; the others are printed for the page's authors.
    fn axe(&self, page: &str) {
        let source = axe_source();
        let loaded = self.js(
            &format!("if (!window.axe) {{ {source}\n }} return typeof window.axe;"),
            vec![],
        );
        assert_eq!(loaded, "object", "axe-core did not load");
        let result = self
            .rt
            .block_on(self.driver().execute_async(
                "const done = arguments[arguments.length - 1];\
                 axe.run(document, {resultTypes: ['violations']})\
                   .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,\
                     nodes: v.nodes.map(n => n.target.join(' ') + (n.failureSummary ? ' — ' + n.failureSummary.replace(/\\s+/g, ' ') : ''))}))))\
                   .catch(e => done({error: String(e)}));",
                vec![],
            ))
            .unwrap_or_else(|e| panic!("axe-core failed on {page}: {e}"))
            .json()
            .clone();
        if let Some(error) = result.get("error") {
            panic!("axe-core failed on {page}: {error}");
        }
        for v in result.as_array().into_iter().flatten() {
            let impact = v["impact"].as_str().unwrap_or("unknown");
            let nodes: Vec<&str> = v["nodes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .take(4)
                .collect();
            let line = format!(
                "{page}: axe {} ({impact}): {} — {}",
                v["id"].as_str().unwrap_or_default(),
                v["help"].as_str().unwrap_or_default(),
                nodes.join(" | ")
            );
            if matches!(impact, "serious" | "critical") {
                self.problem(line);
            } else {
                eprintln!("browser: note [{}] {line}", self.variant.name());
            }
        }
    }

    /// The page shown as `docs/screenshots/<page>-<width>-<theme>.png`,
    /// written only when `ORGANISER_BLESS=1` (CI never writes into the
    /// sources); taken either way.
    pub(crate) fn screenshot(&self, page: &str) {
        let png = self
            .rt
            .block_on(self.driver().screenshot_as_png())
            .expect("a screenshot");
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        if std::env::var_os("ORGANISER_BLESS").is_some_and(|v| v == "1") {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
            std::fs::create_dir_all(&dir).unwrap();
            let file = dir.join(format!("{page}-{}.png", self.variant.name()));
            std::fs::write(&file, &png).unwrap();
            eprintln!("browser: wrote {}", file.display());
        }
    }

    /// Ends the session and fails with every problem the checks found.
    pub(crate) fn finish(mut self) {
        let seen = std::mem::take(&mut *self.seen.borrow_mut());
        if let Some(driver) = self.driver.take() {
            let _ = self.rt.block_on(driver.quit());
        }
        let mut timings = seen.timings.clone();
        timings.sort_by(|a, b| b.1.total_cmp(&a.1));
        let slowest: Vec<String> = timings
            .iter()
            .take(3)
            .map(|(p, ms)| format!("{ms:.1} ms ({p})"))
            .collect();
        let median = timings.get(timings.len() / 2).map_or(0.0, |t| t.1);
        eprintln!(
            "browser: {} pages timed, DOMContentLoaded median {median:.1} ms, slowest {}; {} axe runs; {} ms in all",
            timings.len(),
            slowest.join(", "),
            seen.audited.len(),
            self.started.elapsed().as_millis()
        );
        assert!(
            seen.problems.is_empty(),
            "{} problems in the browser:\n{}",
            seen.problems.len(),
            seen.problems.join("\n")
        );
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(driver) = self.driver.take() {
            let _ = self.rt.block_on(driver.quit());
        }
        let _ = self.chromedriver.kill();
        let _ = self.chromedriver.wait();
    }
}

/// What has the focus.
#[derive(Debug, Clone, serde::Deserialize)]
pub(crate) struct Focus {
    pub(crate) tag: String,
    pub(crate) id: String,
    /// The accessible name: `aria-label`, the label, the text or the value.
    pub(crate) name: String,
    /// The form field's `name`.
    pub(crate) field: String,
    pub(crate) drawn: bool,
}

/// axe-core's script, as `.ci/run` installs it.
fn axe_source() -> &'static str {
    static SOURCE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SOURCE.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(AXE);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("no axe-core at {} ({e}): {INSTALL}", path.display()))
    })
}
