//! Android's kgsl ioctl ABI (`msm_kgsl.h`): the argument structs a Vulkan
//! driver needs, their constants, and the ioctl request numbers.
//!
//! Debian ships no kgsl header, so these are written from the facts of the
//! Android kernel's UAPI header as Mesa carries it
//! (`src/freedreno/vulkan/msm_kgsl.h`). Unlike msm, kgsl uses `unsigned
//! long`, `size_t` and pointers in its structs, so the layouts here are
//! those of a 64-bit (LP64) process; `tests/kgsl_uapi_layout.rs` checks
//! every size, offset and request number against values worked out by hand
//! from the header.

use std::mem::size_of;

use nix::sys::ioctl::ioctl_num_type;

/// kgsl's ioctl "type" number (KGSL_IOC_TYPE).
const KGSL_IOC_TYPE: u8 = 0x09;

/// The device node a Qualcomm Android kernel gives the 3D GPU.
pub const KGSL_DEVICE_NODE: &str = "/dev/kgsl-3d0";

// Context flags (KGSL_CONTEXT_*).
pub const KGSL_CONTEXT_SAVE_GMEM: u32 = 0x0000_0001;
pub const KGSL_CONTEXT_NO_GMEM_ALLOC: u32 = 0x0000_0002;
pub const KGSL_CONTEXT_PREAMBLE: u32 = 0x0000_0010;
pub const KGSL_CONTEXT_PER_CONTEXT_TS: u32 = 0x0000_0040;
pub const KGSL_CONTEXT_NO_FAULT_TOLERANCE: u32 = 0x0000_0200;
pub const KGSL_CONTEXT_PRIORITY_MASK: u32 = 0x0000_f000;
pub const KGSL_CONTEXT_PRIORITY_SHIFT: u32 = 12;
pub const KGSL_CONTEXT_TYPE_MASK: u32 = 0x01f0_0000;
pub const KGSL_CONTEXT_TYPE_SHIFT: u32 = 20;
/// A Vulkan context (KGSL_CONTEXT_TYPE_VK, in the type field).
pub const KGSL_CONTEXT_TYPE_VK: u32 = 5;
pub const KGSL_CONTEXT_INVALIDATE_ON_FAULT: u32 = 0x1000_0000;

// Command batch flags (KGSL_CMDBATCH_*).
pub const KGSL_CMDBATCH_MARKER: u64 = 0x0000_0002;
pub const KGSL_CMDBATCH_PROFILING: u64 = 0x0000_0010;
pub const KGSL_CMDBATCH_END_OF_FRAME: u64 = 0x0000_0100;
/// A submit that only waits on its sync points.
pub const KGSL_CMDBATCH_SYNC: u64 = 0x0000_0400;

/// A command list entry the CP runs as an IB (KGSL_CMDLIST_IB).
pub const KGSL_CMDLIST_IB: u32 = 0x0000_0001;
/// An object list entry naming memory the commands use (KGSL_OBJLIST_MEMOBJ).
pub const KGSL_OBJLIST_MEMOBJ: u32 = 0x0000_0008;

// Sync point types (KGSL_CMD_SYNCPOINT_TYPE_*).
pub const KGSL_CMD_SYNCPOINT_TYPE_TIMESTAMP: u32 = 0;
pub const KGSL_CMD_SYNCPOINT_TYPE_FENCE: u32 = 1;

// Memory flags (KGSL_MEMFLAGS_*, KGSL_CACHEMODE_*).
pub const KGSL_MEMFLAGS_GPUREADONLY: u64 = 1 << 24;
pub const KGSL_CACHEMODE_MASK: u64 = 0x0c00_0000;
pub const KGSL_CACHEMODE_SHIFT: u64 = 26;
pub const KGSL_CACHEMODE_WRITECOMBINE: u64 = 0;
pub const KGSL_CACHEMODE_UNCACHED: u64 = 1;
pub const KGSL_CACHEMODE_WRITETHROUGH: u64 = 2;
pub const KGSL_CACHEMODE_WRITEBACK: u64 = 3;
pub const KGSL_MEMFLAGS_USE_CPU_MAP: u64 = 1 << 28;
pub const KGSL_MEMFLAGS_IOCOHERENT: u64 = 1 << 31;
pub const KGSL_MEMTYPE_MASK: u64 = 0x0000_ff00;
pub const KGSL_MEMALIGN_MASK: u64 = 0x00ff_0000;
/// The import type of a dma-buf (KGSL_USER_MEM_TYPE_DMABUF).
pub const KGSL_USER_MEM_TYPE_DMABUF: u32 = 3;

// Properties (KGSL_PROP_*).
pub const KGSL_PROP_DEVICE_INFO: u32 = 0x1;
pub const KGSL_PROP_VERSION: u32 = 0x8;
pub const KGSL_PROP_GPU_RESET_STAT: u32 = 0x9;
pub const KGSL_PROP_UCHE_GMEM_VADDR: u32 = 0x13;
pub const KGSL_PROP_HIGHEST_BANK_BIT: u32 = 0x17;
pub const KGSL_PROP_DEVICE_BITNESS: u32 = 0x18;
pub const KGSL_PROP_UBWC_MODE: u32 = 0x1b;
pub const KGSL_PROP_GPU_MODEL: u32 = 0x29;
pub const KGSL_PROP_GPU_VA64_SIZE: u32 = 0x2c;

// Context reset status (enum kgsl_ctx_reset_stat).
pub const KGSL_CTX_STAT_NO_ERROR: u32 = 0;
pub const KGSL_CTX_STAT_GUILTY_CONTEXT_RESET_EXT: u32 = 1;
pub const KGSL_CTX_STAT_INNOCENT_CONTEXT_RESET_EXT: u32 = 2;

// Timestamp kinds (enum kgsl_timestamp_type).
pub const KGSL_TIMESTAMP_CONSUMED: u32 = 1;
pub const KGSL_TIMESTAMP_RETIRED: u32 = 2;
pub const KGSL_TIMESTAMP_QUEUED: u32 = 3;

/// A timestamp event that signals a sync file (KGSL_TIMESTAMP_EVENT_FENCE).
pub const KGSL_TIMESTAMP_EVENT_FENCE: i32 = 2;

/// KGSL_PROP_DEVICE_INFO's value (struct kgsl_devinfo).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KgslDevinfo {
    pub device_id: u32,
    /// core, major, minor, patch: one byte each from the top.
    pub chip_id: u32,
    pub mmu_enabled: u32,
    pub gmem_gpubaseaddr: u64,
    pub gpu_id: u32,
    pub gmem_sizebytes: u64,
}

/// KGSL_PROP_VERSION's value (struct kgsl_version).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KgslVersion {
    pub drv_major: u32,
    pub drv_minor: u32,
    pub dev_major: u32,
    pub dev_minor: u32,
}

/// DEVICE_GETPROPERTY (struct kgsl_device_getproperty): `value` points at
/// `sizebytes` bytes of the property's own struct.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslDeviceGetproperty {
    pub r#type: u32,
    pub value: u64,
    pub sizebytes: u64,
}

/// DEVICE_WAITTIMESTAMP_CTXTID: `timeout` in milliseconds.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslDeviceWaittimestampCtxtid {
    pub context_id: u32,
    pub timestamp: u32,
    pub timeout: u32,
}

/// CMDSTREAM_READTIMESTAMP_CTXTID: `type` is a KGSL_TIMESTAMP_* kind.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslCmdstreamReadtimestampCtxtid {
    pub context_id: u32,
    pub r#type: u32,
    pub timestamp: u32,
}

/// DRAWCTXT_CREATE (struct kgsl_drawctxt_create).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslDrawctxtCreate {
    pub flags: u32,
    pub drawctxt_id: u32,
}

/// DRAWCTXT_DESTROY (struct kgsl_drawctxt_destroy).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslDrawctxtDestroy {
    pub drawctxt_id: u32,
}

/// GPUMEM_ALLOC_ID (struct kgsl_gpumem_alloc_id).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslGpumemAllocId {
    pub id: u32,
    pub flags: u32,
    pub size: u64,
    pub mmapsize: u64,
    pub gpuaddr: u64,
    pub pad: [u64; 2],
}

/// GPUMEM_FREE_ID (struct kgsl_gpumem_free_id).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslGpumemFreeId {
    pub id: u32,
    pub pad: u32,
}

/// GPUMEM_GET_INFO (struct kgsl_gpumem_get_info): by `gpuaddr` or `id`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslGpumemGetInfo {
    pub gpuaddr: u64,
    pub id: u32,
    pub flags: u32,
    pub size: u64,
    pub mmapsize: u64,
    pub useraddr: u64,
    pub pad: [u64; 4],
}

/// GPUOBJ_ALLOC (struct kgsl_gpuobj_alloc).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslGpuobjAlloc {
    pub size: u64,
    pub flags: u64,
    pub va_len: u64,
    pub mmapsize: u64,
    pub id: u32,
    pub metadata_len: u32,
    pub metadata: u64,
}

/// GPUOBJ_FREE (struct kgsl_gpuobj_free).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslGpuobjFree {
    pub flags: u64,
    pub r#priv: u64,
    pub id: u32,
    pub r#type: u32,
    pub len: u32,
}

/// GPUOBJ_INFO (struct kgsl_gpuobj_info).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslGpuobjInfo {
    pub gpuaddr: u64,
    pub flags: u64,
    pub size: u64,
    pub va_len: u64,
    pub va_addr: u64,
    pub id: u32,
}

/// GPUOBJ_IMPORT (struct kgsl_gpuobj_import).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslGpuobjImport {
    pub r#priv: u64,
    pub priv_len: u64,
    pub flags: u64,
    pub r#type: u32,
    pub id: u32,
}

/// GPUOBJ_IMPORT's data for a dma-buf (struct kgsl_gpuobj_import_dma_buf).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslGpuobjImportDmaBuf {
    pub fd: i32,
}

/// A command or memory object of a GPU_COMMAND (struct kgsl_command_object).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslCommandObject {
    pub offset: u64,
    pub gpuaddr: u64,
    pub size: u64,
    pub flags: u32,
    pub id: u32,
}

/// A sync point of a GPU_COMMAND (struct kgsl_command_syncpoint): `priv`
/// points at `size` bytes of the type's own struct.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslCommandSyncpoint {
    pub r#priv: u64,
    pub size: u64,
    pub r#type: u32,
}

/// A timestamp sync point (struct kgsl_cmd_syncpoint_timestamp).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslCmdSyncpointTimestamp {
    pub context_id: u32,
    pub timestamp: u32,
}

/// A sync file sync point (struct kgsl_cmd_syncpoint_fence).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslCmdSyncpointFence {
    pub fd: i32,
}

/// GPU_COMMAND (struct kgsl_gpu_command). List fields are user pointers
/// with their entries' sizes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslGpuCommand {
    pub flags: u64,
    pub cmdlist: u64,
    pub cmdsize: u32,
    pub numcmds: u32,
    pub objlist: u64,
    pub objsize: u32,
    pub numobjs: u32,
    pub synclist: u64,
    pub syncsize: u32,
    pub numsyncs: u32,
    pub context_id: u32,
    pub timestamp: u32,
}

/// TIMESTAMP_EVENT (struct kgsl_timestamp_event).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslTimestampEvent {
    pub r#type: i32,
    pub timestamp: u32,
    pub context_id: u32,
    pub r#priv: u64,
    pub len: u64,
}

/// TIMESTAMP_EVENT's data for KGSL_TIMESTAMP_EVENT_FENCE.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct KgslTimestampEventFence {
    pub fence_fd: i32,
}

const fn iowr(nr: u8, size: usize) -> ioctl_num_type {
    nix::request_code_readwrite!(KGSL_IOC_TYPE, nr, size)
}

const fn iow(nr: u8, size: usize) -> ioctl_num_type {
    nix::request_code_write!(KGSL_IOC_TYPE, nr, size)
}

pub const IOCTL_KGSL_DEVICE_GETPROPERTY: ioctl_num_type =
    iowr(0x02, size_of::<KgslDeviceGetproperty>());
pub const IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID: ioctl_num_type =
    iow(0x07, size_of::<KgslDeviceWaittimestampCtxtid>());
pub const IOCTL_KGSL_DRAWCTXT_CREATE: ioctl_num_type = iowr(0x13, size_of::<KgslDrawctxtCreate>());
pub const IOCTL_KGSL_DRAWCTXT_DESTROY: ioctl_num_type = iow(0x14, size_of::<KgslDrawctxtDestroy>());
pub const IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID: ioctl_num_type =
    iowr(0x16, size_of::<KgslCmdstreamReadtimestampCtxtid>());
pub const IOCTL_KGSL_TIMESTAMP_EVENT: ioctl_num_type = iowr(0x33, size_of::<KgslTimestampEvent>());
pub const IOCTL_KGSL_GPUMEM_ALLOC_ID: ioctl_num_type = iowr(0x34, size_of::<KgslGpumemAllocId>());
pub const IOCTL_KGSL_GPUMEM_FREE_ID: ioctl_num_type = iowr(0x35, size_of::<KgslGpumemFreeId>());
pub const IOCTL_KGSL_GPUMEM_GET_INFO: ioctl_num_type = iowr(0x36, size_of::<KgslGpumemGetInfo>());
pub const IOCTL_KGSL_GPUOBJ_ALLOC: ioctl_num_type = iowr(0x45, size_of::<KgslGpuobjAlloc>());
pub const IOCTL_KGSL_GPUOBJ_FREE: ioctl_num_type = iow(0x46, size_of::<KgslGpuobjFree>());
pub const IOCTL_KGSL_GPUOBJ_INFO: ioctl_num_type = iowr(0x47, size_of::<KgslGpuobjInfo>());
pub const IOCTL_KGSL_GPUOBJ_IMPORT: ioctl_num_type = iowr(0x48, size_of::<KgslGpuobjImport>());
pub const IOCTL_KGSL_GPU_COMMAND: ioctl_num_type = iowr(0x4a, size_of::<KgslGpuCommand>());

nix::ioctl_readwrite_bad!(
    kgsl_device_getproperty,
    IOCTL_KGSL_DEVICE_GETPROPERTY,
    KgslDeviceGetproperty
);
nix::ioctl_write_ptr_bad!(
    kgsl_device_waittimestamp_ctxtid,
    IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID,
    KgslDeviceWaittimestampCtxtid
);
nix::ioctl_readwrite_bad!(
    kgsl_drawctxt_create,
    IOCTL_KGSL_DRAWCTXT_CREATE,
    KgslDrawctxtCreate
);
nix::ioctl_write_ptr_bad!(
    kgsl_drawctxt_destroy,
    IOCTL_KGSL_DRAWCTXT_DESTROY,
    KgslDrawctxtDestroy
);
nix::ioctl_readwrite_bad!(kgsl_gpuobj_alloc, IOCTL_KGSL_GPUOBJ_ALLOC, KgslGpuobjAlloc);
nix::ioctl_write_ptr_bad!(kgsl_gpuobj_free, IOCTL_KGSL_GPUOBJ_FREE, KgslGpuobjFree);
nix::ioctl_readwrite_bad!(kgsl_gpuobj_info, IOCTL_KGSL_GPUOBJ_INFO, KgslGpuobjInfo);
nix::ioctl_readwrite_bad!(kgsl_gpu_command, IOCTL_KGSL_GPU_COMMAND, KgslGpuCommand);
