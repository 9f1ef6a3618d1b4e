//! An open device node and its ioctls as safe calls, for the kernel back
//! ends (msm's render node, kgsl's device).
//!
//! Every ioctl goes through [`IoctlFile::ioctl_rw`] or
//! [`IoctlFile::ioctl_w`]: the one place where argument structs cross into
//! the kernel, retried on `EINTR`/`EAGAIN` as libdrm's `drmIoctl` does (the
//! waits take absolute deadlines or are re-issued by their callers, so a
//! retry does not stretch them), and turned into an [`Error`] naming the
//! ioctl.

use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use nix::errno::Errno;
use nix::libc::c_int;

use crate::error::{Error, Result};

pub struct IoctlFile {
    file: File,
    path: PathBuf,
}

impl IoctlFile {
    pub fn open(path: &Path) -> Result<Self> {
        // Rust opens with O_CLOEXEC, so the fd does not leak into children.
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|source| Error::Io {
                what: format!("opening {}", path.display()),
                source,
            })?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn file(&self) -> &File {
        &self.file
    }

    /// An ioctl whose argument the kernel reads and writes back.
    pub fn ioctl_rw<T>(
        &self,
        name: &'static str,
        ioctl: unsafe fn(c_int, *mut T) -> nix::Result<c_int>,
        arg: &mut T,
    ) -> Result<()> {
        let fd = self.file.as_raw_fd();
        retry(name, || {
            // SAFETY: `ioctl` is one of the request functions generated in a
            // back end's `uapi` for exactly `T`, whose layout matches the
            // kernel's (the uapi layout tests); `arg` is a live, exclusive
            // borrow for the whole call, and any user pointers inside it
            // point at buffers the caller keeps alive across this call.
            unsafe { ioctl(fd, arg) }
        })
    }

    /// An ioctl whose argument the kernel only reads.
    pub fn ioctl_w<T>(
        &self,
        name: &'static str,
        ioctl: unsafe fn(c_int, *const T) -> nix::Result<c_int>,
        arg: &T,
    ) -> Result<()> {
        let fd = self.file.as_raw_fd();
        retry(name, || {
            // SAFETY: as in `ioctl_rw`, with a shared borrow the kernel
            // only reads.
            unsafe { ioctl(fd, arg) }
        })
    }
}

fn retry(name: &'static str, mut call: impl FnMut() -> nix::Result<c_int>) -> Result<()> {
    loop {
        match call() {
            Ok(_) => return Ok(()),
            Err(Errno::EINTR | Errno::EAGAIN) => continue,
            Err(errno) => return Err(Error::from_errno(name, errno)),
        }
    }
}
