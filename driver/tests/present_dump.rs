//! `PARSNIP_PRESENT_DIR` on the simulated GPUs: each image a swapchain
//! presents is written as a PNG holding what was rendered, red first,
//! whichever component order the swapchain's format has.

mod common;

use std::path::Path;

use ash::vk;
use parsnip_driver::cmd::buffer::Level;
use parsnip_driver::cmd::pool::CommandPool;
use parsnip_driver::sync::fence::Fence;
use parsnip_driver::wsi::surface::Surface;
use parsnip_driver::wsi::swapchain::{present, PresentImage, Swapchain, SwapchainDesc};

const WIDTH: u32 = 24;
const HEIGHT: u32 = 8;

/// The RGBA8 pixels of the PNG at `path`.
fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(
        (info.color_type, info.bit_depth),
        (png::ColorType::Rgba, png::BitDepth::Eight)
    );
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

/// Two frames cleared to two colours on a swapchain of `format`, dumped.
fn dumps_what_was_cleared(gpu: &'static str, format: vk::Format) {
    let device = common::simulated_device(gpu);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("present_dump_{gpu}_{format:?}"));
    let _ = std::fs::remove_dir_all(&dir);
    let desc = SwapchainDesc {
        min_image_count: 2,
        format,
        color_space: vk::ColorSpaceKHR::SRGB_NONLINEAR,
        extent: vk::Extent2D {
            width: WIDTH,
            height: HEIGHT,
        },
        layers: 1,
        usage: vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_DST,
        present_mode: vk::PresentModeKHR::FIFO,
        pre_transform: vk::SurfaceTransformFlagsKHR::IDENTITY,
        composite_alpha: vk::CompositeAlphaFlagsKHR::OPAQUE,
        flags: vk::SwapchainCreateFlagsKHR::empty(),
    };
    let chain =
        Swapchain::with_dump(&device, &Surface::headless(), desc, None, Some(dir.clone())).unwrap();
    let queue = device.queue(0, 0).unwrap();
    let pool = CommandPool::new(&device, 0, vk::CommandPoolCreateFlags::empty()).unwrap();
    // Red-ish then blue-ish, each channel distinct so that a swap shows:
    // (1, 0.2, 0, 1) is (255, 51, 0, 255) in UNORM8 (0.2 * 255 = 51).
    let frames = [
        ([1.0, 0.2, 0.0, 1.0], [255, 51, 0, 255]),
        ([0.0, 0.2, 1.0, 1.0], [0, 51, 255, 255]),
    ];
    for (color, _) in frames {
        let fence = Fence::new(&device, false).unwrap();
        let index = chain.acquire(0, None, Some(&fence)).unwrap();
        Fence::wait(std::slice::from_ref(&fence), true, u64::MAX).unwrap();
        let image = &chain.images[index as usize];
        let cmd = pool.allocate(Level::Primary);
        cmd.begin(None).unwrap();
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: 1,
        };
        let value = vk::ClearColorValue { float32: color };
        cmd.record(|r| r.clear_color_image(image, &value, &[range]));
        cmd.end().unwrap();
        // The clear and the present's copy run in queue order.
        let cleared = common::submit(&device, &cmd);
        let results = present(
            &queue,
            Vec::new(),
            &[PresentImage {
                swapchain: chain.clone(),
                index,
            }],
        )
        .unwrap();
        assert_eq!(results, vec![vk::Result::SUCCESS]);
        Fence::wait(&[cleared], true, u64::MAX).unwrap();
    }
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    for (file, (_, rgba)) in files.iter().zip(frames) {
        let (w, h, pixels) = read_png(file);
        assert_eq!((w, h), (WIDTH, HEIGHT));
        let want = rgba.repeat((WIDTH * HEIGHT) as usize);
        assert!(pixels == want, "{}: {:?}...", file.display(), &pixels[..8]);
    }
    chain.destroy().unwrap();
}

#[test]
fn bgra_presents_are_dumped_red_first_on_a660() {
    dumps_what_was_cleared("a660", vk::Format::B8G8R8A8_UNORM);
}

#[test]
fn rgba_presents_are_dumped_on_a740() {
    dumps_what_was_cleared("a740", vk::Format::R8G8B8A8_UNORM);
}
