//! Descriptors: set layouts, pools, sets, the GPU's descriptor formats, and
//! update templates.

pub mod encoding;
pub mod image_write;
pub mod inline_block;
pub mod pool;
pub mod set;
pub mod set_layout;
pub mod update_template;
pub mod write;
