//! The query string of a request, and typed reads of its parameters that
//! answer 400 `invalid_parameter` for a malformed one.

use crate::error::{Error, Result};
use crate::ids::Id;

/// Decoded query parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// Decodes `a=1&b=two`; a parameter given twice is a 400.
    pub fn parse(raw: &str) -> Result<Query> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (k, v) in form_urlencoded::parse(raw.as_bytes()) {
            if pairs.iter().any(|(seen, _)| *seen == k) {
                return Err(Error::bad_param(k.into_owned(), "is given more than once"));
            }
            pairs.push((k.into_owned(), v.into_owned()));
        }
        Ok(Query(pairs))
    }

    /// Parameters from pairs (for callers that decoded them already).
    pub fn from_pairs<K: Into<String>, V: Into<String>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Query {
        Query(
            pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }

    /// The value of `name`, if sent.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `name` was sent.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The pairs, in the order sent.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// `name` as an ID; 400 when it is not one.
    pub fn id(&self, name: &str) -> Result<Option<Id>> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => Id::parse(v)
                .map(Some)
                .ok_or_else(|| Error::bad_param(name, "is not an ID")),
        }
    }

    /// `name` as `true`; anything else is a 400.
    pub fn only_true(&self, name: &str) -> Result<bool> {
        match self.get(name) {
            None => Ok(false),
            Some("true") => Ok(true),
            Some(_) => Err(Error::bad_param(name, "must be true")),
        }
    }

    /// `name` as `true` or `false`; anything else is a 400.
    pub fn bool(&self, name: &str) -> Result<Option<bool>> {
        match self.get(name) {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(_) => Err(Error::bad_param(name, "must be true or false")),
        }
    }

    /// `name` as a whole number of at least `min`; 400 otherwise.
    pub fn whole(&self, name: &str, min: u64) -> Result<Option<u64>> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => match v.parse::<u64>() {
                Ok(n) if n >= min => Ok(Some(n)),
                _ => Err(Error::bad_param(
                    name,
                    format!("must be a whole number of at least {min}"),
                )),
            },
        }
    }

    /// `name` as an instant with `Z` or an offset; 400 otherwise.
    pub fn timestamp(&self, name: &str) -> Result<Option<jiff::Timestamp>> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => crate::time::parse_timestamp(v).map(Some).ok_or_else(|| {
                Error::bad_param(name, "must be an ISO 8601 date-time with Z or a UTC offset")
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_decoded() {
        let q = Query::parse("q=caf%C3%A9+au+lait&inbox=true&since=2026-01-01T00:00:00%2B02:00")
            .unwrap();
        assert_eq!(q.get("q"), Some("café au lait"));
        assert!(q.only_true("inbox").unwrap());
        assert!(q.timestamp("since").unwrap().is_some());
    }

    #[test]
    fn a_parameter_twice_is_400() {
        assert_eq!(Query::parse("a=1&a=2").unwrap_err().status(), 400);
    }

    #[test]
    fn typed_reads_refuse_bad_values() {
        let q = Query::parse("inbox=yes&id=nope&n=x&b=1").unwrap();
        assert_eq!(q.only_true("inbox").unwrap_err().status(), 400);
        assert_eq!(q.id("id").unwrap_err().status(), 400);
        assert_eq!(q.whole("n", 1).unwrap_err().status(), 400);
        assert_eq!(q.bool("b").unwrap_err().status(), 400);
    }
}
