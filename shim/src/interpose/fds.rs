//! Descriptor calls: `close`, `dup` and friends, `fcntl`'s duplications,
//! `ioctl` and `mmap`.

use std::ffi::{c_int, c_long, c_ulong, c_void};

use super::fail;
use crate::fd_table::{self, FdObject};
use crate::fence::Fence;
use crate::ioctl_arg::{self, with_arg, IoctlResult};
use crate::msm::drm_uapi::{
    SyncFileInfo, SyncMergeData, SYNC_IOC_FILE_INFO, SYNC_IOC_MAGIC, SYNC_IOC_MERGE,
};
use crate::{real, sync_file};

/// # Safety
/// As libc's `close`.
#[no_mangle]
pub unsafe extern "C" fn close(fd: c_int) -> c_int {
    fd_table::remove(fd);
    // SAFETY: the caller's descriptor.
    unsafe { real::close(fd) }
}

/// # Safety
/// As libc's `dup`.
#[no_mangle]
pub unsafe extern "C" fn dup(fd: c_int) -> c_int {
    // SAFETY: the caller's descriptor.
    let new = unsafe { real::dup(fd) };
    if new >= 0 {
        fd_table::duplicate(fd, new);
    }
    new
}

/// # Safety
/// As libc's `dup2`.
#[no_mangle]
pub unsafe extern "C" fn dup2(fd: c_int, target: c_int) -> c_int {
    // SAFETY: the caller's descriptors.
    let new = unsafe { real::dup2(fd, target) };
    if new >= 0 && new != fd {
        fd_table::duplicate(fd, new);
    }
    new
}

/// # Safety
/// As libc's `dup3`.
#[no_mangle]
pub unsafe extern "C" fn dup3(fd: c_int, target: c_int, flags: c_int) -> c_int {
    // SAFETY: the caller's descriptors.
    let new = unsafe { real::dup3(fd, target, flags) };
    if new >= 0 {
        fd_table::duplicate(fd, new);
    }
    new
}

/// # Safety
/// As libc's `fcntl`.
#[no_mangle]
pub unsafe extern "C" fn fcntl(fd: c_int, cmd: c_int, arg: c_long) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    let r = unsafe { real::fcntl(fd, cmd, arg) };
    if r >= 0 && (cmd == libc::F_DUPFD || cmd == libc::F_DUPFD_CLOEXEC) {
        fd_table::duplicate(fd, r);
    }
    r
}

/// # Safety
/// As libc's `fcntl64` (the same call on 64-bit systems).
#[no_mangle]
pub unsafe extern "C" fn fcntl64(fd: c_int, cmd: c_int, arg: c_long) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe { fcntl(fd, cmd, arg) }
}

/// # Safety
/// As libc's `ioctl`.
#[no_mangle]
pub unsafe extern "C" fn ioctl(fd: c_int, request: c_ulong, arg: *mut c_void) -> c_int {
    let result = match fd_table::get(fd) {
        // SAFETY: the caller passes libc's arguments.
        None => return unsafe { real::ioctl(fd, request, arg) },
        Some(FdObject::Msm(file)) => file.ioctl(request, arg as u64),
        Some(FdObject::Kgsl(file)) => file.ioctl(request, arg as u64),
        Some(FdObject::SyncFile(fence)) => sync_file_ioctl(&fence, request, arg as u64),
        // DMA_BUF_IOCTL_SYNC: the shim's memory is coherent; nothing to do.
        Some(FdObject::DmaBuf(_)) if ioctl_arg::nr_and_type(request) == (0, b'b') => Ok(()),
        Some(_) => Err(libc::ENOTTY),
    };
    match result {
        Ok(()) => 0,
        Err(e) => fail(e),
    }
}

/// SYNC_IOC_MERGE and SYNC_IOC_FILE_INFO on a sync file.
fn sync_file_ioctl(fence: &std::sync::Arc<Fence>, request: c_ulong, arg: u64) -> IoctlResult {
    match ioctl_arg::nr_and_type(request) {
        (SYNC_IOC_MERGE, SYNC_IOC_MAGIC) => with_arg(request, arg, |m: &mut SyncMergeData| {
            let other = sync_file::fence_of(m.fd2).ok_or(libc::EINVAL)?;
            m.fence = sync_file::create(Fence::all(vec![fence.clone(), other]))?;
            Ok(())
        }),
        (SYNC_IOC_FILE_INFO, SYNC_IOC_MAGIC) => with_arg(request, arg, |i: &mut SyncFileInfo| {
            if i.flags != 0 {
                return Err(libc::EINVAL);
            }
            let name = b"parsnip-shim";
            i.name = [0; 32];
            i.name[..name.len()].copy_from_slice(name);
            i.status = i32::from(fence.is_signaled());
            if i.num_fences == 0 {
                i.num_fences = 1;
                return Ok(());
            }
            let mut info = crate::msm::drm_uapi::SyncFenceInfo::default();
            info.obj_name[..name.len()].copy_from_slice(name);
            info.driver_name[..name.len()].copy_from_slice(name);
            info.status = i.status;
            ioctl_arg::write(i.sync_fence_info, &info, std::mem::size_of_val(&info))?;
            i.num_fences = 1;
            Ok(())
        }),
        _ => Err(libc::ENOTTY),
    }
}

/// The pool offset `mmap(fd, offset, len)` maps, if `fd` is the shim's.
fn mapped_offset(fd: c_int, offset: u64, len: u64) -> Option<Result<u64, i32>> {
    Some(match fd_table::get(fd)? {
        FdObject::Msm(file) => file.mmap_offset(offset, len),
        FdObject::Kgsl(file) => file.mmap_offset(offset, len),
        FdObject::DmaBuf(object) => match offset.checked_add(len) {
            Some(end) if end <= object.size => Ok(object.offset + offset),
            _ => Err(libc::EINVAL),
        },
        _ => Err(libc::ENODEV),
    })
}

/// # Safety
/// As libc's `mmap`.
#[no_mangle]
pub unsafe extern "C" fn mmap(
    addr: *mut c_void,
    len: usize,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    offset: libc::off_t,
) -> *mut c_void {
    if fd >= 0 {
        if let Some(target) = mapped_offset(fd, offset as u64, len as u64) {
            return match target {
                Ok(pool_offset) => {
                    let pool = match crate::device::get() {
                        Ok(d) => d.pool.memfd(),
                        Err(_) => {
                            fail(libc::ENODEV);
                            return libc::MAP_FAILED;
                        }
                    };
                    // Device memory is shared with the GPU whatever the
                    // caller asked: a private copy would hide GPU writes.
                    let flags = (flags & !libc::MAP_PRIVATE) | libc::MAP_SHARED;
                    // SAFETY: mapping the pool range of an object the
                    // caller may map, with the caller's address hint.
                    unsafe { real::mmap(addr, len, prot, flags, pool, pool_offset as libc::off_t) }
                }
                Err(e) => {
                    fail(e);
                    libc::MAP_FAILED
                }
            };
        }
    }
    // SAFETY: the caller passes libc's arguments.
    unsafe { real::mmap(addr, len, prot, flags, fd, offset) }
}

/// # Safety
/// As libc's `mmap64` (the same call on 64-bit systems).
#[no_mangle]
pub unsafe extern "C" fn mmap64(
    addr: *mut c_void,
    len: usize,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    offset: libc::off_t,
) -> *mut c_void {
    // SAFETY: the caller passes libc's arguments.
    unsafe { mmap(addr, len, prot, flags, fd, offset) }
}
