//! The route inventory (document 1, "Conventions"; DESIGN.md: the OpenAPI
//! document is checked against the routes): every route the core answers,
//! as a method and a path template below `/api/v1`, each read from an
//! operation's declaration (`resources::endpoints`); the tests hold the
//! dispatch and `docs/openapi.json` to that list.

use super::request::Method;

/// One route: a method and a path template below `/api/v1`, in which a
/// segment `{name}` stands for any one segment (a record's ID).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// The method (`GET` answers `HEAD` too).
    pub method: Method,
    /// The path template, such as `/tasks/{id}/restoration`.
    pub path: &'static str,
}

impl Endpoint {
    /// `method path`.
    pub const fn new(method: Method, path: &'static str) -> Endpoint {
        Endpoint { method, path }
    }

    /// The template's first segment (`tasks` of `/tasks/{id}`).
    pub fn first_segment(&self) -> &'static str {
        let path = self.path.strip_prefix('/').unwrap_or(self.path);
        path.split('/').next().unwrap_or(path)
    }

    /// Whether a request of `method` for the path split into `segments`
    /// (no empty ones) is this route.
    pub fn matches(&self, method: Method, segments: &[&str]) -> bool {
        if method != self.method {
            return false;
        }
        let mut template = self.path.split('/').filter(|s| !s.is_empty());
        let mut given = segments.iter();
        loop {
            match (template.next(), given.next()) {
                (None, None) => return true,
                (Some(t), Some(s)) if t.starts_with('{') || t == *s => {}
                _ => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_segment_matches_any_one_segment() {
        let restore = Endpoint::new(Method::Post, "/tasks/{id}/restoration");
        assert!(restore.matches(Method::Post, &["tasks", "X", "restoration"]));
        assert!(!restore.matches(Method::Get, &["tasks", "X", "restoration"]));
        assert!(!restore.matches(Method::Post, &["tasks", "X"]));
        assert!(!restore.matches(Method::Post, &["tasks", "X", "restoration", "Y"]));
        assert!(!restore.matches(Method::Post, &["task", "X", "restoration"]));
        let me = Endpoint::new(Method::Get, "/me");
        assert!(me.matches(Method::Get, &["me"]));
        assert!(!me.matches(Method::Get, &[]));
        assert_eq!(
            (restore.first_segment(), me.first_segment()),
            ("tasks", "me")
        );
    }
}
