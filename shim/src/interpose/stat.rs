//! The `stat` family: device nodes are character devices with DRM's (or
//! kgsl's) numbers, redirected paths are stat'ed in the shim's tree, and
//! glibc's older `__xstat` entry points lead to the same answers.

use std::ffi::{c_char, c_int, c_uint, CStr};

use super::fail;
use crate::fd_table::{self, FdObject};
use crate::paths::{self, PathKind};
use crate::real;
use crate::sysfs::{DRM_MAJOR, KGSL_MAJOR};

/// A character device node's attributes.
fn char_device(major: u32, minor: u32) -> libc::stat {
    // SAFETY: an all-zero stat is a valid value.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    st.st_mode = libc::S_IFCHR | 0o666;
    st.st_rdev = libc::makedev(major, minor);
    st.st_dev = libc::makedev(0, 6);
    st.st_ino = u64::from(major) << 20 | u64::from(minor);
    st.st_nlink = 1;
    st.st_blksize = 4096;
    st
}

/// The node numbers of a path or descriptor of the shim's.
fn node_of_path(kind: &PathKind) -> Option<(u32, u32)> {
    match kind {
        PathKind::DrmNode(minor) => Some((DRM_MAJOR, *minor)),
        PathKind::KgslNode => Some((KGSL_MAJOR, 0)),
        _ => None,
    }
}

fn node_of_fd(fd: c_int) -> Option<(u32, u32)> {
    match fd_table::get(fd)? {
        FdObject::Msm(f) => Some((DRM_MAJOR, f.minor)),
        FdObject::Kgsl(_) => Some((KGSL_MAJOR, 0)),
        _ => None,
    }
}

/// What a path call should do with `path`.
enum Resolved {
    Node(u32, u32),
    Path(std::ffi::CString),
    Missing,
    Real,
}

/// # Safety
/// `path` is null or NUL-terminated.
unsafe fn resolve(path: *const c_char) -> Resolved {
    // SAFETY: as the caller promises.
    let kind = unsafe { paths::classify_c(path) };
    if let Some((major, minor)) = node_of_path(&kind) {
        return Resolved::Node(major, minor);
    }
    match kind {
        PathKind::Redirect(_) => {
            // SAFETY: classify_c saw a NUL-terminated string.
            match paths::redirected(unsafe { CStr::from_ptr(path) }.to_bytes()) {
                Some(p) => Resolved::Path(p),
                None => Resolved::Missing,
            }
        }
        _ => Resolved::Real,
    }
}

/// # Safety
/// `buf` is writable.
unsafe fn put(buf: *mut libc::stat, st: libc::stat) -> c_int {
    // SAFETY: the caller's buffer.
    unsafe { buf.write(st) };
    0
}

/// # Safety
/// As libc's `stat`.
#[no_mangle]
pub unsafe extern "C" fn stat(path: *const c_char, buf: *mut libc::stat) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        match resolve(path) {
            Resolved::Node(ma, mi) => put(buf, char_device(ma, mi)),
            Resolved::Path(p) => real::stat(p.as_ptr(), buf),
            Resolved::Missing => fail(libc::ENOENT),
            Resolved::Real => real::stat(path, buf),
        }
    }
}

/// # Safety
/// As libc's `lstat`.
#[no_mangle]
pub unsafe extern "C" fn lstat(path: *const c_char, buf: *mut libc::stat) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        match resolve(path) {
            Resolved::Node(ma, mi) => put(buf, char_device(ma, mi)),
            Resolved::Path(p) => real::lstat(p.as_ptr(), buf),
            Resolved::Missing => fail(libc::ENOENT),
            Resolved::Real => real::lstat(path, buf),
        }
    }
}

/// # Safety
/// As libc's `fstat`.
#[no_mangle]
pub unsafe extern "C" fn fstat(fd: c_int, buf: *mut libc::stat) -> c_int {
    match node_of_fd(fd) {
        // SAFETY: the caller's buffer.
        Some((ma, mi)) => unsafe { put(buf, char_device(ma, mi)) },
        // SAFETY: the caller passes libc's arguments.
        None => unsafe { real::fstat(fd, buf) },
    }
}

/// # Safety
/// As libc's `fstatat`.
#[no_mangle]
pub unsafe extern "C" fn fstatat(
    dirfd: c_int,
    path: *const c_char,
    buf: *mut libc::stat,
    flags: c_int,
) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        if flags & libc::AT_EMPTY_PATH != 0 && !path.is_null() && *path == 0 {
            return fstat(dirfd, buf);
        }
        match resolve(path) {
            Resolved::Node(ma, mi) => put(buf, char_device(ma, mi)),
            Resolved::Path(p) => real::fstatat(dirfd, p.as_ptr(), buf, flags),
            Resolved::Missing => fail(libc::ENOENT),
            Resolved::Real => real::fstatat(dirfd, path, buf, flags),
        }
    }
}

/// # Safety
/// As libc's `statx`.
#[no_mangle]
pub unsafe extern "C" fn statx(
    dirfd: c_int,
    path: *const c_char,
    flags: c_int,
    mask: c_uint,
    buf: *mut libc::statx,
) -> c_int {
    // SAFETY: the caller passes libc's arguments.
    unsafe {
        let node = if flags & libc::AT_EMPTY_PATH != 0 && !path.is_null() && *path == 0 {
            node_of_fd(dirfd).map_or(Resolved::Real, |(ma, mi)| Resolved::Node(ma, mi))
        } else {
            match resolve(path) {
                Resolved::Path(p) => return real::statx(dirfd, p.as_ptr(), flags, mask, buf),
                other => other,
            }
        };
        match node {
            Resolved::Node(major, minor) => {
                let st = char_device(major, minor);
                let mut x: libc::statx = std::mem::zeroed();
                x.stx_mask = libc::STATX_BASIC_STATS;
                x.stx_mode = st.st_mode as u16;
                x.stx_nlink = 1;
                x.stx_ino = st.st_ino;
                x.stx_blksize = 4096;
                x.stx_rdev_major = major;
                x.stx_rdev_minor = minor;
                x.stx_dev_minor = 6;
                buf.write(x);
                0
            }
            Resolved::Missing => fail(libc::ENOENT),
            _ => real::statx(dirfd, path, flags, mask, buf),
        }
    }
}

macro_rules! alias {
    ($(fn $name:ident($($arg:ident: $ty:ty),*) => $target:ident;)*) => {$(
        /// The same call under another of glibc's names.
        ///
        /// # Safety
        /// As libc's function of this name.
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> c_int {
            // SAFETY: the caller passes libc's arguments.
            unsafe { $target($($arg),*) }
        }
    )*};
}

alias! {
    fn stat64(path: *const c_char, buf: *mut libc::stat) => stat;
    fn lstat64(path: *const c_char, buf: *mut libc::stat) => lstat;
    fn fstat64(fd: c_int, buf: *mut libc::stat) => fstat;
    fn fstatat64(dirfd: c_int, path: *const c_char, buf: *mut libc::stat, flags: c_int) => fstatat;
}

macro_rules! versioned {
    ($(fn $name:ident($($arg:ident: $ty:ty),*) => $target:ident;)*) => {$(
        /// glibc's versioned form (before 2.33), the version ignored: on
        /// 64-bit Linux there is one `struct stat`.
        ///
        /// # Safety
        /// As libc's function of this name.
        #[no_mangle]
        pub unsafe extern "C" fn $name(_ver: c_int, $($arg: $ty),*) -> c_int {
            // SAFETY: the caller passes libc's arguments.
            unsafe { $target($($arg),*) }
        }
    )*};
}

versioned! {
    fn __xstat(path: *const c_char, buf: *mut libc::stat) => stat;
    fn __xstat64(path: *const c_char, buf: *mut libc::stat) => stat;
    fn __lxstat(path: *const c_char, buf: *mut libc::stat) => lstat;
    fn __lxstat64(path: *const c_char, buf: *mut libc::stat) => lstat;
    fn __fxstat(fd: c_int, buf: *mut libc::stat) => fstat;
    fn __fxstat64(fd: c_int, buf: *mut libc::stat) => fstat;
    fn __fxstatat(dirfd: c_int, path: *const c_char, buf: *mut libc::stat, flags: c_int) => fstatat;
    fn __fxstatat64(dirfd: c_int, path: *const c_char, buf: *mut libc::stat, flags: c_int) => fstatat;
}
