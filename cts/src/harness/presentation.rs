//! Headless surfaces and swapchains (`VK_EXT_headless_surface`,
//! `VK_KHR_swapchain`), for the cases that present without a display.

use super::images::{Image, ImageShape};
use super::Harness;
use crate::case::{OrStop, Stop};
use ash::vk;

/// The extension entry points, loaded when the harness enabled them.
pub(super) struct Presentation {
    pub surface: ash::khr::surface::Instance,
    pub headless: ash::ext::headless_surface::Instance,
    pub swapchain: ash::khr::swapchain::Device,
    /// The physical-device commands of VK_KHR_swapchain (Vulkan 1.1's).
    pub swapchain_instance: ash::khr::swapchain::Instance,
    /// VK_KHR_get_surface_capabilities2, when enabled.
    pub capabilities2: Option<ash::khr::get_surface_capabilities2::Instance>,
}

impl Presentation {
    pub fn new(
        entry: &ash::Entry,
        instance: &ash::Instance,
        device: &ash::Device,
        capabilities2: bool,
    ) -> Self {
        Presentation {
            surface: ash::khr::surface::Instance::new(entry, instance),
            headless: ash::ext::headless_surface::Instance::new(entry, instance),
            swapchain: ash::khr::swapchain::Device::new(instance, device),
            swapchain_instance: ash::khr::swapchain::Instance::new(entry, instance),
            capabilities2: capabilities2
                .then(|| ash::khr::get_surface_capabilities2::Instance::new(entry, instance)),
        }
    }
}

/// A swapchain the harness owns, and its images (which the swapchain
/// owns).
#[derive(Clone, Debug)]
pub struct Swapchain {
    pub handle: vk::SwapchainKHR,
    pub images: Vec<Image>,
}

impl Harness {
    fn presentation(&self) -> Result<&Presentation, Stop> {
        self.presentation.as_ref().ok_or_else(|| {
            Stop::NotSupported(
                "headless presentation (VK_EXT_headless_surface and VK_KHR_swapchain)".into(),
            )
        })
    }

    /// `VK_KHR_surface`'s queries, or `NotSupported`.
    pub fn surface_queries(&self) -> Result<&ash::khr::surface::Instance, Stop> {
        Ok(&self.presentation()?.surface)
    }

    /// `VK_KHR_swapchain`'s entry points, or `NotSupported`.
    pub fn swapchains(&self) -> Result<&ash::khr::swapchain::Device, Stop> {
        Ok(&self.presentation()?.swapchain)
    }

    /// `VK_KHR_swapchain`'s physical-device commands, or `NotSupported`.
    pub fn swapchain_queries(&self) -> Result<&ash::khr::swapchain::Instance, Stop> {
        Ok(&self.presentation()?.swapchain_instance)
    }

    /// `VK_KHR_get_surface_capabilities2`'s queries, or `NotSupported`.
    pub fn surface_queries2(&self) -> Result<&ash::khr::get_surface_capabilities2::Instance, Stop> {
        self.presentation()?
            .capabilities2
            .as_ref()
            .ok_or_else(|| Stop::NotSupported("VK_KHR_get_surface_capabilities2".into()))
    }

    /// A headless surface, destroyed at the end of the case.
    pub fn headless_surface(&mut self) -> Result<vk::SurfaceKHR, Stop> {
        let p = self.presentation()?;
        let info = vk::HeadlessSurfaceCreateInfoEXT::default();
        // SAFETY: the instance enabled VK_EXT_headless_surface.
        let surface = unsafe { p.headless.create_headless_surface(&info, None) }
            .or_stop("vkCreateHeadlessSurfaceEXT")?;
        Ok(self.own(surface))
    }

    /// A swapchain of `info`, destroyed at the end of the case (after
    /// what was created after it, before its surface).
    pub fn swapchain(&mut self, info: &vk::SwapchainCreateInfoKHR<'_>) -> Result<Swapchain, Stop> {
        let p = self.presentation()?;
        // SAFETY: the device enabled VK_KHR_swapchain; `info` is valid.
        let handle =
            unsafe { p.swapchain.create_swapchain(info, None) }.or_stop("vkCreateSwapchainKHR")?;
        let handle = self.own(handle);
        let p = self.presentation()?;
        // SAFETY: the swapchain was just created.
        let images = unsafe { p.swapchain.get_swapchain_images(handle) }
            .or_stop("vkGetSwapchainImagesKHR")?;
        let shape = ImageShape::two_d(
            info.image_format,
            info.image_extent.width,
            info.image_extent.height,
            vk::ImageTiling::OPTIMAL,
        );
        Ok(Swapchain {
            handle,
            images: images
                .into_iter()
                .map(|handle| Image {
                    handle,
                    shape,
                    aspect: vk::ImageAspectFlags::COLOR,
                })
                .collect(),
        })
    }
}
