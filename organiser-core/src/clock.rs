//! The injected clock (DESIGN.md "The core"): every "now" of the core comes
//! from here, so tests can move time and `ORGANISER_NOW` can start it.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use jiff::{SignedDuration, Timestamp};

/// A source of the current instant.
pub trait Clock: Send + Sync + 'static {
    /// The current instant.
    fn now(&self) -> Timestamp;
}

/// The system's real time.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// Starts at a given instant and then runs in real time (`ORGANISER_NOW`).
#[derive(Debug, Clone, Copy)]
pub struct StartingAt {
    start: Timestamp,
    origin: Instant,
}

impl StartingAt {
    /// A clock that reads `start` now and advances with real time.
    pub fn new(start: Timestamp) -> Self {
        Self {
            start,
            origin: Instant::now(),
        }
    }
}

impl Clock for StartingAt {
    fn now(&self) -> Timestamp {
        let elapsed =
            SignedDuration::try_from(self.origin.elapsed()).unwrap_or(SignedDuration::MAX);
        self.start.saturating_add(elapsed).unwrap_or(self.start)
    }
}

/// A clock that stands still until moved: for tests.
#[derive(Debug, Clone)]
pub struct ManualClock(Arc<Mutex<Timestamp>>);

impl ManualClock {
    /// A clock standing at `at`.
    pub fn new(at: Timestamp) -> Self {
        Self(Arc::new(Mutex::new(at)))
    }

    /// A clock standing at an RFC 3339 instant; panics on a malformed one.
    pub fn at(rfc3339: &str) -> Self {
        Self::new(rfc3339.parse().expect("an RFC 3339 instant"))
    }

    /// Moves the clock to `at`.
    pub fn set(&self, at: Timestamp) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = at;
    }

    /// Moves the clock forward (or back, for a negative duration).
    pub fn advance(&self, by: SignedDuration) {
        let mut now = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *now = now.saturating_add(by).unwrap_or(*now);
    }

    /// Moves the clock forward by whole seconds.
    pub fn advance_secs(&self, secs: i64) {
        self.advance(SignedDuration::from_secs(secs));
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The clock an adapter should use: starting at `ORGANISER_NOW` when it is
/// set (RFC 3339), else the system clock.
pub fn from_env() -> Result<Arc<dyn Clock>, String> {
    match std::env::var("ORGANISER_NOW") {
        Ok(value) if !value.trim().is_empty() => {
            let start: Timestamp = value.trim().parse().map_err(|e| {
                format!(
                    "ORGANISER_NOW must be an RFC 3339 instant such as 2026-01-01T09:00:00Z ({e})"
                )
            })?;
            Ok(Arc::new(StartingAt::new(start)))
        }
        _ => Ok(Arc::new(SystemClock)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let clock = ManualClock::at("2026-03-01T10:00:00Z");
        assert_eq!(clock.now().to_string(), "2026-03-01T10:00:00Z");
        clock.advance_secs(21);
        assert_eq!(clock.now().to_string(), "2026-03-01T10:00:21Z");
    }

    #[test]
    fn starting_at_runs_forward_from_its_start() {
        let start: Timestamp = "2030-01-01T00:00:00Z".parse().unwrap();
        let clock = StartingAt::new(start);
        let now = clock.now();
        assert!(now >= start && now < start + SignedDuration::from_secs(5));
    }
}
