//! Path calls that only look: `access`, `opendir`, `fopen`, `readlink` and
//! `realpath` (and their fortified forms). Device nodes exist; redirected
//! paths are looked at in the shim's tree.

use std::ffi::{c_char, c_int, CStr, CString};

use super::fail;
use crate::paths::{self, PathKind};
use crate::real;

/// Where a redirected path is, or `None` for paths that are not.
///
/// # Safety
/// `path` is null or NUL-terminated.
unsafe fn redirect(path: *const c_char) -> Option<Option<CString>> {
    // SAFETY: as the caller promises.
    match unsafe { paths::classify_c(path) } {
        // SAFETY: classify_c saw a NUL-terminated string.
        PathKind::Redirect(_) => Some(paths::redirected(
            unsafe { CStr::from_ptr(path) }.to_bytes(),
        )),
        _ => None,
    }
}

/// # Safety
/// `path` is null or NUL-terminated.
unsafe fn is_node(path: *const c_char) -> bool {
    // SAFETY: as the caller promises.
    matches!(
        unsafe { paths::classify_c(path) },
        PathKind::DrmNode(_) | PathKind::KgslNode
    )
}

/// # Safety
/// As libc's `access`.
#[no_mangle]
pub unsafe extern "C" fn access(path: *const c_char, mode: c_int) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        if is_node(path) {
            return 0;
        }
        match redirect(path) {
            Some(Some(p)) => real::access(p.as_ptr(), mode),
            Some(None) => fail(libc::ENOENT),
            None => real::access(path, mode),
        }
    }
}

/// # Safety
/// As libc's `faccessat`.
#[no_mangle]
pub unsafe extern "C" fn faccessat(
    dirfd: c_int,
    path: *const c_char,
    mode: c_int,
    flags: c_int,
) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        if is_node(path) {
            return 0;
        }
        match redirect(path) {
            Some(Some(p)) => real::faccessat(dirfd, p.as_ptr(), mode, flags),
            Some(None) => fail(libc::ENOENT),
            None => real::faccessat(dirfd, path, mode, flags),
        }
    }
}

/// # Safety
/// As libc's `opendir`.
#[no_mangle]
pub unsafe extern "C" fn opendir(path: *const c_char) -> *mut libc::DIR {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        match redirect(path) {
            Some(Some(p)) => real::opendir(p.as_ptr()),
            Some(None) => {
                fail(libc::ENOENT);
                std::ptr::null_mut()
            }
            None => real::opendir(path),
        }
    }
}

/// # Safety
/// As libc's `fopen`.
#[no_mangle]
pub unsafe extern "C" fn fopen(path: *const c_char, mode: *const c_char) -> *mut libc::FILE {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        match redirect(path) {
            Some(Some(p)) => real::fopen(p.as_ptr(), mode),
            Some(None) => {
                fail(libc::ENOENT);
                std::ptr::null_mut()
            }
            None => real::fopen(path, mode),
        }
    }
}

/// # Safety
/// As libc's `fopen64`.
#[no_mangle]
pub unsafe extern "C" fn fopen64(path: *const c_char, mode: *const c_char) -> *mut libc::FILE {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        match redirect(path) {
            Some(Some(p)) => real::fopen64(p.as_ptr(), mode),
            Some(None) => {
                fail(libc::ENOENT);
                std::ptr::null_mut()
            }
            None => real::fopen64(path, mode),
        }
    }
}

/// # Safety
/// As libc's `readlink`.
#[no_mangle]
pub unsafe extern "C" fn readlink(path: *const c_char, buf: *mut c_char, len: usize) -> isize {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        match redirect(path) {
            Some(Some(p)) => real::readlink(p.as_ptr(), buf, len),
            Some(None) => fail(libc::ENOENT) as isize,
            None => real::readlink(path, buf, len),
        }
    }
}

/// # Safety
/// As libc's `__readlink_chk`.
#[no_mangle]
pub unsafe extern "C" fn __readlink_chk(
    path: *const c_char,
    buf: *mut c_char,
    len: usize,
    _buflen: usize,
) -> isize {
    // SAFETY: the caller passes libc's arguments.
    unsafe { readlink(path, buf, len) }
}

/// A redirected path resolves inside the shim's tree: callers read its
/// last components (libdrm the subsystem's name), which are sysfs's.
///
/// # Safety
/// As libc's `realpath`.
#[no_mangle]
pub unsafe extern "C" fn realpath(path: *const c_char, resolved: *mut c_char) -> *mut c_char {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        match redirect(path) {
            Some(Some(p)) => real::realpath(p.as_ptr(), resolved),
            Some(None) => {
                fail(libc::ENOENT);
                std::ptr::null_mut()
            }
            None => real::realpath(path, resolved),
        }
    }
}

/// # Safety
/// As libc's `__realpath_chk`.
#[no_mangle]
pub unsafe extern "C" fn __realpath_chk(
    path: *const c_char,
    resolved: *mut c_char,
    _resolved_len: usize,
) -> *mut c_char {
    // SAFETY: the caller passes libc's arguments.
    unsafe { realpath(path, resolved) }
}
