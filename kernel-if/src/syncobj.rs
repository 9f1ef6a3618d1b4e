//! Sync objects as the kernel interface names them: a handle, and points on it.
//!
//! One object serves both Vulkan semaphore kinds, as DRM syncobjs do: a
//! binary one is waited on and signalled at point 0, a timeline one at
//! points >= 1 (only where [`crate::DeviceInfo::timeline_syncobjs`] is true).

/// A sync object's handle (a DRM syncobj handle on msm).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SyncObj(pub u32);

/// A sync object and a point on it; `value` 0 means the binary payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncPoint {
    pub syncobj: SyncObj,
    pub value: u64,
}

impl SyncPoint {
    /// The binary payload of `syncobj`.
    pub fn binary(syncobj: SyncObj) -> Self {
        Self { syncobj, value: 0 }
    }

    /// Point `value` of timeline `syncobj`.
    pub fn timeline(syncobj: SyncObj, value: u64) -> Self {
        Self { syncobj, value }
    }
}

/// Whether a wait on several points returns when all or any of them signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitMode {
    All,
    Any,
}
