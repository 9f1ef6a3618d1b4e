//! `VkSurfaceKHR`: what a surface offers a swapchain. The only surfaces
//! are `VK_EXT_headless_surface`'s, which have no size, no compositor and
//! no display: the application chooses the extent, every queue family can
//! present, and what the device can render to and copy is what a swapchain
//! image can be.

use ash::vk;

use crate::formats;
use crate::image::{self, MAX_EXTENT};
use crate::physical_device::QUEUE_FAMILY_COUNT;

/// What kind of surface an object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    /// `vkCreateHeadlessSurfaceEXT`.
    Headless,
}

pub struct Surface {
    pub platform: Platform,
}

/// The fewest images a swapchain has: two, so that one can be rendered
/// while the other's present completes.
pub const MIN_IMAGE_COUNT: u32 = 2;
/// The most: a bound on what a careless `minImageCount` allocates.
pub const MAX_IMAGE_COUNT: u32 = 16;

/// The formats a swapchain image may have, most preferred first (sRGB
/// first, as applications take the first entry): 8-bit RGBA in both
/// orders, which the 2D engine clears, copies and stores as attachments.
const FORMATS: [vk::Format; 4] = [
    vk::Format::B8G8R8A8_SRGB,
    vk::Format::B8G8R8A8_UNORM,
    vk::Format::R8G8B8A8_SRGB,
    vk::Format::R8G8B8A8_UNORM,
];

/// The present modes, all honest without a display: no present ever
/// waits for a vertical blank, none tears (nothing is scanned out), and
/// each is retired in order once the work it waits for is done, so FIFO's
/// queue never holds more than the presents in flight and MAILBOX never
/// has to replace one.
pub const PRESENT_MODES: [vk::PresentModeKHR; 3] = [
    vk::PresentModeKHR::FIFO,
    vk::PresentModeKHR::MAILBOX,
    vk::PresentModeKHR::IMMEDIATE,
];

/// The usages every offered format supports (a swapchain's usage is one
/// set for whichever format it picks).
pub fn supported_usage() -> vk::ImageUsageFlags {
    surface_formats()
        .iter()
        .filter_map(|f| formats::format(f.format))
        .map(image::supported_usage)
        .fold(vk::ImageUsageFlags::from_raw(!0), |a, b| a & b)
}

impl Surface {
    pub fn headless() -> Surface {
        Surface {
            platform: Platform::Headless,
        }
    }

    /// `vkGetPhysicalDeviceSurfaceSupportKHR`: every family of the device
    /// can present (a present is a submit on the queue).
    pub fn supports_queue_family(&self, family: u32) -> bool {
        family < QUEUE_FAMILY_COUNT
    }

    /// `vkGetPhysicalDeviceSurfaceCapabilitiesKHR`.
    pub fn capabilities(&self) -> vk::SurfaceCapabilitiesKHR {
        vk::SurfaceCapabilitiesKHR {
            min_image_count: MIN_IMAGE_COUNT,
            max_image_count: MAX_IMAGE_COUNT,
            // A headless surface has no size: the swapchain's extent
            // decides it (the spec's special value).
            current_extent: vk::Extent2D {
                width: u32::MAX,
                height: u32::MAX,
            },
            min_image_extent: vk::Extent2D {
                width: 1,
                height: 1,
            },
            max_image_extent: vk::Extent2D {
                width: MAX_EXTENT,
                height: MAX_EXTENT,
            },
            max_image_array_layers: 1,
            supported_transforms: vk::SurfaceTransformFlagsKHR::IDENTITY,
            current_transform: vk::SurfaceTransformFlagsKHR::IDENTITY,
            supported_composite_alpha: vk::CompositeAlphaFlagsKHR::OPAQUE,
            supported_usage_flags: supported_usage(),
        }
    }

    /// `vkGetPhysicalDevicePresentRectanglesKHR`: the whole of any image a
    /// swapchain of this surface can have.
    pub fn present_rectangles(&self) -> Vec<vk::Rect2D> {
        let max = self.capabilities().max_image_extent;
        vec![vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: max,
        }]
    }
}

/// `vkGetPhysicalDeviceSurfaceFormatsKHR`: the formats the device has,
/// in sRGB non-linear colour space (what a display would take them as).
pub fn surface_formats() -> Vec<vk::SurfaceFormatKHR> {
    FORMATS
        .iter()
        .filter(|f| {
            formats::format(**f).is_some_and(|f| {
                formats::image_features(f).contains(
                    vk::FormatFeatureFlags::COLOR_ATTACHMENT
                        | vk::FormatFeatureFlags::TRANSFER_SRC
                        | vk::FormatFeatureFlags::TRANSFER_DST,
                )
            })
        })
        .map(|&format| vk::SurfaceFormatKHR {
            format,
            color_space: vk::ColorSpaceKHR::SRGB_NONLINEAR,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headless_capabilities_leave_the_extent_to_the_swapchain() {
        let caps = Surface::headless().capabilities();
        assert_eq!(caps.current_extent.width, 0xFFFF_FFFF);
        assert_eq!(caps.current_extent.height, 0xFFFF_FFFF);
        assert!(caps.min_image_count >= 1 && caps.min_image_count <= caps.max_image_count);
        // The spec requires colour attachment usage of every surface.
        let usage = caps.supported_usage_flags;
        assert!(usage.contains(
            vk::ImageUsageFlags::COLOR_ATTACHMENT
                | vk::ImageUsageFlags::TRANSFER_SRC
                | vk::ImageUsageFlags::TRANSFER_DST
        ));
        // sRGB formats have no storage views on this driver, so a
        // swapchain's usage set cannot claim storage.
        assert!(!usage.contains(vk::ImageUsageFlags::STORAGE));
        assert!(caps.supported_transforms.contains(caps.current_transform));
    }

    #[test]
    fn all_four_rgba8_formats_are_offered_srgb_first() {
        let formats: Vec<vk::Format> = surface_formats().iter().map(|f| f.format).collect();
        assert_eq!(formats, FORMATS);
        assert!(surface_formats()
            .iter()
            .all(|f| f.color_space == vk::ColorSpaceKHR::SRGB_NONLINEAR));
        assert!(PRESENT_MODES.contains(&vk::PresentModeKHR::FIFO));
        let s = Surface::headless();
        assert!(s.supports_queue_family(0));
        assert!(!s.supports_queue_family(QUEUE_FAMILY_COUNT));
    }
}
