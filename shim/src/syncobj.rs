//! DRM sync objects as drm_syncobj.c keeps them: a binary payload is one
//! fence (or none); a timeline is a chain of (point, fence) nodes, a node
//! counting as signalled once its fence and every earlier node's have.

use std::sync::Arc;

use parking_lot::Mutex;

use crate::fence::{self, Fence};

#[derive(Default)]
pub struct SyncObj {
    /// Points in the order they were added; a binary payload is one node at
    /// point 0.
    chain: Mutex<Vec<(u64, Arc<Fence>)>>,
}

/// What a point of a syncobj stands at.
pub enum PointFence {
    /// The fence that signals when the point does.
    Submitted(Arc<Fence>),
    /// No fence for it yet: nothing signals it so far.
    NotSubmitted,
}

impl SyncObj {
    pub fn new(signaled: bool) -> Arc<Self> {
        let s = Arc::new(Self::default());
        if signaled {
            s.replace(Some(Fence::signaled()));
        }
        s
    }

    /// Sets the payload to `fence` (drm_syncobj_replace_fence), dropping the
    /// chain; `None` resets it.
    pub fn replace(&self, fence: Option<Arc<Fence>>) {
        *self.chain.lock() = fence.map(|f| vec![(0, f)]).unwrap_or_default();
        fence::notify_all();
    }

    /// Adds timeline point `point` signalled by `fence` (drm_syncobj_add_point).
    pub fn add_point(&self, point: u64, fence: Arc<Fence>) {
        self.chain.lock().push((point, fence));
        fence::notify_all();
    }

    /// How many chain nodes `point` depends on (0: the whole payload, as a
    /// binary wait sees it); `None` when no node covers it yet.
    fn prefix(chain: &[(u64, Arc<Fence>)], point: u64) -> Option<usize> {
        let end = if point == 0 {
            chain.len()
        } else {
            chain.iter().position(|(p, _)| *p >= point)? + 1
        };
        (end > 0).then_some(end)
    }

    /// The fence of `point`.
    pub fn fence_for(&self, point: u64) -> PointFence {
        let chain = self.chain.lock();
        match Self::prefix(&chain, point) {
            Some(end) => PointFence::Submitted(Fence::all(
                chain[..end].iter().map(|(_, f)| f.clone()).collect(),
            )),
            None => PointFence::NotSubmitted,
        }
    }

    /// Whether `point` has signalled (false if it has no fence yet).
    pub fn is_signaled(&self, point: u64) -> bool {
        let chain = self.chain.lock();
        Self::prefix(&chain, point)
            .is_some_and(|end| chain[..end].iter().all(|(_, f)| f.is_signaled()))
    }

    /// Whether `point` has a fence (signalled or not).
    pub fn is_submitted(&self, point: u64) -> bool {
        Self::prefix(&self.chain.lock(), point).is_some()
    }

    /// The last signalled timeline point (0 for a binary payload), or with
    /// `last_submitted` the last point added.
    pub fn query(&self, last_submitted: bool) -> u64 {
        let chain = self.chain.lock();
        if last_submitted {
            return chain.last().map_or(0, |(p, _)| *p);
        }
        let mut value = 0;
        for (p, f) in chain.iter() {
            if !f.is_signaled() {
                break;
            }
            value = *p;
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeline_point_waits_for_every_earlier_point() {
        let s = SyncObj::new(false);
        let (one, two) = (Fence::new(), Fence::new());
        s.add_point(1, one.clone());
        s.add_point(3, two.clone());
        assert!(!s.is_submitted(4));
        assert!(s.is_submitted(2), "point 2 is covered by the node at 3");
        two.signal();
        assert!(!s.is_signaled(3), "point 1 has not signalled");
        assert_eq!(s.query(false), 0);
        one.signal();
        assert!(s.is_signaled(3));
        assert_eq!((s.query(false), s.query(true)), (3, 3));
    }

    #[test]
    fn a_binary_payload_is_replaced_and_reset() {
        let s = SyncObj::new(true);
        assert!(s.is_signaled(0));
        s.replace(None);
        assert!(!s.is_submitted(0));
    }
}
