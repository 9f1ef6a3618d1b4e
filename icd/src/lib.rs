//! The Vulkan ICD the Khronos loader opens (`libvulkan_parsnip.so`).
//!
//! This crate does nothing but turn C calls into calls on the driver's safe
//! objects: [`loader`] is the loader interface, [`proc_addr`] the table of
//! entry points, [`handles`] the one place handles are made and resolved,
//! [`ffi`] the reading of the application's structures, and [`guard`] the
//! panic boundary every entry point goes through. The entry points are
//! grouped by the objects they act on.
//!
//! Use it through the loader:
//!
//! ```text
//! cargo build --release -p parsnip-icd
//! VK_DRIVER_FILES=target/release/parsnip_icd.x86_64.json PARSNIP_SIM=a660 vulkaninfo
//! ```
//!
//! (`icd/README.md` explains the manifest and how to install it.)

// Entry points carry the Vulkan names the loader looks up.
#![allow(non_snake_case)]
// Every `unsafe extern "system" fn` here is a Vulkan entry point: its safety
// contract is the specification's valid usage for that command, which a
// `# Safety` section on each would only repeat.
#![allow(clippy::missing_safety_doc)]

pub mod command_buffer;
pub mod commands;
pub mod descriptor;
pub mod device;
pub mod draw_indirect_count;
pub mod dynamic_state;
pub mod ffi;
pub mod graphics;
pub mod guard;
pub mod handles;
pub mod image;
pub mod instance;
pub mod loader;
pub mod manifest;
pub mod objects;
pub mod physical_device;
pub mod pipeline;
pub mod pipeline_creation;
pub mod private_data;
pub mod proc_addr;
pub mod promoted_features;
pub mod promoted_properties;
pub mod query;
pub mod queue;
pub mod render_pass;
pub mod rendering;
pub mod sampler;
pub mod sync;
pub mod wsi;
pub mod ycbcr_conversion;
