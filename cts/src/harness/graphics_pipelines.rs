//! Graphics pipelines for a render pass's subpass, and the draw commands.

use super::commands::Recorder;
use super::memory::Buffer;
use super::Harness;
use crate::case::{OrStop, Stop};
use crate::shaders::Shader;
use ash::vk;

/// One vertex buffer binding: its stride and whether it steps per
/// instance; and the attributes reading it: (location, format, offset).
#[derive(Clone, Copy)]
pub struct VertexBinding<'a> {
    pub stride: u32,
    pub per_instance: bool,
    pub attributes: &'a [(u32, vk::Format, u32)],
}

/// What a graphics pipeline is made of; the viewport and scissor are the
/// whole `size` unless dynamic.
#[derive(Clone, Copy)]
pub struct GraphicsDesc<'a> {
    pub vs: &'a Shader,
    pub fs: &'a Shader,
    pub pass: vk::RenderPass,
    pub subpass: u32,
    pub size: (u32, u32),
    pub topology: vk::PrimitiveTopology,
    pub bindings: &'a [VertexBinding<'a>],
    pub cull: vk::CullModeFlags,
    pub front_face: vk::FrontFace,
    /// Depth test with this compare op (and writes), if any.
    pub depth: Option<vk::CompareOp>,
    /// Blending of every colour attachment, if any.
    pub blend: Option<vk::PipelineColorBlendAttachmentState>,
    pub color_attachments: u32,
    pub dynamic_viewport: bool,
    /// The size of one push constant range from offset 0, for the vertex
    /// and fragment stages.
    pub push_constant_bytes: u32,
    /// Rasterization samples, the sample mask (all ones if none), alpha
    /// to coverage and alpha to one.
    pub samples: vk::SampleCountFlags,
    pub sample_mask: Option<u32>,
    pub alpha_to_coverage: bool,
    pub alpha_to_one: bool,
    /// The whole depth/stencil state (stencil tests, depth bounds), in
    /// place of `depth`'s.
    pub depth_stencil: Option<vk::PipelineDepthStencilStateCreateInfo<'static>>,
    /// Depth bias: constant factor, clamp, slope factor.
    pub depth_bias: Option<[f32; 3]>,
    pub blend_constants: [f32; 4],
    /// Dynamic states besides `dynamic_viewport`'s.
    pub dynamic_states: &'a [vk::DynamicState],
    /// For dynamic rendering (`pass` null): the colour attachments'
    /// formats and the depth/stencil attachment's (`UNDEFINED` for none),
    /// given in a `VkPipelineRenderingCreateInfo`.
    pub rendering: Option<(&'a [vk::Format], vk::Format)>,
    /// The views the pipeline renders with dynamic rendering (its
    /// `VkPipelineRenderingCreateInfo::viewMask`); 0 without multiview.
    pub view_mask: u32,
}

impl<'a> GraphicsDesc<'a> {
    /// A triangle list of `vs` and `fs` into one colour attachment.
    pub fn new(vs: &'a Shader, fs: &'a Shader, pass: vk::RenderPass, size: (u32, u32)) -> Self {
        GraphicsDesc {
            vs,
            fs,
            pass,
            subpass: 0,
            size,
            topology: vk::PrimitiveTopology::TRIANGLE_LIST,
            bindings: &[],
            cull: vk::CullModeFlags::NONE,
            front_face: vk::FrontFace::COUNTER_CLOCKWISE,
            depth: None,
            blend: None,
            color_attachments: 1,
            dynamic_viewport: false,
            push_constant_bytes: 0,
            samples: vk::SampleCountFlags::TYPE_1,
            sample_mask: None,
            alpha_to_coverage: false,
            alpha_to_one: false,
            depth_stencil: None,
            depth_bias: None,
            blend_constants: [0.0; 4],
            dynamic_states: &[],
            rendering: None,
            view_mask: 0,
        }
    }
}

impl Harness {
    /// A graphics pipeline of `desc`, its layout of no sets and the push
    /// constants asked for.
    pub fn graphics_pipeline(&mut self, desc: &GraphicsDesc<'_>) -> Result<vk::Pipeline, Stop> {
        Ok(self.graphics_pipeline_and_layout(desc)?.0)
    }

    /// The same, and its layout.
    pub fn graphics_pipeline_and_layout(
        &mut self,
        desc: &GraphicsDesc<'_>,
    ) -> Result<(vk::Pipeline, vk::PipelineLayout), Stop> {
        let ranges = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
            offset: 0,
            size: desc.push_constant_bytes,
        }];
        let n = usize::from(desc.push_constant_bytes > 0);
        let layout_info =
            vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges[..n]);
        // SAFETY: the device is alive; `layout_info` outlives the call.
        let layout = unsafe { self.device().create_pipeline_layout(&layout_info, None) }
            .or_stop("vkCreatePipelineLayout")?;
        let layout = self.own(layout);
        Ok((self.graphics_pipeline_in(desc, layout)?, layout))
    }

    /// A graphics pipeline of `desc` with the pipeline layout `layout`.
    pub fn graphics_pipeline_in(
        &mut self,
        desc: &GraphicsDesc<'_>,
        layout: vk::PipelineLayout,
    ) -> Result<vk::Pipeline, Stop> {
        match self.try_graphics_pipeline(desc, layout, vk::PipelineCreateFlags::empty(), None)? {
            (vk::Result::SUCCESS, p) => Ok(p),
            (e, _) => Err(Stop::Error(format!(
                "vkCreateGraphicsPipelines ({}, {}) returned {e:?}",
                desc.vs.name, desc.fs.name
            ))),
        }
    }

    /// What `vkCreateGraphicsPipelines` returns for `desc` in `layout`
    /// created with `flags`, `feedback` chained: its code and the handle
    /// (owned by the harness when one is made).
    pub fn try_graphics_pipeline(
        &mut self,
        desc: &GraphicsDesc<'_>,
        layout: vk::PipelineLayout,
        flags: vk::PipelineCreateFlags,
        feedback: Option<&mut vk::PipelineCreationFeedbackCreateInfo<'_>>,
    ) -> Result<(vk::Result, vk::Pipeline), Stop> {
        let vs = self.shader_module(desc.vs)?;
        let fs = self.shader_module(desc.fs)?;
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(vs)
                .name(c"main"),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(fs)
                .name(c"main"),
        ];
        let mut bindings = Vec::new();
        let mut attributes = Vec::new();
        for (i, b) in desc.bindings.iter().enumerate() {
            bindings.push(vk::VertexInputBindingDescription {
                binding: i as u32,
                stride: b.stride,
                input_rate: if b.per_instance {
                    vk::VertexInputRate::INSTANCE
                } else {
                    vk::VertexInputRate::VERTEX
                },
            });
            for &(location, format, offset) in b.attributes {
                attributes.push(vk::VertexInputAttributeDescription {
                    location,
                    binding: i as u32,
                    format,
                    offset,
                });
            }
        }
        let vertex = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&bindings)
            .vertex_attribute_descriptions(&attributes);
        let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(desc.topology);
        let (w, h) = desc.size;
        let viewports = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: w as f32,
            height: h as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissors = [vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: w,
                height: h,
            },
        }];
        // With a count, the command buffer gives the viewports and
        // scissors and their count.
        let with_count = |d| desc.dynamic_states.contains(&d);
        let viewport = vk::PipelineViewportStateCreateInfo::default()
            .viewports(if with_count(vk::DynamicState::VIEWPORT_WITH_COUNT) {
                &[]
            } else {
                &viewports
            })
            .scissors(if with_count(vk::DynamicState::SCISSOR_WITH_COUNT) {
                &[]
            } else {
                &scissors
            });
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(desc.cull)
            .front_face(desc.front_face)
            .line_width(1.0)
            .depth_bias_enable(desc.depth_bias.is_some())
            .depth_bias_constant_factor(desc.depth_bias.map_or(0.0, |b| b[0]))
            .depth_bias_clamp(desc.depth_bias.map_or(0.0, |b| b[1]))
            .depth_bias_slope_factor(desc.depth_bias.map_or(0.0, |b| b[2]));
        let sample_mask = [desc.sample_mask.unwrap_or(u32::MAX)];
        let mut multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(desc.samples)
            .alpha_to_coverage_enable(desc.alpha_to_coverage)
            .alpha_to_one_enable(desc.alpha_to_one);
        if desc.sample_mask.is_some() {
            multisample = multisample.sample_mask(&sample_mask);
        }
        let depth = desc.depth_stencil.unwrap_or(
            vk::PipelineDepthStencilStateCreateInfo::default()
                .depth_test_enable(desc.depth.is_some())
                .depth_write_enable(desc.depth.is_some())
                .depth_compare_op(desc.depth.unwrap_or(vk::CompareOp::ALWAYS)),
        );
        let opaque = vk::PipelineColorBlendAttachmentState::default()
            .color_write_mask(vk::ColorComponentFlags::RGBA);
        let blends = vec![desc.blend.unwrap_or(opaque); desc.color_attachments as usize];
        let blend = vk::PipelineColorBlendStateCreateInfo::default()
            .attachments(&blends)
            .blend_constants(desc.blend_constants);
        let mut dynamic_states = desc.dynamic_states.to_vec();
        if desc.dynamic_viewport {
            dynamic_states.extend([vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR]);
        }
        let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
        let mut info = vk::GraphicsPipelineCreateInfo::default()
            .flags(flags)
            .stages(&stages)
            .vertex_input_state(&vertex)
            .input_assembly_state(&assembly)
            .viewport_state(&viewport)
            .rasterization_state(&raster)
            .multisample_state(&multisample)
            .color_blend_state(&blend)
            .dynamic_state(&dynamic)
            .layout(layout)
            .render_pass(desc.pass)
            .subpass(desc.subpass);
        if desc.depth.is_some() || desc.depth_stencil.is_some() {
            info = info.depth_stencil_state(&depth);
        }
        if let Some(chain) = feedback {
            info = info.push_next(chain);
        }
        let (colors, depth_format) = desc.rendering.unwrap_or((&[], vk::Format::UNDEFINED));
        let stencil_format = if depth_format == vk::Format::D24_UNORM_S8_UINT {
            depth_format
        } else {
            vk::Format::UNDEFINED
        };
        let mut rendering = vk::PipelineRenderingCreateInfo::default()
            .view_mask(desc.view_mask)
            .color_attachment_formats(colors)
            .depth_attachment_format(depth_format)
            .stencil_attachment_format(stencil_format);
        if desc.rendering.is_some() {
            info = info.push_next(&mut rendering);
        }
        // SAFETY: the modules, layout and pass are alive; every pointer in
        // `info` refers to locals alive for the call.
        let created = unsafe {
            self.device()
                .create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
        };
        Ok(match created {
            Ok(p) => (vk::Result::SUCCESS, self.own(p[0])),
            Err((p, e)) => (e, p.first().copied().unwrap_or_default()),
        })
    }
}

impl Recorder<'_> {
    pub fn bind_graphics(&self, pipeline: vk::Pipeline) {
        // SAFETY: the command buffer is recording; the pipeline is alive.
        unsafe {
            self.device().cmd_bind_pipeline(
                self.command_buffer(),
                vk::PipelineBindPoint::GRAPHICS,
                pipeline,
            )
        };
    }

    /// Binds `buffers` (each at offset 0) from binding 0.
    pub fn bind_vertex_buffers(&self, buffers: &[&Buffer]) {
        let handles: Vec<vk::Buffer> = buffers.iter().map(|b| b.handle).collect();
        let offsets = vec![0; handles.len()];
        // SAFETY: the command buffer is recording; the buffers are alive.
        unsafe {
            self.device()
                .cmd_bind_vertex_buffers(self.command_buffer(), 0, &handles, &offsets)
        };
    }

    pub fn bind_index_buffer(&self, buffer: &Buffer, offset: u64, ty: vk::IndexType) {
        // SAFETY: the command buffer is recording; the buffer is alive.
        unsafe {
            self.device()
                .cmd_bind_index_buffer(self.command_buffer(), buffer.handle, offset, ty)
        };
    }

    pub fn set_viewport(&self, viewport: vk::Viewport) {
        // SAFETY: the command buffer is recording.
        unsafe {
            self.device()
                .cmd_set_viewport(self.command_buffer(), 0, &[viewport])
        };
    }

    pub fn set_scissor(&self, scissor: vk::Rect2D) {
        // SAFETY: the command buffer is recording.
        unsafe {
            self.device()
                .cmd_set_scissor(self.command_buffer(), 0, &[scissor])
        };
    }

    /// Pushes `bytes` at `offset` for the vertex and fragment stages.
    pub fn push_graphics_constants(&self, layout: vk::PipelineLayout, offset: u32, bytes: &[u8]) {
        // SAFETY: the command buffer is recording; the range is the layout's.
        unsafe {
            self.device().cmd_push_constants(
                self.command_buffer(),
                layout,
                vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
                offset,
                bytes,
            )
        };
    }

    pub fn draw(&self, vertices: u32, instances: u32, first_vertex: u32, first_instance: u32) {
        // SAFETY: the command buffer is recording inside a pass.
        unsafe {
            self.device().cmd_draw(
                self.command_buffer(),
                vertices,
                instances,
                first_vertex,
                first_instance,
            )
        };
    }

    pub fn draw_indexed(&self, indices: u32, instances: u32, first: u32, vertex_offset: i32) {
        // SAFETY: the command buffer is recording inside a pass.
        unsafe {
            self.device().cmd_draw_indexed(
                self.command_buffer(),
                indices,
                instances,
                first,
                vertex_offset,
                0,
            )
        };
    }
}
