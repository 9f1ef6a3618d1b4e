//! The one place where Vulkan handles are made and resolved.
//!
//! - Dispatchable handles (instance, physical device, device, queue,
//!   command buffer) are pointers the loader writes its dispatch table
//!   pointer into: each points at a [`Dispatchable`] whose first word starts
//!   as `ICD_LOADER_MAGIC`. The ICD keeps the allocation in a table and
//!   resolves a handle by looking its address up; it never reads through the
//!   pointer, so a stale or foreign handle is an error, not undefined
//!   behaviour.
//! - Non-dispatchable handles are numbers from a counter, looked up the same
//!   way.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};

use ash::vk;
use parking_lot::RwLock;

/// What the loader expects in the first word of a dispatchable object until
/// it sets its dispatch table there (the loader interface document's
/// `ICD_LOADER_MAGIC`).
pub const ICD_LOADER_MAGIC: usize = 0x01CD_C0DE;

/// A dispatchable object as the loader sees it: the word it owns, then ours.
#[repr(C)]
pub struct Dispatchable<T> {
    /// Written by the loader (through its own pointer) after creation.
    loader_data: AtomicUsize,
    object: Arc<T>,
}

/// Live dispatchable objects of one type.
pub struct DispatchableTable<T> {
    live: LazyLock<RwLock<HashMap<usize, Box<Dispatchable<T>>>>>,
}

impl<T> DispatchableTable<T> {
    pub const fn new() -> Self {
        DispatchableTable {
            live: LazyLock::new(|| RwLock::new(HashMap::new())),
        }
    }

    /// A new handle for `object`, as the raw pointer value.
    pub fn insert(&self, object: Arc<T>) -> usize {
        let boxed = Box::new(Dispatchable {
            loader_data: AtomicUsize::new(ICD_LOADER_MAGIC),
            object,
        });
        let address = &*boxed as *const Dispatchable<T> as usize;
        self.live.write().insert(address, boxed);
        address
    }

    pub fn get(&self, handle: usize) -> Result<Arc<T>, vk::Result> {
        self.live
            .read()
            .get(&handle)
            .map(|d| d.object.clone())
            .ok_or_else(|| unknown_handle(std::any::type_name::<T>(), handle as u64))
    }

    pub fn remove(&self, handle: usize) -> Option<Arc<T>> {
        self.live.write().remove(&handle).map(|d| d.object)
    }
}

impl<T> Default for DispatchableTable<T> {
    fn default() -> Self {
        Self::new()
    }
}

static NEXT_HANDLE: AtomicU64 = AtomicU64::new(1);

/// Live non-dispatchable objects of one type.
pub struct Table<T> {
    live: LazyLock<RwLock<HashMap<u64, Arc<T>>>>,
}

impl<T> Table<T> {
    pub const fn new() -> Self {
        Table {
            live: LazyLock::new(|| RwLock::new(HashMap::new())),
        }
    }

    pub fn insert(&self, object: Arc<T>) -> u64 {
        let handle = NEXT_HANDLE.fetch_add(1, Ordering::Relaxed);
        self.live.write().insert(handle, object);
        handle
    }

    pub fn get(&self, handle: u64) -> Result<Arc<T>, vk::Result> {
        self.live
            .read()
            .get(&handle)
            .cloned()
            .ok_or_else(|| unknown_handle(std::any::type_name::<T>(), handle))
    }

    /// `None` for `VK_NULL_HANDLE`, the object otherwise.
    pub fn get_optional(&self, handle: u64) -> Result<Option<Arc<T>>, vk::Result> {
        if handle == 0 {
            Ok(None)
        } else {
            self.get(handle).map(Some)
        }
    }

    pub fn remove(&self, handle: u64) -> Option<Arc<T>> {
        self.live.write().remove(&handle)
    }
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Self::new()
    }
}

fn unknown_handle(ty: &str, handle: u64) -> vk::Result {
    let name = ty.rsplit("::").next().unwrap_or(ty);
    eprintln!("parsnip: {name} handle {handle:#x} is not a live object of this driver");
    vk::Result::ERROR_UNKNOWN
}

/// The typed accessors: one table per Vulkan object type, and functions
/// turning `vk::` handles into driver objects and back.
macro_rules! dispatchable_handles {
    ($($table:ident: $vk:ty => $obj:ty, $get:ident, $new:ident, $drop:ident;)*) => {$(
        pub static $table: DispatchableTable<$obj> = DispatchableTable::new();
        pub fn $get(h: $vk) -> Result<Arc<$obj>, vk::Result> {
            $table.get(vk::Handle::as_raw(h) as usize)
        }
        pub fn $new(o: Arc<$obj>) -> $vk {
            <$vk as vk::Handle>::from_raw($table.insert(o) as u64)
        }
        pub fn $drop(h: $vk) -> Option<Arc<$obj>> {
            $table.remove(vk::Handle::as_raw(h) as usize)
        }
    )*};
}

macro_rules! handles {
    ($($table:ident: $vk:ty => $obj:ty, $get:ident, $new:ident, $drop:ident;)*) => {$(
        pub static $table: Table<$obj> = Table::new();
        pub fn $get(h: $vk) -> Result<Arc<$obj>, vk::Result> {
            $table.get(vk::Handle::as_raw(h))
        }
        pub fn $new(o: Arc<$obj>) -> $vk {
            <$vk as vk::Handle>::from_raw($table.insert(o))
        }
        pub fn $drop(h: $vk) -> Option<Arc<$obj>> {
            $table.remove(vk::Handle::as_raw(h))
        }
    )*};
}

use crate::objects::{CommandPoolObject, DescriptorPoolObject, DeviceObject, InstanceObject};
use parsnip_driver as d;

dispatchable_handles! {
    INSTANCES: vk::Instance => InstanceObject, instance, new_instance, drop_instance;
    PHYSICAL_DEVICES: vk::PhysicalDevice => d::physical_device::PhysicalDevice, physical_device, new_physical_device, drop_physical_device;
    DEVICES: vk::Device => DeviceObject, device, new_device, drop_device;
    QUEUES: vk::Queue => d::queue::Queue, queue, new_queue, drop_queue;
    COMMAND_BUFFERS: vk::CommandBuffer => d::cmd::buffer::CommandBuffer, command_buffer, new_command_buffer, drop_command_buffer;
}

handles! {
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
    PIPELINES: vk::Pipeline => d::pipeline::compute::ComputePipeline, pipeline, new_pipeline, drop_pipeline;
    COMMAND_POOLS: vk::CommandPool => CommandPoolObject, command_pool, new_command_pool, drop_command_pool;
    FENCES: vk::Fence => d::sync::fence::Fence, fence, new_fence, drop_fence;
    SEMAPHORES: vk::Semaphore => d::sync::semaphore::Semaphore, semaphore, new_semaphore, drop_semaphore;
    EVENTS: vk::Event => d::sync::event::Event, event, new_event, drop_event;
    QUERY_POOLS: vk::QueryPool => d::query_pool::QueryPool, query_pool, new_query_pool, drop_query_pool;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatchable_handles_start_with_the_loader_magic_and_resolve_by_address() {
        let table: DispatchableTable<u32> = DispatchableTable::new();
        let h = table.insert(Arc::new(7));
        assert_eq!(*table.get(h).unwrap(), 7);
        {
            let live = table.live.read();
            let d = live.get(&h).unwrap();
            assert_eq!(d.loader_data.load(Ordering::Relaxed), ICD_LOADER_MAGIC);
            // The handle is the object's address, its first word the magic.
            assert_eq!(&d.loader_data as *const AtomicUsize as usize, h);
        }
        assert!(table.remove(h).is_some());
        assert!(table.get(h).is_err());
    }

    #[test]
    fn non_dispatchable_handles_are_never_null_and_die_once() {
        let table: Table<&str> = Table::new();
        let a = table.insert(Arc::new("a"));
        let b = table.insert(Arc::new("b"));
        assert!(a != 0 && b != 0 && a != b);
        assert_eq!(table.get_optional(0).unwrap(), None);
        assert_eq!(*table.remove(a).unwrap(), "a");
        assert!(table.remove(a).is_none());
        assert!(table.get(a).is_err());
    }
}
