//! The fixed lists of `GET /vocabulary` the commands show: labels of
//! relationships, roles, key date kinds, meeting services, sync errors and
//! the colours.

use serde_json::Value;

use crate::door::Client;
use crate::error::CliError;

/// `GET /vocabulary`'s body, read as the commands need it.
pub(crate) struct Vocabulary(Value);

impl Vocabulary {
    /// The vocabulary of the API the command speaks to: the one this build
    /// of the core holds (the API's version fixes it), with the store's
    /// own build (development or not) when it is open in this process.
    pub(crate) fn load(client: &Client) -> Result<Vocabulary, CliError> {
        let dev = client
            .local()
            .is_some_and(|org| org.options().build.is_dev());
        Ok(Vocabulary(
            serde_json::to_value(organiser_core::vocabulary::vocabulary(dev)).unwrap_or_default(),
        ))
    }

    /// The vocabulary this build of the core holds, for labels.
    pub(crate) fn builtin() -> Vocabulary {
        Vocabulary(
            serde_json::to_value(organiser_core::vocabulary::vocabulary(false)).unwrap_or_default(),
        )
    }

    /// The choices of `list`, in the vocabulary's order.
    pub(crate) fn choices(&self, list: &str) -> &[Value] {
        self.0[list]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// The label of `key` in `list`, else the key.
    pub(crate) fn label(&self, list: &str, key: &str) -> String {
        self.choices(list)
            .iter()
            .find(|c| c["key"] == key)
            .and_then(|c| c["label"].as_str())
            .unwrap_or(key)
            .to_owned()
    }

    /// The first key of `list`, if it has one.
    pub(crate) fn first_key(&self, list: &str) -> Option<&str> {
        self.choices(list).first().and_then(|c| c["key"].as_str())
    }
}
