//! What a compiled shader tells the driver about its stage: plain data, from which the
//! driver builds the registers (the shape of NAK's `ShaderStageInfo`/`ShaderIoInfo`).
//!
//! Registers are given as the hardware's REGID fields take them ([`RegId`]); a value the
//! shader does not use is `None`, which the driver programs as r63.x ("unused", Turnip's
//! `regid(63, 0)`).
//!
//! Where each piece goes (a6xx.xml, and Turnip's sysmem streams in
//! `reference/turnip/a660/*_sysmem.log`):
//! - vertex inputs: VFD_DEST_CNTL[i] (REGID, WRITEMASK); vertex and instance id:
//!   VFD_CONTROL_1 (REGID4VTX, REGID4INST);
//! - vertex outputs: SP_VS_OUT[i] (A/B_REGID, A/B_COMPMASK) and SP_VS_VPC_DST (OUTLOC, from
//!   [`crate::varying_linkage::link`]); position and point size: the same, plus
//!   VPC_VS_PACK (POSITIONLOC, PSIZELOC) and PC_VS_OUT_CNTL.PSIZE; clip and cull distances:
//!   VPC_VS_CLIP_CNTL, GRAS_VS_CL_CNTL, PC_VS_OUT_CNTL.CLIP_MASK;
//! - fragment inputs: HLSQ_CONTROL_2..4_REG (the ij pairs, FACEREGID, SAMPLEID,
//!   XYCOORDREGID, ZWCOORDREGID), GRAS_CNTL and RB_RENDER_CONTROL0 (which ij pairs and
//!   coordinates the rasterizer produces), VPC_VARYING_INTERP / VPC_VARYING_PS_REPL (from
//!   the linkage);
//! - fragment outputs: SP_FS_OUTPUT[i] (REGID, HALF_PRECISION), SP_FS_OUTPUT_CNTL0
//!   (DEPTH_REGID, SAMPMASK_REGID), RB_FS_OUTPUT_CNTL0/1, SP_FS_CTRL_REG0 (LODPIXMASK,
//!   VARYING, PIXLODENABLE), SP_FS_CTRL_REG0/RB_DEPTH_PLANE_CNTL (early fragment tests).

/// A register as REGID fields name it: `(n << 2) | component` for the full register
/// `rn.component` (a6xx.xml's `a3xx_regid`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegId(pub u8);

impl RegId {
    /// r63.x: what REGID fields hold for an input the shader does not read or an output it
    /// does not write.
    pub const UNUSED: RegId = RegId(0xfc);

    pub fn new(n: u8, component: u8) -> RegId {
        RegId((n << 2) | (component & 3))
    }

    /// The register number (`rn`).
    pub fn num(self) -> u8 {
        self.0 >> 2
    }

    /// The component (0 = x .. 3 = w).
    pub fn component(self) -> u8 {
        self.0 & 3
    }

    /// The register `k` scalars on (component `c` of a vector starting here is at
    /// `offset(c)`).
    pub fn offset(self, k: u8) -> RegId {
        RegId(self.0 + k)
    }

    /// The REGID field value, r63.x for `None`.
    pub fn field(reg: Option<RegId>) -> u32 {
        u32::from(reg.unwrap_or(RegId::UNUSED).0)
    }
}

impl std::fmt::Display for RegId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "r{}.{}",
            self.num(),
            ['x', 'y', 'z', 'w'][self.component() as usize]
        )
    }
}

/// The stage a shader runs in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Compute,
    Vertex,
    Fragment,
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stage::Compute => "compute",
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
        })
    }
}

/// What differs between stages in what the driver programs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StageInfo {
    Compute(ComputeInfo),
    Vertex(VertexInfo),
    Fragment(FragmentInfo),
}

impl StageInfo {
    pub fn stage(&self) -> Stage {
        match self {
            StageInfo::Compute(_) => Stage::Compute,
            StageInfo::Vertex(_) => Stage::Vertex,
            StageInfo::Fragment(_) => Stage::Fragment,
        }
    }

    pub fn compute(&self) -> Option<&ComputeInfo> {
        match self {
            StageInfo::Compute(c) => Some(c),
            _ => None,
        }
    }

    pub fn vertex(&self) -> Option<&VertexInfo> {
        match self {
            StageInfo::Vertex(v) => Some(v),
            _ => None,
        }
    }

    pub fn fragment(&self) -> Option<&FragmentInfo> {
        match self {
            StageInfo::Fragment(f) => Some(f),
            _ => None,
        }
    }
}

/// A compute shader's work group and built-ins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputeInfo {
    pub local_size: [u32; 3],
    /// Shared memory per work group, bytes.
    pub shared_bytes: u32,
    /// The shader has a work-group execution barrier.
    pub uses_barrier: bool,
    /// LOCALIDREGID: local invocation id x, y, z in consecutive components.
    pub local_id_reg: Option<RegId>,
    /// WGIDCONSTID: the work group id x, y, z.
    pub workgroup_id_reg: Option<RegId>,
}

/// The type the shader declares for an input or output (what the format of a vertex
/// attribute or a render target must convert to).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    Float,
    Sint,
    Uint,
}

/// A vertex attribute the shader reads: VFD_DEST_CNTL gives the VFD the first register and
/// the components it writes (component `c` to `reg.offset(c)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexInput {
    pub location: u32,
    pub reg: RegId,
    /// Components from x that the VFD writes (1..=4): WRITEMASK is `(1 << components) - 1`.
    pub components: u8,
    pub kind: ScalarKind,
    /// 16-bit registers (half precision).
    pub half: bool,
}

impl VertexInput {
    pub fn write_mask(&self) -> u8 {
        (1u8 << self.components) - 1
    }
}

/// Where a vertex shader output goes in the VPC.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VaryingSlot {
    Position,
    PointSize,
    /// gl_ClipDistance / gl_CullDistance elements 0..3 (0) and 4..7 (1), clip distances
    /// first, as the VPC packs them (see [`VertexInfo::clip_distances`]).
    ClipCullDistance(u8),
    Layer,
    ViewportIndex,
    /// A user varying, by SPIR-V Location.
    Location(u32),
}

/// An output the shader leaves in registers at `end`: component `c` (of `mask`) is in
/// `reg.offset(c)`; the VPC collects it as SP_VS_OUT/SP_VS_VPC_DST say.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct VaryingOutput {
    pub slot: VaryingSlot,
    pub reg: RegId,
    /// Components written (bit c: component c).
    pub mask: u8,
}

/// A vertex shader's inputs and outputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VertexInfo {
    pub inputs: Vec<VertexInput>,
    /// REGID4VTX: the vertex index (it includes the draw's vertex offset or first vertex,
    /// as gl_VertexIndex does).
    pub vertex_id_reg: Option<RegId>,
    /// REGID4INST: the instance index counted from 0; gl_InstanceIndex adds the driver
    /// parameter [`crate::ir::DriverParam::BaseInstance`].
    pub instance_id_reg: Option<RegId>,
    /// Every output, position, point size and distances included, sorted by slot.
    pub outputs: Vec<VaryingOutput>,
    pub position_reg: Option<RegId>,
    pub point_size_reg: Option<RegId>,
    /// gl_ClipDistance and gl_CullDistance array sizes; distance `k` of the
    /// `clip_distances + cull_distances` is in the `ClipCullDistance(k / 4)` output,
    /// component `k % 4`.
    pub clip_distances: u8,
    pub cull_distances: u8,
}

impl VertexInfo {
    pub fn output(&self, slot: VaryingSlot) -> Option<&VaryingOutput> {
        self.outputs.iter().find(|o| o.slot == slot)
    }
}

/// How a fragment shader input is interpolated across the primitive.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// Perspective-correct.
    Smooth,
    /// Linear in screen space.
    NoPerspective,
    /// The provoking vertex's value.
    Flat,
}

/// Where within the pixel a smooth or noperspective input is evaluated.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sampling {
    Center,
    Centroid,
    Sample,
}

/// The barycentric pairs the rasterizer writes for the shader (HLSQ_CONTROL_2..4_REG's
/// IJ_*_REGID, GRAS_CNTL's IJ_* enables and RB_RENDER_CONTROL0's): two full registers each.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Barycentrics {
    pub persp_pixel: Option<RegId>,
    pub persp_centroid: Option<RegId>,
    pub persp_sample: Option<RegId>,
    pub linear_pixel: Option<RegId>,
    pub linear_centroid: Option<RegId>,
    pub linear_sample: Option<RegId>,
}

impl Barycentrics {
    /// The pair a mode of interpolation reads (`None` for flat inputs).
    pub fn get(&self, interp: Interpolation, sampling: Sampling) -> Option<RegId> {
        match (interp, sampling) {
            (Interpolation::Flat, _) => None,
            (Interpolation::Smooth, Sampling::Center) => self.persp_pixel,
            (Interpolation::Smooth, Sampling::Centroid) => self.persp_centroid,
            (Interpolation::Smooth, Sampling::Sample) => self.persp_sample,
            (Interpolation::NoPerspective, Sampling::Center) => self.linear_pixel,
            (Interpolation::NoPerspective, Sampling::Centroid) => self.linear_centroid,
            (Interpolation::NoPerspective, Sampling::Sample) => self.linear_sample,
        }
    }

    pub fn any(&self) -> bool {
        *self != Barycentrics::default()
    }
}

/// A varying the fragment shader reads: components `component..component + components`
/// of `location`, read from VPC location `inloc + i` for component `component + i`
/// (`bary.f`/`ldlv` name `inloc` in the code; the linkage places the vertex shader's
/// output there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentInput {
    pub location: u32,
    pub component: u8,
    pub components: u8,
    pub interpolation: Interpolation,
    pub sampling: Sampling,
    pub kind: ScalarKind,
    /// The first VPC location the code reads.
    pub inloc: u32,
}

/// A colour output: render target `location`'s value at `end`, four consecutive registers
/// from `reg` (SP_FS_OUTPUT[location].REGID, HALF_PRECISION).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColorOutput {
    pub location: u32,
    pub reg: RegId,
    pub half: bool,
    /// Components the shader writes (the rest hold undefined values).
    pub components: u8,
    pub kind: ScalarKind,
}

/// A texture or sampler the shader uses, by descriptor set and binding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextureBinding {
    pub set: u32,
    pub binding: u32,
}

/// A fragment shader's inputs, outputs and what it needs of the rasterizer and the RB.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FragmentInfo {
    pub inputs: Vec<FragmentInput>,
    pub barycentrics: Barycentrics,
    /// XYCOORDREGID: gl_FragCoord.xy (as the hardware delivers it, 1/16 pixel integers).
    pub frag_coord_xy_reg: Option<RegId>,
    /// ZWCOORDREGID: gl_FragCoord.zw.
    pub frag_coord_zw_reg: Option<RegId>,
    /// FACEREGID (a half register).
    pub front_facing_reg: Option<RegId>,
    /// SAMPLEID (a half register).
    pub sample_id_reg: Option<RegId>,
    /// SAMPLEMASK: gl_SampleMaskIn.
    pub sample_mask_in_reg: Option<RegId>,
    /// The shader runs once per sample (it reads gl_SampleID or a sample-interpolated
    /// input).
    pub per_sample: bool,
    pub color_outputs: Vec<ColorOutput>,
    /// SP_FS_OUTPUT_CNTL0.DEPTH_REGID: gl_FragDepth.
    pub depth_reg: Option<RegId>,
    /// SP_FS_OUTPUT_CNTL0.SAMPMASK_REGID: gl_SampleMask.
    pub sample_mask_reg: Option<RegId>,
    /// The shader can kill fragments (`discard`/`demote`): early depth writes are unsafe.
    pub discards: bool,
    /// SPIR-V EarlyFragmentTests.
    pub early_fragment_tests: bool,
    /// Instructions compute derivatives or implicit levels of detail (quads must run with
    /// their helpers: SP_FS_CTRL_REG0.LODPIXMASK / PIXLODENABLE).
    pub uses_derivatives: bool,
    /// The input attachments the shader declares (by InputAttachmentIndex, ascending).
    pub input_attachments: Vec<u32>,
}

impl FragmentInfo {
    pub fn color_output(&self, location: u32) -> Option<&ColorOutput> {
        self.color_outputs.iter().find(|o| o.location == location)
    }

    /// The VPC locations the shader reads, one past the last.
    pub fn inloc_end(&self) -> u32 {
        self.inputs
            .iter()
            .map(|i| i.inloc + u32::from(i.components))
            .max()
            .unwrap_or(0)
    }

    /// The shader reads gl_FragCoord.
    pub fn reads_frag_coord(&self) -> bool {
        self.frag_coord_xy_reg.is_some() || self.frag_coord_zw_reg.is_some()
    }
}

fn reg(r: Option<RegId>) -> String {
    r.map_or_else(|| "-".to_string(), |r| r.to_string())
}

fn kind(k: ScalarKind) -> &'static str {
    match k {
        ScalarKind::Float => "float",
        ScalarKind::Sint => "int",
        ScalarKind::Uint => "uint",
    }
}

/// `name: value` lines, as parsnip-compile prints them.
impl std::fmt::Display for StageInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "stage: {}", self.stage())?;
        match self {
            StageInfo::Compute(c) => {
                let [x, y, z] = c.local_size;
                writeln!(f, "local_size: {x}x{y}x{z}")?;
                writeln!(f, "shared_bytes: {}", c.shared_bytes)?;
                writeln!(f, "barrier: {}", c.uses_barrier)?;
                writeln!(f, "local_id: {}", reg(c.local_id_reg))?;
                writeln!(f, "workgroup_id: {}", reg(c.workgroup_id_reg))
            }
            StageInfo::Vertex(v) => {
                for i in &v.inputs {
                    writeln!(
                        f,
                        "input: location {} -> {} x{} {}{}",
                        i.location,
                        i.reg,
                        i.components,
                        kind(i.kind),
                        if i.half { " half" } else { "" }
                    )?;
                }
                writeln!(f, "vertex_id: {}", reg(v.vertex_id_reg))?;
                writeln!(f, "instance_id: {}", reg(v.instance_id_reg))?;
                for o in &v.outputs {
                    writeln!(f, "output: {:?} <- {} mask {:#x}", o.slot, o.reg, o.mask)?;
                }
                writeln!(f, "position: {}", reg(v.position_reg))?;
                writeln!(f, "point_size: {}", reg(v.point_size_reg))?;
                writeln!(
                    f,
                    "clip_distances: {}\ncull_distances: {}",
                    v.clip_distances, v.cull_distances
                )
            }
            StageInfo::Fragment(s) => {
                for i in &s.inputs {
                    writeln!(
                        f,
                        "input: location {} component {} x{} {:?} {:?} {} -> inloc {}",
                        i.location,
                        i.component,
                        i.components,
                        i.interpolation,
                        i.sampling,
                        kind(i.kind),
                        i.inloc
                    )?;
                }
                let b = &s.barycentrics;
                writeln!(
                    f,
                    "ij: persp_pixel {} persp_centroid {} persp_sample {} linear_pixel {} \
                     linear_centroid {} linear_sample {}",
                    reg(b.persp_pixel),
                    reg(b.persp_centroid),
                    reg(b.persp_sample),
                    reg(b.linear_pixel),
                    reg(b.linear_centroid),
                    reg(b.linear_sample)
                )?;
                writeln!(f, "frag_coord_xy: {}", reg(s.frag_coord_xy_reg))?;
                writeln!(f, "frag_coord_zw: {}", reg(s.frag_coord_zw_reg))?;
                writeln!(f, "front_facing: {}", reg(s.front_facing_reg))?;
                writeln!(f, "sample_id: {}", reg(s.sample_id_reg))?;
                writeln!(f, "sample_mask_in: {}", reg(s.sample_mask_in_reg))?;
                writeln!(f, "per_sample: {}", s.per_sample)?;
                for o in &s.color_outputs {
                    writeln!(
                        f,
                        "color: {} <- {}{} x{} {}",
                        o.location,
                        o.reg,
                        if o.half { " half" } else { "" },
                        o.components,
                        kind(o.kind)
                    )?;
                }
                writeln!(f, "depth: {}", reg(s.depth_reg))?;
                writeln!(f, "sample_mask: {}", reg(s.sample_mask_reg))?;
                writeln!(f, "discards: {}", s.discards)?;
                writeln!(f, "early_fragment_tests: {}", s.early_fragment_tests)?;
                writeln!(f, "derivatives: {}", s.uses_derivatives)?;
                writeln!(f, "input_attachments: {:?}", s.input_attachments)
            }
        }
    }
}
