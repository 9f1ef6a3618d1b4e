//! What the driver's integration tests share: a device on a simulated GPU,
//! running one command buffer, GLSL compiled by glslang, and a compute
//! pipeline of its SPIR-V.

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use ash::vk;
use parsnip_driver::buffer::Buffer;
use parsnip_driver::cmd::buffer::{CommandBuffer, Level};
use parsnip_driver::cmd::pool::CommandPool;
use parsnip_driver::descriptor::pool::DescriptorPool;
use parsnip_driver::descriptor::set::{DescriptorSet, DescriptorWrite};
use parsnip_driver::descriptor::set_layout::{BindingDesc, DescriptorSetLayout};
use parsnip_driver::device::{Device, DeviceDesc, QueueRequest};
use parsnip_driver::instance::Instance;
use parsnip_driver::physical_device::PhysicalDevice;
use parsnip_driver::pipeline::compute::{ComputePipeline, ComputePipelineDesc};
use parsnip_driver::pipeline_layout::PipelineLayout;
use parsnip_driver::queue::SubmitBatch;
use parsnip_driver::shader_module::ShaderModule;
use parsnip_driver::sync::fence::Fence;

/// The physical device of the simulated `gpu` ("a660", "a740", ...), found
/// as `PARSNIP_SIM` would select it.
pub fn simulated_physical(gpu: &'static str) -> Arc<PhysicalDevice> {
    simulated_physical_with(gpu, &[])
}

/// As [`simulated_physical`], with the model's settings (`PARSNIP_SIM_*`)
/// of `settings` as if they were in the environment.
pub fn simulated_physical_with(
    gpu: &'static str,
    settings: &'static [(&'static str, &'static str)],
) -> Arc<PhysicalDevice> {
    let instance = Instance::with_opener(
        vk::API_VERSION_1_1,
        &[],
        Box::new(move || {
            parsnip_kernel_if::open_from_env(
                |name| match name {
                    "PARSNIP_SIM" => Some(gpu.to_string()),
                    _ => settings
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, v)| v.to_string()),
                },
                Path::new("/nonexistent"),
            )
        }),
    )
    .unwrap();
    instance.physical_devices()[0].clone()
}

/// A device of one queue on `physical`, with every feature it offers
/// enabled.
pub fn simulated_device_on(physical: &Arc<PhysicalDevice>) -> Arc<Device> {
    Device::new(physical, &full_device(physical)).unwrap()
}

/// One queue and every feature `physical` offers.
pub fn full_device(physical: &Arc<PhysicalDevice>) -> DeviceDesc<'static> {
    DeviceDesc {
        queues: vec![QueueRequest {
            family: 0,
            priorities: vec![1.0],
        }],
        features: physical.features(),
        extra_features: physical.extra_features(),
        ..Default::default()
    }
}

/// A device of one queue on the simulated `gpu`, with every feature the
/// physical device offers enabled.
pub fn simulated_device(gpu: &'static str) -> Arc<Device> {
    simulated_device_on(&simulated_physical(gpu))
}

/// Submits `cmd` to queue 0 with a fence, which is returned unwaited.
pub fn submit(device: &Arc<Device>, cmd: &Arc<CommandBuffer>) -> Arc<Fence> {
    let fence = Fence::new(device, false).unwrap();
    device
        .queue(0, 0)
        .unwrap()
        .submit(
            &[SubmitBatch {
                command_buffers: vec![cmd.clone()],
                ..Default::default()
            }],
            Some(&fence),
        )
        .unwrap();
    fence
}

/// A set layout of one storage buffer, at binding 0, for compute.
pub fn one_storage_buffer() -> Arc<DescriptorSetLayout> {
    DescriptorSetLayout::new(&[BindingDesc {
        binding: 0,
        ty: vk::DescriptorType::STORAGE_BUFFER,
        count: 1,
        stages: vk::ShaderStageFlags::COMPUTE,
    }])
    .unwrap()
}

/// A set of `layout` ([`one_storage_buffer`]) holding the whole of
/// `buffer`, from a pool of its own.
pub fn storage_buffer_set(
    device: &Arc<Device>,
    layout: &Arc<DescriptorSetLayout>,
    buffer: &Arc<Buffer>,
) -> Arc<DescriptorSet> {
    let pool = DescriptorPool::new(device, 1, &[(vk::DescriptorType::STORAGE_BUFFER, 1)]).unwrap();
    let set = DescriptorSet::allocate(&pool, layout).unwrap();
    set.write(
        0,
        0,
        vk::DescriptorType::STORAGE_BUFFER,
        &[DescriptorWrite::Buffer {
            buffer,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }],
    )
    .unwrap();
    set
}

/// Records a primary command buffer with `record`, submits it to queue 0
/// and waits for it.
pub fn submit_and_wait(
    device: &Arc<Device>,
    record: impl FnOnce(&CommandBuffer),
) -> Result<(), vk::Result> {
    let pool = CommandPool::new(device, 0, vk::CommandPoolCreateFlags::empty())?;
    let cmd = pool.allocate(Level::Primary);
    cmd.begin(None)?;
    record(&cmd);
    cmd.end()?;
    let fence = Fence::new(device, false)?;
    let queue = device.queue(0, 0).ok_or(vk::Result::ERROR_UNKNOWN)?;
    queue.submit(
        &[SubmitBatch {
            command_buffers: vec![cmd],
            ..Default::default()
        }],
        Some(&fence),
    )?;
    Fence::wait(&[fence], true, u64::MAX)
}

/// The SPIR-V `glslangValidator -V` (Debian's glslang-tools;
/// scripts/install-deps installs it) makes of the GLSL file `source`.
pub fn glslang(source: &Path) -> Vec<u8> {
    let out = source.with_extension("spv");
    let run = Command::new("glslangValidator")
        .arg("-V")
        .arg("-o")
        .arg(&out)
        .arg(source)
        .output()
        .expect("glslangValidator (Debian's glslang-tools; scripts/install-deps installs it)");
    assert!(
        run.status.success(),
        "{}: {}",
        source.display(),
        String::from_utf8_lossy(&run.stdout)
    );
    let spirv = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    spirv
}

/// The compute pipeline of `spirv`'s `main` with `layout`.
pub fn compute_pipeline(
    device: &Arc<Device>,
    spirv: &[u8],
    layout: &Arc<PipelineLayout>,
) -> Arc<ComputePipeline> {
    let module = ShaderModule::new(spirv).unwrap();
    ComputePipeline::new(
        device,
        &ComputePipelineDesc {
            module: &module,
            entry_point: "main",
            specialization: Vec::new(),
            layout: layout.clone(),
            required_subgroup_size: None,
        },
        None,
    )
    .unwrap()
}
