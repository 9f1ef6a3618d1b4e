//! The calls an application makes most often do not touch the heap once
//! warmed up: descriptor writes (single and through a template), binds,
//! push constants, push descriptors, dispatches, and draws in a render
//! pass (with vertex buffer binds and push constants between them),
//! counted by a global allocator that
//! counts this thread's allocations. The entry points are called in
//! process, through the ICD's own `vk_icdGetInstanceProcAddr` (the loader
//! is a separate library with its own allocator, which would not be
//! counted), on the null back end. Also here: VK_NULL_HANDLE where the spec
//! allows it is accepted, and where it does not it is an error, not a
//! crash.
//!
//! One test, since the driver reads PARSNIP_NULL once per process.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ash::vk;

/// Counts the allocations (and reallocations) of threads that asked.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: thread-locals may be gone while a thread exits.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// This thread's allocations while `f` runs.
fn allocations(f: impl FnOnce()) -> u64 {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    COUNT.with(|c| c.get())
}

/// A compute shader reading set 0 binding 0 and 16 bytes of push constants.
fn spirv() -> Vec<u32> {
    common::glslang(
        "steady",
        "#version 450\nlayout(local_size_x = 64) in;\n\
         layout(push_constant) uniform P { uint add[4]; };\n\
         layout(set = 0, binding = 0) buffer B { uint data[]; };\n\
         void main() { data[gl_GlobalInvocationID.x] += add[gl_LocalInvocationID.x & 3u]; }\n",
    )
}

/// A vertex shader reading a position and 16 bytes of push constants, and
/// a fragment shader reading 16 more.
fn draw_spirv() -> (Vec<u32>, Vec<u32>) {
    let vs = common::glslang_stage(
        "steady_vs",
        "vert",
        "#version 450\nlayout(push_constant) uniform P { vec2 offset; } p;\n\
         layout(location = 0) in vec3 position;\n\
         void main() { gl_Position = vec4(position.xy + p.offset, position.z, 1.0); }\n",
    );
    let fs = common::glslang_stage(
        "steady_fs",
        "frag",
        "#version 450\nlayout(push_constant) uniform P { layout(offset = 16) vec4 c; } p;\n\
         layout(location = 0) out vec4 o;\nvoid main() { o = p.c; }\n",
    );
    (vs, fs)
}

/// A render pass over a 64x64 RGBA8 image and a pipeline of
/// [`draw_spirv`]'s shaders drawing into it, with one vertex binding of
/// 12 bytes and 32 bytes of push constants.
struct DrawSetup {
    pass: vk::RenderPass,
    framebuffer: vk::Framebuffer,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    vertex_buffers: [vk::Buffer; 2],
}

/// # Safety
/// `device` is live, and `memory_type` a type its buffers and images take.
unsafe fn draw_setup(device: &ash::Device, memory_type: u32) -> DrawSetup {
    // SAFETY: the caller's promise; every create info refers to locals.
    unsafe {
        let image = device
            .create_image(
                &vk::ImageCreateInfo::default()
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
                    .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT),
                None,
            )
            .unwrap();
        let req = device.get_image_memory_requirements(image);
        let memory = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(req.size + 8192)
                    .memory_type_index(memory_type),
                None,
            )
            .unwrap();
        device.bind_image_memory(image, memory, 0).unwrap();
        let view = device
            .create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(vk::ImageViewType::TYPE_2D)
                    .format(vk::Format::R8G8B8A8_UNORM)
                    .subresource_range(vk::ImageSubresourceRange {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
                        base_mip_level: 0,
                        level_count: 1,
                        base_array_layer: 0,
                        layer_count: 1,
                    }),
                None,
            )
            .unwrap();
        let vertex_buffers = [0, 1].map(|i| {
            let b = device
                .create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(4096)
                        .usage(vk::BufferUsageFlags::VERTEX_BUFFER),
                    None,
                )
                .unwrap();
            let at = req.size.next_multiple_of(4096) + i * 4096;
            device.bind_buffer_memory(b, memory, at).unwrap();
            b
        });
        let attachment = [vk::AttachmentDescription::default()
            .format(vk::Format::R8G8B8A8_UNORM)
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
        let pass = device
            .create_render_pass(
                &vk::RenderPassCreateInfo::default()
                    .attachments(&attachment)
                    .subpasses(&subpass),
                None,
            )
            .unwrap();
        let framebuffer = device
            .create_framebuffer(
                &vk::FramebufferCreateInfo::default()
                    .render_pass(pass)
                    .attachments(&[view])
                    .width(64)
                    .height(64)
                    .layers(1),
                None,
            )
            .unwrap();
        let range = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
            offset: 0,
            size: 32,
        }];
        let layout = device
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&range),
                None,
            )
            .unwrap();
        let (vs, fs) = draw_spirv();
        let modules = [vs, fs].map(|words| {
            device
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
                .unwrap()
        });
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
            width: 64.0,
            height: 64.0,
            max_depth: 1.0,
            ..Default::default()
        }];
        let scissors = [vk::Rect2D {
            extent: vk::Extent2D {
                width: 64,
                height: 64,
            },
            ..Default::default()
        }];
        let viewport = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&viewports)
            .scissors(&scissors);
        let raster = vk::PipelineRasterizationStateCreateInfo::default().line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let blend_attachment = [vk::PipelineColorBlendAttachmentState::default()
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachment);
        let info = vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(&vertex_input)
            .input_assembly_state(&assembly)
            .viewport_state(&viewport)
            .rasterization_state(&raster)
            .multisample_state(&multisample)
            .color_blend_state(&blend)
            .layout(layout)
            .render_pass(pass);
        let pipeline = device
            .create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
            .unwrap()[0];
        DrawSetup {
            pass,
            framebuffer,
            layout,
            pipeline,
            vertex_buffers,
        }
    }
}

const N: u64 = 1000;

#[test]
fn steady_state_calls_do_not_allocate_and_null_handles_do_not_crash() {
    std::env::set_var("PARSNIP_NULL", "a660");
    std::env::remove_var("PARSNIP_SIM");
    let words = spirv();

    // SAFETY: the ICD's entry points, called as the spec says with
    // structures referring to locals alive for each call; every object is
    // used only while it lives.
    unsafe {
        let entry = ash::Entry::from_static_fn(ash::StaticFn {
            get_instance_proc_addr: vulkan_parsnip::loader::vk_icdGetInstanceProcAddr,
        });
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_1);
        let instance = entry
            .create_instance(
                &vk::InstanceCreateInfo::default().application_info(&app),
                None,
            )
            .unwrap();
        let physical = instance.enumerate_physical_devices().unwrap()[0];
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_priorities(&priorities)];
        let device = instance
            .create_device(
                physical,
                &vk::DeviceCreateInfo::default()
                    .queue_create_infos(&queues)
                    .enabled_extension_names(&[
                        ash::khr::push_descriptor::NAME.as_ptr(),
                        ash::ext::extended_dynamic_state::NAME.as_ptr(),
                    ]),
                None,
            )
            .unwrap();

        let buffer = device
            .create_buffer(
                &vk::BufferCreateInfo::default()
                    .size(65536)
                    .usage(vk::BufferUsageFlags::STORAGE_BUFFER),
                None,
            )
            .unwrap();
        let req = device.get_buffer_memory_requirements(buffer);
        let memory = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(req.size)
                    .memory_type_index(req.memory_type_bits.trailing_zeros()),
                None,
            )
            .unwrap();
        device.bind_buffer_memory(buffer, memory, 0).unwrap();
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
            .unwrap();
        let sizes = [vk::DescriptorPoolSize {
            ty: vk::DescriptorType::STORAGE_BUFFER,
            descriptor_count: 2,
        }];
        let pool = device
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(2)
                    .pool_sizes(&sizes),
                None,
            )
            .unwrap();
        let layouts = [set_layout, set_layout];
        let sets = device
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&layouts),
            )
            .unwrap();
        let push_range = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::COMPUTE,
            offset: 0,
            size: 16,
        }];
        let layout = device
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&layouts[..1])
                    .push_constant_ranges(&push_range),
                None,
            )
            .unwrap();
        // The same binding as a push descriptor set, and a pipeline using it.
        let push_set_layout = device
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default()
                    .flags(vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR)
                    .bindings(&binding),
                None,
            )
            .unwrap();
        let push_layout = device
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&[push_set_layout])
                    .push_constant_ranges(&push_range),
                None,
            )
            .unwrap();
        let module = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
            .unwrap();
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
            .unwrap()[0];
        let push_pipeline = device
            .create_compute_pipelines(
                vk::PipelineCache::null(),
                &[vk::ComputePipelineCreateInfo::default()
                    .stage(stage)
                    .layout(push_layout)],
                None,
            )
            .unwrap()[0];
        let template_entry = [vk::DescriptorUpdateTemplateEntry {
            dst_binding: 0,
            dst_array_element: 0,
            descriptor_count: 1,
            descriptor_type: vk::DescriptorType::STORAGE_BUFFER,
            offset: 0,
            stride: std::mem::size_of::<vk::DescriptorBufferInfo>(),
        }];
        let template = device
            .create_descriptor_update_template(
                &vk::DescriptorUpdateTemplateCreateInfo::default()
                    .descriptor_update_entries(&template_entry)
                    .template_type(vk::DescriptorUpdateTemplateType::DESCRIPTOR_SET)
                    .descriptor_set_layout(set_layout),
                None,
            )
            .unwrap();
        let push_template = device
            .create_descriptor_update_template(
                &vk::DescriptorUpdateTemplateCreateInfo::default()
                    .descriptor_update_entries(&template_entry)
                    .template_type(vk::DescriptorUpdateTemplateType::PUSH_DESCRIPTORS_KHR)
                    .pipeline_bind_point(vk::PipelineBindPoint::COMPUTE)
                    .pipeline_layout(push_layout)
                    .set(0),
                None,
            )
            .unwrap();
        let push_descriptor = ash::khr::push_descriptor::Device::new(&instance, &device);
        let command_pool = device
            .create_command_pool(&vk::CommandPoolCreateInfo::default(), None)
            .unwrap();
        let cb = device
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(command_pool)
                    .command_buffer_count(1),
            )
            .unwrap()[0];

        let info = |i: u64| {
            [vk::DescriptorBufferInfo {
                buffer,
                offset: (i % 16) * 256,
                range: 256,
            }]
        };
        let write = |i: u64| {
            let info = info(i);
            let w = vk::WriteDescriptorSet::default()
                .dst_set(sets[(i % 2) as usize])
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&info);
            device.update_descriptor_sets(&[w], &[]);
        };
        let template_write = |i: u64| {
            let info = info(i);
            (device.fp_v1_1().update_descriptor_set_with_template)(
                device.handle(),
                sets[(i % 2) as usize],
                template,
                info.as_ptr().cast(),
            );
        };
        let bind = |i: u64| {
            device.cmd_bind_descriptor_sets(
                cb,
                vk::PipelineBindPoint::COMPUTE,
                layout,
                0,
                &sets[(i % 2) as usize..][..1],
                &[],
            )
        };
        let push = |i: u64| {
            let mut bytes = [0u8; 16];
            for word in bytes.chunks_exact_mut(4) {
                word.copy_from_slice(&(i as u32).to_le_bytes());
            }
            device.cmd_push_constants(cb, layout, vk::ShaderStageFlags::COMPUTE, 0, &bytes)
        };
        let dispatch = |i: u64| device.cmd_dispatch(cb, 1 + (i % 3) as u32, 1, 1);
        let push_set = |i: u64| {
            let info = info(i);
            let w = vk::WriteDescriptorSet::default()
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&info);
            push_descriptor.cmd_push_descriptor_set(
                cb,
                vk::PipelineBindPoint::COMPUTE,
                push_layout,
                0,
                &[w],
            );
        };
        let push_set_template = |i: u64| {
            let info = info(i);
            push_descriptor.cmd_push_descriptor_set_with_template(
                cb,
                push_template,
                push_layout,
                0,
                info.as_ptr().cast(),
            );
        };
        let recording_with = |pipeline: vk::Pipeline, ops: &dyn Fn(u64)| {
            device
                .begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default())
                .unwrap();
            device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
            // Warm up (the recording's first chunk and lists), then count.
            (0..10).for_each(ops);
            let counted = allocations(|| (0..N).for_each(ops));
            device.end_command_buffer(cb).unwrap();
            device
                .reset_command_pool(command_pool, vk::CommandPoolResetFlags::empty())
                .unwrap();
            counted
        };
        let recording = |ops: &dyn Fn(u64)| recording_with(pipeline, ops);

        // Descriptor writes need no warm-up beyond one call each.
        write(0);
        template_write(0);
        assert_eq!(
            allocations(|| (0..N).for_each(write)),
            0,
            "vkUpdateDescriptorSets"
        );
        assert_eq!(
            allocations(|| (0..N).for_each(template_write)),
            0,
            "vkUpdateDescriptorSetWithTemplate"
        );
        let all = |i| {
            bind(i);
            push(i);
            dispatch(i);
        };
        // The first recording opens the chunks the later ones reuse: the
        // driver's allocations are counted.
        assert!(
            recording(&all) > 0,
            "the first recording allocates its chunks"
        );
        assert_eq!(recording(&bind), 0, "vkCmdBindDescriptorSets");
        assert_eq!(recording(&push), 0, "vkCmdPushConstants");
        let push_dispatch = |i| {
            push(i);
            dispatch(i);
        };
        assert_eq!(
            recording(&push_dispatch),
            0,
            "vkCmdPushConstants + vkCmdDispatch"
        );
        assert_eq!(recording(&all), 0, "bind + push constants + dispatch");
        // Each push takes fresh upload memory: the first recording of them
        // opens the chunks the next reuses.
        let push_all = |i| {
            push_set(i);
            push_set_template(i);
            dispatch(i);
        };
        recording_with(push_pipeline, &push_all);
        assert_eq!(
            recording_with(push_pipeline, &push_all),
            0,
            "vkCmdPushDescriptorSetKHR (+ WithTemplate) + vkCmdDispatch"
        );

        // Draws in a render pass, with a vertex buffer bind or push
        // constants before each.
        let memory_type = {
            let req = device.get_buffer_memory_requirements(buffer);
            req.memory_type_bits.trailing_zeros()
        };
        let g = draw_setup(&device, memory_type);
        let graphics = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
        let drawing = |ops: &dyn Fn(u64)| {
            device
                .begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default())
                .unwrap();
            let area = vk::Rect2D {
                extent: vk::Extent2D {
                    width: 64,
                    height: 64,
                },
                ..Default::default()
            };
            device.cmd_begin_render_pass(
                cb,
                &vk::RenderPassBeginInfo::default()
                    .render_pass(g.pass)
                    .framebuffer(g.framebuffer)
                    .render_area(area),
                vk::SubpassContents::INLINE,
            );
            device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, g.pipeline);
            device.cmd_bind_vertex_buffers(cb, 0, &[g.vertex_buffers[0]], &[0]);
            device.cmd_push_constants(cb, g.layout, graphics, 0, &[0; 32]);
            (0..10).for_each(ops);
            let counted = allocations(|| (0..N).for_each(ops));
            device.cmd_end_render_pass(cb);
            device.end_command_buffer(cb).unwrap();
            device
                .reset_command_pool(command_pool, vk::CommandPoolResetFlags::empty())
                .unwrap();
            counted
        };
        let draw = |i: u64| device.cmd_draw(cb, 3, 1, (i % 2) as u32, 0);
        let vertex_buffer_draw = |i: u64| {
            let b = g.vertex_buffers[(i % 2) as usize];
            device.cmd_bind_vertex_buffers(cb, 0, &[b], &[0]);
            draw(i);
        };
        let dynamic_state = ash::ext::extended_dynamic_state::Device::new(&instance, &device);
        let vertex_buffer2_draw = |i: u64| {
            let b = g.vertex_buffers[(i % 2) as usize];
            dynamic_state.cmd_bind_vertex_buffers2(cb, 0, &[b], &[0], Some(&[16]), None);
            draw(i);
        };
        let push_draw = |i: u64| {
            device.cmd_push_constants(cb, g.layout, graphics, 16, &(i as u128).to_le_bytes());
            draw(i);
        };
        // Each case once first, as the cases above: the first recording
        // of a case gives the pool the stream memory that case needs.
        let steady = |ops: &dyn Fn(u64)| {
            drawing(ops);
            drawing(ops)
        };
        assert_eq!(steady(&draw), 0, "vkCmdDraw");
        assert_eq!(
            steady(&vertex_buffer_draw),
            0,
            "vkCmdBindVertexBuffers + vkCmdDraw"
        );
        assert_eq!(
            steady(&vertex_buffer2_draw),
            0,
            "vkCmdBindVertexBuffers2 + vkCmdDraw"
        );
        assert_eq!(steady(&push_draw), 0, "vkCmdPushConstants + vkCmdDraw");

        // VK_NULL_HANDLE where the spec allows it: nothing happens.
        device.destroy_buffer(vk::Buffer::null(), None);
        device.free_memory(vk::DeviceMemory::null(), None);
        device.destroy_pipeline(vk::Pipeline::null(), None);
        device.destroy_descriptor_pool(vk::DescriptorPool::null(), None);
        device.destroy_command_pool(vk::CommandPool::null(), None);
        device.free_command_buffers(command_pool, &[vk::CommandBuffer::null()]);
        device
            .free_descriptor_sets(pool, &[vk::DescriptorSet::null()])
            .unwrap();
        let get_device_proc_addr = instance.fp_v1_0().get_device_proc_addr;
        assert!(get_device_proc_addr(vk::Device::null(), c"vkCmdDispatch".as_ptr()).is_none());
        // Where the spec requires a handle, a null one is the
        // application's error: an error result, not a crash.
        device
            .begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default())
            .unwrap();
        device.cmd_bind_descriptor_sets(
            cb,
            vk::PipelineBindPoint::COMPUTE,
            layout,
            0,
            &[vk::DescriptorSet::null()],
            &[],
        );
        assert_eq!(
            device.end_command_buffer(cb).err(),
            Some(vk::Result::ERROR_UNKNOWN)
        );
        let first = info(0);
        let null_write = vk::WriteDescriptorSet::default()
            .dst_set(vk::DescriptorSet::null())
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&first);
        device.update_descriptor_sets(&[null_write], &[]);

        device.destroy_command_pool(command_pool, None);
        device.destroy_descriptor_update_template(template, None);
        device.destroy_descriptor_update_template(push_template, None);
        device.destroy_pipeline(push_pipeline, None);
        device.destroy_pipeline_layout(push_layout, None);
        device.destroy_descriptor_set_layout(push_set_layout, None);
        device.destroy_pipeline(pipeline, None);
        device.destroy_shader_module(module, None);
        device.destroy_pipeline_layout(layout, None);
        device.destroy_descriptor_pool(pool, None);
        device.destroy_descriptor_set_layout(set_layout, None);
        device.destroy_buffer(buffer, None);
        device.free_memory(memory, None);
        device.destroy_device(None);
        instance.destroy_instance(None);
        // And after the objects are gone, null parents are accepted too.
        (instance.fp_v1_0().destroy_instance)(vk::Instance::null(), std::ptr::null());
    }
}
