//! The kernel boundary: one trait for "a GPU device", and its back ends.
//!
//! The driver talks to a GPU only through [`KernelDevice`]: device facts,
//! buffer objects with an iova and a CPU mapping, submit queues, submits of
//! command buffers with their BO list and sync points, fences, and sync
//! objects. Back ends:
//!
//! - [`msm`]: a real Adreno through the Linux msm DRM driver;
//! - [`kgsl`]: a real Adreno through Android's kgsl driver;
//! - [`null`]: accepts and completes submits without executing them, for
//!   measuring the driver's CPU cost;
//! - [`sim`]: Parsnip's model of the GPU, selected by `PARSNIP_SIM`.
//!
//! [`open_device`] picks one (see [`select`] for the rules). The software
//! back ends are built from blocks public here: [`va_allocator`],
//! [`host_memory`], [`sync_table`], [`queue_worker`] and [`device_lost`],
//! which a device half both share puts together with every device method
//! that only plumbs them (`software_device`).
//!
//! ```no_run
//! use parsnip_kernel_if::{open_device, BoDesc, BoUse, CommandBuffer, Deadline, Submit};
//!
//! let dev = open_device()?;
//! let queue = dev.queue_new(0)?;
//! let cs = dev.bo_new(&BoDesc::new(4096))?;
//! # let packets: Vec<u8> = Vec::new();
//! cs.write(0, &packets)?; // the PM4 packets the driver built
//! let fence = dev.submit(&Submit {
//!     queue,
//!     commands: &[CommandBuffer { bo: &cs, offset: 0, dwords: packets.len() as u32 / 4 }],
//!     bos: &[BoUse::read(&cs)],
//!     waits: &[],
//!     signals: &[],
//! })?;
//! dev.fence_wait(fence, Deadline::Never)?;
//! # Ok::<(), parsnip_kernel_if::Error>(())
//! ```

pub mod bo;
pub mod deadline;
pub mod device;
pub mod device_lost;
pub mod device_mapping;
pub mod error;
pub mod host_memory;
pub mod ioctl_file;
pub mod kgsl;
pub mod msm;
pub mod null;
pub mod queue_worker;
pub mod select;
pub mod sim;
mod software_device;
pub mod submit;
pub mod sync_table;
pub mod syncobj;
pub mod va_allocator;

pub use bo::{Bo, BoBacking, BoDesc, CpuCaching};
pub use deadline::Deadline;
pub use device::{Backend, CpuAccess, DeviceInfo, GpuFacts, KernelDevice};
pub use error::{Error, Result};
pub use select::{open_device, open_from_env, open_from_env_at};
pub use submit::{BoUse, CommandBuffer, Fence, QueueId, Submit};
pub use syncobj::{SyncObj, SyncPoint, WaitMode};
