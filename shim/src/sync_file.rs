//! Sync files: file descriptors that stand for a fence, as the kernel's
//! sync_file does. The descriptor is an eventfd, so `poll` and `select`
//! work on it natively: it becomes readable when the fence signals, as a
//! sync file does.

use std::ffi::c_int;
use std::sync::Arc;

use crate::fd_table::{self, FdObject};
use crate::fence::Fence;
use crate::real;

/// A new sync file descriptor for `fence` (close-on-exec), or the errno.
pub fn create(fence: Arc<Fence>) -> Result<c_int, c_int> {
    // SAFETY: eventfd takes no pointers.
    let ours = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
    if ours < 0 {
        return Err(errno());
    }
    // SAFETY: `ours` is an open descriptor; F_DUPFD_CLOEXEC takes an int.
    let theirs = unsafe { real::fcntl(ours, libc::F_DUPFD_CLOEXEC, 0) };
    if theirs < 0 {
        let e = errno();
        // SAFETY: closing the descriptor opened above.
        unsafe { real::close(ours) };
        return Err(e);
    }
    fd_table::insert(theirs, FdObject::SyncFile(fence.clone()));
    // Our copy of the eventfd lives until the fence signals, so the write
    // never lands on a descriptor number the process has reused.
    fence.on_signal(move || {
        let one: u64 = 1;
        // SAFETY: `ours` stays open until this callback closes it; the
        // buffer is a live u64, as eventfd requires.
        unsafe {
            libc::write(ours, (&one as *const u64).cast(), 8);
            real::close(ours);
        }
    });
    Ok(theirs)
}

/// The fence behind sync file `fd`, if it is one.
pub fn fence_of(fd: c_int) -> Option<Arc<Fence>> {
    match fd_table::get(fd) {
        Some(FdObject::SyncFile(f)) => Some(f),
        _ => None,
    }
}

fn errno() -> c_int {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}
