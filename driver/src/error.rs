//! How driver errors reach the application: every fallible driver call
//! returns a `vk::Result` error code, and what only a human can act on (a
//! device-lost report, the SPIR-V instruction the compiler refused) is
//! printed to stderr where it happens, since Vulkan has no error string.

use std::sync::atomic::{AtomicBool, Ordering};

use ash::vk;
use parsnip_kernel_if::Error as KernelError;

/// The result of a driver call: a value, or the `VkResult` error the entry
/// point returns.
pub type VkResult<T> = Result<T, vk::Result>;

/// The Vulkan result for a kernel-interface failure during `what`, printing
/// what the application cannot see: the back end's hang or fault report for
/// a lost device, the errno of a refused ioctl.
pub fn from_kernel(what: &str, error: KernelError) -> vk::Result {
    LostReport::default().result(what, error)
}

/// A device's lost report, printed once: every call after the loss returns
/// `VK_ERROR_DEVICE_LOST`, but only the first says why (the rest would
/// repeat it and bury what the application prints).
#[derive(Debug, Default)]
pub struct LostReport {
    printed: AtomicBool,
}

impl LostReport {
    /// The Vulkan result for `error` during `what`, as [`from_kernel`],
    /// printing a device-lost report only the first time.
    pub fn result(&self, what: &str, error: KernelError) -> vk::Result {
        if let KernelError::DeviceLost { report } = &error {
            if !self.printed.swap(true, Ordering::AcqRel) {
                eprintln!("parsnip: {what}: device lost: {report}");
            }
            return vk::Result::ERROR_DEVICE_LOST;
        }
        kernel_result(what, error)
    }

    /// Whether the report was printed.
    pub fn printed(&self) -> bool {
        self.printed.load(Ordering::Acquire)
    }
}

fn kernel_result(what: &str, error: KernelError) -> vk::Result {
    match error {
        KernelError::DeviceLost { .. } => vk::Result::ERROR_DEVICE_LOST,
        KernelError::Timeout { .. } => vk::Result::TIMEOUT,
        KernelError::OutOfVa { .. } => vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        KernelError::Ioctl {
            errno: parsnip_kernel_if::error::Errno::ENOMEM,
            ..
        } => vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        KernelError::Io { ref source, .. } if source.kind() == std::io::ErrorKind::OutOfMemory => {
            eprintln!("parsnip: {what}: {error}");
            vk::Result::ERROR_OUT_OF_HOST_MEMORY
        }
        KernelError::NoDevice(_) => {
            eprintln!("parsnip: {what}: {error}");
            vk::Result::ERROR_INITIALIZATION_FAILED
        }
        other => {
            eprintln!("parsnip: {what}: {other}");
            vk::Result::ERROR_UNKNOWN
        }
    }
}

/// Reports a driver-internal failure that the application did not cause (a
/// register value the database refuses, a BO write outside its bounds):
/// printed with its context, returned as `VK_ERROR_UNKNOWN`.
pub fn internal(what: &str, error: impl std::fmt::Display) -> vk::Result {
    eprintln!("parsnip: internal error: {what}: {error}");
    vk::Result::ERROR_UNKNOWN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_errors_become_the_vulkan_results_the_spec_names() {
        let lost = KernelError::DeviceLost {
            report: "hang".into(),
        };
        assert_eq!(from_kernel("submit", lost), vk::Result::ERROR_DEVICE_LOST);
        let timeout = KernelError::Timeout {
            waiting_for: "fence".into(),
        };
        assert_eq!(from_kernel("wait", timeout), vk::Result::TIMEOUT);
        let va = KernelError::OutOfVa {
            size: 1 << 40,
            align: 4096,
        };
        assert_eq!(
            from_kernel("allocate", va),
            vk::Result::ERROR_OUT_OF_DEVICE_MEMORY
        );
        let nomem = KernelError::Ioctl {
            ioctl: "GEM_NEW",
            errno: parsnip_kernel_if::error::Errno::ENOMEM,
        };
        assert_eq!(
            from_kernel("allocate", nomem),
            vk::Result::ERROR_OUT_OF_DEVICE_MEMORY
        );
    }

    #[test]
    fn a_lost_report_is_printed_once_and_every_call_still_fails() {
        let report = LostReport::default();
        let lost = || KernelError::DeviceLost {
            report: "hang".into(),
        };
        assert!(!report.printed());
        assert_eq!(
            report.result("submit", lost()),
            vk::Result::ERROR_DEVICE_LOST
        );
        assert!(report.printed());
        assert_eq!(report.result("wait", lost()), vk::Result::ERROR_DEVICE_LOST);
        let timeout = KernelError::Timeout {
            waiting_for: "fence".into(),
        };
        assert_eq!(report.result("wait", timeout), vk::Result::TIMEOUT);
    }
}
