//! A strict sliding-window limit (DESIGN.md "Running it"): no address gets
//! more than `limit` requests admitted in any 60 seconds, and `Retry-After`
//! says when the next one will be. Time comes from the core's clock.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;

use jiff::{SignedDuration, Timestamp};

const WINDOW: SignedDuration = SignedDuration::from_secs(60);

/// Requests admitted per address in the last minute.
#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    admitted: Mutex<HashMap<IpAddr, VecDeque<Timestamp>>>,
}

impl RateLimiter {
    /// At most `limit` requests per address in any 60 seconds; 0 admits all.
    pub fn per_minute(limit: u32) -> Self {
        RateLimiter {
            limit,
            admitted: Mutex::new(HashMap::new()),
        }
    }

    /// Whether this limiter admits everything (a limit of 0).
    pub fn is_off(&self) -> bool {
        self.limit == 0
    }

    /// Admits a request from `ip` at `now`, or says in how many whole
    /// seconds the next one will be admitted.
    pub fn admit(&self, ip: IpAddr, now: Timestamp) -> Result<(), u64> {
        if self.limit == 0 {
            return Ok(());
        }
        let mut admitted = self.admitted.lock().unwrap_or_else(|e| e.into_inner());
        if admitted.len() > 10_000 {
            admitted.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|t| now.duration_since(*t) < WINDOW)
            });
        }
        let times = admitted.entry(ip).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= WINDOW)
        {
            times.pop_front();
        }
        if times.len() < self.limit as usize {
            times.push_back(now);
            return Ok(());
        }
        let oldest = *times.front().expect("the window is full");
        let wait = (oldest + WINDOW).duration_since(now);
        let millis = u64::try_from(wait.as_millis().max(1)).unwrap_or(60_000);
        Err(millis.div_ceil(1000))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn no_more_than_the_limit_in_any_minute() {
        let limiter = RateLimiter::per_minute(3);
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        assert!(limiter.admit(ip, at("2026-01-01T00:00:00Z")).is_ok());
        assert!(limiter.admit(ip, at("2026-01-01T00:00:10Z")).is_ok());
        assert!(limiter.admit(ip, at("2026-01-01T00:00:20Z")).is_ok());
        assert_eq!(limiter.admit(ip, at("2026-01-01T00:00:30Z")), Err(30));
        assert_eq!(limiter.admit(ip, at("2026-01-01T00:00:59.500Z")), Err(1));
        // A refused request does not count: at 60 s the first one has left.
        assert!(limiter.admit(ip, at("2026-01-01T00:01:00Z")).is_ok());
        assert_eq!(limiter.admit(ip, at("2026-01-01T00:01:00Z")), Err(10));
        // Another address has its own window.
        assert!(
            limiter
                .admit("10.0.0.2".parse().unwrap(), at("2026-01-01T00:01:00Z"))
                .is_ok()
        );
    }

    #[test]
    fn zero_turns_it_off() {
        let limiter = RateLimiter::per_minute(0);
        let ip: IpAddr = "::1".parse().unwrap();
        for _ in 0..1000 {
            assert!(limiter.admit(ip, at("2026-01-01T00:00:00Z")).is_ok());
        }
    }
}
