//! The DRM core ioctl ABI an msm user needs (`drm/drm.h`) and sync files'
//! (`linux/sync_file.h`): argument structs and command numbers, written
//! from the kernel's UAPI headers; `tests/drm_uapi_layout.rs` checks them
//! against the headers as a C compiler reads them.

use crate::ioctl_arg::pod;

// DRM core command numbers (the `nr` of DRM_IOCTL_*, type 'd').
pub const DRM_VERSION: u8 = 0x00;
pub const DRM_GET_UNIQUE: u8 = 0x01;
pub const DRM_GET_MAGIC: u8 = 0x02;
pub const DRM_GEM_CLOSE: u8 = 0x09;
pub const DRM_GEM_FLINK: u8 = 0x0a;
pub const DRM_GEM_OPEN: u8 = 0x0b;
pub const DRM_GET_CAP: u8 = 0x0c;
pub const DRM_SET_CLIENT_CAP: u8 = 0x0d;
pub const DRM_PRIME_HANDLE_TO_FD: u8 = 0x2d;
pub const DRM_PRIME_FD_TO_HANDLE: u8 = 0x2e;
pub const DRM_SYNCOBJ_CREATE: u8 = 0xbf;
pub const DRM_SYNCOBJ_DESTROY: u8 = 0xc0;
pub const DRM_SYNCOBJ_HANDLE_TO_FD: u8 = 0xc1;
pub const DRM_SYNCOBJ_FD_TO_HANDLE: u8 = 0xc2;
pub const DRM_SYNCOBJ_WAIT: u8 = 0xc3;
pub const DRM_SYNCOBJ_RESET: u8 = 0xc4;
pub const DRM_SYNCOBJ_SIGNAL: u8 = 0xc5;
pub const DRM_SYNCOBJ_TIMELINE_WAIT: u8 = 0xca;
pub const DRM_SYNCOBJ_QUERY: u8 = 0xcb;
pub const DRM_SYNCOBJ_TRANSFER: u8 = 0xcc;
pub const DRM_SYNCOBJ_TIMELINE_SIGNAL: u8 = 0xcd;

// Capabilities (DRM_CAP_*).
pub const DRM_CAP_PRIME: u64 = 0x5;
pub const DRM_PRIME_CAP_IMPORT: u64 = 0x1;
pub const DRM_PRIME_CAP_EXPORT: u64 = 0x2;
pub const DRM_CAP_TIMESTAMP_MONOTONIC: u64 = 0x6;
pub const DRM_CAP_SYNCOBJ: u64 = 0x13;
pub const DRM_CAP_SYNCOBJ_TIMELINE: u64 = 0x14;

// Flags.
pub const DRM_CLOEXEC: u32 = libc::O_CLOEXEC as u32;
pub const DRM_RDWR: u32 = libc::O_RDWR as u32;
pub const DRM_SYNCOBJ_CREATE_SIGNALED: u32 = 1 << 0;
pub const DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE: u32 = 1 << 0;
pub const DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE: u32 = 1 << 0;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL: u32 = 1 << 0;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT: u32 = 1 << 1;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE: u32 = 1 << 2;
pub const DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED: u32 = 1 << 0;

/// DRM_IOCTL_VERSION (struct drm_version): the name, date and description
/// are copied into the caller's buffers, as far as their lengths allow.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmVersion {
    pub version_major: i32,
    pub version_minor: i32,
    pub version_patchlevel: i32,
    pub name_len: u64,
    pub name: u64,
    pub date_len: u64,
    pub date: u64,
    pub desc_len: u64,
    pub desc: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmGemClose {
    pub handle: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmGetCap {
    pub capability: u64,
    pub value: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmPrimeHandle {
    pub handle: u32,
    pub flags: u32,
    pub fd: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmSyncobjCreate {
    pub handle: u32,
    pub flags: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmSyncobjDestroy {
    pub handle: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmSyncobjHandle {
    pub handle: u32,
    pub flags: u32,
    pub fd: i32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmSyncobjTransfer {
    pub src_handle: u32,
    pub dst_handle: u32,
    pub src_point: u64,
    pub dst_point: u64,
    pub flags: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmSyncobjWait {
    pub handles: u64,
    pub timeout_nsec: i64,
    pub count_handles: u32,
    pub flags: u32,
    pub first_signaled: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmSyncobjTimelineWait {
    pub handles: u64,
    pub points: u64,
    pub timeout_nsec: i64,
    pub count_handles: u32,
    pub flags: u32,
    pub first_signaled: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmSyncobjArray {
    pub handles: u64,
    pub count_handles: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmSyncobjTimelineArray {
    pub handles: u64,
    pub points: u64,
    pub count_handles: u32,
    pub flags: u32,
}

/// The sync file ioctls' type letter and command numbers.
pub const SYNC_IOC_MAGIC: u8 = b'>';
pub const SYNC_IOC_MERGE: u8 = 3;
pub const SYNC_IOC_FILE_INFO: u8 = 4;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SyncMergeData {
    pub name: [u8; 32],
    pub fd2: i32,
    pub fence: i32,
    pub flags: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SyncFileInfo {
    pub name: [u8; 32],
    pub status: i32,
    pub flags: u32,
    pub num_fences: u32,
    pub pad: u32,
    pub sync_fence_info: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SyncFenceInfo {
    pub obj_name: [u8; 32],
    pub driver_name: [u8; 32],
    pub status: i32,
    pub flags: u32,
    pub timestamp_ns: u64,
}

pod!(
    DrmVersion,
    DrmGemClose,
    DrmGetCap,
    DrmPrimeHandle,
    DrmSyncobjCreate,
    DrmSyncobjDestroy,
    DrmSyncobjHandle,
    DrmSyncobjTransfer,
    DrmSyncobjWait,
    DrmSyncobjTimelineWait,
    DrmSyncobjArray,
    DrmSyncobjTimelineArray,
    SyncMergeData,
    SyncFileInfo,
    SyncFenceInfo,
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};
    use std::path::PathBuf;
    use std::process::Command;

    /// (C expression, our value): sizes, offsets and constants.
    fn facts() -> Vec<(&'static str, usize)> {
        macro_rules! size {
            ($c:literal, $t:ty) => {
                (concat!("sizeof(struct ", $c, ")"), size_of::<$t>())
            };
        }
        macro_rules! offset {
            ($c:literal, $t:ty, $f:ident) => {
                (
                    concat!("offsetof(struct ", $c, ", ", stringify!($f), ")"),
                    offset_of!($t, $f),
                )
            };
        }
        vec![
            size!("drm_version", DrmVersion),
            offset!("drm_version", DrmVersion, name_len),
            offset!("drm_version", DrmVersion, desc),
            size!("drm_gem_close", DrmGemClose),
            size!("drm_get_cap", DrmGetCap),
            size!("drm_prime_handle", DrmPrimeHandle),
            size!("drm_syncobj_create", DrmSyncobjCreate),
            size!("drm_syncobj_destroy", DrmSyncobjDestroy),
            size!("drm_syncobj_handle", DrmSyncobjHandle),
            size!("drm_syncobj_transfer", DrmSyncobjTransfer),
            offset!("drm_syncobj_transfer", DrmSyncobjTransfer, flags),
            size!("drm_syncobj_wait", DrmSyncobjWait),
            offset!("drm_syncobj_wait", DrmSyncobjWait, first_signaled),
            size!("drm_syncobj_timeline_wait", DrmSyncobjTimelineWait),
            offset!(
                "drm_syncobj_timeline_wait",
                DrmSyncobjTimelineWait,
                first_signaled
            ),
            size!("drm_syncobj_array", DrmSyncobjArray),
            size!("drm_syncobj_timeline_array", DrmSyncobjTimelineArray),
            size!("sync_merge_data", SyncMergeData),
            size!("sync_file_info", SyncFileInfo),
            offset!("sync_file_info", SyncFileInfo, sync_fence_info),
            size!("sync_fence_info", SyncFenceInfo),
            ("DRM_IOCTL_VERSION & 0xff", usize::from(DRM_VERSION)),
            ("DRM_IOCTL_GEM_CLOSE & 0xff", usize::from(DRM_GEM_CLOSE)),
            ("DRM_IOCTL_GET_CAP & 0xff", usize::from(DRM_GET_CAP)),
            (
                "DRM_IOCTL_PRIME_HANDLE_TO_FD & 0xff",
                usize::from(DRM_PRIME_HANDLE_TO_FD),
            ),
            (
                "DRM_IOCTL_PRIME_FD_TO_HANDLE & 0xff",
                usize::from(DRM_PRIME_FD_TO_HANDLE),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_CREATE & 0xff",
                usize::from(DRM_SYNCOBJ_CREATE),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_DESTROY & 0xff",
                usize::from(DRM_SYNCOBJ_DESTROY),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD & 0xff",
                usize::from(DRM_SYNCOBJ_HANDLE_TO_FD),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE & 0xff",
                usize::from(DRM_SYNCOBJ_FD_TO_HANDLE),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_WAIT & 0xff",
                usize::from(DRM_SYNCOBJ_WAIT),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_RESET & 0xff",
                usize::from(DRM_SYNCOBJ_RESET),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_SIGNAL & 0xff",
                usize::from(DRM_SYNCOBJ_SIGNAL),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT & 0xff",
                usize::from(DRM_SYNCOBJ_TIMELINE_WAIT),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_QUERY & 0xff",
                usize::from(DRM_SYNCOBJ_QUERY),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_TRANSFER & 0xff",
                usize::from(DRM_SYNCOBJ_TRANSFER),
            ),
            (
                "DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL & 0xff",
                usize::from(DRM_SYNCOBJ_TIMELINE_SIGNAL),
            ),
            (
                "DRM_CAP_SYNCOBJ_TIMELINE",
                DRM_CAP_SYNCOBJ_TIMELINE as usize,
            ),
            (
                "DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE",
                DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE as usize,
            ),
            ("SYNC_IOC_MERGE & 0xff", usize::from(SYNC_IOC_MERGE)),
            ("SYNC_IOC_FILE_INFO & 0xff", usize::from(SYNC_IOC_FILE_INFO)),
            (
                "(SYNC_IOC_FILE_INFO >> 8) & 0xff",
                usize::from(SYNC_IOC_MAGIC),
            ),
        ]
    }

    #[test]
    fn structs_and_numbers_match_the_kernel_headers() {
        let Some(uapi) = std::fs::read_dir("/usr/src").ok().and_then(|d| {
            let mut v: Vec<PathBuf> = d
                .filter_map(|e| e.ok())
                .map(|e| e.path().join("include/uapi/drm"))
                .filter(|p| p.join("drm.h").is_file())
                .collect();
            v.sort();
            v.pop()
        }) else {
            let required = std::env::var(parsnip_reference::REQUIRE_VAR).is_ok_and(|v| v == "1");
            assert!(!required, "no kernel drm.h under /usr/src");
            eprintln!(
                "SKIPPED: no kernel drm.h (install linux-headers-$(dpkg --print-architecture))"
            );
            return;
        };
        let facts = facts();
        let mut c = String::from(
            "#include <stddef.h>\n#include <stdio.h>\n#include \"drm.h\"\n#include <linux/sync_file.h>\n\
             int main(void) {\n",
        );
        for (expr, _) in &facts {
            c += &format!("  printf(\"%llu\\n\", (unsigned long long)({expr}));\n");
        }
        c += "  return 0;\n}\n";
        let dir =
            std::env::temp_dir().join(format!("parsnip-shim-drm-uapi-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("layout.c"), c).unwrap();
        let built = Command::new("cc")
            .args(["-std=c11", "-D__user=", "-o"])
            .arg(dir.join("layout"))
            .arg("-I")
            .arg(&uapi)
            .arg(dir.join("layout.c"))
            .output()
            .unwrap();
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
        let out = Command::new(dir.join("layout")).output().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let values: Vec<usize> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        let wrong: Vec<String> = facts
            .iter()
            .zip(&values)
            .filter(|((_, ours), theirs)| ours != *theirs)
            .map(|((expr, ours), theirs)| format!("{expr}: ours {ours}, header {theirs}"))
            .collect();
        assert!(
            wrong.is_empty() && values.len() == facts.len(),
            "{}",
            wrong.join("\n")
        );
    }
}
