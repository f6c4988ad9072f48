//! The CLI's errors: each says what went wrong and what to do, on one line
//! (or, with `--json`, as one JSON object on standard error).

use std::fmt;

use organiser_core::Error;
use serde_json::{Value, json};

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// The core refused the request (in this process, or through the
    /// server): its error, and its message as the command says it.
    Api {
        /// The core's error.
        error: Error,
        /// What the command says instead of the error's own message
        /// (its fields named by the flags that set them).
        said: Option<String>,
    },
    /// Anything else, already phrased for people.
    Message(String),
    /// A failure of the CLI's own with a code of its own for scripts (a
    /// failed update check: `update_check_failed`).
    Failed {
        /// The `code` of `--json`.
        code: &'static str,
        /// For people.
        message: String,
    },
    /// The command line asks for something it cannot (exit status 2, as
    /// clap's own usage errors).
    Usage(String),
    /// Standard output was closed (`organiser tasks | head`): not an error.
    BrokenPipe,
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Api {
                said: Some(said), ..
            } => f.write_str(said),
            CliError::Api { error, said: None } => f.write_str(&error.public_message()),
            CliError::Message(m) | CliError::Usage(m) => f.write_str(m),
            CliError::Failed { message, .. } => f.write_str(message),
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

impl From<Error> for CliError {
    /// The core's refusal.
    fn from(error: Error) -> Self {
        CliError::Api { error, said: None }
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

    /// The process's exit status for this error: 2 for a usage mistake,
    /// else 1.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            _ => 1,
        }
    }

    /// The error as `--json` prints it on standard error: the API's error
    /// body (`{error: {code, message, details}}`) for a refused request;
    /// code `usage` for a usage mistake and `error` for any other failure.
    pub fn to_json(&self) -> Value {
        let (code, details) = match self {
            CliError::Api { error, .. } => (
                error.code(),
                error
                    .details()
                    .filter(|d| !d.is_empty())
                    .and_then(|d| serde_json::to_value(d).ok()),
            ),
            CliError::Usage(_) => ("usage", None),
            CliError::Failed { code, .. } => (*code, None),
            _ => ("error", None),
        };
        let mut error = json!({"code": code, "message": self.to_string()});
        if let (Some(details), Some(fields)) = (details, error.as_object_mut()) {
            fields.insert("details".to_owned(), details);
        }
        json!({ "error": error })
    }

    /// The API's refusal said in the command's terms: each field of its
    /// `details` named by the flag or argument that set it (`deadline_on`
    /// as `--deadline`), so people read what they typed; a phrase that is
    /// a sentence (it begins with a capital) is said alone. Other errors
    /// are unchanged; `details` in `--json` keep the API's field names.
    pub(crate) fn naming(self, flags: &[(&str, &str)]) -> Self {
        let CliError::Api { error, said } = self else {
            return self;
        };
        let Some(details) = error.details().filter(|d| !d.is_empty()) else {
            return CliError::Api { error, said };
        };
        let mut parts = Vec::new();
        for (field, phrases) in details.iter() {
            let name = flags
                .iter()
                .find(|(api, _)| *api == field)
                .map(|(_, flag)| (*flag).to_owned());
            for phrase in phrases {
                parts.push(match (&name, field) {
                    (_, "base") => phrase.clone(),
                    // A sentence of its own (a calendar feed's unreadable
                    // address is said with the vocabulary's label of its
                    // sync error): said as it is.
                    _ if phrase.starts_with(|c: char| c.is_uppercase()) => phrase.clone(),
                    (Some(flag), _) => format!("{flag} {phrase}"),
                    (None, _) => format!("{} {phrase}", field.replace('_', " ")),
                });
            }
        }
        CliError::Api {
            error,
            said: Some(parts.join("; ")),
        }
    }

    /// The same refusal, said as `said` (its code and details kept for
    /// `--json`); another error is unchanged.
    pub(crate) fn saying(self, said: impl Into<String>) -> Self {
        match self {
            CliError::Api { error, .. } => CliError::Api {
                error,
                said: Some(said.into()),
            },
            other => other,
        }
    }

    /// The core's error this is, if the core refused.
    pub(crate) fn core(&self) -> Option<&Error> {
        match self {
            CliError::Api { error, .. } => Some(error),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_flags_people_typed() {
        let mut details = organiser_core::Details::new();
        details.add("deadline_on", "is not a date");
        details.add("base", "Nope");
        let refused = CliError::from(Error::Validation(details));
        let said = refused.naming(&[("deadline_on", "--deadline")]);
        assert_eq!(said.to_string(), "Nope; --deadline is not a date");
        let body = said.to_json();
        assert_eq!(body["error"]["code"], "validation_failed");
        assert_eq!(body["error"]["details"]["deadline_on"][0], "is not a date");
        assert_eq!(CliError::usage("x").to_json()["error"]["code"], "usage");
        let unreadable = CliError::from(Error::invalid("address", "The address points elsewhere"));
        assert_eq!(
            unreadable.naming(&[("address", "the address")]).to_string(),
            "The address points elsewhere"
        );
    }
}
