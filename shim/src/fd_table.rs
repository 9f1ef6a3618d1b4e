//! Which of the process's file descriptors stand for the shim's objects.
//!
//! Every object gets a real descriptor (a memfd, an eventfd), so that the
//! kernel's own `close`, `dup`, `poll` and descriptor numbering apply; this
//! table says what each stands for. Duplicates share the object, as
//! duplicates of a kernel file share its open file.

use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::{Arc, OnceLock};

use parking_lot::RwLock;

use crate::fence::Fence;
use crate::gem::GemObject;
use crate::kgsl::KgslFile;
use crate::msm::MsmFile;
use crate::syncobj::SyncObj;

#[derive(Clone)]
pub enum FdObject {
    /// An open msm render (or primary) node.
    Msm(Arc<MsmFile>),
    /// An open kgsl device.
    Kgsl(Arc<KgslFile>),
    /// A dma-buf exported from a GEM object.
    DmaBuf(Arc<GemObject>),
    /// A sync file.
    SyncFile(Arc<Fence>),
    /// A syncobj exported as a file (DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD).
    SyncObj(Arc<SyncObj>),
}

fn table() -> &'static RwLock<HashMap<c_int, FdObject>> {
    static TABLE: OnceLock<RwLock<HashMap<c_int, FdObject>>> = OnceLock::new();
    TABLE.get_or_init(|| RwLock::new(HashMap::new()))
}

pub fn get(fd: c_int) -> Option<FdObject> {
    table().read().get(&fd).cloned()
}

pub fn insert(fd: c_int, object: FdObject) {
    table().write().insert(fd, object);
}

/// Forgets `fd`; the object goes when its last descriptor does.
pub fn remove(fd: c_int) -> Option<FdObject> {
    table().write().remove(&fd)
}

/// Records that `new` is a duplicate of `old` (after dup/dup2/fcntl).
pub fn duplicate(old: c_int, new: c_int) {
    let object = get(old);
    let mut t = table().write();
    match object {
        Some(o) => {
            t.insert(new, o);
        }
        None => {
            // dup2 onto one of ours closes ours.
            t.remove(&new);
        }
    }
}
