//! VK_KHR_maintenance4 (core in Vulkan 1.3): the memory requirements of a
//! buffer or image asked of the device from its create info, before any
//! exists, are the ones the object made from that info reports; no
//! non-sparse image has sparse requirements; a smaller image never needs
//! more than a larger one alike; maxBufferSize is at least 1.3's minimum.
//! Each comparison is kept as a flag, so the outputs equal lavapipe's
//! whatever the two drivers' layouts are.

use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "maintenance4.device_requirements",
    run: device_requirements,
}];

/// Vulkan 1.3's least maxBufferSize.
const MIN_MAX_BUFFER_SIZE: u64 = 1 << 30;

fn stop(what: &str) -> impl Fn(vk::Result) -> Stop + '_ {
    move |e| Stop::Error(format!("{what}: {e}"))
}

/// The commands by the extension's names or the core ones.
struct Commands {
    buffer: vk::PFN_vkGetDeviceBufferMemoryRequirements,
    image: vk::PFN_vkGetDeviceImageMemoryRequirements,
    sparse: vk::PFN_vkGetDeviceImageSparseMemoryRequirements,
}

fn device_requirements(h: &mut Harness) -> Result<CaseResult, Stop> {
    let enable_ext = h.offers_extension(ash::khr::maintenance4::NAME)?;
    if !enable_ext && vk::api_version_minor(h.caps().api_version) < 3 {
        return Err(Stop::NotSupported("VK_KHR_maintenance4".into()));
    }
    let instance = h.instance();
    let mut feature = vk::PhysicalDeviceMaintenance4Features::default();
    let mut query = vk::PhysicalDeviceFeatures2::default().push_next(&mut feature);
    // SAFETY: the chain holds a structure of the extension or version found.
    unsafe { instance.get_physical_device_features2(h.physical_device(), &mut query) };
    if feature.maintenance4 != vk::TRUE {
        return Err(Stop::NotSupported("maintenance4".into()));
    }
    let mut limits = vk::PhysicalDeviceMaintenance4Properties::default();
    let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut limits);
    // SAFETY: as for the features.
    unsafe { instance.get_physical_device_properties2(h.physical_device(), &mut properties) };
    let extensions = [ash::khr::maintenance4::NAME.as_ptr()];
    let mut enable = vk::PhysicalDeviceMaintenance4Features::default().maintenance4(true);
    let mut info = vk::DeviceCreateInfo::default().push_next(&mut enable);
    if enable_ext {
        info = info.enabled_extension_names(&extensions);
    }
    let device = h.create_device(info)?;
    let fns = if enable_ext {
        let loaded = ash::khr::maintenance4::Device::new(instance, &device);
        let f = loaded.fp();
        Commands {
            buffer: f.get_device_buffer_memory_requirements_khr,
            image: f.get_device_image_memory_requirements_khr,
            sparse: f.get_device_image_sparse_memory_requirements_khr,
        }
    } else {
        let f = device.fp_v1_3();
        Commands {
            buffer: f.get_device_buffer_memory_requirements,
            image: f.get_device_image_memory_requirements,
            sparse: f.get_device_image_sparse_memory_requirements,
        }
    };
    let result = with_device(&device, &fns, limits.max_buffer_size);
    // SAFETY: every object of the device was destroyed in with_device.
    unsafe { device.destroy_device(None) };
    result
}

fn same(a: &vk::MemoryRequirements, b: &vk::MemoryRequirements) -> u32 {
    u32::from(
        a.size == b.size
            && a.alignment == b.alignment
            && a.memory_type_bits == b.memory_type_bits
            && a.memory_type_bits != 0,
    )
}

fn image_infos() -> Vec<vk::ImageCreateInfo<'static>> {
    let base = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(vk::Format::R8G8B8A8_UNORM)
        .extent(vk::Extent3D {
            width: 64,
            height: 64,
            depth: 1,
        })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST);
    vec![
        base,
        base.extent(vk::Extent3D {
            width: 37,
            height: 19,
            depth: 1,
        })
        .mip_levels(6),
        base.format(vk::Format::R8_UNORM)
            .tiling(vk::ImageTiling::LINEAR)
            .extent(vk::Extent3D {
                width: 33,
                height: 7,
                depth: 1,
            }),
        base.image_type(vk::ImageType::TYPE_3D)
            .extent(vk::Extent3D {
                width: 16,
                height: 8,
                depth: 4,
            }),
        base.flags(vk::ImageCreateFlags::CUBE_COMPATIBLE)
            .extent(vk::Extent3D {
                width: 32,
                height: 32,
                depth: 1,
            })
            .array_layers(12),
        base.format(vk::Format::D32_SFLOAT)
            .usage(vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT),
        base.samples(vk::SampleCountFlags::TYPE_4)
            .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT),
    ]
}

/// Kept: per buffer info, then per image info, whether the device's answer
/// equals the made object's; the sparse counts of the images (none); per
/// image info, whether the image of about half its width and height needs
/// no more; whether maxBufferSize reaches 1.3's minimum.
fn with_device(
    device: &ash::Device,
    fns: &Commands,
    max_buffer_size: u64,
) -> Result<CaseResult, Stop> {
    let mut equal = Vec::new();
    let buffers = [
        (1u64, vk::BufferUsageFlags::STORAGE_BUFFER),
        (64, vk::BufferUsageFlags::UNIFORM_BUFFER),
        (
            1000,
            vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
        ),
        (65539, vk::BufferUsageFlags::INDEX_BUFFER),
    ];
    for (size, usage) in buffers {
        let info = vk::BufferCreateInfo::default().size(size).usage(usage);
        let mut asked = vk::MemoryRequirements2::default();
        let query = vk::DeviceBufferMemoryRequirements::default().create_info(&info);
        // SAFETY: the device is alive; the structures are valid.
        unsafe { (fns.buffer)(device.handle(), &query, &mut asked) };
        // SAFETY: as above; the buffer is destroyed after the query.
        let made = unsafe {
            let buffer = device
                .create_buffer(&info, None)
                .map_err(stop("vkCreateBuffer"))?;
            let r = device.get_buffer_memory_requirements(buffer);
            device.destroy_buffer(buffer, None);
            r
        };
        equal.push(same(&asked.memory_requirements, &made));
    }
    let ask_image = |info: &vk::ImageCreateInfo<'_>| {
        let mut asked = vk::MemoryRequirements2::default();
        let query = vk::DeviceImageMemoryRequirements::default().create_info(info);
        // SAFETY: the device is alive; the structures are valid.
        unsafe { (fns.image)(device.handle(), &query, &mut asked) };
        asked.memory_requirements
    };
    let mut sparse_counts = Vec::new();
    let mut no_larger = Vec::new();
    for info in image_infos() {
        let asked = ask_image(&info);
        // SAFETY: as above; the image is destroyed after the query.
        let made = unsafe {
            let image = device
                .create_image(&info, None)
                .map_err(stop("vkCreateImage"))?;
            let r = device.get_image_memory_requirements(image);
            device.destroy_image(image, None);
            r
        };
        equal.push(same(&asked, &made));
        // Starts at 0: lavapipe leaves the count of a non-sparse image as
        // it finds it, so a count the driver writes is what can differ.
        let mut count = 0u32;
        let query = vk::DeviceImageMemoryRequirements::default().create_info(&info);
        // SAFETY: the device is alive; a null array asks for the count.
        unsafe { (fns.sparse)(device.handle(), &query, &mut count, std::ptr::null_mut()) };
        sparse_counts.push(count);
        let e = info.extent;
        let smaller = info.extent(vk::Extent3D {
            width: e.width / 2 + 1,
            height: e.height / 2 + 1,
            depth: e.depth,
        });
        no_larger.push(u32::from(ask_image(&smaller).size <= asked.size));
    }
    let mut result = CaseResult::new();
    result.check("device_equals_object", &equal, &vec![1u32; equal.len()]);
    result.check(
        "sparse_counts",
        &sparse_counts,
        &vec![0u32; sparse_counts.len()],
    );
    result.check(
        "smaller_needs_no_more",
        &no_larger,
        &vec![1u32; no_larger.len()],
    );
    result.check(
        "max_buffer_size_reaches_minimum",
        &[u32::from(max_buffer_size >= MIN_MAX_BUFFER_SIZE)],
        &[1u32],
    );
    Ok(result)
}
