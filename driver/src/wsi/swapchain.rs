//! `VkSwapchainKHR` on a headless surface: ordinary images, handed to the
//! application by acquire and back to the presentation engine by present.
//!
//! Each image is either the application's (acquired) or the engine's. The
//! engine's images wait in a queue, oldest present first, and acquire
//! takes the front one. A present is a submit on the application's queue
//! that waits for the present's semaphores and signals the image's own
//! binary semaphore, `released`; the next acquire of that image is an
//! empty submit that waits for `released` and signals the application's
//! semaphore and fence. So the image is available as soon as the work its
//! present waited for has completed, the GPU orders it, and the host never
//! blocks on the GPU to acquire. When the application holds every image,
//! acquire waits on the host for another thread's present, up to its
//! timeout (`VK_NOT_READY` at once for 0, `VK_TIMEOUT` after a longer
//! one), as the spec describes.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ash::vk;
use parking_lot::{Condvar, Mutex};

use super::present_dump::{PresentDump, PRESENT_DIR_VAR};
use super::surface::{self, Surface, MAX_IMAGE_COUNT, MIN_IMAGE_COUNT, PRESENT_MODES};
use crate::device::Device;
use crate::device_memory::DeviceMemory;
use crate::error::VkResult;
use crate::image::{Image, ImageDesc};
use crate::queue::{Queue, SemaphoreOp, SubmitBatch};
use crate::sync::fence::Fence;
use crate::sync::semaphore::{Semaphore, SemaphoreKind};

/// What `VkSwapchainCreateInfoKHR` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapchainDesc {
    pub min_image_count: u32,
    pub format: vk::Format,
    pub color_space: vk::ColorSpaceKHR,
    pub extent: vk::Extent2D,
    pub layers: u32,
    pub usage: vk::ImageUsageFlags,
    pub present_mode: vk::PresentModeKHR,
    pub pre_transform: vk::SurfaceTransformFlagsKHR,
    pub composite_alpha: vk::CompositeAlphaFlagsKHR,
    pub flags: vk::SwapchainCreateFlagsKHR,
}

impl SwapchainDesc {
    /// The images' description: 2D, one level, optimally tiled, with the
    /// usage the application asked for.
    pub fn image_desc(&self) -> ImageDesc {
        ImageDesc {
            image_type: vk::ImageType::TYPE_2D,
            format: self.format,
            extent: vk::Extent3D {
                width: self.extent.width,
                height: self.extent.height,
                depth: 1,
            },
            levels: 1,
            layers: self.layers,
            samples: 1,
            tiling: vk::ImageTiling::OPTIMAL,
            usage: self.usage,
            flags: vk::ImageCreateFlags::empty(),
            // What vkCreateImage records without a format list, so that an
            // image made with VkImageSwapchainCreateInfoKHR is described
            // alike (it matters only to mutable formats).
            view_formats_swap: true,
        }
    }
}

/// Who holds the images.
struct Ownership {
    /// Whether the application holds image `i`.
    acquired: Vec<bool>,
    /// The engine's images, oldest present first, each with whether a
    /// present's signal of its `released` semaphore is still to be waited
    /// for.
    engine: VecDeque<(u32, bool)>,
    /// Replaced by a newer swapchain (`oldSwapchain`).
    retired: bool,
}

pub struct Swapchain {
    pub device: Arc<Device>,
    pub desc: SwapchainDesc,
    pub images: Vec<Arc<Image>>,
    /// Per image: signalled by its present, waited for by its next acquire.
    released: Vec<Arc<Semaphore>>,
    ownership: Mutex<Ownership>,
    /// Notified when a present gives an image back.
    returned: Condvar,
    dump: Option<PresentDump>,
}

/// Refuses a create info the surface does not allow (valid usage, so the
/// message says what the application got wrong).
fn check(surface: &Surface, desc: &SwapchainDesc) -> VkResult<()> {
    let caps = surface.capabilities();
    let refuse = |why: String| {
        eprintln!("parsnip: vkCreateSwapchainKHR: {why}");
        Err(vk::Result::ERROR_INITIALIZATION_FAILED)
    };
    if !surface::surface_formats()
        .iter()
        .any(|f| f.format == desc.format && f.color_space == desc.color_space)
    {
        return refuse(format!(
            "{:?} in {:?} is not a format of the surface",
            desc.format, desc.color_space
        ));
    }
    let (min, max) = (caps.min_image_extent, caps.max_image_extent);
    let e = desc.extent;
    if e.width < min.width || e.height < min.height || e.width > max.width || e.height > max.height
    {
        return refuse(format!("extent {e:?} is outside {min:?}..={max:?}"));
    }
    if desc.layers == 0 || desc.layers > caps.max_image_array_layers {
        return refuse(format!("{} array layers", desc.layers));
    }
    if desc.usage.is_empty() || !caps.supported_usage_flags.contains(desc.usage) {
        return refuse(format!(
            "usage {:?} is not within {:?}",
            desc.usage, caps.supported_usage_flags
        ));
    }
    if !caps.supported_transforms.contains(desc.pre_transform)
        || !caps
            .supported_composite_alpha
            .contains(desc.composite_alpha)
    {
        return refuse(format!(
            "transform {:?} or composite alpha {:?} is not the surface's",
            desc.pre_transform, desc.composite_alpha
        ));
    }
    if !PRESENT_MODES.contains(&desc.present_mode) {
        return refuse(format!("present mode {:?}", desc.present_mode));
    }
    if desc.min_image_count > MAX_IMAGE_COUNT {
        return refuse(format!(
            "{} images (at most {MAX_IMAGE_COUNT})",
            desc.min_image_count
        ));
    }
    if !desc.flags.is_empty() {
        // Split-instance binds and protected images need features the
        // device does not offer; mutable formats an extension it does not.
        return refuse(format!("flags {:?}", desc.flags));
    }
    Ok(())
}

/// The queue internal submits (acquire's signals) go to: the device's
/// first, which every device has.
fn acquire_queue(device: &Device) -> VkResult<Arc<Queue>> {
    device.queue(0, 0).ok_or(vk::Result::ERROR_DEVICE_LOST)
}

impl Swapchain {
    /// `vkCreateSwapchainKHR`: `minImageCount` images (at least the
    /// surface's minimum), each bound to memory of its own. `old` is
    /// retired, whether or not this succeeds.
    pub fn new(
        device: &Arc<Device>,
        surface: &Surface,
        desc: SwapchainDesc,
        old: Option<&Swapchain>,
    ) -> VkResult<Arc<Swapchain>> {
        let dump_dir = std::env::var_os(PRESENT_DIR_VAR).filter(|d| !d.is_empty());
        Swapchain::with_dump(device, surface, desc, old, dump_dir.map(PathBuf::from))
    }

    /// As [`Swapchain::new`], writing each present to a PNG in `dump_dir`
    /// when given (what `PARSNIP_PRESENT_DIR` asks for).
    pub fn with_dump(
        device: &Arc<Device>,
        surface: &Surface,
        desc: SwapchainDesc,
        old: Option<&Swapchain>,
        dump_dir: Option<PathBuf>,
    ) -> VkResult<Arc<Swapchain>> {
        if let Some(old) = old {
            old.ownership.lock().retired = true;
            // An acquire waiting on the old chain now fails.
            old.returned.notify_all();
        }
        check(surface, &desc)?;
        let count = desc.min_image_count.max(MIN_IMAGE_COUNT);
        let image_desc = desc.image_desc();
        let mut images = Vec::new();
        let mut released = Vec::new();
        for _ in 0..count {
            let image = Image::new(image_desc, device.gpu.entry)
                .map_err(|_| vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)?;
            let size = image.memory_requirements(1).size;
            let memory = DeviceMemory::allocate(device, size, 0)?;
            image.bind(memory, 0)?;
            images.push(image);
            released.push(Semaphore::new(device, SemaphoreKind::Binary, 0)?);
        }
        let dump = dump_dir
            .map(|dir| PresentDump::new(device, &desc, dir))
            .transpose()?;
        Ok(Arc::new(Swapchain {
            device: device.clone(),
            desc,
            images,
            released,
            ownership: Mutex::new(Ownership {
                acquired: vec![false; count as usize],
                engine: (0..count).map(|i| (i, false)).collect(),
                retired: false,
            }),
            returned: Condvar::new(),
            dump,
        }))
    }

    /// Takes the engine's oldest image for the application: its index and
    /// whether a present's signal is to be waited for. `NOT_READY` (timeout
    /// 0) or `TIMEOUT` when the application holds every image throughout.
    fn take(&self, timeout_ns: u64) -> Result<(u32, bool), vk::Result> {
        let mut own = self.ownership.lock();
        let deadline = (timeout_ns != u64::MAX)
            .then(|| Instant::now().checked_add(Duration::from_nanos(timeout_ns)))
            .flatten();
        loop {
            if own.retired {
                eprintln!("parsnip: vkAcquireNextImageKHR: the swapchain is retired");
                return Err(vk::Result::ERROR_OUT_OF_DATE_KHR);
            }
            if !own.engine.is_empty() {
                break;
            }
            if timeout_ns == 0 {
                return Err(vk::Result::NOT_READY);
            }
            match deadline {
                Some(d) => {
                    if self.returned.wait_until(&mut own, d).timed_out() && own.engine.is_empty() {
                        return Err(vk::Result::TIMEOUT);
                    }
                }
                None => {
                    // Valid usage forbids this when the application holds
                    // more than imageCount - minImageCount images; only
                    // another thread's present can end the wait.
                    eprintln!(
                        "parsnip: vkAcquireNextImageKHR: the application holds every image \
                         and the timeout is infinite: waiting for a present from another thread"
                    );
                    self.returned.wait(&mut own);
                }
            }
        }
        let (index, pending) = own.engine.pop_front().expect("not empty");
        own.acquired[index as usize] = true;
        Ok((index, pending))
    }

    /// `vkAcquireNextImageKHR`: the index of the image, whose availability
    /// `semaphore` and `fence` signal; `NOT_READY`, `TIMEOUT` (success
    /// codes with no image) or an error otherwise.
    pub fn acquire(
        &self,
        timeout_ns: u64,
        semaphore: Option<&Arc<Semaphore>>,
        fence: Option<&Arc<Fence>>,
    ) -> Result<u32, vk::Result> {
        let (index, pending) = self.take(timeout_ns)?;
        let batch = SubmitBatch {
            waits: pending
                .then(|| SemaphoreOp {
                    semaphore: self.released[index as usize].clone(),
                    value: 0,
                })
                .into_iter()
                .collect(),
            command_buffers: Vec::new(),
            signals: semaphore
                .map(|s| SemaphoreOp {
                    semaphore: s.clone(),
                    value: 0,
                })
                .into_iter()
                .collect(),
        };
        let submitted = acquire_queue(&self.device).and_then(|q| q.submit(&[batch], fence));
        if let Err(e) = submitted {
            // The image goes back unacquired; a wait already submitted
            // stays consumed, which only a lost device gets to.
            let mut own = self.ownership.lock();
            own.acquired[index as usize] = false;
            own.engine.push_front((index, false));
            return Err(e);
        }
        Ok(index)
    }

    /// `vkBindImageMemory2` with `VkBindImageMemorySwapchainInfoKHR`:
    /// binds `image` (created with `VkImageSwapchainCreateInfoKHR`, so like
    /// the swapchain's images) to the memory of image `index`.
    pub fn bind_alias(&self, image: &Image, index: u32) -> VkResult<()> {
        let Some(target) = self.images.get(index as usize) else {
            eprintln!(
                "parsnip: vkBindImageMemory2: the swapchain has no image {index} (it has {})",
                self.images.len()
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        };
        if image.desc != target.desc || image.size != target.size {
            eprintln!(
                "parsnip: vkBindImageMemory2: the image is not like the swapchain's ({:?}, not \
                 {:?})",
                image.desc, target.desc
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let binding = target.binding().ok_or(vk::Result::ERROR_UNKNOWN)?;
        image.bind(binding.memory.clone(), binding.offset)
    }

    /// How many images the application holds.
    pub fn acquired_count(&self) -> usize {
        self.ownership
            .lock()
            .acquired
            .iter()
            .filter(|a| **a)
            .count()
    }

    fn check_acquired(&self, index: u32) -> VkResult<()> {
        let own = self.ownership.lock();
        if own.acquired.get(index as usize) != Some(&true) {
            eprintln!(
                "parsnip: vkQueuePresentKHR: image {index} of the swapchain is not acquired \
                 by the application"
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        Ok(())
    }

    /// Gives image `index` back to the engine, its `released` semaphore
    /// signalled by a submit already made.
    fn give_back(&self, index: u32) {
        let mut own = self.ownership.lock();
        own.acquired[index as usize] = false;
        own.engine.push_back((index, true));
        self.returned.notify_all();
    }

    /// `vkDestroySwapchainKHR`: waits for the presents in flight (the
    /// engine's use of the images) before they go.
    pub fn destroy(&self) -> VkResult<()> {
        self.device.wait_idle()
    }
}

/// One swapchain's part of a `vkQueuePresentKHR`.
pub struct PresentImage {
    pub swapchain: Arc<Swapchain>,
    pub index: u32,
}

/// `vkQueuePresentKHR`: one submit on `queue` waiting for `waits` and
/// signalling each image's `released` semaphore, after which the images
/// are the engine's again. The result of each swapchain's present, in
/// order.
pub fn present(
    queue: &Queue,
    waits: Vec<SemaphoreOp>,
    images: &[PresentImage],
) -> VkResult<Vec<vk::Result>> {
    let mut results = vec![vk::Result::SUCCESS; images.len()];
    let mut presented = Vec::new();
    for (i, p) in images.iter().enumerate() {
        match p.swapchain.check_acquired(p.index) {
            Ok(()) => presented.push(p),
            Err(e) => results[i] = e,
        }
    }
    let mut batch = SubmitBatch {
        waits,
        command_buffers: Vec::new(),
        signals: presented
            .iter()
            .map(|p| SemaphoreOp {
                semaphore: p.swapchain.released[p.index as usize].clone(),
                value: 0,
            })
            .collect(),
    };
    // Presents that are dumped copy their image out in the same submit,
    // and the host waits for it to write the files.
    let mut dumps = Vec::new();
    for p in &presented {
        if let Some(dump) = &p.swapchain.dump {
            let image = &p.swapchain.images[p.index as usize];
            batch.command_buffers.push(dump.record_copy(image)?);
            dumps.push(dump);
        }
    }
    let fence = match dumps.first() {
        Some(d) => Some(Fence::new(&d.device, false)?),
        None => None,
    };
    queue.submit(&[batch], fence.as_ref())?;
    for p in &presented {
        p.swapchain.give_back(p.index);
    }
    if let Some(fence) = fence {
        Fence::wait(&[fence], true, u64::MAX)?;
        for dump in dumps {
            dump.write_png();
        }
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::tests::null_device;

    fn desc(count: u32) -> SwapchainDesc {
        SwapchainDesc {
            min_image_count: count,
            format: vk::Format::B8G8R8A8_UNORM,
            color_space: vk::ColorSpaceKHR::SRGB_NONLINEAR,
            extent: vk::Extent2D {
                width: 64,
                height: 32,
            },
            layers: 1,
            usage: vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
            present_mode: vk::PresentModeKHR::FIFO,
            pre_transform: vk::SurfaceTransformFlagsKHR::IDENTITY,
            composite_alpha: vk::CompositeAlphaFlagsKHR::OPAQUE,
            flags: vk::SwapchainCreateFlagsKHR::empty(),
        }
    }

    fn semaphore(device: &Arc<Device>) -> Arc<Semaphore> {
        Semaphore::new(device, SemaphoreKind::Binary, 0).unwrap()
    }

    #[test]
    fn images_are_what_the_application_asked_for() {
        let device = null_device("a660");
        let chain = Swapchain::new(&device, &Surface::headless(), desc(3), None).unwrap();
        assert_eq!(chain.images.len(), 3);
        for image in &chain.images {
            assert_eq!(image.desc.format, vk::Format::B8G8R8A8_UNORM);
            assert_eq!(image.desc.extent.width, 64);
            assert_eq!(image.desc.extent.height, 32);
            assert_eq!(image.desc.usage, desc(3).usage);
            assert!(image.binding().is_some(), "bound to memory");
        }
        // Fewer than the surface's minimum is raised to it.
        let one = Swapchain::new(&device, &Surface::headless(), desc(1), None).unwrap();
        assert_eq!(one.images.len(), MIN_IMAGE_COUNT as usize);
    }

    #[test]
    fn images_like_the_swapchains_alias_their_memory() {
        let device = null_device("a660");
        let chain = Swapchain::new(&device, &Surface::headless(), desc(2), None).unwrap();
        let gpu = device.gpu.entry;
        let alias = Image::new(desc(2).image_desc(), gpu).unwrap();
        chain.bind_alias(&alias, 1).unwrap();
        let (a, b) = (alias.binding().unwrap(), chain.images[1].binding().unwrap());
        assert!(Arc::ptr_eq(&a.memory, &b.memory) && a.offset == b.offset);
        assert_eq!(alias.iova(0), chain.images[1].iova(0));
        // Another shape, or an index past the end, is refused.
        let other = SwapchainDesc {
            extent: vk::Extent2D {
                width: 8,
                height: 8,
            },
            ..desc(2)
        };
        let unlike = Image::new(other.image_desc(), gpu).unwrap();
        assert_eq!(chain.bind_alias(&unlike, 0), Err(vk::Result::ERROR_UNKNOWN));
        let late = Image::new(desc(2).image_desc(), gpu).unwrap();
        assert_eq!(chain.bind_alias(&late, 2), Err(vk::Result::ERROR_UNKNOWN));
    }

    #[test]
    fn invalid_create_infos_are_refused() {
        let device = null_device("a660");
        let s = Surface::headless();
        let refused = |d: SwapchainDesc| {
            Swapchain::new(&device, &s, d, None).err()
                == Some(vk::Result::ERROR_INITIALIZATION_FAILED)
        };
        assert!(refused(SwapchainDesc {
            format: vk::Format::R16G16B16A16_SFLOAT,
            ..desc(2)
        }));
        assert!(refused(SwapchainDesc {
            extent: vk::Extent2D {
                width: 0,
                height: 8
            },
            ..desc(2)
        }));
        assert!(refused(SwapchainDesc {
            usage: vk::ImageUsageFlags::STORAGE,
            ..desc(2)
        }));
        assert!(refused(SwapchainDesc {
            present_mode: vk::PresentModeKHR::SHARED_DEMAND_REFRESH,
            ..desc(2)
        }));
        assert!(refused(desc(MAX_IMAGE_COUNT + 1)));
        assert!(refused(SwapchainDesc {
            pre_transform: vk::SurfaceTransformFlagsKHR::ROTATE_90,
            ..desc(2)
        }));
    }

    #[test]
    fn acquiring_every_image_leaves_none_until_a_present() {
        let device = null_device("a660");
        let chain = Swapchain::new(&device, &Surface::headless(), desc(2), None).unwrap();
        let fence = Fence::new(&device, false).unwrap();
        let first = chain.acquire(0, None, Some(&fence)).unwrap();
        Fence::wait(std::slice::from_ref(&fence), true, u64::MAX).unwrap();
        let sem = semaphore(&device);
        let second = chain.acquire(u64::MAX, Some(&sem), None).unwrap();
        assert_eq!((first, second), (0, 1), "oldest first");
        assert_eq!(chain.acquired_count(), 2);
        // None left: timeout 0 is NOT_READY at once, a finite one TIMEOUT.
        assert_eq!(chain.acquire(0, None, None), Err(vk::Result::NOT_READY));
        assert_eq!(
            chain.acquire(2_000_000, None, None),
            Err(vk::Result::TIMEOUT)
        );
        // Presenting image 1 gives it back, and it is what comes next.
        let queue = device.queue(0, 0).unwrap();
        // The semaphore outlives the wait, as the spec has applications
        // keep it.
        let waits = vec![SemaphoreOp {
            semaphore: sem.clone(),
            value: 0,
        }];
        let results = present(
            &queue,
            waits,
            &[PresentImage {
                swapchain: chain.clone(),
                index: 1,
            }],
        )
        .unwrap();
        assert_eq!(results, vec![vk::Result::SUCCESS]);
        assert_eq!(chain.acquired_count(), 1);
        Fence::reset(std::slice::from_ref(&fence)).unwrap();
        assert_eq!(chain.acquire(0, None, Some(&fence)), Ok(1));
        assert_eq!(Fence::wait(&[fence], true, u64::MAX), Ok(()));
        drop(sem);
    }

    #[test]
    fn one_present_serves_several_swapchains_each_with_its_result() {
        let device = null_device("a660");
        let s = Surface::headless();
        let (a, b) = (
            Swapchain::new(&device, &s, desc(2), None).unwrap(),
            Swapchain::new(&device, &s, desc(3), None).unwrap(),
        );
        let fence = Fence::new(&device, false).unwrap();
        let held = a.acquire(0, None, Some(&fence)).unwrap();
        Fence::wait(std::slice::from_ref(&fence), true, u64::MAX).unwrap();
        let queue = device.queue(0, 0).unwrap();
        // b's image 2 was never acquired: that present alone fails.
        let results = present(
            &queue,
            Vec::new(),
            &[
                PresentImage {
                    swapchain: a.clone(),
                    index: held,
                },
                PresentImage {
                    swapchain: b.clone(),
                    index: 2,
                },
            ],
        )
        .unwrap();
        assert_eq!(
            results,
            vec![vk::Result::SUCCESS, vk::Result::ERROR_UNKNOWN]
        );
        assert_eq!((a.acquired_count(), b.acquired_count()), (0, 0));
        // a's presented image went to the back of its queue.
        // (The fences outlive the submits signalling them.)
        let fences: Vec<_> = (0..2)
            .map(|_| Fence::new(&device, false).unwrap())
            .collect();
        let order: Vec<u32> = fences
            .iter()
            .map(|f| a.acquire(0, None, Some(f)).unwrap())
            .collect();
        assert_eq!(order, vec![1, held]);
        Fence::wait(&fences, true, u64::MAX).unwrap();
    }

    #[test]
    fn a_present_on_another_thread_ends_a_waiting_acquire() {
        let device = null_device("a660");
        let chain = Swapchain::new(&device, &Surface::headless(), desc(2), None).unwrap();
        let fences: Vec<_> = (0..2)
            .map(|_| Fence::new(&device, false).unwrap())
            .collect();
        for f in &fences {
            chain.acquire(0, None, Some(f)).unwrap();
        }
        Fence::wait(&fences, true, u64::MAX).unwrap();
        let presenter = {
            let chain = chain.clone();
            let queue = device.queue(0, 0).unwrap();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                present(
                    &queue,
                    Vec::new(),
                    &[PresentImage {
                        swapchain: chain,
                        index: 0,
                    }],
                )
            })
        };
        let sem = semaphore(&device);
        assert_eq!(chain.acquire(u64::MAX, Some(&sem), None), Ok(0));
        assert_eq!(presenter.join().unwrap(), Ok(vec![vk::Result::SUCCESS]));
        // The semaphore outlives the submit signalling it.
        device.wait_idle().unwrap();
    }

    #[test]
    fn presenting_an_image_not_acquired_is_refused_and_retired_chains_do_not_acquire() {
        let device = null_device("a660");
        let s = Surface::headless();
        let chain = Swapchain::new(&device, &s, desc(2), None).unwrap();
        let queue = device.queue(0, 0).unwrap();
        let results = present(
            &queue,
            Vec::new(),
            &[PresentImage {
                swapchain: chain.clone(),
                index: 1,
            }],
        )
        .unwrap();
        assert_eq!(results, vec![vk::Result::ERROR_UNKNOWN]);
        let fence = Fence::new(&device, false).unwrap();
        let held = chain.acquire(0, None, Some(&fence)).unwrap();
        // A failed re-creation still retires the old chain.
        let bad = SwapchainDesc {
            layers: 0,
            ..desc(2)
        };
        assert!(Swapchain::new(&device, &s, bad, Some(&chain)).is_err());
        assert_eq!(
            chain.acquire(0, None, Some(&fence)),
            Err(vk::Result::ERROR_OUT_OF_DATE_KHR)
        );
        // What it had handed out can still be presented.
        let results = present(
            &queue,
            Vec::new(),
            &[PresentImage {
                swapchain: chain.clone(),
                index: held,
            }],
        )
        .unwrap();
        assert_eq!(results, vec![vk::Result::SUCCESS]);
        chain.destroy().unwrap();
    }
}
