//! The libc functions the shim interposes, as libc defines them: found with
//! `dlsym(RTLD_NEXT, ...)` on first use. The shim's own calls go here, never
//! through the interposed names, so that they cannot recurse into the shim.

use std::ffi::{c_char, c_int, c_long, c_ulong, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The next definition of `name` (NUL-terminated) after this library.
fn lookup(name: &'static str, slot: &AtomicUsize) -> usize {
    let cached = slot.load(Ordering::Acquire);
    if cached != 0 {
        return cached;
    }
    // SAFETY: `name` is a NUL-terminated literal; dlsym only reads it.
    let found = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr().cast()) } as usize;
    if found == 0 {
        let msg = format!(
            "parsnip-shim: libc has no {}\n",
            name.trim_end_matches('\0')
        );
        // SAFETY: writing a live buffer to stderr; nothing else can be done
        // for a process whose libc lacks a basic function.
        unsafe {
            libc::write(2, msg.as_ptr().cast(), msg.len());
            libc::abort();
        }
    }
    slot.store(found, Ordering::Release);
    found
}

macro_rules! real {
    ($(fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {$(
        /// libc's own definition.
        ///
        /// # Safety
        /// As for the libc function of the same name.
        pub unsafe fn $name($($arg: $ty),*) -> $ret {
            static SLOT: AtomicUsize = AtomicUsize::new(0);
            let f = lookup(concat!(stringify!($name), "\0"), &SLOT);
            // SAFETY: `f` is libc's definition of this symbol, whose C
            // signature is the one declared here.
            let f: unsafe extern "C" fn($($ty),*) -> $ret = unsafe { std::mem::transmute(f) };
            // SAFETY: the caller upholds the function's contract.
            unsafe { f($($arg),*) }
        }
    )*};
}

real! {
    fn open(path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int;
    fn open64(path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int;
    fn openat(dirfd: c_int, path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int;
    fn openat64(dirfd: c_int, path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int;
    fn fopen(path: *const c_char, mode: *const c_char) -> *mut libc::FILE;
    fn fopen64(path: *const c_char, mode: *const c_char) -> *mut libc::FILE;
    fn close(fd: c_int) -> c_int;
    fn dup(fd: c_int) -> c_int;
    fn dup2(fd: c_int, new: c_int) -> c_int;
    fn dup3(fd: c_int, new: c_int, flags: c_int) -> c_int;
    fn fcntl(fd: c_int, cmd: c_int, arg: c_long) -> c_int;
    fn ioctl(fd: c_int, request: c_ulong, arg: *mut c_void) -> c_int;
    fn mmap(addr: *mut c_void, len: usize, prot: c_int, flags: c_int, fd: c_int, off: libc::off_t) -> *mut c_void;
    fn stat(path: *const c_char, buf: *mut libc::stat) -> c_int;
    fn lstat(path: *const c_char, buf: *mut libc::stat) -> c_int;
    fn fstat(fd: c_int, buf: *mut libc::stat) -> c_int;
    fn fstatat(dirfd: c_int, path: *const c_char, buf: *mut libc::stat, flags: c_int) -> c_int;
    fn statx(dirfd: c_int, path: *const c_char, flags: c_int, mask: libc::c_uint, buf: *mut libc::statx) -> c_int;
    fn access(path: *const c_char, mode: c_int) -> c_int;
    fn faccessat(dirfd: c_int, path: *const c_char, mode: c_int, flags: c_int) -> c_int;
    fn opendir(path: *const c_char) -> *mut libc::DIR;
    fn readlink(path: *const c_char, buf: *mut c_char, len: usize) -> isize;
    fn realpath(path: *const c_char, resolved: *mut c_char) -> *mut c_char;
}
