//! `VkPipeline` for graphics: the vertex and fragment shaders compiled,
//! their link, the fixed-function state in the hardware's terms, and all of
//! it programmed once, at creation, into an IB in the pipeline's BO that
//! draws point a draw-state group at (as Turnip's pipelines build their
//! `tu_draw_state`s once). What the draws add is the render pass's
//! framebuffer, the command buffer's viewport and scissor and its vertex
//! buffers: [`GraphicsPipeline`] keeps what they need of it (the vertex
//! bindings' strides, the static viewport and scissor).
//!
//! Both stages read their descriptor sets through the graphics bind
//! point's bindless bases (SP_BINDLESS_BASE, which draws program from the
//! sets bound), so the pipeline has only to say which descriptor kinds
//! each stage reads bindless (SP_VS_CONFIG, SP_FS_CONFIG).
//!
//! The state Vulkan lets a command buffer set (`dynamic_state`) is left
//! out of that IB: the pipeline keeps its values, and the draws emit
//! them as groups of their own.
//!
//! What is not built yet is refused with a message naming it
//! (`VK_ERROR_UNKNOWN`, which creation may return), never drawn wrong:
//! sample shading, several viewports, the dynamic states of
//! `VK_EXT_extended_dynamic_state3` and others not listed in
//! `dynamic_state`, unused colour attachments.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ash::vk;
use parsnip_compiler::backend::CompiledShader;
use parsnip_compiler::varying_linkage::link;
use parsnip_hw_state::graphics::{
    fetch_count, program_pipeline_static, Depth, Pipeline, PrivateMemory as HwPrivate, Target,
};
use parsnip_hw_state::{StateWriter, NONE};
use parsnip_registers::enums::{A6xxDepthFormat, AdrenoCompareFunc};

use super::binary::ConstLayout;
use super::compile::{binary_from_compiled, compile_stage, CompileRequest, SpecConstant};
use super::dynamic_state::{pipeline_values, DynamicMask, DynamicValues, FixedParts};
use super::fixed_function;
use super::multisample::{multisample, Multisample};
use super::program::PrivateMemory;
use super::shader_stages::{program_shaders, StageCode, VertexAttribute};
use crate::attachment_formats::AttachmentFormats;
use crate::cmd::draw_state::StateIb;
use crate::cmd::packets::register_error;
use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::VkResult;
use crate::formats::{self, Class};
use crate::pipeline_layout::PipelineLayout;
use crate::shader_module::ShaderModule;

/// Code alignment in the pipeline BO: SP_xS_OBJ_START's, and the
/// instruction cache line Turnip pads shaders to.
const CODE_ALIGN: u64 = 128;

/// One shader stage of the create info.
pub struct StageDesc<'a> {
    pub module: &'a ShaderModule,
    pub entry_point: &'a str,
    pub specialization: Vec<SpecConstant>,
}

/// What `vkCreateGraphicsPipelines` gives, read out of its structures.
pub struct GraphicsPipelineDesc<'a> {
    pub vs: StageDesc<'a>,
    pub fs: StageDesc<'a>,
    pub bindings: Vec<vk::VertexInputBindingDescription>,
    pub attributes: Vec<vk::VertexInputAttributeDescription>,
    pub input_assembly: vk::PipelineInputAssemblyStateCreateInfo<'a>,
    pub rasterization: vk::PipelineRasterizationStateCreateInfo<'a>,
    pub multisample: Multisample,
    pub depth_stencil: Option<vk::PipelineDepthStencilStateCreateInfo<'a>>,
    /// Logic op enable, logic op, one state per colour attachment, the
    /// blend constants.
    pub blend: Option<(
        bool,
        vk::LogicOp,
        Vec<vk::PipelineColorBlendAttachmentState>,
        [f32; 4],
    )>,
    pub viewports: Vec<vk::Viewport>,
    pub scissors: Vec<vk::Rect2D>,
    pub dynamic: Vec<vk::DynamicState>,
    /// What the pipeline renders to: its subpass's attachments' formats,
    /// or those `VkPipelineRenderingCreateInfo` names.
    pub formats: AttachmentFormats,
    pub layout: Arc<PipelineLayout>,
}

/// A pipeline holds no reference to its device (the device would keep it
/// alive through its own objects otherwise).
pub struct GraphicsPipeline {
    pub layout: Arc<PipelineLayout>,
    /// The pipeline's state, programmed once.
    pub state: StateIb,
    /// The vertex buffers' fetch slots (one past the highest binding
    /// read).
    pub fetch_slots: u32,
    /// Which states the command buffer sets, the pipeline's values of
    /// the others, and what lowering them needs of the pipeline.
    pub dynamic: DynamicMask,
    pub values: DynamicValues,
    pub fixed: FixedParts,
    /// The viewport and scissor when they are not dynamic.
    pub viewport: Option<[f32; 6]>,
    pub scissor: Option<[u32; 4]>,
    /// Colour attachments the subpass writes, and whether it has a depth
    /// attachment.
    pub color_count: u32,
    pub has_depth: bool,
    /// The depth attachment's format, if the subpass has one.
    pub depth_format: Option<A6xxDepthFormat>,
    /// Where each stage reads its push constants and draw parameters
    /// (gl_BaseVertex, gl_BaseInstance and what gl_InstanceIndex adds),
    /// loaded at each draw.
    pub vs_consts: ConstLayout,
    pub fs_consts: ConstLayout,
    /// Whether either stage reads the draw's bases: its const files are
    /// then loaded again whenever the bases change.
    pub reads_draw_bases: bool,
    pub bo: Arc<DeviceBo>,
    pub private_bos: Vec<Arc<DeviceBo>>,
    /// How long each stage took to compile (VK_EXT_pipeline_creation_feedback).
    pub compile_times: CompileTimes,
}

/// The time spent compiling each stage of a graphics pipeline: every
/// stage is compiled, graphics shaders are not kept in pipeline caches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompileTimes {
    pub vertex: Duration,
    pub fragment: Duration,
}

fn refuse<T>(what: impl std::fmt::Display) -> VkResult<T> {
    eprintln!("parsnip: vkCreateGraphicsPipelines: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

/// The depth buffer format of a Vulkan depth format (a6xx.xml's
/// a6xx_depth_format).
pub(crate) fn depth_format(format: vk::Format) -> VkResult<A6xxDepthFormat> {
    Ok(match format {
        vk::Format::D16_UNORM => A6xxDepthFormat::DEPTH6_16,
        vk::Format::D32_SFLOAT => A6xxDepthFormat::DEPTH6_32,
        vk::Format::X8_D24_UNORM_PACK32 | vk::Format::D24_UNORM_S8_UINT => {
            A6xxDepthFormat::DEPTH6_24_8
        }
        f => return refuse(format!("depth attachments of {f:?} are not supported yet")),
    })
}

fn compile(
    device: &Device,
    stage: &StageDesc<'_>,
    layout: &PipelineLayout,
    what: &str,
) -> VkResult<CompiledShader> {
    let compiler_layout = layout.compiler_layout();
    let request = CompileRequest {
        spirv: &stage.module.words,
        entry_point: stage.entry_point,
        specialization: &stage.specialization,
        layout: &compiler_layout,
        gpu: &device.gpu,
        required_subgroup_size: None,
    };
    let shader = compile_stage(&request).or_else(|why| {
        refuse(format!(
            "cannot compile the {what} shader `{}`: {why}",
            stage.entry_point
        ))
    })?;
    if device.debug.shaders {
        eprintln!(
            "parsnip: {what} shader `{}`:\n{}",
            stage.entry_point, shader.disassembly
        );
    }
    Ok(shader)
}

/// The private memory of `shader`, allocated.
fn private_memory(
    device: &Device,
    shader: &CompiledShader,
    bos: &mut Vec<Arc<DeviceBo>>,
) -> VkResult<HwPrivate> {
    let Some(layout) = PrivateMemory::layout(&device.gpu, shader.private_bytes)? else {
        return Ok(HwPrivate::default());
    };
    let bo = device.allocate_bo(layout.total(&device.gpu), BoKind::DriverData)?;
    let private = HwPrivate {
        iova: bo.iova(),
        per_fiber: layout.per_fiber,
        per_sp: layout.per_sp,
    };
    bos.push(bo);
    Ok(private)
}

fn check_unsupported(desc: &GraphicsPipelineDesc<'_>) -> VkResult<()> {
    if desc.viewports.len() > 1 || desc.scissors.len() > 1 {
        return refuse("more than one viewport or scissor is not supported yet");
    }
    if let Err(d) = DynamicMask::from_states(&desc.dynamic) {
        return refuse(format!("dynamic state {d:?} is not supported yet"));
    }
    Ok(())
}

/// The colour targets and depth of what the pipeline renders to;
/// whether it has a depth attachment, and whether that has stencil.
fn targets(p: &mut Pipeline, formats: &AttachmentFormats) -> VkResult<(bool, bool)> {
    for &vk_format in &formats.colors {
        if vk_format == vk::Format::UNDEFINED {
            return refuse("unused colour attachments are not supported yet");
        }
        let Some(f) = formats::format(vk_format).filter(|f| f.color.is_some()) else {
            return refuse(format!("colour attachments of {vk_format:?}"));
        };
        let mut t = Target::new(f.hw, NONE);
        t.srgb = f.class == Class::Srgb;
        t.integer = match f.class {
            Class::Sint => Some(true),
            Class::Uint => Some(false),
            _ => None,
        };
        p.targets.push(t);
    }
    let depth = formats.depth_stencil;
    let mut stencil = false;
    if let Some(vk_format) = depth {
        stencil = vk_format == vk::Format::D24_UNORM_S8_UINT;
        let format = depth_format(vk_format)?;
        p.depth = Some(Depth {
            format,
            test: false,
            write: false,
            func: AdrenoCompareFunc::FUNC_ALWAYS,
            bounds: None,
            clamp: None,
        });
    }
    Ok((depth.is_some(), stencil))
}

impl GraphicsPipeline {
    pub fn new(
        device: &Arc<Device>,
        desc: &GraphicsPipelineDesc<'_>,
    ) -> VkResult<Arc<GraphicsPipeline>> {
        check_unsupported(desc)?;
        let started = Instant::now();
        let vs = compile(device, &desc.vs, &desc.layout, "vertex")?;
        let vs_compiled = Instant::now();
        let fs = compile(device, &desc.fs, &desc.layout, "fragment")?;
        let compile_times = CompileTimes {
            vertex: vs_compiled - started,
            fragment: vs_compiled.elapsed(),
        };
        let (Some(vs_info), Some(fs_info)) = (vs.stage.vertex(), fs.stage.fragment()) else {
            return refuse("the stages are not a vertex and a fragment shader");
        };
        let linkage = match link(vs_info, fs_info) {
            Ok(l) => l,
            Err(e) => return refuse(format!("the stages do not link: {e}")),
        };
        let attributes: Vec<VertexAttribute> = desc
            .attributes
            .iter()
            .map(|a| {
                let b = desc.bindings.iter().find(|b| b.binding == a.binding);
                VertexAttribute {
                    location: a.location,
                    binding: a.binding,
                    format: a.format,
                    offset: a.offset,
                    stride: b.map_or(0, |b| b.stride),
                    per_instance: b.is_some_and(|b| b.input_rate == vk::VertexInputRate::INSTANCE),
                    divisor: 1,
                }
            })
            .collect();

        // The code first, each stage at an aligned offset, then the state.
        let vs_bytes = (vs.code.len() as u64 * 4).next_multiple_of(CODE_ALIGN);
        let fs_bytes = (fs.code.len() as u64 * 4).next_multiple_of(CODE_ALIGN);
        let mut private_bos = Vec::new();
        let vs_private = private_memory(device, &vs, &mut private_bos)?;
        let fs_private = private_memory(device, &fs, &mut private_bos)?;

        let mut p = Pipeline::new(0, None, None);
        let (has_depth, has_stencil) = targets(&mut p, &desc.formats)?;
        fixed_function::input_assembly(&mut p, &desc.input_assembly)?;
        fixed_function::rasterization(&mut p, &desc.rasterization)?;
        multisample(&mut p, &desc.multisample)?;
        if let Some(ds) = &desc.depth_stencil {
            fixed_function::depth_stencil(&mut p, ds)?;
        }
        match &desc.blend {
            Some((logic, op, attachments, constants)) => {
                fixed_function::color_blend(&mut p, *logic, *op, attachments, *constants)?
            }
            None if !p.targets.is_empty() => {
                return refuse("colour attachments without a colour blend state")
            }
            None => {}
        }
        let state = |code_iova: u64, p: &mut Pipeline| -> VkResult<StateWriter> {
            let vs_code = StageCode {
                shader: &vs,
                iova: code_iova,
            };
            let fs_code = StageCode {
                shader: &fs,
                iova: code_iova + vs_bytes,
            };
            program_shaders(p, &device.gpu, vs_code, fs_code, &linkage, &attributes)?;
            p.vs_private = vs_private;
            p.fs_private = fs_private;
            let mut w = StateWriter::new(device.gpu.chip());
            program_pipeline_static(&mut w, p).map_err(register_error)?;
            Ok(w)
        };
        // The state depends on where the code is: sized first, then built
        // for real.
        let sizing = state(0, &mut p)?;
        let total = vs_bytes + fs_bytes + sizing.dwords.len() as u64 * 4;
        let bo = device.allocate_bo(total, BoKind::Pipeline)?;
        bo.write_dwords(0, &vs.code)?;
        bo.write_dwords(vs_bytes, &fs.code)?;
        let built = state(bo.iova(), &mut p)?;
        bo.write_dwords(vs_bytes + fs_bytes, &built.dwords)?;

        let strides: Vec<(u32, u32)> = desc
            .bindings
            .iter()
            .map(|b| (b.binding, b.stride))
            .collect();
        let values = pipeline_values(
            &desc.input_assembly,
            &desc.rasterization,
            desc.depth_stencil.as_ref(),
            p.blend_constant,
            &strides,
        )?;
        let fixed = FixedParts {
            depth_format: p.depth.map(|d| d.format),
            has_stencil,
            provoking_last: p.provoking_last,
            depth_clamp: p.depth.and_then(|d| d.clamp),
        };
        let dynamic = |d| desc.dynamic.contains(&d);
        let viewport_dynamic =
            dynamic(vk::DynamicState::VIEWPORT) || dynamic(vk::DynamicState::VIEWPORT_WITH_COUNT);
        let scissor_dynamic =
            dynamic(vk::DynamicState::SCISSOR) || dynamic(vk::DynamicState::SCISSOR_WITH_COUNT);
        let vs_consts = binary_from_compiled(&vs).consts;
        let fs_consts = binary_from_compiled(&fs).consts;
        Ok(Arc::new(GraphicsPipeline {
            layout: desc.layout.clone(),
            state: StateIb {
                iova: bo.iova() + vs_bytes + fs_bytes,
                dwords: built.dwords.len() as u32,
            },
            fetch_slots: fetch_count(&p),
            dynamic: DynamicMask::from_states(&desc.dynamic).unwrap_or_default(),
            values,
            fixed,
            viewport: (!viewport_dynamic)
                .then(|| desc.viewports.first().map(fixed_function::viewport))
                .flatten(),
            scissor: (!scissor_dynamic)
                .then(|| desc.scissors.first().map(fixed_function::scissor))
                .flatten(),
            color_count: p.targets.len() as u32,
            has_depth,
            depth_format: p.depth.map(|d| d.format),
            reads_draw_bases: vs_consts.reads_draw_bases() || fs_consts.reads_draw_bases(),
            vs_consts,
            fs_consts,
            bo,
            private_bos,
            compile_times,
        }))
    }
}
