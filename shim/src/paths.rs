//! Which paths are the shim's: the device nodes, answered by the shim
//! itself, and the directories shown from its tree ([`crate::sysfs`]).
//! Decided from the path's text and the configuration alone, so checking a
//! path never opens anything (the shim's own file calls come through here
//! too).

use std::ffi::{c_char, CStr, CString};
use std::path::PathBuf;

use crate::config::{self, Kernel};
use crate::device;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathKind {
    /// `/dev/dri/renderD128` or `/dev/dri/card0`: minor number.
    DrmNode(u32),
    /// `/dev/kgsl-3d0`.
    KgslNode,
    /// A path shown from the shim's tree.
    Redirect(&'static str),
    NotOurs,
}

const MSM_TREE: [&str; 4] = [
    "/dev/dri",
    "/sys/dev/char/226:",
    "/sys/class/drm/",
    "/sys/class/devcoredump",
];

/// What `path` is to the shim.
pub fn classify(path: &[u8]) -> PathKind {
    let Some(kernel) = config::kernel() else {
        return PathKind::NotOurs;
    };
    match (kernel, path) {
        (Kernel::Msm, b"/dev/dri/renderD128") => PathKind::DrmNode(crate::sysfs::RENDER_MINOR),
        (Kernel::Msm, b"/dev/dri/card0") => PathKind::DrmNode(crate::sysfs::PRIMARY_MINOR),
        (Kernel::Kgsl, b"/dev/kgsl-3d0") => PathKind::KgslNode,
        (Kernel::Msm, _) => MSM_TREE
            .iter()
            .find(|prefix| {
                path.starts_with(prefix.as_bytes())
                    && (prefix.ends_with('/')
                        || prefix.ends_with(':')
                        || matches!(path.get(prefix.len()), None | Some(b'/')))
            })
            .map_or(PathKind::NotOurs, |p| PathKind::Redirect(p)),
        _ => PathKind::NotOurs,
    }
}

/// [`classify`] for a C string (null is not ours).
///
/// # Safety
/// `path` is null or a NUL-terminated string.
pub unsafe fn classify_c(path: *const c_char) -> PathKind {
    if path.is_null() {
        return PathKind::NotOurs;
    }
    // SAFETY: the caller passes a NUL-terminated string.
    classify(unsafe { CStr::from_ptr(path) }.to_bytes())
}

/// Where a redirected path is in the shim's tree (`None` if the device
/// could not be made).
pub fn redirected(path: &[u8]) -> Option<CString> {
    let device = device::get().ok()?;
    let crash_prefix = b"/sys/class/devcoredump";
    let target: PathBuf = if path.starts_with(crash_prefix) {
        let rest = std::str::from_utf8(&path[crash_prefix.len()..]).ok()?;
        device.crash_dir.join(rest.trim_start_matches('/'))
    } else {
        let rest = std::str::from_utf8(path).ok()?;
        device.tree.join(rest.trim_start_matches('/'))
    };
    CString::new(target.into_os_string().into_encoded_bytes()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_the_variable_nothing_is_ours() {
        // The test process has no PARSNIP_SHIM.
        assert_eq!(classify(b"/dev/dri/renderD128"), PathKind::NotOurs);
    }
}
