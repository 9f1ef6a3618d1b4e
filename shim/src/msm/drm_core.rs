//! DRM core ioctls on an msm file (drm_ioctl.c, drm_gem.c, drm_prime.c):
//! version, capabilities, GEM_CLOSE and PRIME; syncobjs are in
//! [`super::syncobj_ioctls`].

use std::ffi::c_ulong;
use std::sync::Arc;

use super::drm_uapi::*;
use super::{syncobj_ioctls, MsmFile, VERSION};
use crate::fd_table::{self, FdObject};
use crate::gem;
use crate::ioctl_arg::{self, with_arg, IoctlResult};
use crate::real;

pub fn ioctl(file: &Arc<MsmFile>, nr: u8, request: c_ulong, arg: u64) -> IoctlResult {
    match nr {
        DRM_VERSION => with_arg(request, arg, version),
        DRM_GET_CAP => with_arg(request, arg, get_cap),
        DRM_GEM_CLOSE => with_arg(request, arg, |a| gem_close(file, a)),
        DRM_PRIME_HANDLE_TO_FD => with_arg(request, arg, |a| prime_handle_to_fd(file, a)),
        DRM_PRIME_FD_TO_HANDLE => with_arg(request, arg, |a| prime_fd_to_handle(file, a)),
        // Not allowed on render nodes (no DRM_RENDER_ALLOW), and the shim
        // has no primary-node master: the kernel's answer to both.
        DRM_GET_MAGIC | DRM_GEM_FLINK | DRM_GEM_OPEN | DRM_GET_UNIQUE => Err(libc::EACCES),
        // Render nodes' clients set no client caps the shim knows.
        DRM_SET_CLIENT_CAP => Err(libc::EINVAL),
        _ => syncobj_ioctls::ioctl(file, nr, request, arg),
    }
}

/// DRM_IOCTL_VERSION: "msm", with each string copied as far as the
/// caller's buffer allows and its full length returned.
fn version(v: &mut DrmVersion) -> IoctlResult {
    (v.version_major, v.version_minor, v.version_patchlevel) = VERSION;
    let copy = |buf: u64, len: &mut u64, text: &str| -> IoctlResult {
        let n = (*len as usize).min(text.len());
        if buf != 0 && n > 0 {
            ioctl_arg::write_bytes(buf, &text.as_bytes()[..n])?;
        }
        *len = text.len() as u64;
        Ok(())
    };
    copy(v.name, &mut v.name_len, "msm")?;
    copy(v.date, &mut v.date_len, "20130625")?;
    copy(v.desc, &mut v.desc_len, "MSM Snapdragon DRM")
}

/// DRM_IOCTL_GET_CAP for what a render node of a DRIVER_GEM |
/// DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE driver has; `EINVAL` for the
/// rest (modesetting caps and unknown ones).
fn get_cap(c: &mut DrmGetCap) -> IoctlResult {
    c.value = match c.capability {
        DRM_CAP_PRIME => DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT,
        DRM_CAP_TIMESTAMP_MONOTONIC | DRM_CAP_SYNCOBJ | DRM_CAP_SYNCOBJ_TIMELINE => 1,
        _ => return Err(libc::EINVAL),
    };
    Ok(())
}

/// DRM_IOCTL_GEM_CLOSE: drops the handle and its mapping in this file's
/// address space (submits still running keep theirs until they retire);
/// `EINVAL` for an unknown handle, as drm_gem_handle_delete answers.
fn gem_close(file: &MsmFile, c: &mut DrmGemClose) -> IoctlResult {
    if c.pad != 0 {
        return Err(libc::EINVAL);
    }
    file.state
        .lock()
        .handles
        .remove(c.handle)
        .map(|_| ())
        .ok_or(libc::EINVAL)
}

/// DRM_IOCTL_PRIME_HANDLE_TO_FD: a dma-buf descriptor for the object
/// (every export of one object is the same dma-buf).
fn prime_handle_to_fd(file: &MsmFile, p: &mut DrmPrimeHandle) -> IoctlResult {
    if p.flags & !(DRM_CLOEXEC | DRM_RDWR) != 0 {
        return Err(libc::EINVAL);
    }
    let object = file.object(p.handle)?;
    let dmabuf = object.dmabuf_fd()?;
    let cmd = if p.flags & DRM_CLOEXEC != 0 {
        libc::F_DUPFD_CLOEXEC
    } else {
        libc::F_DUPFD
    };
    // SAFETY: duplicating the object's own dma-buf memfd.
    let fd = unsafe { real::fcntl(dmabuf, cmd, 0) };
    if fd < 0 {
        return Err(libc::EMFILE);
    }
    fd_table::insert(fd, FdObject::DmaBuf(object));
    p.fd = fd;
    Ok(())
}

/// DRM_IOCTL_PRIME_FD_TO_HANDLE: this file's handle for a dma-buf's
/// object; `EBADF` for a closed descriptor, `EINVAL` for one that is no
/// dma-buf.
fn prime_fd_to_handle(file: &MsmFile, p: &mut DrmPrimeHandle) -> IoctlResult {
    let object = gem::object_of_dmabuf(p.fd)?;
    p.handle = file.handle_for(&object);
    Ok(())
}
