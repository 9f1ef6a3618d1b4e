//! Window-system integration without a window system: `VK_KHR_surface`
//! with `VK_EXT_headless_surface` ([`surface`]), and `VK_KHR_swapchain`
//! on such surfaces ([`swapchain`]), so that programs that want a
//! swapchain run where there is no display. [`present_dump`] is the
//! `PARSNIP_PRESENT_DIR` debugging aid: every presented image as a PNG.
//!
//! A headless presentation engine shows nothing: an image is done with
//! once the work its present waits for has completed, and the next acquire
//! of that image waits for exactly that, on the GPU.

pub mod present_dump;
pub mod surface;
pub mod swapchain;
