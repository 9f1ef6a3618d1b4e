//! The msm back end: a real Adreno through the Linux msm DRM driver.
//!
//! msm-specific ioctls (GET_PARAM, GEM_NEW, GEM_INFO, GEM_CPU_PREP/FINI,
//! GEM_SUBMIT, WAIT_FENCE, SUBMITQUEUE_NEW/CLOSE) go through `nix` with our
//! own argument structs ([`uapi`]); generic DRM (version, capabilities,
//! syncobjs, GEM_CLOSE) through the `drm` crate.

mod bo;
mod deferred;
mod device;
pub mod discovery;
mod drm_file;
pub mod uapi;

pub use device::MsmDevice;
pub use discovery::{discover, discover_in, Discovery, DRI_DIR};
