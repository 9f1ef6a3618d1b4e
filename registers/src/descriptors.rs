//! Descriptors the GPU reads from memory: texture (`A6XX_TEX_CONST`),
//! sampler (`A6XX_TEX_SAMP`) and UBO (`A6XX_UBO`) layouts.
//!
//! Storage images and buffers (IBOs) use the texture descriptor's layout on
//! a6xx and a7xx: freedreno's XML has no separate IBO domain, and Turnip
//! writes its storage descriptors with the `A6XX_TEX_CONST` fields. Hence
//! [`storage`] names the texture descriptors as storage descriptors.

include!(concat!(env!("OUT_DIR"), "/descriptors.rs"));

/// Storage image/buffer descriptors share the texture layout (see above).
pub mod storage {
    pub use super::a6xx::TextureDescriptor as A6xxStorageDescriptor;
    pub use super::a7xx::TextureDescriptor as A7xxStorageDescriptor;
}
