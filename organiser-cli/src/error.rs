//! The CLI's errors: each says what went wrong and what to do, on one line.

use std::fmt;

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// The API refused the request: its message (and the status).
    Api {
        /// HTTP status.
        status: u16,
        /// The error `code`.
        code: String,
        /// The error `message`.
        message: String,
    },
    /// Anything else, already phrased for people.
    Message(String),
    /// The command line asks for something it cannot (exit status 2, as
    /// clap's own usage errors).
    Usage(String),
    /// Standard output was closed (`organiser tasks | head`): not an error.
    BrokenPipe,
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Api { message, .. } => f.write_str(message),
            CliError::Message(m) | CliError::Usage(m) => f.write_str(m),
            CliError::BrokenPipe => f.write_str("broken pipe"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Message(e.to_string())
        }
    }
}

impl CliError {
    /// An error phrased for people.
    pub fn msg(m: impl Into<String>) -> Self {
        CliError::Message(m.into())
    }

    /// A usage mistake phrased for people (exit status 2).
    pub fn usage(m: impl Into<String>) -> Self {
        CliError::Usage(m.into())
    }
}
