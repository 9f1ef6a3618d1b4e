//! A userspace Adreno: a library a process preloads to see an msm render
//! node (or a kgsl device) whose submits run on Parsnip's GPU model.
//!
//! ```text
//! LD_PRELOAD=target/debug/libparsnip_shim.so PARSNIP_SHIM=a660 vulkaninfo
//! LD_PRELOAD=... PARSNIP_SHIM=a740:kgsl some-android-style-program
//! ```
//!
//! With `PARSNIP_SHIM=<gpu>[:msm|:kgsl]` set, the library answers for
//! `/dev/dri/renderD128` and `/dev/dri/card0` (msm) or `/dev/kgsl-3d0`
//! (kgsl), and for the `/sys/dev/char/226:*` tree libdrm's device
//! enumeration reads, by interposing the libc calls a process reaches them
//! with ([`interpose`]): `open`/`openat` and their 64-bit and fortified
//! forms, `fopen`, `close`, `dup`/`fcntl`, `ioctl`, `mmap`, the `stat`
//! family (and glibc's older `__xstat` forms), `access`, `opendir`,
//! `readlink` and `realpath`. Everything else, and every call when the
//! variable is unset, goes to libc untouched.
//!
//! Behind the device nodes it does what the kernel does, and answers with
//! the kernel's error codes:
//! - [`msm`]: the msm DRM driver and the DRM core ioctls its users need
//!   (version, capabilities, GEM, prime, syncobjs), per open file a context
//!   with its own GPU address space, as the kernel's per-process page
//!   tables give;
//! - [`kgsl`]: Android's kgsl driver (device properties, GPU objects, draw
//!   contexts with timestamps, GPU commands with sync points, timestamp
//!   events).
//!
//! Submits run on [`parsnip_sim`], one model context per submit queue, in
//! a worker thread per queue ([`submit_queue`]). A submit that faults or
//! hangs is handled as the kernel's recovery does: the fault is counted
//! where the kernel counts it, a crash report is written
//! ([`crash_report`]), the queue's GPU state is reset, and the device stays
//! usable.
//!
//! The library depends on the model, the register database's GPU
//! catalogue and the kernel UAPI (kernel-if's ioctl structs) only, never on
//! Parsnip's driver: any msm or kgsl userspace can run on it.

#![cfg(all(target_os = "linux", target_pointer_width = "64"))]

pub mod config;
pub mod crash_report;
pub mod device;
pub mod fd_table;
pub mod fence;
pub mod gem;
pub mod gpu_vm;
pub mod handle_table;
pub mod interpose;
pub mod ioctl_arg;
pub mod kgsl;
pub mod msm;
pub mod paths;
pub mod real;
pub mod submit_queue;
pub mod sync_file;
pub mod syncobj;
pub mod sysfs;
