//! `parsnip-demo`: a compute shader and a textured, depth-tested draw run
//! through
//! the Vulkan loader on whatever driver `VK_DRIVER_FILES` names
//! (`scripts/demo` picks Parsnip on the simulated Adreno 660), printing
//! what the GPU computed and whether the CPU agrees, and writing the
//! rendered image to `out/demo.png` (`[scene]`).
//!
//! The compute shader (`shaders/demo_collatz.comp`) gives, for n = 1..=N,
//! the number of Collatz steps that take n to 1 and the largest value met.

mod memory;
mod scene;
mod texture;

use std::ffi::CStr;
use std::path::Path;

use ash::vk;
use memory::{allocate, barrier_to_host, check};
use parsnip_cts::shaders::DEMO_COLLATZ;

/// How many numbers: one workgroup of 64 per 64.
const N: u32 = 256;

fn collatz(mut n: u32) -> (u32, u32) {
    let (mut steps, mut peak) = (0, n);
    while n != 1 {
        n = if n & 1 != 0 { 3 * n + 1 } else { n / 2 };
        peak = peak.max(n);
        steps += 1;
    }
    (steps, peak)
}

fn run() -> Result<(), String> {
    // SAFETY: loading the system's Vulkan loader (libvulkan.so.1).
    let entry =
        unsafe { ash::Entry::load() }.map_err(|e| format!("cannot load the Vulkan loader: {e}"))?;
    let app = vk::ApplicationInfo::default()
        .application_name(c"parsnip-demo")
        .api_version(vk::API_VERSION_1_1);
    // SAFETY: the create info refers to locals alive for the call.
    let instance = unsafe {
        entry.create_instance(
            &vk::InstanceCreateInfo::default().application_info(&app),
            None,
        )
    }
    .map_err(|e| format!("vkCreateInstance failed: {e:?}"))?;
    let result = run_on(&instance);
    // SAFETY: everything made from the instance was destroyed by run_on.
    unsafe { instance.destroy_instance(None) };
    result
}

fn run_on(instance: &ash::Instance) -> Result<(), String> {
    // SAFETY: queries on a live instance and the devices it returns.
    let physical = *unsafe { instance.enumerate_physical_devices() }
        .map_err(|e| format!("vkEnumeratePhysicalDevices failed: {e:?}"))?
        .first()
        .ok_or("the loader found no Vulkan device (is VK_DRIVER_FILES set?)")?;
    // SAFETY: as above.
    let (props, memory_props, families) = unsafe {
        (
            instance.get_physical_device_properties(physical),
            instance.get_physical_device_memory_properties(physical),
            instance.get_physical_device_queue_family_properties(physical),
        )
    };
    let name = props
        .device_name_as_c_str()
        .map(CStr::to_string_lossy)
        .unwrap_or_default();
    println!(
        "device: {name} (vendor {:#x}, device {:#x})",
        props.vendor_id, props.device_id
    );
    let family = families
        .iter()
        .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
        .ok_or("no compute queue")? as u32;
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family)
        .queue_priorities(&priorities)];
    // SAFETY: the create info refers to locals alive for the call.
    let device = unsafe {
        instance.create_device(
            physical,
            &vk::DeviceCreateInfo::default().queue_create_infos(&queues),
            None,
        )
    }
    .map_err(|e| format!("vkCreateDevice failed: {e:?}"))?;
    let result = compute(&device, &memory_props, family);
    let image = scene::render(&device, &memory_props, family);
    // SAFETY: run_on's objects are destroyed; the device is idle.
    unsafe { device.destroy_device(None) };
    let results = result?;
    let image = image?;

    println!(
        "the GPU computed, for n = 1..={N}, the Collatz steps to 1 (and the peak on the way):"
    );
    for row in results.chunks(8).take(4) {
        let line: Vec<String> = row
            .iter()
            .map(|(n, s, p)| format!("{n:>3}: {s:>3} ({p})"))
            .collect();
        println!("  {}", line.join("  "));
    }
    let (longest_n, longest, _) = results
        .iter()
        .copied()
        .max_by_key(|r| r.1)
        .unwrap_or_default();
    let (highest_n, _, highest) = results
        .iter()
        .copied()
        .max_by_key(|r| r.2)
        .unwrap_or_default();
    println!("  ...");
    println!("  longest: n = {longest_n} takes {longest} steps; highest peak: n = {highest_n} reaches {highest}");
    let wrong = results
        .iter()
        .filter(|(n, s, p)| collatz(*n) != (*s, *p))
        .count();
    if wrong != 0 {
        return Err(format!("result: {wrong} of {N} values differ from the CPU"));
    }
    println!("result: all {N} values match the CPU");

    let (w, h) = (scene::WIDTH, scene::HEIGHT);
    println!();
    println!(
        "the GPU drew three overlapping triangles, depth-tested (the farthest last) and \
         textured with a checkerboard uploaded through a staging copy, {w}x{h}"
    );
    write_png(Path::new("out/demo.png"), &image, w, h)?;
    println!("  written to out/demo.png");
    let (checked, wrong) = scene::verify(&image);
    if wrong != 0 {
        return Err(format!(
            "result: {wrong} of {checked} pixels away from edges show the wrong triangle or texel"
        ));
    }
    println!(
        "result: all {checked} pixels away from the edges show the nearest triangle and its \
         texel, as the CPU works out"
    );
    Ok(())
}

/// Writes RGBA8 `pixels` as a PNG.
fn write_png(path: &Path, pixels: &[u8], width: u32, height: u32) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(pixels))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs the shader and returns (n, steps, peak) for each n.
fn compute(
    device: &ash::Device,
    memory_props: &vk::PhysicalDeviceMemoryProperties,
    family: u32,
) -> Result<Vec<(u32, u32, u32)>, String> {
    let size = u64::from(N) * 8;
    // SAFETY: every call below is on the live device, with create infos
    // that refer to locals alive for the call; objects are destroyed in
    // reverse order before returning, after the queue is idle.
    unsafe {
        let storage = allocate(
            device,
            memory_props,
            size,
            vk::BufferUsageFlags::STORAGE_BUFFER,
        )?;
        let (buffer, memory) = (storage.buffer, storage.memory);

        let binding = [vk::DescriptorSetLayoutBinding::default()
            .binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(1)
            .stage_flags(vk::ShaderStageFlags::COMPUTE)];
        let set_layout = device
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&binding),
                None,
            )
            .map_err(|e| format!("vkCreateDescriptorSetLayout failed: {e:?}"))?;
        let set_layouts = [set_layout];
        let layout = device
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
            .map_err(|e| format!("vkCreatePipelineLayout failed: {e:?}"))?;
        let code = DEMO_COLLATZ.words()?;
        let module = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
            .map_err(|e| format!("vkCreateShaderModule failed: {e:?}"))?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let pipeline = device
            .create_compute_pipelines(
                vk::PipelineCache::null(),
                &[vk::ComputePipelineCreateInfo::default()
                    .stage(stage)
                    .layout(layout)],
                None,
            )
            .map_err(|(_, e)| format!("vkCreateComputePipelines failed: {e:?}"))?[0];
        let sizes = [vk::DescriptorPoolSize::default()
            .ty(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(1)];
        let pool = device
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(1)
                    .pool_sizes(&sizes),
                None,
            )
            .map_err(|e| format!("vkCreateDescriptorPool failed: {e:?}"))?;
        let set = device
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&set_layouts),
            )
            .map_err(|e| format!("vkAllocateDescriptorSets failed: {e:?}"))?[0];
        let info = [vk::DescriptorBufferInfo::default()
            .buffer(buffer)
            .range(vk::WHOLE_SIZE)];
        device.update_descriptor_sets(
            &[vk::WriteDescriptorSet::default()
                .dst_set(set)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&info)],
            &[],
        );

        let command_pool = device
            .create_command_pool(
                &vk::CommandPoolCreateInfo::default().queue_family_index(family),
                None,
            )
            .map_err(|e| format!("vkCreateCommandPool failed: {e:?}"))?;
        let cmd = device
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(command_pool)
                    .command_buffer_count(1),
            )
            .map_err(|e| format!("vkAllocateCommandBuffers failed: {e:?}"))?[0];
        check(
            "vkBeginCommandBuffer",
            device.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default()),
        )?;
        device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
        device.cmd_bind_descriptor_sets(
            cmd,
            vk::PipelineBindPoint::COMPUTE,
            layout,
            0,
            &[set],
            &[],
        );
        device.cmd_dispatch(cmd, N / 64, 1, 1);
        barrier_to_host(
            device,
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_WRITE,
        );
        check("vkEndCommandBuffer", device.end_command_buffer(cmd))?;
        let fence = device
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .map_err(|e| format!("vkCreateFence failed: {e:?}"))?;
        let queue = device.get_device_queue(family, 0);
        let cmds = [cmd];
        let submitted = device
            .queue_submit(
                queue,
                &[vk::SubmitInfo::default().command_buffers(&cmds)],
                fence,
            )
            .and_then(|()| device.wait_for_fences(&[fence], true, 60_000_000_000));

        let mut results = Vec::new();
        if submitted.is_ok() {
            let ptr = device
                .map_memory(memory, 0, size, vk::MemoryMapFlags::empty())
                .map_err(|e| format!("vkMapMemory failed: {e:?}"))?;
            let words = std::slice::from_raw_parts(ptr.cast::<u32>(), 2 * N as usize);
            results = (0..N)
                .map(|i| (i + 1, words[2 * i as usize], words[2 * i as usize + 1]))
                .collect();
            device.unmap_memory(memory);
        }
        let _ = device.device_wait_idle();
        device.destroy_fence(fence, None);
        device.destroy_command_pool(command_pool, None);
        device.destroy_descriptor_pool(pool, None);
        device.destroy_pipeline(pipeline, None);
        device.destroy_shader_module(module, None);
        device.destroy_pipeline_layout(layout, None);
        device.destroy_descriptor_set_layout(set_layout, None);
        storage.destroy(device);
        submitted.map_err(|e| format!("the dispatch failed: {e:?}"))?;
        Ok(results)
    }
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("parsnip-demo: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
