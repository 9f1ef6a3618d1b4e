//! Synchronisation objects: fences and semaphores (kernel sync objects) and
//! events (a word of GPU memory both the CPU and the CP read and write).

pub mod event;
pub mod fence;
pub mod semaphore;

use ash::vk;
use parsnip_kernel_if::Error as KernelError;

use crate::device::Device;

/// The result of a host wait that may time out.
pub(crate) fn wait_result(
    device: &Device,
    what: &str,
    r: parsnip_kernel_if::Result<()>,
) -> Result<(), vk::Result> {
    match r {
        Ok(()) => Ok(()),
        Err(KernelError::Timeout { .. }) => Err(vk::Result::TIMEOUT),
        Err(e) => Err(device.kernel_error(what, e)),
    }
}
