//! The one place where Vulkan handles are made and resolved, as the loader
//! and Mesa make them.
//!
//! Every handle is the address of a heap [`Slot`] holding the object: a
//! handle resolves with one load, no lookup. The slot's first word is the
//! loader's: for dispatchable handles (instance, physical device, device,
//! queue, command buffer) it starts as `ICD_LOADER_MAGIC` and the loader
//! writes its dispatch table pointer there (the loader interface's rule for
//! dispatchable objects); non-dispatchable handles have the same layout so
//! one table type serves both.
//!
//! Resolving reads through the application's handle, so it is `unsafe`:
//! the caller promises the handle is one this driver made and the
//! application has not destroyed, which the specification's valid usage
//! makes the application's duty (an object outlives every command using
//! it; destroying it is externally synchronised with those commands).
//! `VK_NULL_HANDLE` is always recognised, without reading anything. Debug
//! builds also keep each table's live handles and refuse a stale or
//! foreign one with a message; release builds trust the handle, as Mesa's
//! drivers do.

use std::marker::PhantomData;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use ash::vk;

/// What the loader expects in the first word of a dispatchable object until
/// it sets its dispatch table there (the loader interface document's
/// `ICD_LOADER_MAGIC`).
pub const ICD_LOADER_MAGIC: usize = 0x01CD_C0DE;

/// What a handle points at: the loader's word, then the object.
#[repr(C)]
pub struct Slot<T> {
    /// Written by the loader (through its own pointer) after creation.
    loader_data: AtomicUsize,
    object: Arc<T>,
}

/// The live handles of one object type.
pub struct Table<T> {
    #[cfg(debug_assertions)]
    live: std::sync::LazyLock<parking_lot::Mutex<std::collections::HashSet<u64>>>,
    _objects: PhantomData<fn() -> T>,
}

impl<T> Table<T> {
    pub const fn new() -> Self {
        Table {
            #[cfg(debug_assertions)]
            live: std::sync::LazyLock::new(Default::default),
            _objects: PhantomData,
        }
    }

    /// A new handle for `object`, as the raw value (never 0).
    pub fn insert(&self, object: Arc<T>) -> u64 {
        let slot = Box::into_raw(Box::new(Slot {
            loader_data: AtomicUsize::new(ICD_LOADER_MAGIC),
            object,
        }));
        let handle = slot as usize as u64;
        #[cfg(debug_assertions)]
        self.live.lock().insert(handle);
        handle
    }

    /// Whether a debug build knows `handle` as live (release builds trust
    /// every non-null handle).
    fn is_live(&self, handle: u64) -> bool {
        #[cfg(debug_assertions)]
        if !self.live.lock().contains(&handle) {
            return false;
        }
        handle != 0
    }

    /// The object behind `handle`.
    ///
    /// # Safety
    /// `handle` is `VK_NULL_HANDLE` or a handle of this table that has not
    /// been removed, and the object is not removed while the returned
    /// reference is in use: the specification's valid usage for the
    /// command that was handed the handle.
    #[inline]
    pub unsafe fn get<'a>(&self, handle: u64) -> Result<&'a Arc<T>, vk::Result> {
        if !self.is_live(handle) {
            return Err(not_live::<T>(handle));
        }
        let slot = handle as usize as *const Slot<T>;
        // SAFETY: a live handle is the address of a slot `insert` leaked,
        // which `remove` alone frees; the caller keeps it alive while the
        // reference is used.
        Ok(unsafe { &(*slot).object })
    }

    /// `None` for `VK_NULL_HANDLE`, the object otherwise.
    ///
    /// # Safety
    /// As for [`Table::get`].
    #[inline]
    pub unsafe fn get_optional<'a>(&self, handle: u64) -> Result<Option<&'a Arc<T>>, vk::Result> {
        if handle == 0 {
            Ok(None)
        } else {
            // SAFETY: the caller's promise.
            unsafe { self.get(handle) }.map(Some)
        }
    }

    /// Retires `handle` (`None` for `VK_NULL_HANDLE`, which destroy
    /// commands accept, and in debug builds for a handle that is not live).
    ///
    /// # Safety
    /// `handle` is `VK_NULL_HANDLE` or a live handle of this table, and no
    /// command uses it any more (the spec's valid usage for destroying).
    pub unsafe fn remove(&self, handle: u64) -> Option<Arc<T>> {
        if handle == 0 {
            return None;
        }
        #[cfg(debug_assertions)]
        if !self.live.lock().remove(&handle) {
            let _ = not_live::<T>(handle);
            return None;
        }
        // The address is free for a new object once the box goes: the
        // private data set on this one must not be what that one reads.
        crate::private_data::VALUES.forget_object(handle);
        // SAFETY: a live handle is a slot `insert` leaked from a box; it is
        // retired here once, so the box is rebuilt once.
        let slot = unsafe { Box::from_raw(handle as usize as *mut Slot<T>) };
        Some(slot.object)
    }
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cold]
#[inline(never)]
fn not_live<T>(handle: u64) -> vk::Result {
    let ty = std::any::type_name::<T>();
    let name = ty.rsplit("::").next().unwrap_or(ty);
    if handle == 0 {
        eprintln!("parsnip: a required {name} handle is VK_NULL_HANDLE (the application's error)");
    } else {
        eprintln!("parsnip: {name} handle {handle:#x} is not a live object of this driver");
    }
    vk::Result::ERROR_UNKNOWN
}

/// The typed accessors: one table per Vulkan object type, and functions
/// turning `vk::` handles into driver objects and back.
macro_rules! handles {
    ($($table:ident: $vk:ty => $obj:ty, $get:ident, $new:ident, $drop:ident;)*) => {$(
        pub static $table: Table<$obj> = Table::new();
        /// # Safety
        /// As for [`Table::get`].
        #[inline]
        pub unsafe fn $get<'a>(h: $vk) -> Result<&'a Arc<$obj>, vk::Result> {
            // SAFETY: the caller's promise.
            unsafe { $table.get(vk::Handle::as_raw(h)) }
        }
        pub fn $new(o: Arc<$obj>) -> $vk {
            <$vk as vk::Handle>::from_raw($table.insert(o))
        }
        /// # Safety
        /// As for [`Table::remove`].
        pub unsafe fn $drop(h: $vk) -> Option<Arc<$obj>> {
            // SAFETY: the caller's promise.
            unsafe { $table.remove(vk::Handle::as_raw(h)) }
        }
    )*};
}

use crate::objects::{
    CommandPoolObject, DescriptorPoolObject, DeviceObject, InstanceObject, SwapchainObject,
};
use parsnip_driver as d;

handles! {
    INSTANCES: vk::Instance => InstanceObject, instance, new_instance, drop_instance;
    PHYSICAL_DEVICES: vk::PhysicalDevice => d::physical_device::PhysicalDevice, physical_device, new_physical_device, drop_physical_device;
    DEVICES: vk::Device => DeviceObject, device, new_device, drop_device;
    QUEUES: vk::Queue => d::queue::Queue, queue, new_queue, drop_queue;
    COMMAND_BUFFERS: vk::CommandBuffer => d::cmd::buffer::CommandBuffer, command_buffer, new_command_buffer, drop_command_buffer;
    MEMORIES: vk::DeviceMemory => d::device_memory::DeviceMemory, memory, new_memory, drop_memory;
    BUFFERS: vk::Buffer => d::buffer::Buffer, buffer, new_buffer, drop_buffer;
    BUFFER_VIEWS: vk::BufferView => d::buffer::BufferView, buffer_view, new_buffer_view, drop_buffer_view;
    IMAGES: vk::Image => d::image::Image, image, new_image, drop_image;
    IMAGE_VIEWS: vk::ImageView => d::image::view::ImageView, image_view, new_image_view, drop_image_view;
    SAMPLERS: vk::Sampler => d::image::sampler::Sampler, sampler, new_sampler, drop_sampler;
    SET_LAYOUTS: vk::DescriptorSetLayout => d::descriptor::set_layout::DescriptorSetLayout, set_layout, new_set_layout, drop_set_layout;
    DESCRIPTOR_POOLS: vk::DescriptorPool => DescriptorPoolObject, descriptor_pool, new_descriptor_pool, drop_descriptor_pool;
    DESCRIPTOR_SETS: vk::DescriptorSet => d::descriptor::set::DescriptorSet, descriptor_set, new_descriptor_set, drop_descriptor_set;
    UPDATE_TEMPLATES: vk::DescriptorUpdateTemplate => d::descriptor::update_template::DescriptorUpdateTemplate, update_template, new_update_template, drop_update_template;
    PIPELINE_LAYOUTS: vk::PipelineLayout => d::pipeline_layout::PipelineLayout, pipeline_layout, new_pipeline_layout, drop_pipeline_layout;
    SHADER_MODULES: vk::ShaderModule => d::shader_module::ShaderModule, shader_module, new_shader_module, drop_shader_module;
    PIPELINE_CACHES: vk::PipelineCache => d::pipeline::cache::PipelineCache, pipeline_cache, new_pipeline_cache, drop_pipeline_cache;
    PIPELINES: vk::Pipeline => d::pipeline::AnyPipeline, pipeline, new_pipeline, drop_pipeline;
    COMMAND_POOLS: vk::CommandPool => CommandPoolObject, command_pool, new_command_pool, drop_command_pool;
    FENCES: vk::Fence => d::sync::fence::Fence, fence, new_fence, drop_fence;
    SEMAPHORES: vk::Semaphore => d::sync::semaphore::Semaphore, semaphore, new_semaphore, drop_semaphore;
    EVENTS: vk::Event => d::sync::event::Event, event, new_event, drop_event;
    QUERY_POOLS: vk::QueryPool => d::query_pool::QueryPool, query_pool, new_query_pool, drop_query_pool;
    SURFACES: vk::SurfaceKHR => d::wsi::surface::Surface, surface, new_surface, drop_surface;
    SWAPCHAINS: vk::SwapchainKHR => SwapchainObject, swapchain, new_swapchain, drop_swapchain;
    PRIVATE_DATA_SLOTS: vk::PrivateDataSlot => d::private_data::PrivateDataSlot, private_data_slot, new_private_data_slot, drop_private_data_slot;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn a_handle_is_the_address_of_its_slot_whose_first_word_is_the_loaders() {
        let table: Table<u32> = Table::new();
        let h = table.insert(Arc::new(7));
        // SAFETY: `h` is live until the remove below.
        let object = unsafe { table.get(h) }.unwrap();
        assert_eq!(**object, 7);
        // SAFETY: the slot lives until removed.
        let slot = unsafe { &*(h as usize as *const Slot<u32>) };
        assert_eq!(slot.loader_data.load(Ordering::Relaxed), ICD_LOADER_MAGIC);
        assert_eq!(&slot.loader_data as *const AtomicUsize as usize as u64, h);
        assert!(std::ptr::eq(&slot.object, object));
        // SAFETY: no reference into the slot is used after this.
        assert_eq!(unsafe { table.remove(h) }.map(|o| *o), Some(7));
    }

    #[test]
    fn null_handles_resolve_to_nothing_without_being_read() {
        let table: Table<&str> = Table::new();
        // SAFETY: VK_NULL_HANDLE is never read.
        unsafe {
            assert_eq!(table.get_optional(0).unwrap(), None);
            assert_eq!(table.get(0).err(), Some(vk::Result::ERROR_UNKNOWN));
            assert!(table.remove(0).is_none());
        }
    }

    #[test]
    fn an_object_made_where_a_destroyed_one_was_has_no_private_data() {
        let table: Table<[u64; 4]> = Table::new();
        let slot = d::private_data::PrivateDataSlot::new();
        let values = &crate::private_data::VALUES;
        let old = table.insert(Arc::new([1; 4]));
        values.set(&slot, old, 7);
        // SAFETY: `old` is live and not used after.
        unsafe { table.remove(old) };
        // The allocator hands a freed block of a size back to the next
        // request of that size on the thread; what the test is about is
        // the new object at the old address.
        let new = table.insert(Arc::new([2; 4]));
        assert_eq!(new, old, "the new slot reuses the destroyed one's address");
        assert_eq!(values.get(&slot, new), 0);
        // SAFETY: `new` is live and not used after.
        unsafe { table.remove(new) };
    }

    #[cfg(debug_assertions)]
    #[test]
    fn debug_builds_refuse_stale_and_foreign_handles() {
        let table: Table<&str> = Table::new();
        let other: Table<&str> = Table::new();
        let a = table.insert(Arc::new("a"));
        let b = other.insert(Arc::new("b"));
        assert!(a != 0 && b != 0 && a != b);
        // SAFETY: the debug registry refuses what is not live before any
        // read; `a` and `b` are live where they are read.
        unsafe {
            assert!(table.get(b).is_err(), "another table's handle");
            assert_eq!(*table.remove(a).unwrap(), "a");
            assert!(table.remove(a).is_none(), "destroyed twice");
            assert!(table.get(a).is_err(), "a stale handle");
            assert_eq!(*other.remove(b).unwrap(), "b");
        }
    }
}
