//! `parsnip-overhead [--driver FILE.json] [--case NAME]... [--seconds S | --ops N]`
//!
//! The driver's own CPU cost of the calls an application makes most often,
//! through the Khronos loader, in operations per second: descriptor writes
//! (`vkUpdateDescriptorSets`, update templates, push descriptors where the
//! device has `VK_KHR_push_descriptor`), recording binds, push constants
//! and dispatches, and recording draws in a render pass (shaped like
//! vkoverhead's draw cases: no state change between draws, a vertex
//! buffer bound before each, by `vkCmdBindVertexBuffers` or, where the
//! device has `VK_EXT_extended_dynamic_state`, `vkCmdBindVertexBuffers2`,
//! push constants before each). Run it on a device that executes nothing, so
//! only the CPU side is measured: Parsnip's null back end
//! (`PARSNIP_NULL=a660`), or Turnip on Mesa's noop drm-shim, side by side.
//!
//! ```text
//! cargo build --release -p parsnip-icd -p parsnip-cts
//! PARSNIP_NULL=a660 target/release/parsnip-overhead --driver target/release/parsnip_icd.x86_64.json
//! ```
//!
//! Recording cases record their operation into a command buffer 10,000
//! times between `vkBeginCommandBuffer` and `vkEndCommandBuffer`, then
//! reset the pool, so begin and end are part of the cost, as in an
//! application. `--ops N` runs each case exactly N times (for
//! `valgrind --tool=callgrind`, whose instruction counts repeat run to run);
//! otherwise each case runs for `--seconds` (default 1) after a warm-up.

use std::ffi::CStr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ash::vk;
use parsnip_cts::shaders;

const USAGE: &str = "usage: parsnip-overhead [--driver FILE.json] [--case NAME]... \
[--seconds S | --ops N]
  --driver FILE.json  the ICD manifest of the driver to measure (sets VK_DRIVER_FILES)
  --case NAME         run only the case NAME, or those whose name contains NAME (repeatable)
  --seconds S         how long each case runs (default 1)
  --ops N             run each case exactly N times instead
  --list              print the case names";

/// Recorded operations between a begin and an end.
const OPS_PER_COMMAND_BUFFER: u64 = 10_000;

struct Options {
    driver: Option<PathBuf>,
    cases: Vec<String>,
    seconds: f64,
    ops: Option<u64>,
    list: bool,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut o = Options {
        driver: None,
        cases: Vec::new(),
        seconds: 1.0,
        ops: None,
        list: false,
    };
    while let Some(arg) = args.next() {
        let mut value = |what: &str| args.next().ok_or(format!("{arg} needs {what}"));
        match arg.as_str() {
            "--driver" => o.driver = Some(PathBuf::from(value("a manifest file")?)),
            "--case" => o.cases.push(value("a case name")?),
            "--seconds" => {
                o.seconds = value("a duration")?
                    .parse()
                    .map_err(|e| format!("--seconds: {e}"))?
            }
            "--ops" => {
                o.ops = Some(
                    value("a count")?
                        .parse()
                        .map_err(|e| format!("--ops: {e}"))?,
                )
            }
            "--list" => o.list = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(o)
}

/// What the cases share: one device, a storage buffer, a set layout with one
/// storage buffer binding, a set of it, and a compute pipeline reading the
/// set and 128 bytes of push constants.
struct Bench {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    push_descriptor: Option<ash::khr::push_descriptor::Device>,
    /// `vkCmdBindVertexBuffers2`, where the device has
    /// `VK_EXT_extended_dynamic_state`.
    dynamic_state: Option<ash::ext::extended_dynamic_state::Device>,
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    set_layout: vk::DescriptorSetLayout,
    push_set_layout: Option<vk::DescriptorSetLayout>,
    pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
    layout: vk::PipelineLayout,
    push_layout: Option<vk::PipelineLayout>,
    module: vk::ShaderModule,
    pipeline: vk::Pipeline,
    command_pool: vk::CommandPool,
    command_buffer: vk::CommandBuffer,
    template: vk::DescriptorUpdateTemplate,
    /// The draw cases' objects, on a device with a graphics queue.
    draws: Option<DrawBench>,
}

fn check<T>(what: &str, r: Result<T, vk::Result>) -> Result<T, String> {
    r.map_err(|e| format!("{what}: {e:?}"))
}

/// `size` bytes of the first memory type `req` allows.
fn allocate(
    device: &ash::Device,
    req: &vk::MemoryRequirements,
    size: u64,
) -> Result<vk::DeviceMemory, String> {
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(req.memory_type_bits.trailing_zeros());
    // SAFETY: a valid allocate info on a live device.
    check("vkAllocateMemory", unsafe {
        device.allocate_memory(&info, None)
    })
}

impl Bench {
    /// # Safety
    /// Loads the system's Vulkan loader.
    unsafe fn new() -> Result<Bench, String> {
        // SAFETY: loading libvulkan.so.1 runs its initialisers.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("the Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_1);
        // SAFETY: a valid create info.
        let instance = check("vkCreateInstance", unsafe {
            entry.create_instance(
                &vk::InstanceCreateInfo::default().application_info(&app),
                None,
            )
        })?;
        // SAFETY: a live instance.
        let physical = *check("vkEnumeratePhysicalDevices", unsafe {
            instance.enumerate_physical_devices()
        })?
        .first()
        .ok_or("the driver has no physical device")?;
        // SAFETY: as above.
        let props = unsafe { instance.get_physical_device_properties(physical) };
        let name = props
            .device_name_as_c_str()
            .map(CStr::to_string_lossy)
            .unwrap_or_default();
        let driver_version = props.driver_version;
        eprintln!("device: {name} (driver version {driver_version:#x})");
        // SAFETY: as above.
        let extensions = check("vkEnumerateDeviceExtensionProperties", unsafe {
            instance.enumerate_device_extension_properties(physical)
        })?;
        let has = |name| {
            extensions
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(name))
        };
        let has_push = has(ash::khr::push_descriptor::NAME);
        let has_dynamic_state = has(ash::ext::extended_dynamic_state::NAME);
        // SAFETY: as above.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or("no compute queue family")? as u32;
        let graphics = families[family as usize]
            .queue_flags
            .contains(vk::QueueFlags::GRAPHICS);
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let names: Vec<*const std::ffi::c_char> = [
            (has_push, ash::khr::push_descriptor::NAME),
            (has_dynamic_state, ash::ext::extended_dynamic_state::NAME),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| name.as_ptr())
        .collect();
        // SAFETY: a valid create info for a live physical device.
        let device = check("vkCreateDevice", unsafe {
            instance.create_device(
                physical,
                &vk::DeviceCreateInfo::default()
                    .queue_create_infos(&queues)
                    .enabled_extension_names(&names),
                None,
            )
        })?;
        let push_descriptor =
            has_push.then(|| ash::khr::push_descriptor::Device::new(&instance, &device));
        let dynamic_state = has_dynamic_state
            .then(|| ash::ext::extended_dynamic_state::Device::new(&instance, &device));

        // SAFETY: every call below is on the live device with valid create
        // infos referring to locals alive for the call.
        unsafe {
            let buffer = check(
                "vkCreateBuffer",
                device.create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(65536)
                        .usage(vk::BufferUsageFlags::STORAGE_BUFFER),
                    None,
                ),
            )?;
            let req = device.get_buffer_memory_requirements(buffer);
            let memory = allocate(&device, &req, req.size)?;
            check(
                "vkBindBufferMemory",
                device.bind_buffer_memory(buffer, memory, 0),
            )?;
            let binding = [vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)];
            let set_layout = check(
                "vkCreateDescriptorSetLayout",
                device.create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&binding),
                    None,
                ),
            )?;
            let push_set_layout = if has_push {
                Some(check(
                    "vkCreateDescriptorSetLayout (push)",
                    device.create_descriptor_set_layout(
                        &vk::DescriptorSetLayoutCreateInfo::default()
                            .flags(vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR)
                            .bindings(&binding),
                        None,
                    ),
                )?)
            } else {
                None
            };
            let sizes = [vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER,
                descriptor_count: 1,
            }];
            let pool = check(
                "vkCreateDescriptorPool",
                device.create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(1)
                        .pool_sizes(&sizes),
                    None,
                ),
            )?;
            let layouts = [set_layout];
            let set = check(
                "vkAllocateDescriptorSets",
                device.allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(pool)
                        .set_layouts(&layouts),
                ),
            )?[0];
            let push_range = [vk::PushConstantRange {
                stage_flags: vk::ShaderStageFlags::COMPUTE,
                offset: 0,
                size: 128,
            }];
            let layout = check(
                "vkCreatePipelineLayout",
                device.create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default()
                        .set_layouts(&layouts)
                        .push_constant_ranges(&push_range),
                    None,
                ),
            )?;
            let push_layout = match push_set_layout {
                Some(l) => Some(check(
                    "vkCreatePipelineLayout (push)",
                    device.create_pipeline_layout(
                        &vk::PipelineLayoutCreateInfo::default()
                            .set_layouts(&[l])
                            .push_constant_ranges(&push_range),
                        None,
                    ),
                )?),
                None => None,
            };
            let words = shaders::PUSH_WORDS.words()?;
            let module = check(
                "vkCreateShaderModule",
                device.create_shader_module(
                    &vk::ShaderModuleCreateInfo::default().code(&words),
                    None,
                ),
            )?;
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
                .map_err(|(_, e)| format!("vkCreateComputePipelines: {e:?}"))?[0];
            let command_pool = check(
                "vkCreateCommandPool",
                device.create_command_pool(
                    &vk::CommandPoolCreateInfo::default().queue_family_index(family),
                    None,
                ),
            )?;
            let command_buffer = check(
                "vkAllocateCommandBuffers",
                device.allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(command_pool)
                        .command_buffer_count(1),
                ),
            )?[0];
            let entry_desc = [vk::DescriptorUpdateTemplateEntry {
                dst_binding: 0,
                dst_array_element: 0,
                descriptor_count: 1,
                descriptor_type: vk::DescriptorType::STORAGE_BUFFER,
                offset: 0,
                stride: std::mem::size_of::<vk::DescriptorBufferInfo>(),
            }];
            let template = check(
                "vkCreateDescriptorUpdateTemplate",
                device.create_descriptor_update_template(
                    &vk::DescriptorUpdateTemplateCreateInfo::default()
                        .descriptor_update_entries(&entry_desc)
                        .template_type(vk::DescriptorUpdateTemplateType::DESCRIPTOR_SET)
                        .descriptor_set_layout(set_layout),
                    None,
                ),
            )?;
            let draws = if graphics {
                Some(DrawBench::new(&device)?)
            } else {
                None
            };
            Ok(Bench {
                draws,
                _entry: entry,
                instance,
                device,
                push_descriptor,
                dynamic_state,
                buffer,
                memory,
                set_layout,
                push_set_layout,
                pool,
                set,
                layout,
                push_layout,
                module,
                pipeline,
                command_pool,
                command_buffer,
                template,
            })
        }
    }

    /// Runs `op(i)` `ops` times inside command buffers of
    /// [`OPS_PER_COMMAND_BUFFER`] operations, after `prologue` in each.
    fn record(
        &self,
        ops: u64,
        prologue: &dyn Fn(vk::CommandBuffer),
        op: &mut dyn FnMut(vk::CommandBuffer, u64),
    ) -> Result<(), String> {
        self.record_between(ops, prologue, &|_| {}, op)
    }

    /// [`Bench::record`] with `epilogue` before each end.
    fn record_between(
        &self,
        ops: u64,
        prologue: &dyn Fn(vk::CommandBuffer),
        epilogue: &dyn Fn(vk::CommandBuffer),
        op: &mut dyn FnMut(vk::CommandBuffer, u64),
    ) -> Result<(), String> {
        let d = &self.device;
        let cb = self.command_buffer;
        let mut done = 0;
        while done < ops {
            let n = OPS_PER_COMMAND_BUFFER.min(ops - done);
            // SAFETY: the command buffer is not pending (nothing is ever
            // submitted), and its pool is reset only between recordings.
            unsafe {
                check(
                    "vkBeginCommandBuffer",
                    d.begin_command_buffer(
                        cb,
                        &vk::CommandBufferBeginInfo::default()
                            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
                    ),
                )?;
                prologue(cb);
                for i in done..done + n {
                    op(cb, i);
                }
                epilogue(cb);
                check("vkEndCommandBuffer", d.end_command_buffer(cb))?;
                check(
                    "vkResetCommandPool",
                    d.reset_command_pool(self.command_pool, vk::CommandPoolResetFlags::empty()),
                )?;
            }
            done += n;
        }
        Ok(())
    }

    fn buffer_info(&self, i: u64) -> [vk::DescriptorBufferInfo; 1] {
        // A different range each time, so nothing can be skipped as a
        // repeat of the last write.
        [vk::DescriptorBufferInfo {
            buffer: self.buffer,
            offset: (i % 16) * 256,
            range: 256,
        }]
    }

    /// Runs case `name` `ops` times; `Ok(false)` when the device lacks
    /// what it needs.
    fn run(&self, name: &str, ops: u64) -> Result<bool, String> {
        let d = &self.device;
        let bind_pipeline = |cb| {
            // SAFETY: a recording command buffer and a live pipeline.
            unsafe { d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, self.pipeline) }
        };
        let bind_set = |cb| {
            // SAFETY: as above, with a set of the pipeline layout's layout.
            unsafe {
                d.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::COMPUTE,
                    self.layout,
                    0,
                    &[self.set],
                    &[],
                )
            }
        };
        let push = |cb, i: u64| {
            let words = [i as u32; 4];
            // SAFETY: 16 bytes inside the layout's 128-byte range.
            unsafe {
                d.cmd_push_constants(
                    cb,
                    self.layout,
                    vk::ShaderStageFlags::COMPUTE,
                    64,
                    bytes_of(&words),
                )
            }
        };
        // SAFETY: a recording command buffer with a pipeline bound.
        let dispatch = |cb| unsafe { d.cmd_dispatch(cb, 1, 1, 1) };
        match name {
            "update_descriptor_sets" => {
                for i in 0..ops {
                    let info = self.buffer_info(i);
                    let write = vk::WriteDescriptorSet::default()
                        .dst_set(self.set)
                        .dst_binding(0)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(&info);
                    // SAFETY: a write of a live buffer into a live set no
                    // command buffer uses.
                    unsafe { d.update_descriptor_sets(&[write], &[]) };
                }
            }
            "update_descriptor_set_with_template" => {
                for i in 0..ops {
                    let info = self.buffer_info(i);
                    // SAFETY: the template's one entry reads a
                    // VkDescriptorBufferInfo at offset 0.
                    unsafe {
                        (d.fp_v1_1().update_descriptor_set_with_template)(
                            d.handle(),
                            self.set,
                            self.template,
                            info.as_ptr().cast(),
                        )
                    };
                }
            }
            "push_descriptor_set" => {
                let (Some(pd), Some(layout)) = (&self.push_descriptor, self.push_layout) else {
                    return Ok(false);
                };
                self.record(ops, &bind_pipeline, &mut |cb, i| {
                    let info = self.buffer_info(i);
                    let write = vk::WriteDescriptorSet::default()
                        .dst_binding(0)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(&info);
                    // SAFETY: a push-descriptor layout's set 0.
                    unsafe {
                        pd.cmd_push_descriptor_set(
                            cb,
                            vk::PipelineBindPoint::COMPUTE,
                            layout,
                            0,
                            &[write],
                        )
                    };
                })?;
            }
            "bind_descriptor_sets" => {
                self.record(ops, &bind_pipeline, &mut |cb, _| bind_set(cb))?;
            }
            "push_constants" => {
                self.record(ops, &bind_pipeline, &mut |cb, i| push(cb, i))?;
            }
            "push_constants_dispatch" => {
                self.record(
                    ops,
                    &|cb| {
                        bind_pipeline(cb);
                        bind_set(cb);
                    },
                    &mut |cb, i| {
                        push(cb, i);
                        dispatch(cb);
                    },
                )?;
            }
            "bind_push_constants_dispatch" => {
                self.record(ops, &bind_pipeline, &mut |cb, i| {
                    bind_set(cb);
                    push(cb, i);
                    dispatch(cb);
                })?;
            }
            "draw"
            | "draw_vertex_buffer_change"
            | "draw_vertex_buffer2_change"
            | "draw_push_constant_change" => {
                let Some(g) = &self.draws else {
                    return Ok(false);
                };
                // SAFETY: a recording command buffer inside the pass.
                let end = |cb| unsafe { d.cmd_end_render_pass(cb) };
                // SAFETY: as above, with the pipeline and a vertex buffer bound.
                let draw = |cb| unsafe { d.cmd_draw(cb, 3, 1, 0, 0) };
                let begin = |cb| g.begin(d, cb);
                match name {
                    "draw" => self.record_between(ops, &begin, &end, &mut |cb, _| draw(cb))?,
                    "draw_vertex_buffer_change" => {
                        self.record_between(ops, &begin, &end, &mut |cb, i| {
                            let b = g.vertex_buffers[(i % 2) as usize];
                            // SAFETY: a live vertex buffer of binding 0.
                            unsafe { d.cmd_bind_vertex_buffers(cb, 0, &[b], &[0]) };
                            draw(cb);
                        })?
                    }
                    "draw_vertex_buffer2_change" => {
                        let Some(ds) = &self.dynamic_state else {
                            return Ok(false);
                        };
                        self.record_between(ops, &begin, &end, &mut |cb, i| {
                            let b = g.vertex_buffers[(i % 2) as usize];
                            // SAFETY: a live vertex buffer of binding 0, its
                            // whole size; the pipeline's strides are static.
                            unsafe {
                                ds.cmd_bind_vertex_buffers2(
                                    cb,
                                    0,
                                    &[b],
                                    &[0],
                                    Some(&[vk::WHOLE_SIZE]),
                                    None,
                                )
                            };
                            draw(cb);
                        })?
                    }
                    _ => self.record_between(ops, &begin, &end, &mut |cb, i| {
                        let words = [i as u32; 4];
                        // SAFETY: 16 bytes inside the layout's 32-byte range.
                        unsafe {
                            d.cmd_push_constants(
                                cb,
                                g.layout,
                                vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
                                16,
                                bytes_of(&words),
                            )
                        };
                        draw(cb);
                    })?,
                }
            }
            other => return Err(format!("no case {other}")),
        }
        Ok(true)
    }
}

impl Drop for Bench {
    fn drop(&mut self) {
        let d = &self.device;
        // SAFETY: nothing is in use: no command buffer was ever submitted.
        unsafe {
            if let Some(g) = &self.draws {
                g.destroy(d);
            }
            d.destroy_descriptor_update_template(self.template, None);
            d.destroy_command_pool(self.command_pool, None);
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_shader_module(self.module, None);
            if let Some(l) = self.push_layout {
                d.destroy_pipeline_layout(l, None);
            }
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_pool(self.pool, None);
            if let Some(l) = self.push_set_layout {
                d.destroy_descriptor_set_layout(l, None);
            }
            d.destroy_descriptor_set_layout(self.set_layout, None);
            d.destroy_buffer(self.buffer, None);
            d.free_memory(self.memory, None);
            d.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// What the draw cases add: a 64x64 RGBA8 colour attachment, a render pass
/// and framebuffer of it, two vertex buffers, and a graphics pipeline of
/// push.vert and push.frag (a position per vertex, 32 bytes of push
/// constants for both stages), as vkoverhead's draw cases set up.
struct DrawBench {
    image: vk::Image,
    image_memory: vk::DeviceMemory,
    view: vk::ImageView,
    pass: vk::RenderPass,
    framebuffer: vk::Framebuffer,
    vertex_buffers: [vk::Buffer; 2],
    vertex_memory: vk::DeviceMemory,
    modules: [vk::ShaderModule; 2],
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
}

/// The draw cases' attachment size.
const DRAW_SIZE: u32 = 64;

impl DrawBench {
    /// # Safety
    /// `device` is live and has a graphics queue.
    unsafe fn new(device: &ash::Device) -> Result<DrawBench, String> {
        let format = vk::Format::R8G8B8A8_UNORM;
        // SAFETY: every call is on the live device with valid create infos
        // referring to locals alive for the call.
        unsafe {
            let image = check(
                "vkCreateImage",
                device.create_image(
                    &vk::ImageCreateInfo::default()
                        .image_type(vk::ImageType::TYPE_2D)
                        .format(format)
                        .extent(vk::Extent3D {
                            width: DRAW_SIZE,
                            height: DRAW_SIZE,
                            depth: 1,
                        })
                        .mip_levels(1)
                        .array_layers(1)
                        .samples(vk::SampleCountFlags::TYPE_1)
                        .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT),
                    None,
                ),
            )?;
            let req = device.get_image_memory_requirements(image);
            let image_memory = allocate(device, &req, req.size)?;
            check(
                "vkBindImageMemory",
                device.bind_image_memory(image, image_memory, 0),
            )?;
            let view = check(
                "vkCreateImageView",
                device.create_image_view(
                    &vk::ImageViewCreateInfo::default()
                        .image(image)
                        .view_type(vk::ImageViewType::TYPE_2D)
                        .format(format)
                        .subresource_range(vk::ImageSubresourceRange {
                            aspect_mask: vk::ImageAspectFlags::COLOR,
                            base_mip_level: 0,
                            level_count: 1,
                            base_array_layer: 0,
                            layer_count: 1,
                        }),
                    None,
                ),
            )?;
            let attachment = [vk::AttachmentDescription::default()
                .format(format)
                .samples(vk::SampleCountFlags::TYPE_1)
                .load_op(vk::AttachmentLoadOp::DONT_CARE)
                .store_op(vk::AttachmentStoreOp::STORE)
                .initial_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .final_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)];
            let color = [vk::AttachmentReference {
                attachment: 0,
                layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            }];
            let subpass = [vk::SubpassDescription::default()
                .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
                .color_attachments(&color)];
            let pass = check(
                "vkCreateRenderPass",
                device.create_render_pass(
                    &vk::RenderPassCreateInfo::default()
                        .attachments(&attachment)
                        .subpasses(&subpass),
                    None,
                ),
            )?;
            let views = [view];
            let framebuffer = check(
                "vkCreateFramebuffer",
                device.create_framebuffer(
                    &vk::FramebufferCreateInfo::default()
                        .render_pass(pass)
                        .attachments(&views)
                        .width(DRAW_SIZE)
                        .height(DRAW_SIZE)
                        .layers(1),
                    None,
                ),
            )?;
            // Two buffers of three positions each, in one allocation.
            let vb_info = vk::BufferCreateInfo::default()
                .size(4096)
                .usage(vk::BufferUsageFlags::VERTEX_BUFFER);
            let vertex_buffers = [
                check("vkCreateBuffer", device.create_buffer(&vb_info, None))?,
                check("vkCreateBuffer", device.create_buffer(&vb_info, None))?,
            ];
            let req = device.get_buffer_memory_requirements(vertex_buffers[0]);
            let stride = req.size.next_multiple_of(req.alignment);
            let vertex_memory = allocate(device, &req, 2 * stride)?;
            for (i, b) in vertex_buffers.iter().enumerate() {
                check(
                    "vkBindBufferMemory",
                    device.bind_buffer_memory(*b, vertex_memory, i as u64 * stride),
                )?;
            }
            let mut modules = [vk::ShaderModule::null(); 2];
            for (m, shader) in modules
                .iter_mut()
                .zip([&shaders::PUSH_VERT, &shaders::PUSH_FRAG])
            {
                let words = shader.words()?;
                *m = check(
                    "vkCreateShaderModule",
                    device.create_shader_module(
                        &vk::ShaderModuleCreateInfo::default().code(&words),
                        None,
                    ),
                )?;
            }
            let push_range = [vk::PushConstantRange {
                stage_flags: vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
                offset: 0,
                size: 32,
            }];
            let layout = check(
                "vkCreatePipelineLayout",
                device.create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&push_range),
                    None,
                ),
            )?;
            let stages = [
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::VERTEX)
                    .module(modules[0])
                    .name(c"main"),
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::FRAGMENT)
                    .module(modules[1])
                    .name(c"main"),
            ];
            let bindings = [vk::VertexInputBindingDescription {
                binding: 0,
                stride: 12,
                input_rate: vk::VertexInputRate::VERTEX,
            }];
            let attributes = [vk::VertexInputAttributeDescription {
                location: 0,
                binding: 0,
                format: vk::Format::R32G32B32_SFLOAT,
                offset: 0,
            }];
            let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
                .vertex_binding_descriptions(&bindings)
                .vertex_attribute_descriptions(&attributes);
            let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
                .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
            let viewports = [vk::Viewport {
                x: 0.0,
                y: 0.0,
                width: DRAW_SIZE as f32,
                height: DRAW_SIZE as f32,
                min_depth: 0.0,
                max_depth: 1.0,
            }];
            let scissors = [vk::Rect2D {
                offset: vk::Offset2D { x: 0, y: 0 },
                extent: vk::Extent2D {
                    width: DRAW_SIZE,
                    height: DRAW_SIZE,
                },
            }];
            let viewport = vk::PipelineViewportStateCreateInfo::default()
                .viewports(&viewports)
                .scissors(&scissors);
            let raster = vk::PipelineRasterizationStateCreateInfo::default()
                .polygon_mode(vk::PolygonMode::FILL)
                .line_width(1.0);
            let multisample = vk::PipelineMultisampleStateCreateInfo::default()
                .rasterization_samples(vk::SampleCountFlags::TYPE_1);
            let blend_attachment = [vk::PipelineColorBlendAttachmentState::default()
                .color_write_mask(vk::ColorComponentFlags::RGBA)];
            let blend =
                vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachment);
            let info = vk::GraphicsPipelineCreateInfo::default()
                .stages(&stages)
                .vertex_input_state(&vertex_input)
                .input_assembly_state(&assembly)
                .viewport_state(&viewport)
                .rasterization_state(&raster)
                .multisample_state(&multisample)
                .color_blend_state(&blend)
                .layout(layout)
                .render_pass(pass)
                .subpass(0);
            let pipeline = device
                .create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
                .map_err(|(_, e)| format!("vkCreateGraphicsPipelines: {e:?}"))?[0];
            Ok(DrawBench {
                image,
                image_memory,
                view,
                pass,
                framebuffer,
                vertex_buffers,
                vertex_memory,
                modules,
                layout,
                pipeline,
            })
        }
    }

    /// Begins the pass and binds the pipeline, the first vertex buffer and
    /// the push constants: what every draw case's command buffer starts
    /// with.
    fn begin(&self, d: &ash::Device, cb: vk::CommandBuffer) {
        let area = vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: DRAW_SIZE,
                height: DRAW_SIZE,
            },
        };
        // SAFETY: a recording command buffer outside a pass; the pass,
        // framebuffer, pipeline and buffer are live.
        unsafe {
            d.cmd_begin_render_pass(
                cb,
                &vk::RenderPassBeginInfo::default()
                    .render_pass(self.pass)
                    .framebuffer(self.framebuffer)
                    .render_area(area),
                vk::SubpassContents::INLINE,
            );
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, self.pipeline);
            d.cmd_bind_vertex_buffers(cb, 0, &[self.vertex_buffers[0]], &[0]);
            d.cmd_push_constants(
                cb,
                self.layout,
                vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
                0,
                bytes_of(&[0; 8]),
            );
        }
    }

    /// # Safety
    /// `device` is the one the bench was made with, and idle.
    unsafe fn destroy(&self, d: &ash::Device) {
        // SAFETY: the caller's promise; nothing was submitted.
        unsafe {
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_pipeline_layout(self.layout, None);
            for m in self.modules {
                d.destroy_shader_module(m, None);
            }
            for b in self.vertex_buffers {
                d.destroy_buffer(b, None);
            }
            d.free_memory(self.vertex_memory, None);
            d.destroy_framebuffer(self.framebuffer, None);
            d.destroy_render_pass(self.pass, None);
            d.destroy_image_view(self.view, None);
            d.destroy_image(self.image, None);
            d.free_memory(self.image_memory, None);
        }
    }
}

fn bytes_of(words: &[u32]) -> &[u8] {
    // SAFETY: u32s are plain bytes; the length covers exactly the words.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast(), std::mem::size_of_val(words)) }
}

const CASES: &[&str] = &[
    "update_descriptor_sets",
    "update_descriptor_set_with_template",
    "push_descriptor_set",
    "bind_descriptor_sets",
    "push_constants",
    "push_constants_dispatch",
    "bind_push_constants_dispatch",
    "draw",
    "draw_vertex_buffer_change",
    "draw_vertex_buffer2_change",
    "draw_push_constant_change",
];

fn measure(bench: &Bench, name: &str, o: &Options) -> Result<Option<(u64, Duration)>, String> {
    if let Some(ops) = o.ops {
        let start = Instant::now();
        return Ok(bench.run(name, ops)?.then(|| (ops, start.elapsed())));
    }
    // Warm up (first chunks, caches), then grow the count until a run takes
    // the time asked for.
    if !bench.run(name, OPS_PER_COMMAND_BUFFER)? {
        return Ok(None);
    }
    let target = Duration::from_secs_f64(o.seconds);
    let mut ops = OPS_PER_COMMAND_BUFFER;
    loop {
        let start = Instant::now();
        bench.run(name, ops)?;
        let took = start.elapsed();
        if took >= target {
            return Ok(Some((ops, took)));
        }
        let scale = target.as_secs_f64() / took.as_secs_f64().max(1e-6);
        ops = ((ops as f64 * scale.clamp(1.5, 100.0)) as u64).next_multiple_of(1000);
    }
}

fn run(o: Options) -> Result<(), String> {
    let selected: Vec<&str> = CASES
        .iter()
        .copied()
        .filter(|c| {
            o.cases.is_empty()
                || o.cases.iter().any(|f| {
                    // A whole name selects that case alone.
                    if CASES.contains(&f.as_str()) {
                        c == f
                    } else {
                        c.contains(f.as_str())
                    }
                })
        })
        .collect();
    if o.list {
        for c in &selected {
            println!("{c}");
        }
        return Ok(());
    }
    if selected.is_empty() {
        return Err(format!("no case matches {:?}", o.cases));
    }
    if let Some(driver) = &o.driver {
        let path = std::fs::canonicalize(driver)
            .map_err(|e| format!("--driver {}: {e}", driver.display()))?;
        // Before the loader is loaded, while this process has one thread.
        std::env::set_var("VK_DRIVER_FILES", path);
        std::env::remove_var("VK_ICD_FILENAMES");
    }
    // SAFETY: loads the system's loader once.
    let bench = unsafe { Bench::new() }?;
    for name in selected {
        match measure(&bench, name, &o)? {
            Some((ops, took)) => println!(
                "{name}: {:.2} M/s ({ops} in {:.3} s, {:.1} ns each)",
                ops as f64 / took.as_secs_f64() / 1e6,
                took.as_secs_f64(),
                took.as_secs_f64() * 1e9 / ops as f64
            ),
            None => println!("{name}: not supported"),
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("parsnip-overhead: {why}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("parsnip-overhead: {why}");
            ExitCode::FAILURE
        }
    }
}
