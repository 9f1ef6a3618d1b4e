//! Keeping a freed buffer object mapped until the submits that use it have
//! finished, as the msm kernel keeps a GEM object and its iova alive until
//! every submit that lists it retires.
//!
//! A submit takes a hold on each BO it lists (its command buffers and its
//! BO list); the hold ends when the submit finishes, or is dropped unrun.
//! Freeing a held BO only marks it; the last hold to end unmaps it and gives
//! its address back.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::error::Result;

/// How a BO leaves the GPU: unmaps it and frees its iova.
pub type Unmap = Box<dyn FnOnce() -> Result<()> + Send>;

#[derive(Default)]
struct Entry {
    holds: u32,
    /// Set when the BO was freed while held.
    pending_unmap: Option<Unmap>,
}

/// The BOs submits still use, by iova.
#[derive(Default)]
pub struct Residency {
    entries: Mutex<HashMap<u64, Entry>>,
}

/// A submit's holds; dropping it ends them.
pub struct Holds {
    residency: Arc<Residency>,
    iovas: Vec<u64>,
}

impl Residency {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Takes a hold on each of `iovas` (repeats are fine).
    pub fn hold(self: &Arc<Self>, iovas: Vec<u64>) -> Holds {
        let mut entries = self.entries.lock();
        for &iova in &iovas {
            entries.entry(iova).or_default().holds += 1;
        }
        Holds {
            residency: self.clone(),
            iovas,
        }
    }

    /// Frees the BO at `iova`: at once if no submit holds it, else when the
    /// last hold ends.
    pub fn release(&self, iova: u64, unmap: Unmap) -> Result<()> {
        let mut entries = self.entries.lock();
        match entries.get_mut(&iova) {
            Some(entry) => {
                entry.pending_unmap = Some(unmap);
                Ok(())
            }
            None => {
                drop(entries);
                unmap()
            }
        }
    }

    /// Whether a submit holds the BO at `iova`.
    #[cfg(test)]
    fn is_held(&self, iova: u64) -> bool {
        self.entries.lock().contains_key(&iova)
    }
}

impl Drop for Holds {
    fn drop(&mut self) {
        let mut to_unmap = Vec::new();
        {
            let mut entries = self.residency.entries.lock();
            for iova in &self.iovas {
                let Some(entry) = entries.get_mut(iova) else {
                    continue;
                };
                entry.holds -= 1;
                if entry.holds == 0 {
                    if let Some(e) = entries.remove(iova) {
                        to_unmap.extend(e.pending_unmap);
                    }
                }
            }
        }
        for unmap in to_unmap {
            // A drop has no one to report to; unmapping host memory from the
            // model's address space and freeing an iova cannot fail for a BO
            // that was mapped.
            let _ = unmap();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn a_held_bo_is_unmapped_when_its_last_hold_ends() {
        let r = Residency::new();
        let unmapped = Arc::new(AtomicU32::new(0));
        let first = r.hold(vec![0x1000, 0x2000]);
        let second = r.hold(vec![0x1000]);
        let u = unmapped.clone();
        r.release(
            0x1000,
            Box::new(move || {
                u.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }),
        )
        .unwrap();
        drop(first);
        assert_eq!(unmapped.load(Ordering::SeqCst), 0, "still held");
        assert!(r.is_held(0x1000) && !r.is_held(0x2000));
        drop(second);
        assert_eq!(unmapped.load(Ordering::SeqCst), 1);
        assert!(!r.is_held(0x1000));

        let u = unmapped.clone();
        r.release(
            0x3000,
            Box::new(move || {
                u.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }),
        )
        .unwrap();
        assert_eq!(unmapped.load(Ordering::SeqCst), 2, "unheld: freed at once");
    }
}
