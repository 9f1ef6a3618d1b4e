//! The device trait: everything the driver asks of "a GPU", whichever back
//! end stands behind it.

use crate::bo::{Bo, BoDesc};
use crate::deadline::Deadline;
use crate::error::Result;
use crate::submit::{Fence, QueueId, Submit};
use crate::syncobj::{SyncObj, SyncPoint, WaitMode};

/// The facts about a GPU that only the hardware (or its catalogue) knows.
/// The msm back end reads them from the kernel; software back ends are given
/// them by the caller, from the GPU catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuFacts {
    /// The legacy GPU id (660 for an a660); 0 where the kernel reports only
    /// a chip id.
    pub gpu_id: u32,
    /// The chip id: core, major, minor and patch revision, one byte each from
    /// the top (0x06060001 is an a660).
    pub chip_id: u64,
    /// Bytes of on-chip tile memory.
    pub gmem_size: u64,
    /// Where GMEM appears in the GPU address space for blits and resolves.
    pub gmem_base: u64,
}

/// Which kind of back end a device is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A real GPU through the msm kernel driver: the render node and the
    /// driver's version.
    Msm {
        node: std::path::PathBuf,
        version: (i32, i32, i32),
    },
    /// A real GPU through Android's kgsl driver: its device node.
    Kgsl { node: std::path::PathBuf },
    /// Accepts submits without executing them.
    Null,
    /// Parsnip's model of the GPU.
    Simulator,
}

/// Where software back ends put their GPU address space: from 4 GiB, as the
/// msm kernel's per-process address spaces start (its MSM_PARAM_VA_START on
/// a6xx), so a valid iova never has a zero high word.
pub const SOFTWARE_VA_START: u64 = 0x1_0000_0000;
/// How long the software back ends' address space is (16 GiB).
pub const SOFTWARE_VA_SIZE: u64 = 0x4_0000_0000;
/// Submit queue priorities the software back ends offer: what the msm kernel
/// reports for a6xx (one ring, three scheduler priorities).
pub const SOFTWARE_PRIORITIES: u32 = 3;
/// The rate of the always-on counter the CP's timestamps and
/// MSM_PARAM_TIMESTAMP read: 19.2 MHz (Turnip's timestampPeriod is
/// 1e9 / 19.2e6 ns).
pub const ALWAYS_ON_COUNTER_HZ: u64 = 19_200_000;

/// What the driver needs to know about the device it opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    pub gpu: GpuFacts,
    pub backend: Backend,
    /// The iova range BOs live in (the kernel's per-process address space).
    /// Both 0 when the kernel does not say.
    pub va_start: u64,
    pub va_size: u64,
    /// Whether userspace may choose iovas ([`BoDesc::fixed_iova`]); the
    /// driver then also needs it for buffer device address capture/replay.
    pub userspace_iova: bool,
    /// Submit queue priorities: 0 (highest) to `priorities - 1`.
    pub priorities: u32,
    /// Whether syncobjs have timeline points (DRM_CAP_SYNCOBJ_TIMELINE).
    pub timeline_syncobjs: bool,
    /// Whether [`crate::CpuCaching::CachedCoherent`] BOs can be allocated.
    pub cached_coherent: bool,
    /// Frequency of the counter [`KernelDevice::timestamp`] reads, in Hz.
    pub timestamp_frequency: u64,
}

impl DeviceInfo {
    /// The description of a back end that runs on the host: the caller's GPU
    /// facts, the software address space, timelines and coherent caching.
    pub fn software(gpu: GpuFacts, backend: Backend) -> Self {
        Self {
            gpu,
            backend,
            va_start: SOFTWARE_VA_START,
            va_size: SOFTWARE_VA_SIZE,
            userspace_iova: true,
            priorities: SOFTWARE_PRIORITIES,
            timeline_syncobjs: true,
            cached_coherent: true,
            timestamp_frequency: ALWAYS_ON_COUNTER_HZ,
        }
    }
}

/// What the CPU is about to do with a BO's mapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuAccess {
    Read,
    Write,
    ReadWrite,
}

/// A GPU, as the driver sees it. One value per opened device, shared by the
/// driver's threads.
///
/// Once the back end knows the GPU hung or faulted, [`KernelDevice::status`],
/// [`KernelDevice::submit`] and [`KernelDevice::fence_wait`] return
/// [`crate::Error::DeviceLost`] with its report.
pub trait KernelDevice: Send + Sync {
    /// Facts fixed at open time.
    fn info(&self) -> &DeviceInfo;

    /// A new kernel context on the same GPU, as a second open of the render
    /// node gives one (and as Turnip opens one per `VkDevice`): its own
    /// address space, submit queues, sync objects and fault state, so that a
    /// hang or fault in one context loses that context only, as the kernel's
    /// per-context recovery does. BOs and sync objects of one context are
    /// not valid in another.
    fn open_context(&self) -> Result<std::sync::Arc<dyn KernelDevice>>;

    /// Ok while the device works; [`crate::Error::DeviceLost`] with the back
    /// end's report after a GPU hang or fault.
    fn status(&self) -> Result<()>;

    /// The GPU's free-running timestamp counter, in ticks of
    /// [`DeviceInfo::timestamp_frequency`].
    fn timestamp(&self) -> Result<u64>;

    /// Allocates a BO with a GPU address. It is freed when dropped.
    fn bo_new(&self, desc: &BoDesc) -> Result<Bo>;

    /// Waits until the GPU has finished the submitted work that `access`
    /// conflicts with, so the CPU may use the mapping (reads see GPU writes).
    fn bo_cpu_prep(&self, bo: &Bo, access: CpuAccess, deadline: Deadline) -> Result<()>;

    /// Ends the CPU access [`KernelDevice::bo_cpu_prep`] began.
    fn bo_cpu_fini(&self, bo: &Bo) -> Result<()>;

    /// Creates a submit queue of `priority` (0 is the highest).
    fn queue_new(&self, priority: u32) -> Result<QueueId>;

    /// Closes a queue. Work already submitted to it still completes, except,
    /// on the software back ends, work still waiting for a sync point nothing
    /// has signalled: that is dropped without signalling its points.
    fn queue_close(&self, queue: QueueId) -> Result<()>;

    /// Queues command buffers; returns the fence that passes when they finish.
    /// Returns once the work is queued, without waiting for `submit.waits`.
    fn submit(&self, submit: &Submit<'_>) -> Result<Fence>;

    /// Waits until `fence` has passed.
    fn fence_wait(&self, fence: Fence, deadline: Deadline) -> Result<()>;

    /// Creates a sync object, its binary payload already signalled or not.
    fn syncobj_create(&self, signaled: bool) -> Result<SyncObj>;

    fn syncobj_destroy(&self, syncobj: SyncObj) -> Result<()>;

    /// Unsignals binary payloads.
    fn syncobj_reset(&self, syncobjs: &[SyncObj]) -> Result<()>;

    /// Signals points from the CPU.
    fn syncobj_signal(&self, points: &[SyncPoint]) -> Result<()>;

    /// Waits until all or any of `points` are signalled, including points
    /// whose signalling submit has not been made yet (wait-before-signal).
    fn syncobj_wait(&self, points: &[SyncPoint], mode: WaitMode, deadline: Deadline) -> Result<()>;

    /// The last signalled point of a timeline. Meaningful for timelines only:
    /// what a binary payload reports differs between back ends.
    fn syncobj_query(&self, syncobj: SyncObj) -> Result<u64>;
}
