//! What can go wrong at the kernel boundary, in terms the driver can act on.
//!
//! The driver turns these into Vulkan results: [`Error::DeviceLost`] into
//! `VK_ERROR_DEVICE_LOST` (printing its report), [`Error::Timeout`] into
//! `VK_TIMEOUT`, an out-of-memory errno into `VK_ERROR_OUT_OF_DEVICE_MEMORY`,
//! and the rest into `VK_ERROR_INITIALIZATION_FAILED` or a validation message.

use std::fmt;

pub use nix::errno::Errno;

#[derive(Debug)]
pub enum Error {
    /// The kernel refused an ioctl. `ioctl` is the short UAPI name
    /// (`GEM_SUBMIT`, `SYNCOBJ_WAIT`, ...).
    Ioctl { ioctl: &'static str, errno: Errno },
    /// The GPU hung or faulted: nothing submitted from now on can be trusted.
    /// `report` says what the back end knows (the kernel's fault count, or the
    /// simulator's hang/fault report with the IB, packet and shader PC).
    DeviceLost { report: String },
    /// A wait reached its deadline before what it waited for happened.
    Timeout { waiting_for: String },
    /// No GPU device could be opened; the message says what was looked at
    /// and how to select another back end.
    NoDevice(String),
    /// The caller passed something the back end cannot accept; the message
    /// names the argument and the value.
    InvalidArgument(String),
    /// The GPU virtual address range has no free hole of this size.
    OutOfVa { size: u64, align: u64 },
    /// A host-side operation (open, mmap) failed.
    Io {
        what: String,
        source: std::io::Error,
    },
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The error for a failed ioctl, turning the kernel's "wait expired"
    /// answers into [`Error::Timeout`] so callers need not know which errno
    /// each ioctl uses for it (msm uses `ETIMEDOUT`, DRM syncobjs `ETIME`).
    pub fn from_errno(ioctl: &'static str, errno: Errno) -> Self {
        match errno {
            Errno::ETIMEDOUT | Errno::ETIME => Error::Timeout {
                waiting_for: ioctl.to_string(),
            },
            _ => Error::Ioctl { ioctl, errno },
        }
    }

    /// The error for a failed ioctl made through a crate reporting
    /// `std::io::Error` (the `drm` crate).
    pub fn from_io(ioctl: &'static str, err: std::io::Error) -> Self {
        Self::from_errno(ioctl, Errno::from_raw(err.raw_os_error().unwrap_or(0)))
    }

    /// Whether this is the device-lost condition.
    pub fn is_device_lost(&self) -> bool {
        matches!(self, Error::DeviceLost { .. })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Ioctl { ioctl, errno } => {
                write!(f, "{ioctl} failed: {errno:?} ({})", errno.desc())
            }
            Error::DeviceLost { report } => write!(f, "device lost: {report}"),
            Error::Timeout { waiting_for } => write!(f, "timed out waiting for {waiting_for}"),
            Error::NoDevice(why) => f.write_str(why),
            Error::InvalidArgument(why) => f.write_str(why),
            Error::OutOfVa { size, align } => write!(
                f,
                "GPU virtual address space exhausted: no free range of {size:#x} bytes aligned to {align:#x}"
            ),
            Error::Io { what, source } => write!(f, "{what}: {source}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ioctl_error_names_the_ioctl_and_the_errno() {
        let e = Error::from_errno("GEM_SUBMIT", Errno::EINVAL);
        assert!(
            e.to_string().starts_with("GEM_SUBMIT failed: EINVAL"),
            "{e}"
        );
    }

    #[test]
    fn expired_waits_become_timeouts_whichever_errno_the_kernel_used() {
        assert!(matches!(
            Error::from_errno("WAIT_FENCE", Errno::ETIMEDOUT),
            Error::Timeout { .. }
        ));
        let io = std::io::Error::from_raw_os_error(nix::libc::ETIME);
        assert!(matches!(
            Error::from_io("SYNCOBJ_WAIT", io),
            Error::Timeout { .. }
        ));
    }
}
