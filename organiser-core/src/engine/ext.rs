//! State a resource keeps in memory beside the store (the owner as last
//! committed, the API token cache, idempotency keys in flight): one value
//! per type, made on first use, so the engine names no resource's types.

use std::any::Any;
use std::sync::{Arc, RwLock};

type Entry = Arc<dyn Any + Send + Sync>;

/// One value of each type, shared by every clone of a handle.
#[derive(Default)]
pub(crate) struct Extensions(RwLock<Vec<Entry>>);

impl Extensions {
    /// The value of type `T`, made with `T::default()` on first use.
    pub(crate) fn get<T: Any + Send + Sync + Default>(&self) -> Arc<T> {
        if let Some(found) = self.find::<T>() {
            return found;
        }
        let mut all = self.0.write().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = pick(&all) {
            return found;
        }
        let made = Arc::new(T::default());
        all.push(made.clone());
        made
    }

    fn find<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        let all = self.0.read().unwrap_or_else(|e| e.into_inner());
        pick(&all)
    }
}

fn pick<T: Any + Send + Sync>(all: &[Entry]) -> Option<Arc<T>> {
    let entry = all.iter().find(|e| e.is::<T>())?;
    entry.clone().downcast::<T>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn each_type_has_one_value() {
        let ext = Extensions::default();
        ext.get::<Mutex<u32>>().lock().map(|mut n| *n += 1).unwrap();
        assert_eq!(*ext.get::<Mutex<u32>>().lock().unwrap(), 1);
        assert_eq!(*ext.get::<Mutex<String>>().lock().unwrap(), "");
    }
}
