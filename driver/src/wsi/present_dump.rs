//! `PARSNIP_PRESENT_DIR=<dir>`: every image a swapchain presents is
//! written to `<dir>/swapchain<N>-<frame>.png`, so that what a headless
//! program rendered can be seen.
//!
//! The image is copied to a linear buffer by the 2D engine in the present's
//! own submit (after its semaphore waits, so it holds what the application
//! rendered), and the present waits on the host for the copy before writing
//! the file: slow, and meant for debugging only. A file that cannot be
//! written is reported and the present still succeeds.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ash::vk;
use parking_lot::Mutex;

use super::swapchain::SwapchainDesc;
use crate::buffer::Buffer;
use crate::cmd::buffer::{CommandBuffer, Level};
use crate::cmd::pool::CommandPool;
use crate::device::Device;
use crate::device_memory::DeviceMemory;
use crate::error::VkResult;
use crate::image::Image;

/// The environment variable naming the directory.
pub const PRESENT_DIR_VAR: &str = "PARSNIP_PRESENT_DIR";

/// Numbers the swapchains of the process, for file names.
static SWAPCHAINS: AtomicU64 = AtomicU64::new(0);

pub struct PresentDump {
    pub device: Arc<Device>,
    dir: PathBuf,
    swapchain: u64,
    frames: AtomicU64,
    extent: vk::Extent2D,
    /// Blue first in memory: the PNG wants red first.
    bgra: bool,
    staging: Arc<Buffer>,
    memory: Arc<DeviceMemory>,
    pool: Arc<CommandPool>,
    /// The copy of the present in flight, kept until its fence passes.
    in_flight: Mutex<Option<Arc<CommandBuffer>>>,
}

impl PresentDump {
    /// A dump into `dir` (created if missing).
    pub fn new(device: &Arc<Device>, desc: &SwapchainDesc, dir: PathBuf) -> VkResult<PresentDump> {
        if let Err(e) = std::fs::create_dir_all(&dir) {
            eprintln!("parsnip: {PRESENT_DIR_VAR}: {}: {e}", dir.display());
        }
        // Layer 0 only: surfaces offer one array layer.
        let size = 4 * u64::from(desc.extent.width) * u64::from(desc.extent.height);
        let staging = Buffer::create(device, size, vk::BufferUsageFlags::TRANSFER_DST)?;
        let memory = DeviceMemory::allocate(device, staging.memory_requirements(device).size, 0)?;
        staging.bind(memory.clone(), 0)?;
        Ok(PresentDump {
            device: device.clone(),
            dir,
            swapchain: SWAPCHAINS.fetch_add(1, Ordering::Relaxed),
            frames: AtomicU64::new(0),
            extent: desc.extent,
            bgra: matches!(
                desc.format,
                vk::Format::B8G8R8A8_UNORM | vk::Format::B8G8R8A8_SRGB
            ),
            staging,
            memory,
            pool: CommandPool::new(device, 0, vk::CommandPoolCreateFlags::TRANSIENT)?,
            in_flight: Mutex::new(None),
        })
    }

    /// A command buffer copying `image` to the staging buffer.
    pub fn record_copy(&self, image: &Arc<Image>) -> VkResult<Arc<CommandBuffer>> {
        let cmd = self.pool.allocate(Level::Primary);
        cmd.begin(None)?;
        let region = vk::BufferImageCopy {
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            },
            image_extent: vk::Extent3D {
                width: self.extent.width,
                height: self.extent.height,
                depth: 1,
            },
            ..Default::default()
        };
        let staging = self.staging.clone();
        cmd.record(|r| r.copy_image_to_buffer(image, &staging, &[region]));
        cmd.end()?;
        *self.in_flight.lock() = Some(cmd.clone());
        Ok(cmd)
    }

    /// Writes the staging buffer (the copy having completed) as the next
    /// frame's file.
    pub fn write_png(&self) {
        self.in_flight.lock().take();
        let frame = self.frames.fetch_add(1, Ordering::Relaxed);
        let path = self
            .dir
            .join(format!("swapchain{}-{frame:06}.png", self.swapchain));
        if let Err(e) = self.encode(&path) {
            eprintln!("parsnip: {PRESENT_DIR_VAR}: {}: {e}", path.display());
        }
    }

    fn encode(&self, path: &std::path::Path) -> Result<(), String> {
        let len = self.staging.size as usize;
        let base = self
            .memory
            .map(0, vk::WHOLE_SIZE)
            .map_err(|e| format!("{e:?}"))?;
        let mut rgba = vec![0u8; len];
        // SAFETY: the mapping covers the whole allocation, at least `len`
        // bytes, and the GPU's copy into it has completed (its fence
        // passed).
        unsafe { std::ptr::copy_nonoverlapping(base.as_ptr(), rgba.as_mut_ptr(), len) };
        self.memory.unmap();
        if self.bgra {
            rgba.chunks_exact_mut(4).for_each(|t| t.swap(0, 2));
        }
        let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
        let mut png = png::Encoder::new(
            std::io::BufWriter::new(file),
            self.extent.width,
            self.extent.height,
        );
        png.set_color(png::ColorType::Rgba);
        png.set_depth(png::BitDepth::Eight);
        png.write_header()
            .and_then(|mut w| w.write_image_data(&rgba))
            .map_err(|e| e.to_string())
    }
}
