//! An open msm render node: the generic ioctl file, the `drm` crate's
//! device traits on it, and the msm calls every part of the back end makes.

use std::ops::Deref;
use std::os::fd::{AsFd, BorrowedFd};
use std::path::Path;

use super::uapi::{self, MsmParam, MSM_PIPE_3D0};
use crate::error::{Error, Result};
use crate::ioctl_file::IoctlFile;

pub struct DrmFile {
    file: IoctlFile,
}

impl Deref for DrmFile {
    type Target = IoctlFile;

    fn deref(&self) -> &IoctlFile {
        &self.file
    }
}

impl AsFd for DrmFile {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.file.file().as_fd()
    }
}

impl drm::Device for DrmFile {}
impl drm::control::Device for DrmFile {}

impl DrmFile {
    pub fn open(path: &Path) -> Result<Self> {
        Ok(Self {
            file: IoctlFile::open(path)?,
        })
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
