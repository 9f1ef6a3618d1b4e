//! Driver-owned GPU resources every device has: a scratch word that cache
//! flush events write (Turnip's global BO plays that part), and the
//! internal compute shaders the transfer commands run.

use std::sync::Arc;

use ash::vk;
use parsnip_kernel_if::KernelDevice;

use crate::cmd::buffer::Recording;
use crate::device_bo::{BoKind, BoRegistry, DeviceBo};
use crate::error::VkResult;
use crate::gpu_info::GpuInfo;

pub struct InternalShaders {
    scratch: Arc<DeviceBo>,
}

impl InternalShaders {
    pub fn new(
        _gpu: &GpuInfo,
        kernel: &Arc<dyn KernelDevice>,
        bos: &Arc<BoRegistry>,
    ) -> VkResult<InternalShaders> {
        let scratch = bos.allocate(
            &**kernel,
            &parsnip_kernel_if::BoDesc::new(4096),
            BoKind::DriverData,
        )?;
        Ok(InternalShaders { scratch })
    }

    /// An address _TS events may write (the values are never read).
    pub fn scratch_iova(&self) -> u64 {
        self.scratch.iova()
    }
}

impl Recording {
    /// Fills `size` bytes (a multiple of 4) at `iova` with `value`.
    pub fn internal_fill(&mut self, iova: u64, size: u64, value: u32) -> VkResult<()> {
        let _ = (iova, size, value);
        eprintln!("parsnip: fills larger than 64 KiB need the internal fill shader, not built yet");
        Err(vk::Result::ERROR_UNKNOWN)
    }

    /// Copies `size` bytes from `src` to `dst`, any alignment.
    pub fn internal_copy(&mut self, src: u64, dst: u64, size: u64) -> VkResult<()> {
        let _ = (src, dst, size);
        eprintln!("parsnip: buffer copies need the internal copy shader, not built yet");
        Err(vk::Result::ERROR_UNKNOWN)
    }
}
