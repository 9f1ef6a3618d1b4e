//! The libc entry points the shim defines in place of libc's. Each checks
//! whether its path or descriptor is the shim's and otherwise calls libc's
//! own definition ([`crate::real`]) with the same arguments.
//!
//! Variadic C functions (`open`, `openat`, `ioctl`, `fcntl`) are defined
//! with their optional argument as a fixed one: on the 64-bit Linux ABIs
//! (x86-64 System V, AArch64 AAPCS64) a variadic argument is passed where a
//! fixed one of the same type would be, and a caller that passed none
//! leaves a value that is then ignored, as libc ignores it.

mod dirs;
mod fds;
mod open;
mod stat;

use std::ffi::c_int;

/// Sets errno and returns -1, as failing libc calls do.
fn fail(errno: i32) -> c_int {
    // SAFETY: __errno_location returns this thread's errno slot.
    unsafe { *libc::__errno_location() = errno };
    -1
}
