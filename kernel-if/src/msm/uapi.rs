//! The msm DRM driver's ioctl ABI: argument structs, their constants, and
//! the ioctl request numbers.
//!
//! Written from the facts of the kernel's UAPI header `drm/msm_drm.h` (Linux
//! 6.1, the version Debian 12 ships). Field names follow the header so each
//! can be matched against it; `tests/msm_uapi_layout.rs` compiles a C
//! program against the installed header and checks every size, offset,
//! constant and request number here against what the C compiler computes.
//!
//! Layout rules the kernel holds itself to, and so do these structs: only
//! fixed-size integers, each field aligned to its size, pointers passed as
//! u64, so the layout is the same for 32- and 64-bit processes.

use std::mem::size_of;

use nix::sys::ioctl::ioctl_num_type;

/// The ioctl "type" letter of DRM ('d') and the first driver-private
/// command number (drm.h: DRM_IOCTL_BASE, DRM_COMMAND_BASE).
pub const DRM_IOCTL_BASE: u8 = b'd';
pub const DRM_COMMAND_BASE: u8 = 0x40;

/// The 3D pipe: the only one a6xx/a7xx have (MSM_PIPE_3D0).
pub const MSM_PIPE_3D0: u32 = 0x10;

// GET_PARAM parameters (MSM_PARAM_*).
pub const MSM_PARAM_GPU_ID: u32 = 0x01;
pub const MSM_PARAM_GMEM_SIZE: u32 = 0x02;
pub const MSM_PARAM_CHIP_ID: u32 = 0x03;
pub const MSM_PARAM_MAX_FREQ: u32 = 0x04;
pub const MSM_PARAM_TIMESTAMP: u32 = 0x05;
pub const MSM_PARAM_GMEM_BASE: u32 = 0x06;
/// The number of submit queue priority levels.
pub const MSM_PARAM_PRIORITIES: u32 = 0x07;
/// GPU faults and hangs counted so far (global, plus this process's own
/// address-space faults).
pub const MSM_PARAM_PP_PGTABLE: u32 = 0x08;
pub const MSM_PARAM_FAULTS: u32 = 0x09;
/// How often the GPU was suspended (runtime PM) so far.
pub const MSM_PARAM_SUSPENDS: u32 = 0x0a;
/// SET_PARAM only: profiling mode (needs CAP_SYS_ADMIN).
pub const MSM_PARAM_SYSPROF: u32 = 0x0b;
/// SET_PARAM only: the task name and command line crash reports show.
pub const MSM_PARAM_COMM: u32 = 0x0c;
pub const MSM_PARAM_CMDLINE: u32 = 0x0d;
/// The per-process iova range; only kernels that let userspace place BOs
/// (MSM_INFO_SET_IOVA) answer these.
pub const MSM_PARAM_VA_START: u32 = 0x0e;
pub const MSM_PARAM_VA_SIZE: u32 = 0x0f;

// GEM_NEW flags (MSM_BO_*).
pub const MSM_BO_SCANOUT: u32 = 0x0000_0001;
pub const MSM_BO_GPU_READONLY: u32 = 0x0000_0002;
pub const MSM_BO_CACHE_MASK: u32 = 0x000f_0000;
/// Deprecated: the kernel maps such BOs write-combined.
pub const MSM_BO_UNCACHED: u32 = 0x0004_0000;
pub const MSM_BO_CACHED: u32 = 0x0001_0000;
pub const MSM_BO_WC: u32 = 0x0002_0000;
pub const MSM_BO_CACHED_COHERENT: u32 = 0x0008_0000;

// GEM_INFO requests (MSM_INFO_*).
pub const MSM_INFO_GET_OFFSET: u32 = 0x00;
pub const MSM_INFO_GET_IOVA: u32 = 0x01;
pub const MSM_INFO_SET_NAME: u32 = 0x02;
pub const MSM_INFO_GET_NAME: u32 = 0x03;
pub const MSM_INFO_SET_IOVA: u32 = 0x04;

// GEM_CPU_PREP operations (MSM_PREP_*).
pub const MSM_PREP_READ: u32 = 0x01;
pub const MSM_PREP_WRITE: u32 = 0x02;
pub const MSM_PREP_NOSYNC: u32 = 0x04;

/// A submit command the CP executes as an IB (MSM_SUBMIT_CMD_BUF).
pub const MSM_SUBMIT_CMD_BUF: u32 = 0x0001;
/// An IB that only other IBs of the submit jump to.
pub const MSM_SUBMIT_CMD_IB_TARGET_BUF: u32 = 0x0002;
/// An IB run only after a context switch.
pub const MSM_SUBMIT_CMD_CTX_RESTORE_BUF: u32 = 0x0003;

// Per-BO submit flags (MSM_SUBMIT_BO_*).
pub const MSM_SUBMIT_BO_READ: u32 = 0x0001;
pub const MSM_SUBMIT_BO_WRITE: u32 = 0x0002;
pub const MSM_SUBMIT_BO_DUMP: u32 = 0x0004;

// Submit flags (MSM_SUBMIT_*), or'd with the pipe.
pub const MSM_SUBMIT_NO_IMPLICIT: u32 = 0x8000_0000;
pub const MSM_SUBMIT_FENCE_FD_IN: u32 = 0x4000_0000;
pub const MSM_SUBMIT_FENCE_FD_OUT: u32 = 0x2000_0000;
pub const MSM_SUBMIT_SUDO: u32 = 0x1000_0000;
/// Userspace passes the fence seqno in (MSM_SUBMIT_FENCE_SN_IN).
pub const MSM_SUBMIT_FENCE_SN_IN: u32 = 0x0200_0000;
pub const MSM_SUBMIT_SYNCOBJ_IN: u32 = 0x0800_0000;
pub const MSM_SUBMIT_SYNCOBJ_OUT: u32 = 0x0400_0000;

/// Reset a waited-on syncobj once the wait is over (MSM_SUBMIT_SYNCOBJ_RESET).
pub const MSM_SUBMIT_SYNCOBJ_RESET: u32 = 0x0000_0001;

/// The submitqueue query of the faults its submits caused.
pub const MSM_SUBMITQUEUE_PARAM_FAULTS: u32 = 0;

/// An absolute CLOCK_MONOTONIC time (struct drm_msm_timespec).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MsmTimespec {
    pub tv_sec: i64,
    pub tv_nsec: i64,
}

/// GET_PARAM (struct drm_msm_param).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmParam {
    pub pipe: u32,
    pub param: u32,
    pub value: u64,
    pub len: u32,
    pub pad: u32,
}

/// GEM_NEW (struct drm_msm_gem_new).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmGemNew {
    pub size: u64,
    pub flags: u32,
    pub handle: u32,
}

/// GEM_INFO (struct drm_msm_gem_info): `value` is in or out by `info`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmGemInfo {
    pub handle: u32,
    pub info: u32,
    pub value: u64,
    pub len: u32,
    pub pad: u32,
}

/// GEM_CPU_PREP (struct drm_msm_gem_cpu_prep).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmGemCpuPrep {
    pub handle: u32,
    pub op: u32,
    pub timeout: MsmTimespec,
}

/// GEM_CPU_FINI (struct drm_msm_gem_cpu_fini).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmGemCpuFini {
    pub handle: u32,
}

/// One command buffer of a submit (struct drm_msm_gem_submit_cmd): `size`
/// bytes at `submit_offset` in BO table entry `submit_idx`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmGemSubmitCmd {
    pub r#type: u32,
    pub submit_idx: u32,
    pub submit_offset: u32,
    pub size: u32,
    pub pad: u32,
    pub nr_relocs: u32,
    pub relocs: u64,
}

/// One BO table entry of a submit (struct drm_msm_gem_submit_bo).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmGemSubmitBo {
    pub flags: u32,
    pub handle: u32,
    pub presumed: u64,
}

/// A syncobj point a submit waits on or signals
/// (struct drm_msm_gem_submit_syncobj).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmGemSubmitSyncobj {
    pub handle: u32,
    pub flags: u32,
    pub point: u64,
}

/// GEM_SUBMIT (struct drm_msm_gem_submit). Array fields are user pointers.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmGemSubmit {
    pub flags: u32,
    pub fence: u32,
    pub nr_bos: u32,
    pub nr_cmds: u32,
    pub bos: u64,
    pub cmds: u64,
    pub fence_fd: i32,
    pub queueid: u32,
    pub in_syncobjs: u64,
    pub out_syncobjs: u64,
    pub nr_in_syncobjs: u32,
    pub nr_out_syncobjs: u32,
    pub syncobj_stride: u32,
    pub pad: u32,
}

/// WAIT_FENCE (struct drm_msm_wait_fence).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmWaitFence {
    pub fence: u32,
    pub pad: u32,
    pub timeout: MsmTimespec,
    pub queueid: u32,
}

/// SUBMITQUEUE_NEW (struct drm_msm_submitqueue).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmSubmitqueue {
    pub flags: u32,
    pub prio: u32,
    pub id: u32,
}

/// SUBMITQUEUE_QUERY (struct drm_msm_submitqueue_query): `data` points at
/// `len` bytes for the answer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmSubmitqueueQuery {
    pub data: u64,
    pub id: u32,
    pub param: u32,
    pub len: u32,
    pub pad: u32,
}

/// GEM_MADVISE (struct drm_msm_gem_madvise).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsmGemMadvise {
    pub handle: u32,
    pub madv: u32,
    pub retained: u32,
}

// Driver command numbers (DRM_MSM_*), offsets from DRM_COMMAND_BASE.
pub const DRM_MSM_GET_PARAM: u8 = 0x00;
pub const DRM_MSM_SET_PARAM: u8 = 0x01;
pub const DRM_MSM_GEM_NEW: u8 = 0x02;
pub const DRM_MSM_GEM_INFO: u8 = 0x03;
pub const DRM_MSM_GEM_CPU_PREP: u8 = 0x04;
pub const DRM_MSM_GEM_CPU_FINI: u8 = 0x05;
pub const DRM_MSM_GEM_SUBMIT: u8 = 0x06;
pub const DRM_MSM_WAIT_FENCE: u8 = 0x07;
pub const DRM_MSM_GEM_MADVISE: u8 = 0x08;
pub const DRM_MSM_SUBMITQUEUE_NEW: u8 = 0x0a;
pub const DRM_MSM_SUBMITQUEUE_CLOSE: u8 = 0x0b;
pub const DRM_MSM_SUBMITQUEUE_QUERY: u8 = 0x0c;

const fn iowr(nr: u8, size: usize) -> ioctl_num_type {
    nix::request_code_readwrite!(DRM_IOCTL_BASE, DRM_COMMAND_BASE + nr, size)
}

const fn iow(nr: u8, size: usize) -> ioctl_num_type {
    nix::request_code_write!(DRM_IOCTL_BASE, DRM_COMMAND_BASE + nr, size)
}

// Request numbers (DRM_IOCTL_MSM_*): direction, 'd', command, argument size.
pub const DRM_IOCTL_MSM_GET_PARAM: ioctl_num_type = iowr(DRM_MSM_GET_PARAM, size_of::<MsmParam>());
pub const DRM_IOCTL_MSM_SET_PARAM: ioctl_num_type = iow(DRM_MSM_SET_PARAM, size_of::<MsmParam>());
pub const DRM_IOCTL_MSM_GEM_NEW: ioctl_num_type = iowr(DRM_MSM_GEM_NEW, size_of::<MsmGemNew>());
pub const DRM_IOCTL_MSM_GEM_INFO: ioctl_num_type = iowr(DRM_MSM_GEM_INFO, size_of::<MsmGemInfo>());
pub const DRM_IOCTL_MSM_GEM_CPU_PREP: ioctl_num_type =
    iow(DRM_MSM_GEM_CPU_PREP, size_of::<MsmGemCpuPrep>());
pub const DRM_IOCTL_MSM_GEM_CPU_FINI: ioctl_num_type =
    iow(DRM_MSM_GEM_CPU_FINI, size_of::<MsmGemCpuFini>());
pub const DRM_IOCTL_MSM_GEM_SUBMIT: ioctl_num_type =
    iowr(DRM_MSM_GEM_SUBMIT, size_of::<MsmGemSubmit>());
pub const DRM_IOCTL_MSM_WAIT_FENCE: ioctl_num_type =
    iow(DRM_MSM_WAIT_FENCE, size_of::<MsmWaitFence>());
pub const DRM_IOCTL_MSM_GEM_MADVISE: ioctl_num_type =
    iowr(DRM_MSM_GEM_MADVISE, size_of::<MsmGemMadvise>());
pub const DRM_IOCTL_MSM_SUBMITQUEUE_NEW: ioctl_num_type =
    iowr(DRM_MSM_SUBMITQUEUE_NEW, size_of::<MsmSubmitqueue>());
pub const DRM_IOCTL_MSM_SUBMITQUEUE_CLOSE: ioctl_num_type =
    iow(DRM_MSM_SUBMITQUEUE_CLOSE, size_of::<u32>());
pub const DRM_IOCTL_MSM_SUBMITQUEUE_QUERY: ioctl_num_type =
    iow(DRM_MSM_SUBMITQUEUE_QUERY, size_of::<MsmSubmitqueueQuery>());

nix::ioctl_readwrite_bad!(msm_get_param, DRM_IOCTL_MSM_GET_PARAM, MsmParam);
nix::ioctl_readwrite_bad!(msm_gem_new, DRM_IOCTL_MSM_GEM_NEW, MsmGemNew);
nix::ioctl_readwrite_bad!(msm_gem_info, DRM_IOCTL_MSM_GEM_INFO, MsmGemInfo);
nix::ioctl_write_ptr_bad!(msm_gem_cpu_prep, DRM_IOCTL_MSM_GEM_CPU_PREP, MsmGemCpuPrep);
nix::ioctl_write_ptr_bad!(msm_gem_cpu_fini, DRM_IOCTL_MSM_GEM_CPU_FINI, MsmGemCpuFini);
nix::ioctl_readwrite_bad!(msm_gem_submit, DRM_IOCTL_MSM_GEM_SUBMIT, MsmGemSubmit);
nix::ioctl_write_ptr_bad!(msm_wait_fence, DRM_IOCTL_MSM_WAIT_FENCE, MsmWaitFence);
nix::ioctl_readwrite_bad!(
    msm_submitqueue_new,
    DRM_IOCTL_MSM_SUBMITQUEUE_NEW,
    MsmSubmitqueue
);
nix::ioctl_write_ptr_bad!(msm_submitqueue_close, DRM_IOCTL_MSM_SUBMITQUEUE_CLOSE, u32);
