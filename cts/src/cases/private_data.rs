//! VK_EXT_private_data (core in Vulkan 1.3): a device made with the
//! privateData feature and a slot reservation, two slots, and a value set
//! on objects of several types (the device, its queue, a buffer, a fence,
//! a semaphore, an event, a sampler and a slot itself) read back per slot;
//! and an object made after one with a value was destroyed (which a driver
//! may give the same handle) reading 0.

use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "private_data.per_object",
        run: per_object,
    },
    Case {
        name: "private_data.recreated_object",
        run: recreated_object,
    },
];

/// Whether the device has the extension (to enable) or Vulkan 1.3 (where
/// private data is core); NotSupported for neither.
fn needs_private_data(h: &Harness) -> Result<bool, Stop> {
    let ext = h.offers_extension(ash::ext::private_data::NAME)?;
    if !ext && vk::api_version_minor(h.caps().api_version) < 3 {
        return Err(Stop::NotSupported("VK_EXT_private_data".into()));
    }
    Ok(ext)
}

fn stop(what: &str) -> impl Fn(vk::Result) -> Stop + '_ {
    move |e| Stop::Error(format!("{what}: {e}"))
}

/// The values read back: for each object, slot A's then slot B's, where
/// object i was given 0x1000 + i in A and (i << 40) | 7 in B, except the
/// last object, left unset in B (so reads 0 there), and then the first
/// object's value in A after it was set again.
fn per_object(h: &mut Harness) -> Result<CaseResult, Stop> {
    with_private_data_device(h, per_object_on)
}

/// A buffer, a fence and a slot given a value, destroyed, and made again
/// alike: the new objects read 0 (a driver whose handles are addresses
/// hands the freed ones out again, so a value kept by handle would show).
fn recreated_object(h: &mut Harness) -> Result<CaseResult, Stop> {
    with_private_data_device(h, recreated_object_on)
}

/// Runs `run` on a device made with privateData and a two-slot
/// reservation, with the commands by the names the device offers.
fn with_private_data_device(
    h: &mut Harness,
    run: fn(&ash::Device, &Commands) -> Result<CaseResult, Stop>,
) -> Result<CaseResult, Stop> {
    let enable_ext = needs_private_data(h)?;
    let instance = h.instance();
    let mut feature = vk::PhysicalDevicePrivateDataFeatures::default();
    let mut query = vk::PhysicalDeviceFeatures2::default().push_next(&mut feature);
    // SAFETY: the chain holds a structure of the extension or version found.
    unsafe { instance.get_physical_device_features2(h.physical_device(), &mut query) };
    if feature.private_data != vk::TRUE {
        return Err(Stop::NotSupported("privateData".into()));
    }
    let extensions = [ash::ext::private_data::NAME.as_ptr()];
    let mut enable = vk::PhysicalDevicePrivateDataFeatures::default().private_data(true);
    let mut reserve = vk::DevicePrivateDataCreateInfo::default().private_data_slot_request_count(2);
    let mut info = vk::DeviceCreateInfo::default()
        .push_next(&mut enable)
        .push_next(&mut reserve);
    if enable_ext {
        info = info.enabled_extension_names(&extensions);
    }
    let device = h.create_device(info)?;
    let fns = if enable_ext {
        let loaded = ash::ext::private_data::Device::new(instance, &device);
        let f = loaded.fp();
        Commands {
            create: f.create_private_data_slot_ext,
            destroy: f.destroy_private_data_slot_ext,
            set: f.set_private_data_ext,
            get: f.get_private_data_ext,
        }
    } else {
        let f = device.fp_v1_3();
        Commands {
            create: f.create_private_data_slot,
            destroy: f.destroy_private_data_slot,
            set: f.set_private_data,
            get: f.get_private_data,
        }
    };
    let result = run(&device, &fns);
    // SAFETY: every object of the device was destroyed by `run`.
    unsafe { device.destroy_device(None) };
    result
}

/// The commands by the extension's names or the core ones.
struct Commands {
    create: vk::PFN_vkCreatePrivateDataSlot,
    destroy: vk::PFN_vkDestroyPrivateDataSlot,
    set: vk::PFN_vkSetPrivateData,
    get: vk::PFN_vkGetPrivateData,
}

impl Commands {
    fn new_slot(&self, device: &ash::Device) -> Result<vk::PrivateDataSlot, Stop> {
        let mut slot = vk::PrivateDataSlot::null();
        let info = vk::PrivateDataSlotCreateInfo::default();
        // SAFETY: the device is alive; the info and the output are valid.
        unsafe { (self.create)(device.handle(), &info, std::ptr::null(), &mut slot) }
            .result_with_success(slot)
            .map_err(stop("vkCreatePrivateDataSlot"))
    }
}

fn recreated_object_on(device: &ash::Device, fns: &Commands) -> Result<CaseResult, Stop> {
    use vk::Handle;
    let slot = fns.new_slot(device)?;
    let buffer_info = vk::BufferCreateInfo::default()
        .size(64)
        .usage(vk::BufferUsageFlags::STORAGE_BUFFER);
    let fence_info = vk::FenceCreateInfo::default();
    let set = |ty: vk::ObjectType, handle: u64, value: u64| {
        // SAFETY: the object and the slot belong to the live device.
        unsafe { (fns.set)(device.handle(), ty, handle, slot, value) }.as_raw() as u32
    };
    let get = |ty: vk::ObjectType, handle: u64| {
        let mut value = u64::MAX;
        // SAFETY: as for set; pData is a u64.
        unsafe { (fns.get)(device.handle(), ty, handle, slot, &mut value) };
        value
    };
    let mut codes = Vec::new();
    // SAFETY (the creations and destructions): the device is alive, the
    // infos valid, and each object is destroyed before its like is made.
    let (buffer, fence, other_slot) = unsafe {
        let buffer = device.create_buffer(&buffer_info, None);
        let buffer = buffer.map_err(stop("vkCreateBuffer"))?;
        codes.push(set(vk::ObjectType::BUFFER, buffer.as_raw(), 0x51));
        device.destroy_buffer(buffer, None);
        let fence = device.create_fence(&fence_info, None);
        let fence = fence.map_err(stop("vkCreateFence"))?;
        codes.push(set(vk::ObjectType::FENCE, fence.as_raw(), 0x52));
        device.destroy_fence(fence, None);
        let other_slot = fns.new_slot(device)?;
        codes.push(set(
            vk::ObjectType::PRIVATE_DATA_SLOT,
            other_slot.as_raw(),
            0x53,
        ));
        (fns.destroy)(device.handle(), other_slot, std::ptr::null());
        (
            device
                .create_buffer(&buffer_info, None)
                .map_err(stop("vkCreateBuffer"))?,
            device
                .create_fence(&fence_info, None)
                .map_err(stop("vkCreateFence"))?,
            fns.new_slot(device)?,
        )
    };
    let got = [
        get(vk::ObjectType::BUFFER, buffer.as_raw()),
        get(vk::ObjectType::FENCE, fence.as_raw()),
        get(vk::ObjectType::PRIVATE_DATA_SLOT, other_slot.as_raw()),
    ];
    let mut result = CaseResult::new();
    result.check("set_results", &codes, &[0u32; 3]);
    result.check("values", &got, &[0u64; 3]);
    // SAFETY: the objects are idle and not used again.
    unsafe {
        device.destroy_fence(fence, None);
        device.destroy_buffer(buffer, None);
        (fns.destroy)(device.handle(), other_slot, std::ptr::null());
        (fns.destroy)(device.handle(), slot, std::ptr::null());
    }
    Ok(result)
}

fn per_object_on(device: &ash::Device, fns: &Commands) -> Result<CaseResult, Stop> {
    use vk::Handle;
    let slot_a = fns.new_slot(device)?;
    let slot_b = fns.new_slot(device)?;
    // SAFETY (the creations): the device is alive and the infos valid.
    let (buffer, fence, semaphore, event, sampler) = unsafe {
        (
            device
                .create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(64)
                        .usage(vk::BufferUsageFlags::STORAGE_BUFFER),
                    None,
                )
                .map_err(stop("vkCreateBuffer"))?,
            device
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .map_err(stop("vkCreateFence"))?,
            device
                .create_semaphore(&vk::SemaphoreCreateInfo::default(), None)
                .map_err(stop("vkCreateSemaphore"))?,
            device
                .create_event(&vk::EventCreateInfo::default(), None)
                .map_err(stop("vkCreateEvent"))?,
            device
                .create_sampler(&vk::SamplerCreateInfo::default(), None)
                .map_err(stop("vkCreateSampler"))?,
        )
    };
    // SAFETY: family 0 has the one queue the device was made with.
    let queue = unsafe { device.get_device_queue(0, 0) };
    let objects: [(vk::ObjectType, u64); 8] = [
        (vk::ObjectType::DEVICE, device.handle().as_raw()),
        (vk::ObjectType::QUEUE, queue.as_raw()),
        (vk::ObjectType::BUFFER, buffer.as_raw()),
        (vk::ObjectType::FENCE, fence.as_raw()),
        (vk::ObjectType::SEMAPHORE, semaphore.as_raw()),
        (vk::ObjectType::EVENT, event.as_raw()),
        (vk::ObjectType::SAMPLER, sampler.as_raw()),
        (vk::ObjectType::PRIVATE_DATA_SLOT, slot_a.as_raw()),
    ];
    let mut result = CaseResult::new();
    let set = |ty: vk::ObjectType, handle: u64, slot: vk::PrivateDataSlot, value: u64| {
        // SAFETY: the object and the slot belong to the live device.
        unsafe { (fns.set)(device.handle(), ty, handle, slot, value) }
    };
    let get = |ty: vk::ObjectType, handle: u64, slot: vk::PrivateDataSlot| {
        let mut value = u64::MAX;
        // SAFETY: as for set; pData is a u64.
        unsafe { (fns.get)(device.handle(), ty, handle, slot, &mut value) };
        value
    };
    let mut codes = Vec::new();
    for (i, &(ty, handle)) in objects.iter().enumerate() {
        codes.push(set(ty, handle, slot_a, 0x1000 + i as u64).as_raw() as u32);
        if i + 1 < objects.len() {
            codes.push(set(ty, handle, slot_b, (i as u64) << 40 | 7).as_raw() as u32);
        }
    }
    let mut got = Vec::new();
    let mut want = Vec::new();
    for (i, &(ty, handle)) in objects.iter().enumerate() {
        got.push(get(ty, handle, slot_a));
        got.push(get(ty, handle, slot_b));
        want.push(0x1000 + i as u64);
        want.push(if i + 1 < objects.len() {
            (i as u64) << 40 | 7
        } else {
            0
        });
    }
    let (ty, handle) = objects[0];
    codes.push(set(ty, handle, slot_a, 42).as_raw() as u32);
    got.push(get(ty, handle, slot_a));
    want.push(42);
    result.check("set_results", &codes, &vec![0u32; codes.len()]);
    result.check("values", &got, &want);
    // SAFETY: the objects are idle and not used again.
    unsafe {
        device.destroy_sampler(sampler, None);
        device.destroy_event(event, None);
        device.destroy_semaphore(semaphore, None);
        device.destroy_fence(fence, None);
        device.destroy_buffer(buffer, None);
        (fns.destroy)(device.handle(), slot_b, std::ptr::null());
        (fns.destroy)(device.handle(), slot_a, std::ptr::null());
    }
    Ok(result)
}
