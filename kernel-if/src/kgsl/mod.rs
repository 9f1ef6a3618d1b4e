//! The kgsl back end: an Adreno through Android's kgsl driver
//! (`/dev/kgsl-3d0`), for Android handhelds and the containers that run on
//! them.
//!
//! kgsl has no DRM syncobjs: sync objects live in this process (a
//! [`crate::sync_table::SyncTable`]), and each submit queue is a draw
//! context driven by a worker thread ([`crate::queue_worker`]) that issues
//! a submit once its waits are signalled, waits for the submit's
//! timestamp, and then signals its points.

mod device;
pub mod uapi;

pub use device::KgslDevice;
