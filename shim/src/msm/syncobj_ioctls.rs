//! The DRM syncobj ioctls (drm_syncobj.c), with its error codes: `ENOENT`
//! for an unknown handle in a wait/reset/signal/query, `EINVAL` for bad
//! flags or a wait on a point with no fence and no WAIT_FOR_SUBMIT, `ETIME`
//! when a wait's absolute deadline passes.

use std::ffi::c_ulong;
use std::sync::Arc;

use super::drm_uapi::*;
use super::MsmFile;
use crate::fd_table::{self, FdObject};
use crate::fence::{self, deadline_from_monotonic_ns, Fence};
use crate::ioctl_arg::{self, with_arg, IoctlResult};
use crate::sync_file;
use crate::syncobj::{PointFence, SyncObj};

pub fn ioctl(file: &Arc<MsmFile>, nr: u8, request: c_ulong, arg: u64) -> IoctlResult {
    match nr {
        DRM_SYNCOBJ_CREATE => with_arg(request, arg, |a| create(file, a)),
        DRM_SYNCOBJ_DESTROY => with_arg(request, arg, |a| destroy(file, a)),
        DRM_SYNCOBJ_HANDLE_TO_FD => with_arg(request, arg, |a| handle_to_fd(file, a)),
        DRM_SYNCOBJ_FD_TO_HANDLE => with_arg(request, arg, |a| fd_to_handle(file, a)),
        DRM_SYNCOBJ_WAIT => with_arg(request, arg, |a: &mut DrmSyncobjWait| {
            let handles = lookup(file, a.handles, a.count_handles)?;
            let points = vec![0; handles.len()];
            a.first_signaled = wait(&handles, &points, a.timeout_nsec, a.flags)?;
            Ok(())
        }),
        DRM_SYNCOBJ_TIMELINE_WAIT => with_arg(request, arg, |a: &mut DrmSyncobjTimelineWait| {
            let handles = lookup(file, a.handles, a.count_handles)?;
            let points = ioctl_arg::read_array::<u64>(a.points, a.count_handles, 8)?;
            a.first_signaled = wait(&handles, &points, a.timeout_nsec, a.flags)?;
            Ok(())
        }),
        DRM_SYNCOBJ_RESET => with_arg(request, arg, |a: &mut DrmSyncobjArray| {
            if a.pad != 0 {
                return Err(libc::EINVAL);
            }
            for s in lookup(file, a.handles, a.count_handles)? {
                s.replace(None);
            }
            Ok(())
        }),
        DRM_SYNCOBJ_SIGNAL => with_arg(request, arg, |a: &mut DrmSyncobjArray| {
            if a.pad != 0 {
                return Err(libc::EINVAL);
            }
            for s in lookup(file, a.handles, a.count_handles)? {
                s.replace(Some(Fence::signaled()));
            }
            Ok(())
        }),
        DRM_SYNCOBJ_TIMELINE_SIGNAL => with_arg(request, arg, |a: &mut DrmSyncobjTimelineArray| {
            if a.flags != 0 {
                return Err(libc::EINVAL);
            }
            let handles = lookup(file, a.handles, a.count_handles)?;
            let points = ioctl_arg::read_array::<u64>(a.points, a.count_handles, 8)?;
            for (s, p) in handles.iter().zip(points) {
                if p == 0 {
                    s.replace(Some(Fence::signaled()));
                } else {
                    s.add_point(p, Fence::signaled());
                }
            }
            Ok(())
        }),
        DRM_SYNCOBJ_QUERY => with_arg(request, arg, |a: &mut DrmSyncobjTimelineArray| {
            if a.flags & !DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED != 0 {
                return Err(libc::EINVAL);
            }
            let handles = lookup(file, a.handles, a.count_handles)?;
            let last = a.flags & DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED != 0;
            let values: Vec<u8> = handles
                .iter()
                .flat_map(|s| s.query(last).to_le_bytes())
                .collect();
            ioctl_arg::write_bytes(a.points, &values)
        }),
        DRM_SYNCOBJ_TRANSFER => with_arg(request, arg, |a| transfer(file, a)),
        _ => Err(libc::EINVAL),
    }
}

fn create(file: &MsmFile, c: &mut DrmSyncobjCreate) -> IoctlResult {
    if c.flags & !DRM_SYNCOBJ_CREATE_SIGNALED != 0 {
        return Err(libc::EINVAL);
    }
    let s = SyncObj::new(c.flags & DRM_SYNCOBJ_CREATE_SIGNALED != 0);
    c.handle = file.state.lock().syncobjs.insert(s);
    Ok(())
}

fn destroy(file: &MsmFile, d: &mut DrmSyncobjDestroy) -> IoctlResult {
    if d.pad != 0 {
        return Err(libc::EINVAL);
    }
    file.state
        .lock()
        .syncobjs
        .remove(d.handle)
        .map(|_| ())
        .ok_or(libc::EINVAL)
}

fn handle_to_fd(file: &MsmFile, h: &mut DrmSyncobjHandle) -> IoctlResult {
    if h.pad != 0 || h.flags & !DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE != 0 {
        return Err(libc::EINVAL);
    }
    let s = file.syncobj(h.handle).ok_or(libc::ENOENT)?;
    if h.flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE != 0 {
        let PointFence::Submitted(f) = s.fence_for(0) else {
            return Err(libc::EINVAL);
        };
        h.fd = sync_file::create(f)?;
        return Ok(());
    }
    // SAFETY: a NUL-terminated name.
    let fd = unsafe { libc::memfd_create(c"parsnip-shim-syncobj".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(libc::EMFILE);
    }
    fd_table::insert(fd, FdObject::SyncObj(s));
    h.fd = fd;
    Ok(())
}

fn fd_to_handle(file: &MsmFile, h: &mut DrmSyncobjHandle) -> IoctlResult {
    if h.pad != 0 || h.flags & !DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE != 0 {
        return Err(libc::EINVAL);
    }
    if h.flags & DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE != 0 {
        let fence = sync_file::fence_of(h.fd).ok_or(libc::EINVAL)?;
        let s = file.syncobj(h.handle).ok_or(libc::ENOENT)?;
        s.replace(Some(fence));
        return Ok(());
    }
    match fd_table::get(h.fd) {
        Some(FdObject::SyncObj(s)) => {
            h.handle = file.state.lock().syncobjs.insert(s);
            Ok(())
        }
        _ => Err(libc::EINVAL),
    }
}

fn transfer(file: &MsmFile, t: &mut DrmSyncobjTransfer) -> IoctlResult {
    if t.pad != 0 {
        return Err(libc::EINVAL);
    }
    let src = file.syncobj(t.src_handle).ok_or(libc::ENOENT)?;
    let dst = file.syncobj(t.dst_handle).ok_or(libc::ENOENT)?;
    let PointFence::Submitted(f) = src.fence_for(t.src_point) else {
        return Err(libc::EINVAL);
    };
    if t.dst_point == 0 {
        dst.replace(Some(f));
    } else {
        dst.add_point(t.dst_point, f);
    }
    Ok(())
}

fn lookup(file: &MsmFile, handles: u64, count: u32) -> Result<Vec<Arc<SyncObj>>, i32> {
    if count == 0 {
        return Err(libc::EINVAL);
    }
    let ids = ioctl_arg::read_array::<u32>(handles, count, 4)?;
    let state = file.state.lock();
    ids.iter()
        .map(|&h| state.syncobjs.get(h).cloned().ok_or(libc::ENOENT))
        .collect()
}

/// Waits for all or any of the points; returns the index of the first
/// signalled one (for WAIT_ANY).
fn wait(
    syncobjs: &[Arc<SyncObj>],
    points: &[u64],
    timeout_ns: i64,
    flags: u32,
) -> Result<u32, i32> {
    let known = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL
        | DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT
        | DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE;
    if flags & !known != 0 {
        return Err(libc::EINVAL);
    }
    let all = flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL != 0;
    let available_only = flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE != 0;
    if flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT == 0
        && syncobjs
            .iter()
            .zip(points)
            .any(|(s, &p)| !s.is_submitted(p))
    {
        return Err(libc::EINVAL);
    }
    let done = |i: usize| {
        let (s, p) = (&syncobjs[i], points[i]);
        if available_only {
            s.is_submitted(p)
        } else {
            s.is_signaled(p)
        }
    };
    let mut first = 0u32;
    let met = fence::wait_until(
        || {
            if all {
                (0..syncobjs.len()).all(done)
            } else if let Some(i) = (0..syncobjs.len()).find(|&i| done(i)) {
                first = i as u32;
                true
            } else {
                false
            }
        },
        deadline_from_monotonic_ns(timeout_ns),
    );
    if met {
        Ok(first)
    } else {
        Err(libc::ETIME)
    }
}
