//! Parsnip's Vulkan implementation: safe objects behind the ICD's entry
//! points, each returning `Result<T, vk::Result>`.
//!
//! - Instance and devices: [`instance`], [`physical_device`] (with
//!   [`limits`], [`features`], [`formats`], [`memory_types`],
//!   [`extensions`]), [`gpu_info`], [`device`], [`queue`].
//! - Memory and resources: [`device_memory`], [`buffer`], [`image`],
//!   [`descriptor`], [`pipeline_layout`], [`shader_module`], [`pipeline`],
//!   [`render_pass`], [`framebuffer`], [`rendering`] (dynamic rendering
//!   as a one-subpass pass), [`attachment_formats`].
//! - Commands: [`cmd`] (pools, buffers, the command stream and every
//!   command), [`tiling`] (how render passes are cut into GMEM bins),
//!   [`sync`] (fences, semaphores, events), [`query_pool`].
//! - Presentation: [`wsi`] (headless surfaces and swapchains).
//! - Debugging: [`debug_flags`] (`PARSNIP_DEBUG`), [`rd_dump`]
//!   (`PARSNIP_RD_DUMP`), `PARSNIP_PRESENT_DIR` ([`wsi::present_dump`]).
//!
//! ```no_run
//! use parsnip_driver::{device::{Device, DeviceDesc, QueueRequest}, instance::Instance};
//! let instance = Instance::new(ash::vk::API_VERSION_1_1, &[])?;
//! let physical = instance.physical_devices()[0].clone();
//! let device = Device::new(&physical, &DeviceDesc {
//!     queues: vec![QueueRequest { family: 0, priorities: vec![1.0] }],
//!     ..Default::default()
//! })?;
//! # Ok::<(), ash::vk::Result>(())
//! ```

pub mod attachment_formats;
pub mod breadcrumbs;
pub mod buffer;
pub mod build_id;
pub mod cmd;
pub mod debug_flags;
pub mod descriptor;
pub mod device;
pub mod device_bo;
pub mod device_memory;
pub mod error;
pub mod extensions;
pub mod features;
pub mod formats;
pub mod framebuffer;
pub mod gpu_info;
pub mod image;
pub mod instance;
pub mod internal_shaders;
pub mod limits;
pub mod lrz;
pub mod memory_types;
pub mod physical_device;
pub mod pipeline;
pub mod pipeline_layout;
pub mod private_data;
pub mod query_pool;
pub mod queue;
pub mod rd_dump;
pub mod render_pass;
pub mod rendering;
pub mod shader_module;
pub mod sync;
pub mod tiling;
pub mod wsi;

pub use error::VkResult;
