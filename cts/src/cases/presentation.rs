//! Presentation without a display: a headless surface's properties, and a
//! swapchain whose images are acquired, cleared (by the transfer engine or
//! a render pass's load op) to a colour per frame, copied back and
//! presented. What the spec defines is checked: the surface's special
//! extent, FIFO, colour-attachment usage, the texels each frame cleared,
//! and `VK_NOT_READY` from an acquire with timeout 0 once no image is left.

use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Dependency, Harness, Image, PassAttachment, Swapchain, WAIT_TIMEOUT_NS};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "presentation.headless_surface",
        run: headless_surface,
    },
    Case {
        name: "presentation.clear_and_present",
        run: clear_and_present,
    },
    Case {
        name: "presentation.acquire_until_none_left",
        run: acquire_until_none_left,
    },
    Case {
        name: "presentation.capabilities2",
        run: capabilities2,
    },
    Case {
        name: "presentation.device_group_queries",
        run: device_group_queries,
    },
    Case {
        name: "presentation.image_on_swapchain_memory",
        run: image_on_swapchain_memory,
    },
];

const SIZE: (u32, u32) = (32, 16);
const DST: vk::ImageLayout = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
const SRC: vk::ImageLayout = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
const COLOR_LAYOUT: vk::ImageLayout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
const PRESENT: vk::ImageLayout = vk::ImageLayout::PRESENT_SRC_KHR;
const SWAPCHAIN_USAGE: vk::ImageUsageFlags = vk::ImageUsageFlags::from_raw(
    vk::ImageUsageFlags::COLOR_ATTACHMENT.as_raw()
        | vk::ImageUsageFlags::TRANSFER_DST.as_raw()
        | vk::ImageUsageFlags::TRANSFER_SRC.as_raw(),
);

/// The surface's capabilities, formats and present modes.
fn queries(
    h: &Harness,
    surface: vk::SurfaceKHR,
) -> Result<
    (
        vk::SurfaceCapabilitiesKHR,
        Vec<vk::SurfaceFormatKHR>,
        Vec<vk::PresentModeKHR>,
    ),
    Stop,
> {
    let q = h.surface_queries()?;
    let pd = h.physical_device();
    // SAFETY: the surface and physical device are alive.
    unsafe {
        Ok((
            q.get_physical_device_surface_capabilities(pd, surface)
                .or_stop("vkGetPhysicalDeviceSurfaceCapabilitiesKHR")?,
            q.get_physical_device_surface_formats(pd, surface)
                .or_stop("vkGetPhysicalDeviceSurfaceFormatsKHR")?,
            q.get_physical_device_surface_present_modes(pd, surface)
                .or_stop("vkGetPhysicalDeviceSurfacePresentModesKHR")?,
        ))
    }
}

/// What every headless surface reports by the spec: currentExtent
/// (0xFFFFFFFF, 0xFFFFFFFF) (VK_EXT_headless_surface), colour-attachment
/// usage, FIFO, a format, and the harness's queue family can present.
fn headless_surface(h: &mut Harness) -> Result<CaseResult, Stop> {
    let surface = h.headless_surface()?;
    let (caps, formats, modes) = queries(h, surface)?;
    // SAFETY: the surface and physical device are alive.
    let supported = unsafe {
        h.surface_queries()?.get_physical_device_surface_support(
            h.physical_device(),
            h.queue_family(),
            surface,
        )
    }
    .or_stop("vkGetPhysicalDeviceSurfaceSupportKHR")?;
    let mut result = CaseResult::new();
    result.check(
        "current_extent",
        &[caps.current_extent.width, caps.current_extent.height],
        &[u32::MAX, u32::MAX],
    );
    let facts = [
        u32::from(supported),
        u32::from(modes.contains(&vk::PresentModeKHR::FIFO)),
        u32::from(
            caps.supported_usage_flags
                .contains(vk::ImageUsageFlags::COLOR_ATTACHMENT),
        ),
        u32::from(!formats.is_empty()),
        u32::from(caps.min_image_count >= 1),
        u32::from(caps.max_image_count == 0 || caps.max_image_count >= caps.min_image_count),
        u32::from(caps.supported_transforms.contains(caps.current_transform)),
    ];
    result.check("spec_facts", &facts, &[1; 7]);
    Ok(result)
}

/// The 8-bit UNORM format the cases use (blue first where offered) and its
/// texel for `rgba`, in memory order.
fn unorm_format(formats: &[vk::SurfaceFormatKHR]) -> Result<vk::Format, Stop> {
    [vk::Format::B8G8R8A8_UNORM, vk::Format::R8G8B8A8_UNORM]
        .into_iter()
        .find(|f| {
            formats
                .iter()
                .any(|s| s.format == *f && s.color_space == vk::ColorSpaceKHR::SRGB_NONLINEAR)
        })
        .ok_or_else(|| Stop::NotSupported(format!("no 8-bit UNORM surface format in {formats:?}")))
}

fn texel(format: vk::Format, rgba: [u8; 4]) -> [u8; 4] {
    if format == vk::Format::B8G8R8A8_UNORM {
        [rgba[2], rgba[1], rgba[0], rgba[3]]
    } else {
        rgba
    }
}

/// A FIFO swapchain of `SIZE` on a new headless surface, with at least
/// `min_images` images (within the surface's limits).
fn make_swapchain(h: &mut Harness, min_images: u32) -> Result<(Swapchain, vk::Format), Stop> {
    let surface = h.headless_surface()?;
    let (caps, formats, _) = queries(h, surface)?;
    let format = unorm_format(&formats)?;
    let usage = SWAPCHAIN_USAGE;
    if !caps.supported_usage_flags.contains(usage) {
        return Err(Stop::NotSupported(format!(
            "swapchain usage {usage:?} (offered {:?})",
            caps.supported_usage_flags
        )));
    }
    let mut count = min_images.max(caps.min_image_count);
    if caps.max_image_count != 0 {
        count = count.min(caps.max_image_count);
    }
    let info = vk::SwapchainCreateInfoKHR::default()
        .surface(surface)
        .min_image_count(count)
        .image_format(format)
        .image_color_space(vk::ColorSpaceKHR::SRGB_NONLINEAR)
        .image_extent(vk::Extent2D {
            width: SIZE.0,
            height: SIZE.1,
        })
        .image_array_layers(1)
        .image_usage(usage)
        .image_sharing_mode(vk::SharingMode::EXCLUSIVE)
        .pre_transform(caps.current_transform)
        .composite_alpha(vk::CompositeAlphaFlagsKHR::OPAQUE)
        .present_mode(vk::PresentModeKHR::FIFO)
        .clipped(true);
    let chain = h.swapchain(&info)?;
    if (chain.images.len() as u32) < count {
        return Err(Stop::Error(format!(
            "{} images for minImageCount {count}",
            chain.images.len()
        )));
    }
    Ok((chain, format))
}

/// The create info of every image of a swapchain made by `make_swapchain`.
fn swapchain_image_info(format: vk::Format) -> vk::ImageCreateInfo<'static> {
    vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D {
            width: SIZE.0,
            height: SIZE.1,
            depth: 1,
        })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(SWAPCHAIN_USAGE)
        .sharing_mode(vk::SharingMode::EXCLUSIVE)
        .initial_layout(vk::ImageLayout::UNDEFINED)
}

/// Presents image `index`, after `wait`.
fn present(h: &Harness, chain: &Swapchain, index: u32, wait: vk::Semaphore) -> Result<(), Stop> {
    let waits = [wait];
    let chains = [chain.handle];
    let indices = [index];
    let mut results = [vk::Result::ERROR_UNKNOWN];
    let info = vk::PresentInfoKHR::default()
        .wait_semaphores(&waits)
        .swapchains(&chains)
        .image_indices(&indices)
        .results(&mut results);
    // SAFETY: the queue, swapchain and semaphore are alive; the image was
    // acquired and is in the present layout once `wait` signals.
    let suboptimal =
        unsafe { h.swapchains()?.queue_present(h.queue(), &info) }.or_stop("vkQueuePresentKHR")?;
    if suboptimal || results[0] != vk::Result::SUCCESS {
        return Err(Stop::Error(format!(
            "vkQueuePresentKHR: suboptimal {suboptimal}, result {:?} on a headless surface",
            results[0]
        )));
    }
    Ok(())
}

/// How a frame writes its colour into the image.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Clear {
    Transfer,
    RenderPass,
}

/// Submits, after `acquired`, the commands that clear `image` to `color`
/// (by `how`), copy it to `readback` and leave it ready to present;
/// signals the returned semaphore and waits for the work on the host.
fn render_frame(
    h: &mut Harness,
    image: Image,
    color: [f32; 4],
    how: Clear,
    acquired: vk::Semaphore,
    readback: &crate::harness::Buffer,
) -> Result<vk::Semaphore, Stop> {
    let clear = vk::ClearColorValue { float32: color };
    let pass = match how {
        Clear::Transfer => None,
        Clear::RenderPass => {
            let attachments = [PassAttachment {
                image,
                load: vk::AttachmentLoadOp::CLEAR,
                layout: COLOR_LAYOUT,
            }];
            let pass = h.render_pass(&attachments, &[&[0]], &[None], false)?;
            Some((pass, h.framebuffer(pass, &attachments)?))
        }
    };
    let region = image.whole_copy();
    let cmd = h.record(|r| {
        let last = match pass {
            None => {
                r.relayout(&image, vk::ImageLayout::UNDEFINED, DST);
                r.clear_color(&image, clear, &[image.range()]);
                DST
            }
            Some((pass, fb)) => {
                r.relayout(&image, vk::ImageLayout::UNDEFINED, COLOR_LAYOUT);
                let area = vk::Rect2D {
                    offset: vk::Offset2D { x: 0, y: 0 },
                    extent: vk::Extent2D {
                        width: SIZE.0,
                        height: SIZE.1,
                    },
                };
                r.begin_pass(pass, fb, area, &[vk::ClearValue { color: clear }]);
                r.end_pass();
                COLOR_LAYOUT
            }
        };
        r.relayout(&image, last, SRC);
        r.image_to_buffer(&image, readback, &[region]);
        r.relayout(&image, SRC, PRESENT);
        r.barrier(Dependency::TO_HOST);
    })?;
    submit_after(h, cmd, acquired)
}

/// Submits `cmd` after `wait` and waits for it on the host; the returned
/// semaphore signals when it is done.
fn submit_after(
    h: &mut Harness,
    cmd: vk::CommandBuffer,
    wait: vk::Semaphore,
) -> Result<vk::Semaphore, Stop> {
    let done = h.binary_semaphore()?;
    let fence = h.fence(false)?;
    h.submit(
        &[crate::harness::Submission {
            commands: &[cmd],
            waits: &[(wait, 0, vk::PipelineStageFlags::ALL_COMMANDS)],
            signals: &[(done, 0)],
        }],
        fence,
    )?;
    h.wait_for(fence)?;
    Ok(done)
}

/// Acquires an image with a semaphore; `None` for `NOT_READY`/`TIMEOUT`.
fn acquire(
    h: &mut Harness,
    chain: &Swapchain,
    timeout: u64,
) -> Result<Option<(u32, vk::Semaphore)>, Stop> {
    let semaphore = h.binary_semaphore()?;
    // SAFETY: the swapchain and semaphore are alive; the semaphore has no
    // pending signal.
    let r = unsafe {
        h.swapchains()?
            .acquire_next_image(chain.handle, timeout, semaphore, vk::Fence::null())
    };
    match r {
        Ok((index, false)) if (index as usize) < chain.images.len() => Ok(Some((index, semaphore))),
        Ok((index, suboptimal)) => Err(Stop::Error(format!(
            "vkAcquireNextImageKHR: image {index} of {} (suboptimal {suboptimal}) on a \
             headless surface",
            chain.images.len()
        ))),
        Err(vk::Result::NOT_READY | vk::Result::TIMEOUT) => Ok(None),
        Err(e) => Err(Stop::Error(format!("vkAcquireNextImageKHR returned {e:?}"))),
    }
}

/// Frame `i`'s colour: the corners of the RGB cube in turn, opaque; exact
/// in UNORM8.
fn frame_color(i: usize) -> ([f32; 4], [u8; 4]) {
    let bit = |b: usize| if (i + 1) >> b & 1 == 1 { 1.0 } else { 0.0 };
    let f = [bit(0), bit(1), bit(2), 1.0];
    (f, f.map(|c| if c == 1.0 { 255 } else { 0 }))
}

/// Twice as many frames as images, alternating transfer clears and
/// render-pass clears: each image read back holds its frame's colour.
fn clear_and_present(h: &mut Harness) -> Result<CaseResult, Stop> {
    let (chain, format) = make_swapchain(h, 2)?;
    let frames = 2 * chain.images.len();
    let bytes = u64::from(SIZE.0 * SIZE.1 * 4);
    let mut result = CaseResult::new();
    for frame in 0..frames {
        let Some((index, acquired)) = acquire(h, &chain, WAIT_TIMEOUT_NS)? else {
            return Err(Stop::Error(format!(
                "frame {frame}: no image within {WAIT_TIMEOUT_NS} ns"
            )));
        };
        let readback = h.host_buffer(bytes, vk::BufferUsageFlags::TRANSFER_DST)?;
        let (color, rgba8) = frame_color(frame);
        let how = if frame % 2 == 0 {
            Clear::Transfer
        } else {
            Clear::RenderPass
        };
        let image = chain.images[index as usize];
        let rendered = render_frame(h, image, color, how, acquired, &readback)?;
        present(h, &chain, index, rendered)?;
        let got = h.read(&readback)?;
        let want = texel(format, rgba8).repeat((SIZE.0 * SIZE.1) as usize);
        result.check(&format!("frame{frame}"), &got, &want);
    }
    Ok(result)
}

/// Clears acquired image `index` to `color` by the transfer engine and
/// presents it.
fn clear_and_present_one(
    h: &mut Harness,
    chain: &Swapchain,
    index: u32,
    acquired: vk::Semaphore,
    color: [f32; 4],
    readback: &crate::harness::Buffer,
) -> Result<(), Stop> {
    let image = chain.images[index as usize];
    let rendered = render_frame(h, image, color, Clear::Transfer, acquired, readback)?;
    present(h, chain, index, rendered)
}

/// Acquires with timeout 0 until `VK_NOT_READY`: at most every image is
/// handed out, then none; presenting them all gives them back.
fn acquire_until_none_left(h: &mut Harness) -> Result<CaseResult, Stop> {
    let (chain, _) = make_swapchain(h, 2)?;
    let mut held = Vec::new();
    while held.len() <= chain.images.len() {
        match acquire(h, &chain, 0)? {
            Some(image) => held.push(image),
            None => break,
        }
    }
    let mut result = CaseResult::new();
    result.require(
        held.len() <= chain.images.len(),
        format!(
            "{} images acquired of a {}-image swapchain",
            held.len(),
            chain.images.len()
        ),
    );
    // Every acquire is of a different image.
    let mut indices: Vec<u32> = held.iter().map(|(i, _)| *i).collect();
    indices.sort_unstable();
    indices.dedup();
    result.require(
        indices.len() == held.len(),
        format!("an image acquired twice: {held:?}"),
    );
    let bytes = u64::from(SIZE.0 * SIZE.1 * 4);
    let readback = h.host_buffer(bytes, vk::BufferUsageFlags::TRANSFER_DST)?;
    let black = [0.0, 0.0, 0.0, 1.0];
    for (index, acquired) in held {
        clear_and_present_one(h, &chain, index, acquired, black, &readback)?;
    }
    // With the images given back, one can be acquired again.
    match acquire(h, &chain, WAIT_TIMEOUT_NS)? {
        Some((index, acquired)) => {
            clear_and_present_one(h, &chain, index, acquired, black, &readback)?;
        }
        None => {
            result.require(false, "no image after every held one was presented");
        }
    }
    Ok(result)
}

/// The `2` forms of VK_KHR_get_surface_capabilities2 say what the first
/// forms say.
fn capabilities2(h: &mut Harness) -> Result<CaseResult, Stop> {
    h.surface_queries2()?;
    let surface = h.headless_surface()?;
    let (caps, formats, _) = queries(h, surface)?;
    let q = h.surface_queries2()?;
    let info = vk::PhysicalDeviceSurfaceInfo2KHR::default().surface(surface);
    let mut caps2 = vk::SurfaceCapabilities2KHR::default();
    // SAFETY: the surface and physical device are alive; the structures
    // are valid for the calls.
    let formats2 = unsafe {
        q.get_physical_device_surface_capabilities2(h.physical_device(), &info, &mut caps2)
            .or_stop("vkGetPhysicalDeviceSurfaceCapabilities2KHR")?;
        let n = q
            .get_physical_device_surface_formats2_len(h.physical_device(), &info)
            .or_stop("vkGetPhysicalDeviceSurfaceFormats2KHR")?;
        let mut out = vec![vk::SurfaceFormat2KHR::default(); n];
        q.get_physical_device_surface_formats2(h.physical_device(), &info, &mut out)
            .or_stop("vkGetPhysicalDeviceSurfaceFormats2KHR")?;
        out
    };
    let words = |c: &vk::SurfaceCapabilitiesKHR| {
        [
            c.min_image_count,
            c.max_image_count,
            c.current_extent.width,
            c.current_extent.height,
            c.min_image_extent.width,
            c.min_image_extent.height,
            c.max_image_extent.width,
            c.max_image_extent.height,
            c.max_image_array_layers,
            c.supported_transforms.as_raw(),
            c.current_transform.as_raw(),
            c.supported_composite_alpha.as_raw(),
            c.supported_usage_flags.as_raw(),
        ]
    };
    let mut result = CaseResult::new();
    // Driver-specific values: compared with the first form, not kept.
    result.require(
        words(&caps2.surface_capabilities) == words(&caps),
        format!("{:?} differs from {caps:?}", caps2.surface_capabilities),
    );
    let pairs = |list: &mut dyn Iterator<Item = vk::SurfaceFormatKHR>| {
        list.map(|f| (f.format, f.color_space)).collect::<Vec<_>>()
    };
    let (one, two) = (
        pairs(&mut formats.iter().copied()),
        pairs(&mut formats2.iter().map(|f| f.surface_format)),
    );
    result.require(one == two, format!("formats {two:?}, not {one:?}"));
    Ok(result)
}

/// Vulkan 1.1's swapchain queries for a group of one device: it presents
/// locally, its present rectangles do not overlap, and
/// vkAcquireNextImage2KHR with that device's mask hands out an image.
fn device_group_queries(h: &mut Harness) -> Result<CaseResult, Stop> {
    if vk::api_version_minor(h.caps().api_version) < 1 {
        return Err(Stop::NotSupported("Vulkan 1.1".into()));
    }
    let (chain, _) = make_swapchain(h, 2)?;
    let surface = h.headless_surface()?;
    let d = h.swapchains()?;
    let mut caps = vk::DeviceGroupPresentCapabilitiesKHR::default();
    // SAFETY: the device, surface and physical device are alive.
    let (modes, rects) = unsafe {
        d.get_device_group_present_capabilities(&mut caps)
            .or_stop("vkGetDeviceGroupPresentCapabilitiesKHR")?;
        (
            d.get_device_group_surface_present_modes(surface)
                .or_stop("vkGetDeviceGroupSurfacePresentModesKHR")?,
            h.swapchain_queries()?
                .get_physical_device_present_rectangles(h.physical_device(), surface)
                .or_stop("vkGetPhysicalDevicePresentRectanglesKHR")?,
        )
    };
    let local = vk::DeviceGroupPresentModeFlagsKHR::LOCAL;
    let mut result = CaseResult::new();
    // The spec: modes always has LOCAL; the device can present, so its
    // mask has its own bit; no other device is in the group.
    result.check(
        "device_group",
        &[
            u32::from(caps.modes.contains(local)),
            caps.present_mask[0],
            caps.present_mask[1..].iter().sum::<u32>(),
            u32::from(caps.modes.contains(modes)),
        ],
        &[1, 1, 0, 1],
    );
    let overlap = |a: &vk::Rect2D, b: &vk::Rect2D| {
        let (ax, ay) = (i64::from(a.offset.x), i64::from(a.offset.y));
        let (bx, by) = (i64::from(b.offset.x), i64::from(b.offset.y));
        ax < bx + i64::from(b.extent.width)
            && bx < ax + i64::from(a.extent.width)
            && ay < by + i64::from(b.extent.height)
            && by < ay + i64::from(a.extent.height)
    };
    for (i, a) in rects.iter().enumerate() {
        for b in &rects[i + 1..] {
            result.require(!overlap(a, b), format!("{a:?} overlaps {b:?}"));
        }
    }
    let acquired = h.binary_semaphore()?;
    let info = vk::AcquireNextImageInfoKHR::default()
        .swapchain(chain.handle)
        .timeout(WAIT_TIMEOUT_NS)
        .semaphore(acquired)
        .device_mask(1);
    // SAFETY: the swapchain and semaphore are alive.
    let (index, suboptimal) =
        unsafe { h.swapchains()?.acquire_next_image2(&info) }.or_stop("vkAcquireNextImage2KHR")?;
    result.require(
        !suboptimal && (index as usize) < chain.images.len(),
        format!("image {index} (suboptimal {suboptimal})"),
    );
    let bytes = u64::from(SIZE.0 * SIZE.1 * 4);
    let readback = h.host_buffer(bytes, vk::BufferUsageFlags::TRANSFER_DST)?;
    clear_and_present_one(h, &chain, index, acquired, [0.0, 1.0, 1.0, 1.0], &readback)?;
    Ok(result)
}

/// Vulkan 1.1's swapchain images by another handle: an image made with
/// VkImageSwapchainCreateInfoKHR and bound with
/// VkBindImageMemorySwapchainInfoKHR (no memory object) to an acquired
/// image's memory can be cleared and read back; the swapchain image is
/// then presented as usual.
fn image_on_swapchain_memory(h: &mut Harness) -> Result<CaseResult, Stop> {
    if vk::api_version_minor(h.caps().api_version) < 1 {
        return Err(Stop::NotSupported("Vulkan 1.1".into()));
    }
    let (chain, format) = make_swapchain(h, 2)?;
    let Some((index, acquired)) = acquire(h, &chain, WAIT_TIMEOUT_NS)? else {
        return Err(Stop::Error(format!("no image within {WAIT_TIMEOUT_NS} ns")));
    };
    let mut on_chain = vk::ImageSwapchainCreateInfoKHR::default().swapchain(chain.handle);
    let info = swapchain_image_info(format).push_next(&mut on_chain);
    // SAFETY: the device is alive; `info` matches the swapchain's images,
    // as valid usage requires.
    let handle = unsafe { h.device().create_image(&info, None) }
        .or_stop("vkCreateImage (VkImageSwapchainCreateInfoKHR)")?;
    let handle = h.own(handle);
    let mut from_chain = vk::BindImageMemorySwapchainInfoKHR::default()
        .swapchain(chain.handle)
        .image_index(index);
    let bind = [vk::BindImageMemoryInfo::default()
        .image(handle)
        .push_next(&mut from_chain)];
    // SAFETY: the image and swapchain are alive; the image is unbound.
    unsafe { h.device().bind_image_memory2(&bind) }
        .or_stop("vkBindImageMemory2 (VkBindImageMemorySwapchainInfoKHR)")?;
    let alias = Image {
        handle,
        ..chain.images[index as usize]
    };
    let bytes = u64::from(SIZE.0 * SIZE.1 * 4);
    let readback = h.host_buffer(bytes, vk::BufferUsageFlags::TRANSFER_DST)?;
    let (color, rgba8) = frame_color(5);
    let clear = vk::ClearColorValue { float32: color };
    let region = alias.whole_copy();
    let cmd = h.record(|r| {
        r.relayout(&alias, vk::ImageLayout::UNDEFINED, DST);
        r.clear_color(&alias, clear, &[alias.range()]);
        r.relayout(&alias, DST, SRC);
        r.image_to_buffer(&alias, &readback, &[region]);
        r.barrier(Dependency::TO_HOST);
    })?;
    let done = submit_after(h, cmd, acquired)?;
    let mut result = CaseResult::new();
    let want = texel(format, rgba8).repeat((SIZE.0 * SIZE.1) as usize);
    result.check("alias", &h.read(&readback)?, &want);
    clear_and_present_one(h, &chain, index, done, [0.0, 0.0, 0.0, 1.0], &readback)?;
    Ok(result)
}
