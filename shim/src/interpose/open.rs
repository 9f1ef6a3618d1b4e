//! `open` and its forms.

use std::ffi::{c_char, c_int, CStr};

use super::fail;
use crate::paths::{self, PathKind};
use crate::{kgsl, msm, real};

/// Opens `path` if it is the shim's; `None` when it is not.
///
/// # Safety
/// `path` is null or NUL-terminated.
unsafe fn open_ours(path: *const c_char, flags: c_int, mode: libc::mode_t) -> Option<c_int> {
    // SAFETY: as the caller promises.
    let kind = unsafe { paths::classify_c(path) };
    let result = match kind {
        PathKind::NotOurs => return None,
        PathKind::DrmNode(minor) => msm::open_node(minor, flags),
        PathKind::KgslNode => kgsl::open_node(flags),
        PathKind::Redirect(_) => {
            // SAFETY: classify_c saw a NUL-terminated string.
            let bytes = unsafe { CStr::from_ptr(path) }.to_bytes();
            match paths::redirected(bytes) {
                // SAFETY: a NUL-terminated path of ours.
                Some(target) => return Some(unsafe { real::open64(target.as_ptr(), flags, mode) }),
                None => Err(libc::ENOENT),
            }
        }
    };
    Some(result.unwrap_or_else(fail))
}

/// # Safety
/// As libc's `open`.
#[no_mangle]
pub unsafe extern "C" fn open(path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe { open_ours(path, flags, mode).unwrap_or_else(|| real::open(path, flags, mode)) }
}

/// # Safety
/// As libc's `open64`.
#[no_mangle]
pub unsafe extern "C" fn open64(path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe { open_ours(path, flags, mode).unwrap_or_else(|| real::open64(path, flags, mode)) }
}

/// The fortified `open` (no mode: O_CREAT callers use `open`).
///
/// # Safety
/// As libc's `__open_2`.
#[no_mangle]
pub unsafe extern "C" fn __open_2(path: *const c_char, flags: c_int) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe { open64(path, flags, 0) }
}

/// # Safety
/// As libc's `__open64_2`.
#[no_mangle]
pub unsafe extern "C" fn __open64_2(path: *const c_char, flags: c_int) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe { open64(path, flags, 0) }
}

/// # Safety
/// As libc's `openat`.
#[no_mangle]
pub unsafe extern "C" fn openat(
    dirfd: c_int,
    path: *const c_char,
    flags: c_int,
    mode: libc::mode_t,
) -> c_int {
    // SAFETY: the caller passes libc's arguments; only absolute paths are
    // ever the shim's, whatever `dirfd` is.
    unsafe {
        open_ours(path, flags, mode).unwrap_or_else(|| real::openat(dirfd, path, flags, mode))
    }
}

/// # Safety
/// As libc's `openat64`.
#[no_mangle]
pub unsafe extern "C" fn openat64(
    dirfd: c_int,
    path: *const c_char,
    flags: c_int,
    mode: libc::mode_t,
) -> c_int {
    // SAFETY: as for `openat`.
    unsafe {
        open_ours(path, flags, mode).unwrap_or_else(|| real::openat64(dirfd, path, flags, mode))
    }
}

/// # Safety
/// As libc's `__openat_2`.
#[no_mangle]
pub unsafe extern "C" fn __openat_2(dirfd: c_int, path: *const c_char, flags: c_int) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe { openat64(dirfd, path, flags, 0) }
}

/// # Safety
/// As libc's `__openat64_2`.
#[no_mangle]
pub unsafe extern "C" fn __openat64_2(dirfd: c_int, path: *const c_char, flags: c_int) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe { openat64(dirfd, path, flags, 0) }
}
