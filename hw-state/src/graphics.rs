//! A graphics draw's hardware state, from its three sources, and the
//! register writes that program each (a6xx.xml names every register):
//!
//! - [`Pipeline`]: what a graphics pipeline fixes, programmed once when it
//!   is created ([`program_pipeline`], group by group: primitive assembly,
//!   vertex decode, each shader stage, varyings, rasteriser, output
//!   merger, depth/stencil);
//! - [`Framebuffer`]: the render pass's attachments in memory
//!   ([`program_framebuffer`]);
//! - [`Viewport`] and [`VertexBuffer`]: the command buffer's dynamic state
//!   and bindings ([`program_viewport`], [`program_vertex_buffers`]).
//!
//! [`program`] writes all of it in one go, for callers that draw once
//! (the model's and the compiler's tests).

use parsnip_registers::enums::{
    A3xxColorSwap, A3xxMsaaSamples, A3xxRbBlendOpcode, A3xxRopCode, A6xxDepthFormat, A6xxFormat,
    A6xxPolygonMode, A6xxRenderMode, A6xxTexPrefetchCmd, A6xxThreadsize, A6xxTileMode,
    A6xxZtestMode, AdrenoCompareFunc, AdrenoRbBlendFactor, AdrenoStencilOp,
};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

use crate::draw::{draw_offsets, sysmem_marker};
use crate::dynamic;
use crate::sink::PacketSink;
use crate::NONE;

/// One vertex attribute: which fetch slot (vertex buffer binding) it
/// reads, how, and which registers it lands in.
#[derive(Clone, Copy, Debug)]
pub struct Attribute {
    pub binding: u32,
    pub offset: u32,
    pub format: A6xxFormat,
    pub float: bool,
    pub instanced: bool,
    pub step_rate: u32,
    pub regid: u32,
    pub mask: u32,
}

/// One vertex shader output: first register, components, VPC location.
#[derive(Clone, Copy, Debug)]
pub struct Output {
    pub regid: u32,
    pub mask: u32,
    pub location: u32,
}

/// A vertex buffer as fetch slot `i` reads it: VFD_FETCH[i].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VertexBuffer {
    pub base: u64,
    /// Bytes from `base` the fetch may read.
    pub size: u32,
    pub stride: u32,
}

/// One colour target as the pipeline writes it (its memory is the
/// framebuffer's).
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub format: A6xxFormat,
    pub write_mask: u32,
    /// (rgb op, src, dst), (alpha op, src, dst).
    pub blend: Option<[(A3xxRbBlendOpcode, AdrenoRbBlendFactor, AdrenoRbBlendFactor); 2]>,
    pub rop: Option<A3xxRopCode>,
    pub srgb: bool,
    /// The fragment shader register of its output.
    pub output: u32,
    pub half: bool,
    pub integer: Option<bool>,
}

/// Depth testing of the pipeline (the buffer is the framebuffer's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Depth {
    pub format: A6xxDepthFormat,
    pub test: bool,
    pub write: bool,
    pub func: AdrenoCompareFunc,
    pub bounds: Option<(f32, f32)>,
    pub clamp: Option<(f32, f32)>,
}

/// One face's stencil state: func, fail, depth-pass, depth-fail, ref,
/// mask, write mask.
pub type StencilFace = (
    AdrenoCompareFunc,
    AdrenoStencilOp,
    AdrenoStencilOp,
    AdrenoStencilOp,
    u32,
    u32,
    u32,
);

/// The fragment shader's textures and samplers: arrays of descriptors in
/// memory (SP_FS_TEX_CONST, SP_FS_TEX_SAMP).
#[derive(Clone, Copy, Debug)]
pub struct Textures {
    pub descriptors: u64,
    pub count: u32,
    pub samplers: u64,
    pub sampler_count: u32,
}

/// The descriptor kinds a stage reads through bindless bases
/// (SP_xS_CONFIG's BINDLESS_TEX, _SAMP, _IBO and _UBO, a6xx.xml: "set if
/// the given resource type is used with the Vulkan/bindless binding
/// model"; Turnip's a660 `mip_lod` fragment shader has TEX and SAMP).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bindless {
    pub tex: bool,
    pub samp: bool,
    pub ibo: bool,
    pub ubo: bool,
}

/// One SP_FS_PREFETCH command (non-bindless).
#[derive(Clone, Copy, Debug)]
pub struct PrefetchCmd {
    pub src: u32,
    pub samp: u32,
    pub tex: u32,
    pub dst: u32,
    pub wrmask: u32,
    pub half: bool,
}

/// A shader's private memory (SP_xS_PVT_MEM_*): where, and how much for
/// each fiber and each SP.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrivateMemory {
    pub iova: u64,
    pub per_fiber: u32,
    pub per_sp: u32,
}

#[derive(Clone, Debug)]
pub struct Pipeline {
    pub vs: u64,
    /// SP_VS_INSTRLEN and HLSQ_VS_CNTL.CONSTLEN, in the registers' units.
    pub vs_instrlen: u32,
    pub vs_constlen: u32,
    pub vs_full_regs: u32,
    pub vs_private: PrivateMemory,
    pub vs_bindless: Bindless,
    pub fs: Option<u64>,
    pub fs_instrlen: u32,
    pub fs_constlen: u32,
    pub fs_full_regs: u32,
    pub fs_half_regs: u32,
    pub fs_private: PrivateMemory,
    pub fs_bindless: Bindless,
    pub fs_threadsize: A6xxThreadsize,
    pub attributes: Vec<Attribute>,
    pub vertex_id: u32,
    pub instance_id: u32,
    pub add_vertex_offset: bool,
    pub outputs: Vec<Output>,
    pub stride: u32,
    pub position: u32,
    pub point_size: Option<u32>,
    /// VPC locations the fragment shader reads, and their interpolation
    /// (2 bits per location, VPC_VARYING_INTERP's) and point replacement.
    pub enabled: [u32; 4],
    /// VPC_CNTL_0.NUMNONPOSVAR: the locations before the position.
    pub non_position_varyings: u32,
    pub interp: [u32; 8],
    pub repl: [u32; 8],
    pub ij_persp_pixel: u32,
    pub ij_linear_pixel: u32,
    pub ij_persp_centroid: u32,
    pub ij_persp_sample: u32,
    pub xy: u32,
    pub zw: u32,
    pub face: u32,
    pub sample_id: u32,
    pub sample_mask_in: u32,
    pub depth_out: u32,
    pub sample_mask_out: u32,
    pub stencil_ref_out: u32,
    pub targets: Vec<Target>,
    pub depth: Option<Depth>,
    pub stencil: Option<(StencilFace, StencilFace)>,
    pub early_z: bool,
    pub cull_front: bool,
    pub cull_back: bool,
    pub front_cw: bool,
    pub polygon_mode: A6xxPolygonMode,
    pub line_width: f32,
    pub point_size_register: f32,
    pub depth_bias: Option<(f32, f32, f32)>,
    pub samples: A3xxMsaaSamples,
    pub per_sample: bool,
    pub sample_mask: u32,
    pub alpha_to_coverage: bool,
    /// RB_BLEND_CNTL.ALPHA_TO_ONE: the fragment's alpha is 1 for blending
    /// and the targets.
    pub alpha_to_one: bool,
    pub blend_constant: [f32; 4],
    pub provoking_last: bool,
    pub restart: Option<u32>,
    /// Rasterizer discard: primitives stop after the vertex stage.
    pub discard: bool,
    pub clip_distances: u32,
    pub cull_distances: u32,
    pub clip_location: u32,
    pub primitive_id_location: Option<u32>,
    pub persp_division: bool,
    pub viewport_transform: bool,
    pub clip: bool,
    pub textures: Option<Textures>,
    pub prefetch: Vec<PrefetchCmd>,
}

/// The UBWC flag buffer of a compressed attachment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlagBuffer {
    pub base: u64,
    /// Bytes a row of flags, and between layers.
    pub pitch: u32,
    pub array_pitch: u32,
}

/// A colour buffer in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColorBuffer {
    pub base: u64,
    /// Bytes a row, and between layers.
    pub pitch: u32,
    pub array_pitch: u64,
    pub format: A6xxFormat,
    pub tile_mode: A6xxTileMode,
    pub swap: A3xxColorSwap,
    pub flags: Option<FlagBuffer>,
}

impl ColorBuffer {
    /// A linear, uncompressed buffer of `height` rows of `pitch` bytes.
    pub fn linear(base: u64, pitch: u32, height: u32, format: A6xxFormat) -> ColorBuffer {
        ColorBuffer {
            base,
            pitch,
            array_pitch: u64::from(pitch) * u64::from(height),
            format,
            tile_mode: A6xxTileMode::TILE6_LINEAR,
            swap: A3xxColorSwap::WZYX,
            flags: None,
        }
    }
}

/// A depth buffer in memory: a6xx's are always tiled (TILE6_3, its
/// RB_DEPTH_BUFFER_INFO has no tile mode); a7xx's tile mode is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthBuffer {
    pub base: u64,
    /// Bytes a row, and between layers.
    pub pitch: u32,
    pub array_pitch: u64,
    pub format: A6xxDepthFormat,
    pub tile_mode: A6xxTileMode,
    pub flags: Option<FlagBuffer>,
}

/// The attachments a render pass's draws write, `width` x `height`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Framebuffer {
    pub width: u32,
    pub height: u32,
    pub colors: Vec<ColorBuffer>,
    pub depth: Option<DepthBuffer>,
    /// Where the attachments are in GMEM when the pass runs in bins.
    pub gmem: GmemOffsets,
}

/// The GMEM offset of each colour buffer (in the order of
/// [`Framebuffer::colors`]) and of the depth buffer: RB_MRT[i].BASE_GMEM
/// and RB_DEPTH_BUFFER_BASE_GMEM, which the render backend uses in a bin
/// and ignores in sysmem. Turnip writes them in both modes, so one draw
/// stream serves either; so does Parsnip.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GmemOffsets {
    pub colors: Vec<u32>,
    pub depth: u32,
}

/// The viewport (x, y, width, height, min depth, max depth) and the
/// scissor (x, y, width, height): dynamic state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub viewport: [f32; 6],
    pub scissor: [u32; 4],
}

impl Viewport {
    /// The whole of a `width` x `height` framebuffer, depth 0 to 1.
    pub fn full(width: u32, height: u32) -> Viewport {
        Viewport {
            viewport: [0.0, 0.0, width as f32, height as f32, 0.0, 1.0],
            scissor: [0, 0, width, height],
        }
    }
}

impl Framebuffer {
    /// A `width` x `height` framebuffer of one colour buffer.
    pub fn color(width: u32, height: u32, color: ColorBuffer) -> Framebuffer {
        Framebuffer {
            width,
            height,
            colors: vec![color],
            depth: None,
            gmem: GmemOffsets::default(),
        }
    }
}

impl Target {
    /// A colour target in `format`, written whole (no blending, no logic
    /// op) from the full-precision float output at `output`.
    pub fn new(format: A6xxFormat, output: u32) -> Target {
        Target {
            format,
            write_mask: 0xf,
            blend: None,
            rop: None,
            srgb: false,
            output,
            half: false,
            integer: None,
        }
    }
}

impl Pipeline {
    /// A pipeline drawing into `target` with the vertex shader at `vs` and
    /// the fragment shader at `fs`.
    pub fn new(vs: u64, fs: Option<u64>, target: Option<Target>) -> Pipeline {
        Pipeline {
            vs,
            vs_instrlen: 1,
            vs_constlen: 8,
            vs_full_regs: 4,
            vs_private: PrivateMemory::default(),
            vs_bindless: Bindless::default(),
            fs,
            fs_instrlen: 1,
            fs_constlen: 8,
            fs_full_regs: 4,
            fs_half_regs: 0,
            fs_private: PrivateMemory::default(),
            fs_bindless: Bindless::default(),
            fs_threadsize: A6xxThreadsize::THREAD64,
            attributes: Vec::new(),
            vertex_id: NONE,
            instance_id: NONE,
            add_vertex_offset: true,
            outputs: Vec::new(),
            stride: 8,
            position: 4,
            point_size: None,
            enabled: [0; 4],
            non_position_varyings: 0,
            interp: [0; 8],
            repl: [0; 8],
            ij_persp_pixel: NONE,
            ij_linear_pixel: NONE,
            ij_persp_centroid: NONE,
            ij_persp_sample: NONE,
            xy: NONE,
            zw: NONE,
            face: NONE,
            sample_id: NONE,
            sample_mask_in: NONE,
            depth_out: NONE,
            sample_mask_out: NONE,
            stencil_ref_out: NONE,
            targets: target.into_iter().collect(),
            depth: None,
            stencil: None,
            early_z: false,
            cull_front: false,
            cull_back: false,
            front_cw: false,
            polygon_mode: A6xxPolygonMode::POLYMODE6_TRIANGLES,
            line_width: 1.0,
            point_size_register: 1.0,
            depth_bias: None,
            samples: A3xxMsaaSamples::MSAA_ONE,
            per_sample: false,
            sample_mask: 0xffff,
            alpha_to_coverage: false,
            alpha_to_one: false,
            blend_constant: [0.0; 4],
            provoking_last: false,
            restart: None,
            discard: false,
            clip_distances: 0,
            cull_distances: 0,
            clip_location: 0,
            primitive_id_location: None,
            persp_division: true,
            viewport_transform: true,
            clip: true,
            textures: None,
            prefetch: Vec::new(),
        }
    }
}

/// Writes every register a draw consumes, for a draw straight to memory
/// (sysmem): the pipeline's, the framebuffer's, the viewport and the
/// vertex buffers (one for each fetch slot the attributes read), for a
/// draw from vertex 0 and instance 0 (what [`draw_offsets`] changes).
pub fn program<S: PacketSink>(
    s: &mut S,
    p: &Pipeline,
    fb: &Framebuffer,
    viewport: &Viewport,
    vertex_buffers: &[VertexBuffer],
) -> Result<(), S::Error> {
    sysmem_marker(s)?;
    crate::bin::program_sysmem_window(s, fb.width, fb.height)?;
    program_pipeline(s, p)?;
    program_framebuffer(s, fb)?;
    program_viewport(s, viewport)?;
    program_vertex_buffers(s, vertex_buffers)?;
    draw_offsets(s, 0, 0)
}

/// Every register of the pipeline, its dynamic state's with the values
/// `p` gives it.
pub fn program_pipeline<S: PacketSink>(s: &mut S, p: &Pipeline) -> Result<(), S::Error> {
    program_pipeline_static(s, p)?;
    dynamic::program_dynamic(s, &p.dynamic_state())
}

/// Every register the pipeline fixes whatever the command buffer sets:
/// what a pipeline builds once (its dynamic state is the draws' groups,
/// [`dynamic`]).
pub fn program_pipeline_static<S: PacketSink>(s: &mut S, p: &Pipeline) -> Result<(), S::Error> {
    program_primitive(s, p)?;
    program_vertex_input(s, p)?;
    program_vs(s, p)?;
    program_varyings(s, p)?;
    program_fs(s, p)?;
    program_rasterizer(s, p)?;
    program_output(s, p)
}

/// Fetch slots the attributes read: one past the highest binding.
pub fn fetch_count(p: &Pipeline) -> u32 {
    p.attributes
        .iter()
        .map(|a| a.binding + 1)
        .max()
        .unwrap_or(0)
}

/// Primitive assembly (PC): polygon mode, primitive ids (restart,
/// provoking vertex and discard are [`dynamic::program_primitive`]'s).
pub fn program_primitive<S: PacketSink>(s: &mut S, p: &Pipeline) -> Result<(), S::Error> {
    s.reg(&regs::PcPolygonMode {
        mode: p.polygon_mode,
    })?;
    s.reg(&regs::PcPsCntl {
        primitiveiden: p.primitive_id_location.is_some(),
    })?;
    Ok(())
}

/// Vertex decode (VFD): the attributes, and the vertex and instance id
/// registers; the fetch slots are the vertex buffers'
/// ([`program_vertex_buffers`]).
pub fn program_vertex_input<S: PacketSink>(s: &mut S, p: &Pipeline) -> Result<(), S::Error> {
    s.reg(&regs::VfdModeCntl {
        render_mode: A6xxRenderMode::RENDERING_PASS,
    })?;
    s.reg(&regs::VfdMultiviewCntl::default())?;
    s.reg(&regs::VfdControl0 {
        fetch_cnt: fetch_count(p),
        decode_cnt: p.attributes.len() as u32,
    })?;
    s.reg(&regs::VfdControl1 {
        regid4vtx: p.vertex_id,
        regid4inst: p.instance_id,
        regid4primid: NONE,
        regid4viewid: NONE,
    })?;
    s.reg(&regs::VfdAddOffset {
        vertex: p.add_vertex_offset,
        instance: false,
    })?;
    for (i, a) in p.attributes.iter().enumerate() {
        let i = i as u32;
        s.array_reg(
            &regs::VfdDecodeInstr {
                idx: a.binding,
                offset: a.offset,
                instanced: a.instanced,
                format: a.format,
                swap: A3xxColorSwap::WZYX,
                unk30: true,
                float: a.float,
            },
            i,
        )?;
        s.array_reg(&regs::VfdDecodeStepRate(a.step_rate), i)?;
        s.array_reg(
            &regs::VfdDestCntlInstr {
                writemask: a.mask,
                regid: a.regid,
            },
            i,
        )?;
    }
    Ok(())
}

/// The vertex buffers of fetch slots 0, 1, ... (VFD_FETCH).
pub fn program_vertex_buffers<S: PacketSink>(
    s: &mut S,
    buffers: &[VertexBuffer],
) -> Result<(), S::Error> {
    for (i, b) in buffers.iter().enumerate() {
        program_vertex_buffer(s, i as u32, b)?;
    }
    Ok(())
}

/// The vertex buffer of fetch slot `slot` alone (VFD_FETCH[slot]), for a
/// bind that changed only some.
#[inline]
pub fn program_vertex_buffer<S: PacketSink>(
    s: &mut S,
    slot: u32,
    b: &VertexBuffer,
) -> Result<(), S::Error> {
    s.array_reg(&regs::VfdFetchBase(b.base), slot)?;
    s.array_reg(&regs::VfdFetchSize(b.size), slot)?;
    s.array_reg(&regs::VfdFetchStride(b.stride), slot)
}

/// The vertex shader (SP_VS, HLSQ_VS).
pub fn program_vs<S: PacketSink>(s: &mut S, p: &Pipeline) -> Result<(), S::Error> {
    let chip = s.chip();
    let b = p.vs_bindless;
    s.reg(&regs::SpVsConfig {
        bindless_tex: b.tex,
        bindless_samp: b.samp,
        bindless_ibo: b.ibo,
        bindless_ubo: b.ubo,
        enabled: true,
        ..Default::default()
    })?;
    match chip {
        Chip::A6xx => s.reg(&a6xx::HlsqVsCntl {
            constlen: p.vs_constlen,
            enabled: true,
        })?,
        Chip::A7xx => s.reg(&a7xx::HlsqVsCntl {
            constlen: p.vs_constlen,
            enabled: true,
            ..Default::default()
        })?,
    };
    s.reg(&regs::SpVsCtrlReg0 {
        mergedregs: true,
        fullregfootprint: p.vs_full_regs,
        ..Default::default()
    })?;
    let m = p.vs_private;
    s.reg(&regs::SpVsPvtMemParam {
        memsizeperitem: m.per_fiber,
        hwstacksizeperthread: 0,
    })?;
    s.reg(&regs::SpVsPvtMemAddr(m.iova))?;
    s.reg(&regs::SpVsPvtMemSize {
        totalpvtmemsize: m.per_sp,
        perwavememlayout: false,
    })?;
    s.reg(&regs::SpVsObjStart(p.vs))?;
    s.reg(&regs::SpVsObjFirstExecOffset(0))?;
    s.reg(&regs::SpVsInstrlen(p.vs_instrlen))?;
    Ok(())
}

/// The vertex shader's outputs and what the fragment shader reads of
/// them (VPC, SP_VS_OUT, PC_VS_OUT, clip and cull distances).
pub fn program_varyings<S: PacketSink>(s: &mut S, p: &Pipeline) -> Result<(), S::Error> {
    let chip = s.chip();
    s.reg(&regs::VpcSoDisable { disable: true })?;
    s.reg(&regs::VpcVsPack {
        stride_in_vpc: p.stride,
        positionloc: p.position,
        psizeloc: p.point_size.unwrap_or(255),
        extrapos: 0,
    })?;
    s.reg(&regs::SpVsPrimitiveCntl {
        out: p.outputs.len() as u32,
        flags_regid: 0,
    })?;
    for (i, pair) in p.outputs.chunks(2).enumerate() {
        let b = pair.get(1).copied().unwrap_or(Output {
            regid: 0,
            mask: 0,
            location: 0,
        });
        s.array_reg(
            &regs::SpVsOutReg {
                a_regid: pair[0].regid,
                a_compmask: pair[0].mask,
                b_regid: b.regid,
                b_compmask: b.mask,
            },
            i as u32,
        )?;
    }
    for (i, four) in p.outputs.chunks(4).enumerate() {
        let loc = |k: usize| four.get(k).map_or(0, |o| o.location);
        s.array_reg(
            &regs::SpVsVpcDstReg {
                outloc0: loc(0),
                outloc1: loc(1),
                outloc2: loc(2),
                outloc3: loc(3),
            },
            i as u32,
        )?;
    }
    let clip_mask = p.clip_distances | p.cull_distances;
    match chip {
        Chip::A6xx => s.reg(&a6xx::PcVsOutCntl {
            stride_in_vpc: p.stride,
            psize: p.point_size.is_some(),
            clip_mask,
            ..Default::default()
        })?,
        Chip::A7xx => s.reg(&a7xx::PcVsOutCntl {
            stride_in_vpc: p.stride,
            psize: p.point_size.is_some(),
            clip_mask,
            ..Default::default()
        })?,
    };
    s.reg(&regs::GrasVsClCntl {
        clip_mask: p.clip_distances,
        cull_mask: p.cull_distances,
    })?;
    if clip_mask != 0 {
        s.reg(&regs::VpcVsClipCntl {
            clip_mask,
            clip_dist_03_loc: p.clip_location,
            clip_dist_47_loc: p.clip_location + 4,
        })?;
    }
    for i in 0..4 {
        s.array_reg(&regs::VpcVarDisable(!p.enabled[i]), i as u32)?;
    }
    for i in 0..8 {
        s.array_reg(&regs::VpcVaryingInterpMode(p.interp[i]), i as u32)?;
        s.array_reg(&regs::VpcVaryingPsReplMode(p.repl[i]), i as u32)?;
    }
    s.reg(&regs::VpcPointCoordInvert::default())?;
    s.reg(&regs::VpcCntl0 {
        numnonposvar: p.non_position_varyings,
        primidloc: p.primitive_id_location.unwrap_or(255),
        varying: p.enabled != [0; 4],
        viewidloc: 255,
    })?;
    Ok(())
}

/// The fragment shader (SP_FS, HLSQ_FS), its inputs and prefetches.
pub fn program_fs<S: PacketSink>(s: &mut S, p: &Pipeline) -> Result<(), S::Error> {
    let chip = s.chip();
    match p.fs {
        Some(fs) => {
            let t = p.textures;
            let b = p.fs_bindless;
            s.reg(&regs::SpFsConfig {
                bindless_tex: b.tex,
                bindless_samp: b.samp,
                bindless_ibo: b.ibo,
                bindless_ubo: b.ubo,
                enabled: true,
                ntex: t.map_or(0, |t| t.count),
                nsamp: t.map_or(0, |t| t.sampler_count),
                ..Default::default()
            })?;
            if let Some(t) = t {
                s.reg(&regs::SpFsTexConst(t.descriptors))?;
                s.reg(&regs::SpFsTexCount(t.count))?;
                s.reg(&regs::SpFsTexSamp(t.samplers))?;
            }
            match chip {
                Chip::A6xx => s.reg(&a6xx::HlsqFsCntl {
                    constlen: p.fs_constlen,
                    enabled: true,
                })?,
                Chip::A7xx => s.reg(&a7xx::HlsqFsCntl {
                    constlen: p.fs_constlen,
                    enabled: true,
                    ..Default::default()
                })?,
            };
            s.reg(&regs::SpFsCtrlReg0 {
                threadsize: p.fs_threadsize,
                varying: true,
                mergedregs: true,
                fullregfootprint: p.fs_full_regs,
                halfregfootprint: p.fs_half_regs,
                ..Default::default()
            })?;
            s.reg(&regs::HlsqFsCntl0 {
                threadsize: p.fs_threadsize,
                varyings: true,
                unk2: 0,
            })?;
            let m = p.fs_private;
            s.reg(&regs::SpFsPvtMemParam {
                memsizeperitem: m.per_fiber,
                hwstacksizeperthread: 0,
            })?;
            s.reg(&regs::SpFsPvtMemAddr(m.iova))?;
            s.reg(&regs::SpFsPvtMemSize {
                totalpvtmemsize: m.per_sp,
                perwavememlayout: false,
            })?;
            s.reg(&regs::SpFsObjStart(fs))?;
            s.reg(&regs::SpFsObjFirstExecOffset(0))?;
            s.reg(&regs::SpFsInstrlen(p.fs_instrlen))?;
        }
        None => {
            s.reg(&regs::SpFsConfig::default())?;
            match chip {
                Chip::A6xx => s.reg(&a6xx::HlsqFsCntl::default())?,
                Chip::A7xx => s.reg(&a7xx::HlsqFsCntl::default())?,
            };
        }
    }
    s.reg(&regs::HlsqControl2Reg {
        faceregid: p.face,
        sampleid: p.sample_id,
        samplemask: p.sample_mask_in,
        centerrhw: NONE,
    })?;
    s.reg(&regs::HlsqControl3Reg {
        ij_persp_pixel: p.ij_persp_pixel,
        ij_linear_pixel: p.ij_linear_pixel,
        ij_persp_centroid: p.ij_persp_centroid,
        ij_linear_centroid: NONE,
    })?;
    s.reg(&regs::HlsqControl4Reg {
        ij_persp_sample: p.ij_persp_sample,
        ij_linear_sample: NONE,
        xycoordregid: p.xy,
        zwcoordregid: p.zw,
    })?;
    s.reg(&regs::HlsqControl5Reg {
        linelengthregid: NONE,
        foveationqualityregid: NONE,
    })?;
    let count = p.prefetch.len() as u32;
    match chip {
        Chip::A6xx => s.reg(&a6xx::SpFsPrefetchCntl {
            count,
            ..Default::default()
        })?,
        Chip::A7xx => s.reg(&a7xx::SpFsPrefetchCntl {
            count,
            constslotid: 0x1ff,
            constslotid4coord: 0x1ff,
            ..Default::default()
        })?,
    };
    for (i, c) in p.prefetch.iter().enumerate() {
        let i = i as u32;
        match chip {
            Chip::A6xx => s.array_reg(
                &a6xx::SpFsPrefetchCmd {
                    src: c.src,
                    samp_id: c.samp,
                    tex_id: c.tex,
                    dst: c.dst,
                    wrmask: c.wrmask,
                    half: c.half,
                    cmd: A6xxTexPrefetchCmd::TEX_PREFETCH_SAM,
                    ..Default::default()
                },
                i,
            )?,
            Chip::A7xx => s.array_reg(
                &a7xx::SpFsPrefetchCmd {
                    src: c.src,
                    samp_id: c.samp,
                    tex_id: c.tex,
                    dst: c.dst,
                    wrmask: c.wrmask,
                    half: c.half,
                    cmd: A6xxTexPrefetchCmd::TEX_PREFETCH_SAM,
                    ..Default::default()
                },
                i,
            )?,
        };
    }
    s.reg(&regs::RbRenderControl1::default())?;
    Ok(())
}

/// The rasteriser (GRAS): clipping, points, multisampling (the viewport
/// and scissor are [`program_viewport`]'s, culling, line width and depth
/// bias [`dynamic::program_rasterization`]'s).
pub fn program_rasterizer<S: PacketSink>(s: &mut S, p: &Pipeline) -> Result<(), S::Error> {
    s.reg(&regs::GrasClCntl {
        clip_disable: !p.clip,
        zero_gb_scale_z: true,
        vp_clip_code_ignore: true,
        persp_division_disable: !p.persp_division,
        vp_xform_disable: !p.viewport_transform,
        ..Default::default()
    })?;
    s.reg(&regs::GrasSuConservativeRasCntl::default())?;
    s.reg(&regs::GrasSuPointMinmax {
        min: 1.0,
        max: 64.0,
    })?;
    s.reg(&regs::GrasSuPointSize(p.point_size_register))?;
    s.reg(&regs::GrasSampleCntl {
        per_samp_mode: p.per_sample,
    })?;
    s.reg(&regs::RbSampleCntl {
        per_samp_mode: p.per_sample,
    })?;
    // The sample count, to each unit that needs it, and MSAA off for one
    // sample, as Turnip's traces write them (triangle_sysmem.log:
    // GRAS_DEST_MSAA_CNTL { SAMPLES = MSAA_ONE | MSAA_DISABLE }).
    let msaa_disable = p.samples == A3xxMsaaSamples::MSAA_ONE;
    s.reg(&regs::SpTpRasMsaaCntl {
        samples: p.samples,
        ..Default::default()
    })?;
    s.reg(&regs::SpTpDestMsaaCntl {
        samples: p.samples,
        msaa_disable,
    })?;
    s.reg(&regs::GrasRasMsaaCntl {
        samples: p.samples,
        ..Default::default()
    })?;
    s.reg(&regs::GrasDestMsaaCntl {
        samples: p.samples,
        msaa_disable,
    })?;
    s.reg(&regs::RbRasMsaaCntl {
        samples: p.samples,
        ..Default::default()
    })?;
    s.reg(&regs::RbDestMsaaCntl {
        samples: p.samples,
        msaa_disable,
    })?;
    // The standard sample locations.
    s.reg(&regs::SpTpSampleConfig::default())?;
    s.reg(&regs::GrasSampleConfig::default())?;
    s.reg(&regs::RbSampleConfig::default())?;
    Ok(())
}

/// The output merger (RB) but for the attachments' memory (and the
/// window offset, which is the bin's: [`crate::bin`]).
pub fn program_output<S: PacketSink>(s: &mut S, p: &Pipeline) -> Result<(), S::Error> {
    s.reg(&regs::RbAlphaControl::default())?;
    let mut enable_blend = 0;
    for (i, t) in p.targets.iter().enumerate() {
        if t.blend.is_some() {
            enable_blend |= 1 << i;
        }
    }
    s.reg(&regs::RbBlendCntl {
        enable_blend,
        independent_blend: true,
        sample_mask: p.sample_mask,
        alpha_to_coverage: p.alpha_to_coverage,
        alpha_to_one: p.alpha_to_one,
        ..Default::default()
    })?;
    s.reg(&regs::RbFsOutputCntl0 {
        frag_writes_z: p.depth_out != NONE,
        frag_writes_sampmask: p.sample_mask_out != NONE,
        frag_writes_stencilref: p.stencil_ref_out != NONE,
        ..Default::default()
    })?;
    s.reg(&regs::RbFsOutputCntl1 {
        mrt: p.targets.len() as u32,
    })?;
    s.reg(&regs::SpFsOutputCntl0 {
        dual_color_in_enable: false,
        depth_regid: p.depth_out,
        sampmask_regid: p.sample_mask_out,
        stencilref_regid: p.stencil_ref_out,
    })?;
    s.reg(&regs::SpFsOutputCntl1 {
        mrt: p.targets.len() as u32,
    })?;
    let mut components = 0;
    let mut srgb = 0;
    for (i, t) in p.targets.iter().enumerate() {
        components |= 0xf << (4 * i);
        srgb |= u32::from(t.srgb) << i;
    }
    s.reg(&regs::RbRenderComponents::from_raw(components))?;
    s.reg(&regs::RbSrgbCntl::from_raw(srgb))?;
    s.reg(&regs::RbDitherCntl::default())?;
    for (i, t) in p.targets.iter().enumerate() {
        let i = i as u32;
        s.array_reg(
            &regs::RbMrtControl {
                blend: t.blend.is_some(),
                blend2: t.blend.is_some(),
                rop_enable: t.rop.is_some(),
                rop_code: t.rop.unwrap_or(A3xxRopCode::ROP_COPY),
                component_enable: t.write_mask,
            },
            i,
        )?;
        if let Some([rgb, alpha]) = t.blend {
            s.array_reg(
                &regs::RbMrtBlendControl {
                    rgb_blend_opcode: rgb.0,
                    rgb_src_factor: rgb.1,
                    rgb_dest_factor: rgb.2,
                    alpha_blend_opcode: alpha.0,
                    alpha_src_factor: alpha.1,
                    alpha_dest_factor: alpha.2,
                },
                i,
            )?;
        }
        s.array_reg(
            &regs::SpFsOutputReg {
                regid: t.output,
                half_precision: t.half,
            },
            i,
        )?;
        s.array_reg(
            &regs::SpFsMrtReg {
                color_format: t.format,
                color_sint: t.integer == Some(true),
                color_uint: t.integer == Some(false),
                unk10: false,
            },
            i,
        )?;
    }
    s.reg(&regs::RbDepthPlaneCntl {
        z_mode: if p.early_z {
            A6xxZtestMode::A6XX_EARLY_Z
        } else {
            A6xxZtestMode::A6XX_LATE_Z
        },
    })?;
    s.reg(&regs::RbSampleCountControl::default())?;
    Ok(())
}

/// The attachments' memory: where each colour buffer and the depth
/// buffer are in memory and in GMEM, their formats and pitches
/// (render-pass state, not the pipeline's). The window scissor and offset
/// are the bin's ([`crate::bin`]), programmed around the pass's draws.
pub fn program_framebuffer<S: PacketSink>(s: &mut S, fb: &Framebuffer) -> Result<(), S::Error> {
    let chip = s.chip();
    if chip == Chip::A6xx {
        // a6xx says which attachments are compressed here (a7xx in each
        // buffer's info).
        let mut flag_mrts = 0;
        for (i, c) in fb.colors.iter().enumerate() {
            flag_mrts |= u32::from(c.flags.is_some()) << i;
        }
        s.reg(&a6xx::RbRenderCntl {
            flag_mrts,
            flag_depth: fb.depth.is_some_and(|d| d.flags.is_some()),
            ..Default::default()
        })?;
    }
    for (n, t) in fb.colors.iter().enumerate() {
        let i = n as u32;
        match chip {
            Chip::A6xx => s.array_reg(
                &a6xx::RbMrtBufInfo {
                    color_format: t.format,
                    color_tile_mode: t.tile_mode,
                    color_swap: t.swap,
                    ..Default::default()
                },
                i,
            )?,
            Chip::A7xx => s.array_reg(
                &a7xx::RbMrtBufInfo {
                    color_format: t.format,
                    color_tile_mode: t.tile_mode,
                    color_swap: t.swap,
                    losslesscompen: t.flags.is_some(),
                    ..Default::default()
                },
                i,
            )?,
        };
        s.array_reg(&regs::RbMrtPitch(t.pitch), i)?;
        s.array_reg(&regs::RbMrtArrayPitch(t.array_pitch), i)?;
        s.array_reg(&regs::RbMrtBase(t.base), i)?;
        let gmem = fb.gmem.colors.get(n).copied().unwrap_or(0);
        s.array_reg(&regs::RbMrtBaseGmem(gmem), i)?;
        if let Some(f) = t.flags {
            s.array_reg(&regs::RbMrtFlagBufferAddr(f.base), i)?;
            s.array_reg(
                &regs::RbMrtFlagBufferPitch {
                    pitch: f.pitch,
                    array_pitch: f.array_pitch,
                },
                i,
            )?;
        }
    }
    let d = fb.depth;
    let format = d.map_or(A6xxDepthFormat::DEPTH6_NONE, |d| d.format);
    match chip {
        Chip::A6xx => s.reg(&a6xx::RbDepthBufferInfo {
            depth_format: format,
            ..Default::default()
        })?,
        Chip::A7xx => s.reg(&a7xx::RbDepthBufferInfo {
            depth_format: format,
            tilemode: d.map_or(A6xxTileMode::TILE6_LINEAR, |d| d.tile_mode),
            losslesscompen: d.is_some_and(|d| d.flags.is_some()),
            ..Default::default()
        })?,
    };
    if let Some(d) = d {
        s.reg(&regs::RbDepthBufferPitch(d.pitch))?;
        s.reg(&regs::RbDepthBufferArrayPitch(d.array_pitch))?;
        s.reg(&regs::RbDepthBufferBase(d.base))?;
        s.reg(&regs::RbDepthBufferBaseGmem(fb.gmem.depth))?;
        if let Some(f) = d.flags {
            s.reg(&regs::RbDepthFlagBufferBase(f.base))?;
            s.reg(&regs::RbDepthFlagBufferPitch {
                pitch: f.pitch,
                array_pitch: f.array_pitch,
                ..Default::default()
            })?;
        }
    }
    Ok(())
}

/// The viewport transform and the scissors of viewport 0: the screen
/// scissor is the application's, the viewport scissor the viewport's
/// rectangle (nothing outside the viewport is drawn: Vulkan clips to it).
pub fn program_viewport<S: PacketSink>(s: &mut S, v: &Viewport) -> Result<(), S::Error> {
    let [vx, vy, vw, vh, zmin, zmax] = v.viewport;
    s.array_reg(&regs::GrasClVportXoffset(vx + vw / 2.0), 0)?;
    s.array_reg(&regs::GrasClVportXscale(vw / 2.0), 0)?;
    s.array_reg(&regs::GrasClVportYoffset(vy + vh / 2.0), 0)?;
    s.array_reg(&regs::GrasClVportYscale(vh / 2.0), 0)?;
    s.array_reg(&regs::GrasClVportZoffset(zmin), 0)?;
    s.array_reg(&regs::GrasClVportZscale(zmax - zmin), 0)?;
    let [sx, sy, sw, sh] = v.scissor;
    let ([x0, y0], [x1, y1]) = inclusive([sx, sy], [sx + sw, sy + sh]);
    s.array_reg(&regs::GrasScScreenScissorTl { x: x0, y: y0 }, 0)?;
    s.array_reg(&regs::GrasScScreenScissorBr { x: x1, y: y1 }, 0)?;
    // The viewport's rectangle in whole pixels on the screen (a negative
    // height flips it).
    let pixel = |f: f32| f.clamp(0.0, MAX_COORD as f32) as u32;
    let lo = [
        pixel(vx.min(vx + vw).floor()),
        pixel(vy.min(vy + vh).floor()),
    ];
    let hi = [pixel(vx.max(vx + vw).ceil()), pixel(vy.max(vy + vh).ceil())];
    let ([x0, y0], [x1, y1]) = inclusive(lo, hi);
    s.array_reg(&regs::GrasScViewportScissorTl { x: x0, y: y0 }, 0)?;
    s.array_reg(&regs::GrasScViewportScissorBr { x: x1, y: y1 }, 0)?;
    Ok(())
}

/// The largest scissor coordinate (a6xx_reg_xy's fields are 14 bits,
/// a6xx.xml).
const MAX_COORD: u32 = 16383;

/// The scissor registers' inclusive corners of the pixels from `lo` up to
/// (not including) `hi`; an empty rectangle has its bottom right above
/// and left of its top left, which passes no pixel.
fn inclusive(lo: [u32; 2], hi: [u32; 2]) -> ([u32; 2], [u32; 2]) {
    let corner = |lo: u32, hi: u32| {
        let lo = lo.min(MAX_COORD);
        let hi = hi.min(MAX_COORD + 1);
        if hi > lo {
            (lo, hi - 1)
        } else {
            (1, 0)
        }
    };
    let (x0, x1) = corner(lo[0], hi[0]);
    let (y0, y1) = corner(lo[1], hi[1]);
    ([x0, y0], [x1, y1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{regid, StateWriter};

    fn color(base: u64) -> ColorBuffer {
        ColorBuffer::linear(base, 256, 16, A6xxFormat::FMT6_8_8_8_8_UNORM)
    }

    #[test]
    fn the_framebuffer_carries_the_targets_memory_and_the_pipeline_does_not() {
        let target = Target::new(A6xxFormat::FMT6_8_8_8_8_UNORM, regid(0, 0));
        let mut p = Pipeline::new(0x1000, Some(0x2000), Some(target));
        p.targets.push(target);
        let mut fb = Framebuffer::color(64, 16, color(0x1_2345_6700));
        fb.colors.push(color(0x8_0000_0000));
        fb.gmem.colors = vec![0, 0xc_0000];
        for chip in [Chip::A6xx, Chip::A7xx] {
            let mut w = StateWriter::new(chip);
            program_framebuffer(&mut w, &fb).unwrap();
            let att = w.register_writes();
            // a6xx.xml: RB_MRT array at 0x8820, stride 8, BASE at +5 (64
            // bits), PITCH at +3 in units of 64 bytes.
            assert!(att.contains(&(0x8825, 0x2345_6700)), "{chip}: {att:x?}");
            assert!(att.contains(&(0x8826, 0x1)), "{chip}");
            assert!(att.contains(&(0x882d, 0)), "{chip}");
            assert!(att.contains(&(0x882e, 0x8)), "{chip}");
            assert!(att.contains(&(0x8823, 256 / 64)), "{chip}");
            // RB_MRT[1].BASE_GMEM (+7), as input_attachment_gmem.log's
            // second attachment on a660: 0xc0000.
            assert!(att.contains(&(0x882f, 0xc_0000)), "{chip}");
            let mut w = StateWriter::new(chip);
            program_pipeline(&mut w, &p).unwrap();
            let out = w.register_writes();
            // The pipeline writes no RB_MRT BUF_INFO, PITCH, ARRAY_PITCH or
            // BASE (+2 to +6 of each entry: CONTROL and BLEND_CONTROL, at
            // +0 and +1, are the pipeline's), nor any viewport or scissor (GRAS_CL_VPORT at 0x8010,
            // GRAS_SC_SCREEN_SCISSOR at 0x80b0, GRAS_SC_VIEWPORT_SCISSOR
            // at 0x80d0, the window scissor at 0x80f0 and 0x80f1, the
            // bin's RB_WINDOW_OFFSET at 0x8890).
            assert!(
                !out.iter().any(
                    |&(o, _)| (0x8820..0x8860).contains(&o) && (o - 0x8820) % 8 >= 2
                        || (0x8010..0x8016).contains(&o)
                        || (0x80b0..0x80b2).contains(&o)
                        || (0x80d0..0x80d2).contains(&o)
                        || (0x80f0..0x80f2).contains(&o)
                        || o == 0x8890
                ),
                "{chip}: the pipeline wrote the framebuffer's or the viewport's state"
            );
        }
    }

    #[test]
    fn scissors_are_inclusive_and_an_empty_one_passes_nothing() {
        assert_eq!(inclusive([2, 3], [12, 8]), ([2, 3], [11, 7]));
        let ([x0, _], [x1, _]) = inclusive([0, 0], [0, 4]);
        assert!(x1 < x0);
        let mut w = StateWriter::new(Chip::A6xx);
        let v = Viewport {
            // A flipped viewport: y from 48 up to 16.
            viewport: [8.0, 48.0, 32.0, -32.0, 0.0, 1.0],
            scissor: [0, 0, 64, 64],
        };
        program_viewport(&mut w, &v).unwrap();
        let writes = w.register_writes();
        // GRAS_SC_VIEWPORT_SCISSOR_TL/BR (0x80d0/1): X bits 0-15, Y 16-31.
        assert!(writes.contains(&(0x80d0, 8 | 16 << 16)), "{writes:x?}");
        assert!(writes.contains(&(0x80d1, 39 | 47 << 16)), "{writes:x?}");
        // GRAS_CL_VPORT_YSCALE (0x8013): -16.0.
        assert!(writes.contains(&(0x8013, (-16.0f32).to_bits())));
    }
}
