//! The configuration file: `$XDG_CONFIG_HOME/organiser/config.toml` (else
//! `~/.config/organiser/config.toml`; the file `ORGANISER_CONFIG` names,
//! when set). It gives defaults for what flags and the environment say
//! otherwise: a flag beats the environment, which beats the file, which
//! beats the built-in default. It is read once, when a command starts (as
//! `--color` is chosen once), and a mistake in it is a usage error (exit 2)
//! that names the file, the line and the key. A missing file is no error.
//!
//! The file holds no rule of the API: it only says where the store is,
//! which server to talk to, and how to print.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Deserialize;
use toml::Spanned;

use crate::error::CliError;
use crate::terminal::ColorChoice;

/// The keys of the file, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    data_dir: Option<Spanned<String>>,
    url: Option<Spanned<String>>,
    token: Option<Spanned<String>>,
    color: Option<ColorChoice>,
    default_view: Option<Spanned<String>>,
    date_format: Option<Spanned<String>>,
}

/// The configuration in force: the file's settings, checked.
#[derive(Debug, Default)]
pub(crate) struct Config {
    /// The file looked for (`None` where no home directory is known).
    pub(crate) path: Option<PathBuf>,
    /// Where the path came from: `ORGANISER_CONFIG`, `XDG_CONFIG_HOME` or the home directory.
    pub(crate) path_from: &'static str,
    /// Whether the file was there.
    pub(crate) found: bool,
    /// `data_dir`, with a leading `~/` expanded.
    pub(crate) data_dir: Option<PathBuf>,
    /// `url` and `token`, which go together.
    pub(crate) remote: Option<Remote>,
    /// `color`.
    pub(crate) color: Option<ColorChoice>,
    /// `default_view`: the words after `organiser tasks` (`today`, `list Work`).
    pub(crate) default_view: Option<String>,
    /// `date_format`: a strftime pattern (`None` for `iso`, the default).
    pub(crate) date_format: Option<String>,
}

/// A server and the token to send it.
#[derive(Debug, Clone)]
pub(crate) struct Remote {
    /// Its base address.
    pub(crate) url: String,
    /// The bearer token.
    pub(crate) token: String,
    /// Where the pair came from (`ORGANISER_URL` or the file).
    pub(crate) from: &'static str,
}

/// What the `date_format` key takes besides a pattern: the default.
pub(crate) const ISO: &str = "iso";

static LOADED: OnceLock<Config> = OnceLock::new();

/// Reads the file (once; later calls return what the first one read),
/// `default_view` checked by `check_view` (whether the words name a view
/// of `organiser tasks`; else why not).
pub(crate) fn load(
    check_view: fn(&str) -> Result<(), String>,
) -> Result<&'static Config, CliError> {
    if let Some(config) = LOADED.get() {
        return Ok(config);
    }
    let config = read(check_view)?;
    Ok(LOADED.get_or_init(|| config))
}

/// The configuration read by [`load`]; with none read (commands that need
/// none, such as `completions`), no settings.
pub(crate) fn get() -> &'static Config {
    static NONE: OnceLock<Config> = OnceLock::new();
    LOADED
        .get()
        .unwrap_or_else(|| NONE.get_or_init(Config::default))
}

/// The file to read and where its name came from: `ORGANISER_CONFIG` (when
/// not empty), else `$XDG_CONFIG_HOME/organiser/config.toml` (when it is an
/// absolute path, as the XDG specification asks), else
/// `~/.config/organiser/config.toml` (on Windows, in the roaming
/// application data folder).
pub(crate) fn path() -> (Option<PathBuf>, &'static str) {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(file) = var("ORGANISER_CONFIG") {
        return (Some(PathBuf::from(file)), "ORGANISER_CONFIG");
    }
    let in_dir = |dir: PathBuf| dir.join("organiser").join("config.toml");
    if let Some(dir) = var("XDG_CONFIG_HOME").map(PathBuf::from)
        && dir.is_absolute()
    {
        return (Some(in_dir(dir)), "XDG_CONFIG_HOME");
    }
    let home = if cfg!(windows) {
        dirs::config_dir()
    } else {
        dirs::home_dir().map(|home| home.join(".config"))
    };
    (home.map(in_dir), "the home directory")
}

fn read(check_view: fn(&str) -> Result<(), String>) -> Result<Config, CliError> {
    let (path, path_from) = path();
    let mut config = Config {
        path: path.clone(),
        path_from,
        ..Config::default()
    };
    let Some(path) = path else {
        return Ok(config);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if path_from == "ORGANISER_CONFIG" {
                return Err(CliError::usage(format!(
                    "ORGANISER_CONFIG names {}, which does not exist",
                    path.display()
                )));
            }
            return Ok(config);
        }
        Err(e) => {
            return Err(CliError::usage(format!(
                "cannot read the configuration file {}: {e}",
                path.display()
            )));
        }
    };
    config.found = true;
    let bad = |span: Option<std::ops::Range<usize>>, message: &str| {
        CliError::usage(phrase(&path, &text, span, message))
    };
    let raw: Raw = toml::from_str(&text).map_err(|e| bad(e.span(), e.message()))?;

    if let Some(dir) = &raw.data_dir {
        config.data_dir =
            Some(absolute_or_home(dir.get_ref()).map_err(|reason| bad(Some(dir.span()), &reason))?);
    }
    config.remote = match (&raw.url, &raw.token) {
        (Some(url), Some(token)) => {
            let address = url.get_ref().trim();
            if !(address.starts_with("http://") || address.starts_with("https://")) {
                return Err(bad(
                    Some(url.span()),
                    "the url must start with http:// or https://",
                ));
            }
            if token.get_ref().trim().is_empty() {
                return Err(bad(Some(token.span()), "the token is empty"));
            }
            Some(Remote {
                url: address.to_owned(),
                token: token.get_ref().trim().to_owned(),
                from: "the configuration file",
            })
        }
        (Some(url), None) => {
            return Err(bad(
                Some(url.span()),
                "a url needs a `token` too (one from `organiser token create`)",
            ));
        }
        (None, Some(token)) => {
            return Err(bad(
                Some(token.span()),
                "a token needs the `url` of the server it is for",
            ));
        }
        (None, None) => None,
    };
    config.color = raw.color;
    if let Some(view) = &raw.default_view {
        check_view(view.get_ref()).map_err(|reason| bad(Some(view.span()), &reason))?;
        config.default_view = Some(view.get_ref().trim().to_owned());
    }
    if let Some(format) = &raw.date_format {
        config.date_format = check_date_format(format.get_ref())
            .map_err(|reason| bad(Some(format.span()), &reason))?;
    }
    Ok(config)
}

/// `text` as a path: absolute, or under the home directory (`~/notes`).
fn absolute_or_home(text: &str) -> Result<PathBuf, String> {
    if text == "~" || text.starts_with("~/") {
        let home = dirs::home_dir().ok_or("starts with ~ but there is no home directory")?;
        return Ok(home.join(text.trim_start_matches('~').trim_start_matches('/')));
    }
    let path = PathBuf::from(text);
    if path.is_absolute() {
        Ok(path)
    } else {
        Err(format!(
            "{text:?} is not an absolute path (nor one that starts with ~/)"
        ))
    }
}

/// `iso` (`None`, the default: 2026-03-07) or a strftime pattern that
/// shows a date (`%d/%m/%Y`, `%a %-d %b`), as jiff's `strtime` reads it.
fn check_date_format(text: &str) -> Result<Option<String>, String> {
    if text == ISO {
        return Ok(None);
    }
    if text.chars().any(char::is_control) {
        return Err("holds a control character".to_owned());
    }
    if !text.contains('%') {
        return Err(format!(
            "{text:?} is neither {ISO:?} nor a strftime pattern such as \"%d/%m/%Y\""
        ));
    }
    let sample = |y, m, d| {
        jiff::fmt::strtime::format(text, jiff::civil::date(y, m, d))
            .map_err(|e| format!("{text:?} cannot print a date: {e}"))
    };
    if sample(2026, 1, 2)? == sample(2027, 12, 30)? {
        return Err(format!("{text:?} shows no part of the date"));
    }
    Ok(Some(text.to_owned()))
}

/// One line: "bad configuration file PATH, line 3, key `colour`: MESSAGE".
fn phrase(path: &Path, text: &str, span: Option<std::ops::Range<usize>>, message: &str) -> String {
    let mut out = format!("bad configuration file {}", path.display());
    if let Some(span) = span {
        let start = span.start.min(text.len());
        // The span is a byte offset; count lines up to the nearest
        // character boundary at or before it.
        let start = (0..=start)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let number = text[..line_start].matches('\n').count() + 1;
        out.push_str(&format!(", line {number}"));
        let line = text[line_start..].lines().next().unwrap_or("");
        if let Some((key, _)) = line.split_once('=') {
            let key = key.trim();
            if !key.is_empty() && !key.starts_with('#') {
                out.push_str(&format!(", key `{}`", crate::terminal::clean(key)));
            }
        }
    }
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    out.push_str(": ");
    out.push_str(&message);
    out
}

/// The server to send requests to: `ORGANISER_URL` with `ORGANISER_TOKEN`
/// when the URL is set, else the file's `url` with its `token`. A token is
/// never sent to a server named elsewhere than it is.
pub(crate) fn remote() -> Result<Option<Remote>, CliError> {
    match (env("ORGANISER_URL"), env("ORGANISER_TOKEN")) {
        (Some(url), Some(token)) => Ok(Some(Remote {
            url,
            token,
            from: "ORGANISER_URL",
        })),
        (Some(_), None) => Err(CliError::msg(
            "ORGANISER_URL is set but ORGANISER_TOKEN is not: set both (a token from `organiser token create`), or neither",
        )),
        (None, _) => Ok(get().remote.clone()),
    }
}

/// The address of the server requests go to, if one is named (for where
/// the last listing is kept).
pub(crate) fn remote_url() -> Option<String> {
    env("ORGANISER_URL").or_else(|| get().remote.as_ref().map(|r| r.url.clone()))
}

/// An environment variable's value, trimmed, when set and not empty.
fn env(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_formats_are_iso_or_a_pattern_that_shows_a_date() {
        assert_eq!(check_date_format("iso"), Ok(None));
        assert_eq!(
            check_date_format("%d/%m/%Y"),
            Ok(Some("%d/%m/%Y".to_owned()))
        );
        assert!(check_date_format("%a %-d %b").is_ok());
        for bad in ["ISO", "dd/mm/yyyy", "%H:%M", "%%", "%Q", "%d\x1b", ""] {
            assert!(check_date_format(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn errors_name_the_line_and_the_key() {
        let text = "color = \"never\"\n\ncolour = \"always\"\n";
        let at = text.find("colour").unwrap();
        assert_eq!(
            phrase(
                Path::new("/c.toml"),
                text,
                Some(at..at + 6),
                "unknown field"
            ),
            "bad configuration file /c.toml, line 3, key `colour`: unknown field"
        );
        // Spans past the end, or inside a character, do not panic.
        let text = "é = 1";
        assert_eq!(
            phrase(Path::new("/c.toml"), text, Some(1..99), "x"),
            "bad configuration file /c.toml, line 1, key `é`: x"
        );
        assert!(phrase(Path::new("/c.toml"), "", Some(5..9), "x").contains("line 1"));
    }

    #[test]
    fn data_dirs_are_absolute_or_under_home() {
        assert!(absolute_or_home("relative/dir").is_err());
        assert!(absolute_or_home("/srv/organiser").is_ok());
        if let Some(home) = dirs::home_dir() {
            assert_eq!(absolute_or_home("~/org"), Ok(home.join("org")));
            assert_eq!(absolute_or_home("~"), Ok(home));
        }
    }
}
