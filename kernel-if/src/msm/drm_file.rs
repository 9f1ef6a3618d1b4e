//! An open msm render node, and its ioctls as safe calls.
//!
//! Every ioctl goes through [`DrmFile::ioctl_rw`] or [`DrmFile::ioctl_w`]:
//! the one place where argument structs cross into the kernel, retried on
//! `EINTR`/`EAGAIN` as libdrm's `drmIoctl` does (the msm waits take absolute
//! deadlines, so a retry does not stretch them), and turned into an
//! [`Error`] naming the ioctl.

use std::fs::{File, OpenOptions};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::path::{Path, PathBuf};

use nix::errno::Errno;
use nix::libc::c_int;

use super::uapi::{self, MsmParam, MSM_PIPE_3D0};
use crate::error::{Error, Result};

pub struct DrmFile {
    file: File,
    path: PathBuf,
}

impl AsFd for DrmFile {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.file.as_fd()
    }
}

impl drm::Device for DrmFile {}
impl drm::control::Device for DrmFile {}

impl DrmFile {
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
        self.retry(name, || {
            // SAFETY: `ioctl` is one of the request functions generated in
            // `uapi` for exactly `T`, whose layout matches the kernel's
            // (tests/msm_uapi_layout.rs); `arg` is a live, exclusive borrow
            // for the whole call, and any user pointers inside it point at
            // buffers the caller keeps alive across this call.
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
        self.retry(name, || {
            // SAFETY: as in `ioctl_rw`, with a shared borrow the kernel
            // only reads.
            unsafe { ioctl(fd, arg) }
        })
    }

    fn retry(
        &self,
        name: &'static str,
        mut call: impl FnMut() -> nix::Result<c_int>,
    ) -> Result<()> {
        loop {
            match call() {
                Ok(_) => return Ok(()),
                Err(Errno::EINTR | Errno::EAGAIN) => continue,
                Err(errno) => return Err(Error::from_errno(name, errno)),
            }
        }
    }

    /// One GET_PARAM value of the 3D pipe.
    pub fn get_param(&self, param: u32) -> Result<u64> {
        let mut arg = MsmParam {
            pipe: MSM_PIPE_3D0,
            param,
            ..MsmParam::default()
        };
        self.ioctl_rw("GET_PARAM", uapi::msm_get_param, &mut arg)?;
        Ok(arg.value)
    }

    /// Drops this file's reference to a GEM object (DRM_IOCTL_GEM_CLOSE).
    pub fn gem_close(&self, handle: u32) -> Result<()> {
        let handle: drm::buffer::Handle = drm::control::from_u32(handle)
            .ok_or_else(|| Error::InvalidArgument("GEM handle 0 is never valid".into()))?;
        drm::control::Device::close_buffer(self, handle).map_err(|e| Error::from_io("GEM_CLOSE", e))
    }
}
