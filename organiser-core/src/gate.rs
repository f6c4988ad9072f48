//! A counting gate: at most `n` holders at once in the process, the others
//! waiting their turn. Decoding images and rendering PDFs pass through one
//! each, so a burst of hostile uploads is held to the budget of one or two
//! (docs/api.md "Uploads").

use std::sync::{Condvar, Mutex};

/// At most [`Gate::new`]'s `n` passes at once.
#[derive(Debug)]
pub(crate) struct Gate {
    held: Mutex<usize>,
    most: usize,
    freed: Condvar,
}

/// A turn through a [`Gate`]: the next waiter goes when it is dropped.
#[derive(Debug)]
pub(crate) struct Pass<'g>(&'g Gate);

impl Gate {
    /// A gate letting `most` through at once (at least one).
    pub(crate) const fn new(most: usize) -> Gate {
        Gate {
            held: Mutex::new(0),
            most: if most == 0 { 1 } else { most },
            freed: Condvar::new(),
        }
    }

    /// Waits for a turn.
    pub(crate) fn enter(&self) -> Pass<'_> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        while *held >= self.most {
            held = self.freed.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        *held += 1;
        Pass(self)
    }
}

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        let mut held = self.0.held.lock().unwrap_or_else(|e| e.into_inner());
        *held = held.saturating_sub(1);
        self.0.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn no_more_than_most_hold_it_at_once() {
        static GATE: Gate = Gate::new(2);
        static INSIDE: AtomicUsize = AtomicUsize::new(0);
        static MOST_SEEN: AtomicUsize = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    let _pass = GATE.enter();
                    let now = INSIDE.fetch_add(1, Ordering::SeqCst) + 1;
                    MOST_SEEN.fetch_max(now, Ordering::SeqCst);
                    std::thread::yield_now();
                    INSIDE.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        assert!(MOST_SEEN.load(Ordering::SeqCst) <= 2);
        assert_eq!(*GATE.held.lock().unwrap(), 0);
    }
}
