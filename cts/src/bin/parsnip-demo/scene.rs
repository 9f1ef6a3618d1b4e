//! The demo's graphics part: three overlapping triangles at different
//! depths, drawn in an order where only the depth test (LESS, D16) gives
//! the right picture, each textured with a checkerboard of two grey
//! levels (`texture`), into a 128x96 RGBA8 image that is written to
//! `out/demo.png`. Every pixel away from the triangles' edges and the
//! texels' edges is checked against which triangle is nearest there and
//! which texel it samples, worked out on the CPU.

use ash::vk;
use parsnip_cts::shaders::{TEXTURED_FRAG, TEXTURED_VERT};

use super::memory::{allocate, barrier_to_host, check, Allocation};
use super::texture::{self, Texture, DARK, TEXELS};

pub const WIDTH: u32 = 128;
pub const HEIGHT: u32 = 96;
const COLOR: vk::Format = vk::Format::R8G8B8A8_UNORM;
const DEPTH: vk::Format = vk::Format::D16_UNORM;
const BACKGROUND: [f32; 4] = [0.15, 0.15, 0.15, 1.0];

/// A triangle: NDC corners, depth, and the colour channel it is drawn in
/// (0 red, 1 green, 2 blue), brighter towards its last corner.
struct Triangle {
    corners: [[f32; 2]; 3],
    z: f32,
    channel: usize,
}

/// In drawing order: the far blue one last, so that without the depth
/// test it would cover the others.
const TRIANGLES: [Triangle; 3] = [
    Triangle {
        corners: [[-0.9, 0.8], [0.2, -0.9], [0.6, 0.8]],
        z: 0.5,
        channel: 0,
    },
    Triangle {
        corners: [[-0.2, 0.9], [0.9, -0.6], [0.9, 0.9]],
        z: 0.3,
        channel: 1,
    },
    Triangle {
        corners: [[-0.9, -0.9], [0.95, -0.2], [-0.5, 0.9]],
        z: 0.7,
        channel: 2,
    },
];

/// attributes.vert's vertices: position (x, y, z), colour (r, g, b, a).
fn vertices() -> Vec<f32> {
    let mut out = Vec::new();
    for t in &TRIANGLES {
        for (k, c) in t.corners.iter().enumerate() {
            let mut colour = [0.0, 0.0, 0.0, 1.0];
            colour[t.channel] = 0.5 + 0.25 * k as f32;
            out.extend([c[0], c[1], t.z]);
            out.extend(colour);
        }
    }
    out
}

/// The signed distance, in pixels, of pixel (x, y)'s centre from each
/// edge of `t` (positive inside for either winding).
fn edge_distances(t: &Triangle, x: u32, y: u32) -> [f32; 3] {
    let w = |c: [f32; 2]| {
        [
            (c[0] + 1.0) * WIDTH as f32 / 2.0,
            (c[1] + 1.0) * HEIGHT as f32 / 2.0,
        ]
    };
    let p = [x as f32 + 0.5, y as f32 + 0.5];
    let c = t.corners.map(w);
    let area =
        (c[1][0] - c[0][0]) * (c[2][1] - c[0][1]) - (c[2][0] - c[0][0]) * (c[1][1] - c[0][1]);
    let mut out = [0.0; 3];
    for k in 0..3 {
        let (a, b) = (c[k], c[(k + 1) % 3]);
        let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        out[k] = cross.signum() * area.signum() * cross.abs() / len;
    }
    out
}

/// The texel pixel (x, y) samples, unless its centre is within a pixel
/// of a texel's edge: textured.vert maps the image's width and height
/// onto the texture's.
fn texel(x: u32, y: u32) -> Option<(u32, u32)> {
    let (w, h) = (WIDTH / TEXELS, HEIGHT / TEXELS);
    let near_edge = |p: u32, size: u32| p.is_multiple_of(size) || p % size == size - 1;
    if near_edge(x, w) || near_edge(y, h) {
        return None;
    }
    Some((x / w, y / h))
}

/// What pixel (x, y) must show, where it is at least two pixels from
/// every triangle's edge: the nearest covering triangle's channel and the
/// grey level of the texel there, or the background (`Some(None)`);
/// `None` near an edge.
fn expected(x: u32, y: u32) -> Option<Option<(usize, u8)>> {
    let mut nearest: Option<&Triangle> = None;
    for t in &TRIANGLES {
        let d = edge_distances(t, x, y);
        if d.iter().any(|e| e.abs() < 2.0) {
            return None;
        }
        if d.iter().all(|&e| e > 0.0) && nearest.is_none_or(|n| t.z < n.z) {
            nearest = Some(t);
        }
    }
    match nearest {
        None => Some(None),
        Some(t) => {
            let (i, j) = texel(x, y)?;
            Some(Some((t.channel, texture::level(i, j))))
        }
    }
}

/// Checks `pixels` (RGBA8, tightly packed): returns (pixels checked,
/// pixels wrong).
pub fn verify(pixels: &[u8]) -> (u32, u32) {
    let (mut checked, mut wrong) = (0, 0);
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let Some(want) = expected(x, y) else {
                continue;
            };
            let i = ((y * WIDTH + x) * 4) as usize;
            let p = &pixels[i..i + 3];
            let ok = match want {
                // The background: every channel 0.15, about 38.
                None => p.iter().all(|&c| c.abs_diff(38) <= 1),
                // The colour's channel is 0.5 to 1: that of a bright
                // texel, or a quarter of it (16 to 64) for a dark one.
                Some((ch, level)) => (0..3).all(|k| match (k == ch, level == DARK) {
                    (false, _) => p[k] == 0,
                    (true, false) => p[k] >= 120,
                    (true, true) => (30..=66).contains(&p[k]),
                }),
            };
            checked += 1;
            wrong += u32::from(!ok);
        }
    }
    (checked, wrong)
}

/// Everything `render` creates, destroyed in reverse.
#[derive(Default)]
pub(super) struct Objects {
    images: Vec<(vk::Image, vk::DeviceMemory)>,
    views: Vec<vk::ImageView>,
    buffers: Vec<Allocation>,
    modules: Vec<vk::ShaderModule>,
    render_pass: vk::RenderPass,
    framebuffer: vk::Framebuffer,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    command_pool: vk::CommandPool,
    fence: vk::Fence,
    pub(super) texture: Option<Texture>,
}

impl Objects {
    /// # Safety
    /// The objects are of `device` and no longer in use.
    unsafe fn destroy(&self, device: &ash::Device) {
        // SAFETY: the caller's promise; null handles are ignored.
        unsafe {
            device.destroy_fence(self.fence, None);
            device.destroy_command_pool(self.command_pool, None);
            device.destroy_pipeline(self.pipeline, None);
            device.destroy_pipeline_layout(self.layout, None);
            if let Some(t) = &self.texture {
                t.destroy(device);
            }
            for m in &self.modules {
                device.destroy_shader_module(*m, None);
            }
            device.destroy_framebuffer(self.framebuffer, None);
            device.destroy_render_pass(self.render_pass, None);
            for v in &self.views {
                device.destroy_image_view(*v, None);
            }
            for (image, memory) in &self.images {
                device.destroy_image(*image, None);
                device.free_memory(*memory, None);
            }
            for b in &self.buffers {
                b.destroy(device);
            }
        }
    }
}

/// Renders the scene; returns its pixels, RGBA8, tightly packed.
pub fn render(
    device: &ash::Device,
    memory_props: &vk::PhysicalDeviceMemoryProperties,
    family: u32,
) -> Result<Vec<u8>, String> {
    let mut objects = Objects::default();
    let result = record_and_run(device, memory_props, family, &mut objects);
    // SAFETY: the queue is idle (record_and_run waits, or failed before
    // submitting).
    unsafe {
        let _ = device.device_wait_idle();
        objects.destroy(device);
    }
    result
}

/// A `width` x `height` image of `format` for `usage`, with its memory
/// and a view of `aspect`.
pub(super) fn image(
    device: &ash::Device,
    memory_props: &vk::PhysicalDeviceMemoryProperties,
    format: vk::Format,
    [width, height]: [u32; 2],
    usage: vk::ImageUsageFlags,
    aspect: vk::ImageAspectFlags,
    objects: &mut Objects,
) -> Result<(vk::Image, vk::ImageView), String> {
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D {
            width,
            height,
            depth: 1,
        })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage);
    // SAFETY: the device is live; the create infos refer to locals.
    unsafe {
        let image = device
            .create_image(&info, None)
            .map_err(|e| format!("vkCreateImage failed: {e:?}"))?;
        let req = device.get_image_memory_requirements(image);
        let memory = super::memory::memory(device, memory_props, &req, false)?;
        objects.images.push((image, memory));
        check(
            "vkBindImageMemory",
            device.bind_image_memory(image, memory, 0),
        )?;
        let view = device
            .create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(vk::ImageViewType::TYPE_2D)
                    .format(format)
                    .subresource_range(range(aspect)),
                None,
            )
            .map_err(|e| format!("vkCreateImageView failed: {e:?}"))?;
        objects.views.push(view);
        Ok((image, view))
    }
}

pub(super) fn range(aspect: vk::ImageAspectFlags) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: aspect,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    }
}

fn record_and_run(
    device: &ash::Device,
    memory_props: &vk::PhysicalDeviceMemoryProperties,
    family: u32,
    o: &mut Objects,
) -> Result<Vec<u8>, String> {
    let (color, color_view) = image(
        device,
        memory_props,
        COLOR,
        [WIDTH, HEIGHT],
        vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
        vk::ImageAspectFlags::COLOR,
        o,
    )?;
    let (_, depth_view) = image(
        device,
        memory_props,
        DEPTH,
        [WIDTH, HEIGHT],
        vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT,
        vk::ImageAspectFlags::DEPTH,
        o,
    )?;
    let vertex_bytes: Vec<u8> = vertices().iter().flat_map(|f| f.to_le_bytes()).collect();
    let offset_bytes = [0u8; 8];
    let vb = allocate(
        device,
        memory_props,
        vertex_bytes.len() as u64,
        vk::BufferUsageFlags::VERTEX_BUFFER,
    )?;
    o.buffers.push(vb);
    let offsets = allocate(device, memory_props, 8, vk::BufferUsageFlags::VERTEX_BUFFER)?;
    o.buffers.push(offsets);
    let out_bytes = u64::from(WIDTH * HEIGHT * 4);
    let out = allocate(
        device,
        memory_props,
        out_bytes,
        vk::BufferUsageFlags::TRANSFER_DST,
    )?;
    o.buffers.push(out);
    vb.write(device, &vertex_bytes)?;
    offsets.write(device, &offset_bytes)?;
    texture::create(device, memory_props, o)?;
    let tex = o.texture.as_ref().expect("created above");
    let (set_layouts, set) = ([tex.set_layout], tex.set);

    let attachments = [
        vk::AttachmentDescription::default()
            .format(COLOR)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL),
        vk::AttachmentDescription::default()
            .format(DEPTH)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::DONT_CARE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
    ];
    let color_ref = [vk::AttachmentReference {
        attachment: 0,
        layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
    }];
    let depth_ref = vk::AttachmentReference {
        attachment: 1,
        layout: vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
    };
    let subpass = [vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&color_ref)
        .depth_stencil_attachment(&depth_ref)];
    // The copy after the pass waits for its colour writes.
    let dependency = [vk::SubpassDependency {
        src_subpass: 0,
        dst_subpass: vk::SUBPASS_EXTERNAL,
        src_stage_mask: vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
        dst_stage_mask: vk::PipelineStageFlags::TRANSFER,
        src_access_mask: vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
        dst_access_mask: vk::AccessFlags::TRANSFER_READ,
        dependency_flags: vk::DependencyFlags::empty(),
    }];
    // SAFETY: the device is live; every create info refers to locals
    // alive for its call; objects are recorded in `o` to be destroyed.
    unsafe {
        o.render_pass = device
            .create_render_pass(
                &vk::RenderPassCreateInfo::default()
                    .attachments(&attachments)
                    .subpasses(&subpass)
                    .dependencies(&dependency),
                None,
            )
            .map_err(|e| format!("vkCreateRenderPass failed: {e:?}"))?;
        let views = [color_view, depth_view];
        o.framebuffer = device
            .create_framebuffer(
                &vk::FramebufferCreateInfo::default()
                    .render_pass(o.render_pass)
                    .attachments(&views)
                    .width(WIDTH)
                    .height(HEIGHT)
                    .layers(1),
                None,
            )
            .map_err(|e| format!("vkCreateFramebuffer failed: {e:?}"))?;
        for shader in [&TEXTURED_VERT, &TEXTURED_FRAG] {
            let code = shader.words()?;
            let module = device
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
                .map_err(|e| format!("vkCreateShaderModule failed: {e:?}"))?;
            o.modules.push(module);
        }
        o.layout = device
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
            .map_err(|e| format!("vkCreatePipelineLayout failed: {e:?}"))?;
        o.pipeline = pipeline(device, o)?;

        o.command_pool = device
            .create_command_pool(
                &vk::CommandPoolCreateInfo::default().queue_family_index(family),
                None,
            )
            .map_err(|e| format!("vkCreateCommandPool failed: {e:?}"))?;
        let cmd = device
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(o.command_pool)
                    .command_buffer_count(1),
            )
            .map_err(|e| format!("vkAllocateCommandBuffers failed: {e:?}"))?[0];
        check(
            "vkBeginCommandBuffer",
            device.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default()),
        )?;
        o.texture
            .as_ref()
            .expect("created above")
            .record_upload(device, cmd);
        let clears = [
            vk::ClearValue {
                color: vk::ClearColorValue {
                    float32: BACKGROUND,
                },
            },
            vk::ClearValue {
                depth_stencil: vk::ClearDepthStencilValue {
                    depth: 1.0,
                    stencil: 0,
                },
            },
        ];
        let area = vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: WIDTH,
                height: HEIGHT,
            },
        };
        device.cmd_begin_render_pass(
            cmd,
            &vk::RenderPassBeginInfo::default()
                .render_pass(o.render_pass)
                .framebuffer(o.framebuffer)
                .render_area(area)
                .clear_values(&clears),
            vk::SubpassContents::INLINE,
        );
        device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, o.pipeline);
        device.cmd_bind_descriptor_sets(
            cmd,
            vk::PipelineBindPoint::GRAPHICS,
            o.layout,
            0,
            &[set],
            &[],
        );
        device.cmd_bind_vertex_buffers(cmd, 0, &[vb.buffer, offsets.buffer], &[0, 0]);
        device.cmd_draw(cmd, 3 * TRIANGLES.len() as u32, 1, 0, 0);
        device.cmd_end_render_pass(cmd);
        let region = vk::BufferImageCopy {
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            },
            image_extent: vk::Extent3D {
                width: WIDTH,
                height: HEIGHT,
                depth: 1,
            },
            ..Default::default()
        };
        device.cmd_copy_image_to_buffer(
            cmd,
            color,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            out.buffer,
            &[region],
        );
        barrier_to_host(
            device,
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_WRITE,
        );
        check("vkEndCommandBuffer", device.end_command_buffer(cmd))?;
        o.fence = device
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .map_err(|e| format!("vkCreateFence failed: {e:?}"))?;
        let cmds = [cmd];
        device
            .queue_submit(
                device.get_device_queue(family, 0),
                &[vk::SubmitInfo::default().command_buffers(&cmds)],
                o.fence,
            )
            .and_then(|()| device.wait_for_fences(&[o.fence], true, 60_000_000_000))
            .map_err(|e| format!("the draw failed: {e:?}"))?;
    }
    out.read(device, out_bytes as usize)
}

/// The depth-tested pipeline of textured.vert and textured.frag.
///
/// # Safety
/// `o` holds the live render pass, modules and layout.
unsafe fn pipeline(device: &ash::Device, o: &Objects) -> Result<vk::Pipeline, String> {
    let stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(o.modules[0])
            .name(c"main"),
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::FRAGMENT)
            .module(o.modules[1])
            .name(c"main"),
    ];
    let bindings = [
        vk::VertexInputBindingDescription {
            binding: 0,
            stride: 28,
            input_rate: vk::VertexInputRate::VERTEX,
        },
        vk::VertexInputBindingDescription {
            binding: 1,
            stride: 8,
            input_rate: vk::VertexInputRate::INSTANCE,
        },
    ];
    let attributes = [
        vk::VertexInputAttributeDescription {
            location: 0,
            binding: 0,
            format: vk::Format::R32G32B32_SFLOAT,
            offset: 0,
        },
        vk::VertexInputAttributeDescription {
            location: 1,
            binding: 0,
            format: vk::Format::R32G32B32A32_SFLOAT,
            offset: 12,
        },
        vk::VertexInputAttributeDescription {
            location: 2,
            binding: 1,
            format: vk::Format::R32G32_SFLOAT,
            offset: 0,
        },
    ];
    let vertex = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&bindings)
        .vertex_attribute_descriptions(&attributes);
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewports = [vk::Viewport {
        x: 0.0,
        y: 0.0,
        width: WIDTH as f32,
        height: HEIGHT as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    }];
    let scissors = [vk::Rect2D {
        offset: vk::Offset2D { x: 0, y: 0 },
        extent: vk::Extent2D {
            width: WIDTH,
            height: HEIGHT,
        },
    }];
    let viewport = vk::PipelineViewportStateCreateInfo::default()
        .viewports(&viewports)
        .scissors(&scissors);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .line_width(1.0);
    let multisample = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let depth = vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(true)
        .depth_write_enable(true)
        .depth_compare_op(vk::CompareOp::LESS);
    let blend_attachment = [vk::PipelineColorBlendAttachmentState::default()
        .color_write_mask(vk::ColorComponentFlags::RGBA)];
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachment);
    let info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .depth_stencil_state(&depth)
        .color_blend_state(&blend)
        .layout(o.layout)
        .render_pass(o.render_pass)
        .subpass(0);
    // SAFETY: the caller's promise; `info` refers to locals alive for the call.
    unsafe { device.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) }
        .map(|p| p[0])
        .map_err(|(_, e)| format!("vkCreateGraphicsPipelines failed: {e:?}"))
}
