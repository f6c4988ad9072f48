//! The flags every command takes, and what a command works with.

use std::fmt::Display;
use std::path::PathBuf;

use serde::Serialize;

use crate::backend::{Access, Backend};
use crate::door::Client;
use crate::error::CliError;
use crate::output;

/// Flags every command takes.
pub(crate) struct Global {
    pub(crate) data_dir: Option<PathBuf>,
    pub(crate) json: bool,
}

impl Global {
    /// The typed API, where a command that writes sends its requests.
    pub(crate) fn writer(&self) -> Result<Client, CliError> {
        self.client(Access::Write)
    }

    /// The typed API, where a command that only reads sends its requests.
    pub(crate) fn reader(&self) -> Result<Client, CliError> {
        self.client(Access::Read)
    }

    /// The typed API over the backend for `access`.
    pub(crate) fn client(&self, access: Access) -> Result<Client, CliError> {
        Backend::open(self.data_dir.as_deref(), access).map(Client::new)
    }

    /// The command line that runs `args` against this same store, to print
    /// as a hint: with the `--data-dir` this command was given (made
    /// absolute, quoted for the shell where it needs it), so that pasting
    /// it acts on the same store from any directory.
    pub(crate) fn command(&self, args: &str) -> String {
        match &self.data_dir {
            Some(dir) => {
                let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
                format!(
                    "organiser --data-dir {} {args}",
                    shell_quote(&dir.to_string_lossy())
                )
            }
            None => format!("organiser {args}"),
        }
    }

    /// Says what a command did: the API's body with `--json`, else `line`.
    pub(crate) fn said(&self, body: &impl Serialize, line: impl Display) -> Result<(), CliError> {
        if self.json {
            output::json(body)
        } else {
            output::line(line)
        }
    }
}

/// `text` as one word for a POSIX shell: as it is when it holds only
/// characters no shell treats specially, else in single quotes.
pub(crate) fn shell_quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:,@%=".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_name_the_same_store_and_quote_for_the_shell() {
        let global = |dir: Option<&str>| Global {
            data_dir: dir.map(PathBuf::from),
            json: false,
        };
        assert_eq!(
            global(None).command("tasks restore X"),
            "organiser tasks restore X"
        );
        assert_eq!(
            global(Some("/srv/org")).command("tasks restore X"),
            "organiser --data-dir /srv/org tasks restore X"
        );
        assert_eq!(
            global(Some("/tmp/my store/it's")).command("lists"),
            "organiser --data-dir '/tmp/my store/it'\\''s' lists"
        );
        let relative = global(Some("data")).command("lists");
        assert!(relative.starts_with("organiser --data-dir /"), "{relative}");
    }
}
