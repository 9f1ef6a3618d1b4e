//! Command pools and command buffers, and the command stream they record.
//!
//! - [`packets`]: building PM4 packets through the register database;
//! - [`stream`]: BO-backed chunks, one IB each, written in place ([`chunk`]);
//! - [`buffer`]: the command buffer's life cycle and recorded state;
//! - [`cache`]: flushes, invalidates and waits for barriers;
//! - [`draw_state`]: state groups built once and referenced (CP_SET_DRAW_STATE);
//! - [`init_state`]: the state every command buffer starts by programming;
//! - [`blit2d`]: the 2D engine's state for one blit, [`image_surface`]:
//!   images and buffers as the engine's surfaces;
//! - [`pass`]: render passes, recorded into their own stream, and
//!   [`gmem_pass`]: one rendered bin by bin in GMEM; [`rendering`]:
//!   dynamic rendering as such a pass, and [`pass_chain`]: the pieces of
//!   one suspended and resumed across command buffers, rendered at submit;
//! - [`draw`]: graphics pipelines, vertex and index buffers, the viewport
//!   and scissor, and draws; [`dynamic_state`]: the rest of the dynamic
//!   state, emitted as groups at draw time;
//! - [`dispatch`], [`transfer`], [`copy_image`], [`blit_image`],
//!   [`clear_image`], [`resolve`], [`barrier`], [`query`], [`event`],
//!   [`buffer_marker`]: the commands; [`descriptor_bindings`]: each bind
//!   point's descriptor sets; [`push_descriptors`]: the command buffer's own
//!   descriptor set; [`breadcrumb`]: what follows each when breadcrumbs are on;
//! - [`secondary`]: secondary command buffers and executing them.

pub mod barrier;
pub mod binning_pass;
pub mod blit2d;
pub mod blit_image;
pub mod breadcrumb;
pub mod buffer;
pub mod buffer_marker;
pub mod cache;
pub mod chunk;
pub mod clear_image;
pub mod copy_image;
pub mod descriptor_bindings;
pub mod dispatch;
pub mod draw;
pub mod draw_state;
pub mod dynamic_state;
pub mod event;
pub mod gmem_pass;
pub mod image_surface;
pub mod init_state;
pub mod load_state;
pub mod packets;
pub mod pass;
pub mod pass_chain;
pub mod pool;
pub mod push_descriptors;
pub mod query;
pub mod rendering;
pub mod resolve;
pub mod secondary;
pub mod stream;
pub mod transfer;
pub mod upload;
