//! The inputs and outputs of vertex and fragment shaders in instruction selection.
//!
//! Inputs the hardware writes before the first instruction get fixed registers from r0.x
//! on, in the order the plan lists them; outputs are register groups the allocator
//! places, live at `end`, whose registers the driver is told ([`crate::stage_info`]):
//! - vertex attributes: VFD_DEST_CNTL writes an attribute's components from x into
//!   consecutive registers; then the vertex id and the instance id (VFD_CONTROL_1);
//! - fragment inputs: the ij pairs (two registers each), then gl_FragCoord's xy and zw
//!   pairs (HLSQ_CONTROL_2..4_REG). Each location read gets consecutive VPC locations
//!   (inlocs) for the components from the first read to the last; smooth and
//!   noperspective ones are read with `bary.f dst, inloc, ij`, flat ones with
//!   `flat.b dst, inloc, 0` (how Turnip reads them on a660 and a740,
//!   turnip/*/points.pipeline-executable.txt);
//! - gl_FragCoord.xy arrives in 1/16 pixel as unsigned integers (ir3_compiler_nir.c:
//!   "cov.u32f32 then mul 1/16"), zw as floats;
//! - then one scalar each for the face, the sample id and the coverage mask
//!   (HLSQ_CONTROL_2_REG's FACEREGID, SAMPLEID, SAMPLEMASK). The face and the sample id
//!   are half registers: the hardware is given the half register that is the low half of
//!   the scalar (the register file is merged, hr(2n) aliasing the low 16 bits of scalar
//!   n), and the code takes those 16 bits. The face is 0 for a front-facing primitive and
//!   -1 for a back-facing one (ir3_compiler_nir.c: "we get -1 for back and 0 for front");
//! - a colour output is four consecutive registers (SP_FS_OUTPUT.REGID), a vertex
//!   output the components from x to the last written (SP_VS_OUT's REGID/COMPMASK).

use super::{err, Sel};
use crate::backend::mir::*;
use crate::error::Result;
use crate::ir::{self, Op, OutputSlot, SysVal};
use crate::stage_info::{Interpolation, Sampling, ScalarKind, Stage, VaryingSlot};
use parsnip_isa::{Cond, Opcode, Round, Type};
use smallvec::smallvec;
use std::collections::{BTreeMap, HashSet};

/// A varying location the fragment shader reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VaryingRead {
    pub first: u8,
    pub last: u8,
    pub interpolation: Interpolation,
    pub sampling: Sampling,
    pub kind: ScalarKind,
    pub inloc: u32,
}

/// Where an output goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OutputKey {
    Varying(VaryingSlot),
    Color(u32),
    Depth,
    SampleMask,
}

/// An output's register group.
#[derive(Clone, Copy, Debug)]
pub struct PlannedOutput {
    pub vreg: VReg,
    pub mask: u8,
    pub kind: ScalarKind,
}

/// The fixed input registers and output groups of a graphics shader.
#[derive(Clone, Debug, Default)]
pub struct IoPlan {
    /// Vertex attributes by location: first scalar, components and type.
    pub attributes: BTreeMap<u32, (u8, u8, ScalarKind)>,
    pub vertex_id: Option<u8>,
    pub instance_id: Option<u8>,
    pub varyings: BTreeMap<u32, VaryingRead>,
    /// The ij pair of each interpolation mode read, first scalar.
    pub ij: BTreeMap<(u8, u8), u8>,
    pub frag_coord_xy: Option<u8>,
    pub frag_coord_zw: Option<u8>,
    /// The full scalars whose low halves hold the face and the sample id, and the
    /// coverage mask's scalar.
    pub face: Option<u8>,
    pub sample_id: Option<u8>,
    pub sample_mask_in: Option<u8>,
    pub outputs: BTreeMap<OutputKey, PlannedOutput>,
}

fn mode_key(i: Interpolation, s: Sampling) -> (u8, u8) {
    (i as u8, s as u8)
}

/// Values the IR leaves undefined: outputs never written.
fn undefined(shader: &ir::Shader) -> HashSet<ir::Value> {
    shader
        .blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .filter(|i| matches!(i.op, Op::Undef))
        .filter_map(|i| i.dst)
        .collect()
}

/// Lays out the inputs and outputs of `shader`; output groups are made in `m`.
pub fn plan(shader: &ir::Shader, m: &mut MShader) -> Result<IoPlan> {
    let mut p = IoPlan::default();
    if shader.stage == Stage::Compute {
        return Ok(p);
    }
    let undef = undefined(shader);
    let mut attr_comps: BTreeMap<u32, (u8, ScalarKind)> = BTreeMap::new();
    let (mut vid, mut iid, mut xy, mut zw) = (false, false, false, false);
    let (mut face, mut sample_id, mut sample_mask) = (false, false, false);
    let mut outs: BTreeMap<OutputKey, (u8, ScalarKind)> = BTreeMap::new();
    for i in shader.blocks.iter().flat_map(|b| &b.instrs) {
        match i.op {
            Op::SysVal(SysVal::Attribute {
                location,
                component,
                kind,
            }) => {
                let e = attr_comps.entry(location).or_insert((0, kind));
                e.0 = e.0.max(component + 1);
            }
            Op::SysVal(SysVal::VertexId) => vid = true,
            Op::SysVal(SysVal::FrontFacing) => face = true,
            Op::SysVal(SysVal::SampleId) => sample_id = true,
            Op::SysVal(SysVal::SampleMaskIn) => sample_mask = true,
            Op::SysVal(SysVal::InstanceId) => iid = true,
            Op::SysVal(SysVal::FragCoord(c)) => {
                if c < 2 {
                    xy = true
                } else {
                    zw = true
                }
            }
            Op::SysVal(SysVal::Varying {
                location,
                component,
                interpolation,
                sampling,
                kind,
            }) => {
                let e = p.varyings.entry(location).or_insert(VaryingRead {
                    first: component,
                    last: component,
                    interpolation,
                    sampling,
                    kind,
                    inloc: 0,
                });
                if (e.interpolation, e.sampling) != (interpolation, sampling) {
                    return Err(err(format!(
                        "location {location} is read with two modes of interpolation"
                    )));
                }
                e.first = e.first.min(component);
                e.last = e.last.max(component);
                if interpolation != Interpolation::Flat {
                    p.ij.insert(mode_key(interpolation, sampling), 0);
                }
            }
            Op::Output(o) => {
                if o.src.as_val().is_some_and(|v| undef.contains(&v)) {
                    continue;
                }
                let (key, comp, kind) = match o.slot {
                    OutputSlot::Varying(s, c) => (OutputKey::Varying(s), c, ScalarKind::Float),
                    OutputSlot::Color {
                        location,
                        component,
                        kind,
                    } => (OutputKey::Color(location), component, kind),
                    OutputSlot::Depth => (OutputKey::Depth, 0, ScalarKind::Float),
                    OutputSlot::SampleMask => (OutputKey::SampleMask, 0, ScalarKind::Uint),
                };
                let e = outs.entry(key).or_insert((0, kind));
                e.0 |= 1 << comp;
            }
            _ => {}
        }
    }
    // VFD_FETCH/VFD_DECODE/VFD_DEST_CNTL have 32 entries (a6xx.xml).
    if attr_comps.len() > 32 {
        return Err(err(format!(
            "the shader reads {} vertex attributes; the VFD fetches at most 32",
            attr_comps.len()
        )));
    }
    let needed: u32 = attr_comps.values().map(|&(n, _)| u32::from(n)).sum::<u32>()
        + u32::from(vid)
        + u32::from(iid)
        + 2 * p.ij.len() as u32
        + 2 * u32::from(xy)
        + 2 * u32::from(zw)
        + u32::from(face)
        + u32::from(sample_id)
        + u32::from(sample_mask);
    if needed > 4 * 48 {
        return Err(err("the shader's inputs do not fit the register file"));
    }
    let mut next = 0u8;
    let mut take = |n: u8| {
        let r = next;
        next += n;
        r
    };
    for (&loc, &(n, kind)) in &attr_comps {
        p.attributes.insert(loc, (take(n), n, kind));
    }
    p.vertex_id = vid.then(|| take(1));
    p.instance_id = iid.then(|| take(1));
    for r in p.ij.values_mut() {
        *r = take(2);
    }
    p.frag_coord_xy = xy.then(|| take(2));
    p.frag_coord_zw = zw.then(|| take(2));
    p.face = face.then(|| take(1));
    p.sample_id = sample_id.then(|| take(1));
    p.sample_mask_in = sample_mask.then(|| take(1));
    let mut inloc = 0;
    for v in p.varyings.values_mut() {
        v.inloc = inloc;
        inloc += u32::from(v.last - v.first + 1);
    }
    // VPC_VAR covers 128 locations.
    if inloc > 128 {
        return Err(err(format!(
            "the fragment shader reads {inloc} varying components; the VPC has 128"
        )));
    }
    for (key, (mask, kind)) in outs {
        let size = match key {
            OutputKey::Color(_) => 4,
            _ => 8 - mask.leading_zeros() as u8,
        };
        let vreg = m.new_vreg(size, false);
        p.outputs.insert(key, PlannedOutput { vreg, mask, kind });
    }
    let written = p.distances_written();
    if written & (written + 1) != 0 {
        return Err(err(
            "a clip or cull distance is written while one before it is not; the VPC takes \
             them packed from the first",
        ));
    }
    Ok(p)
}

impl Sel<'_> {
    fn fixed(&mut self, r: u8) -> MSrc {
        if !self.m.fixed_inputs.contains(&r) {
            self.m.fixed_inputs.push(r);
        }
        MSrc::Fixed(r)
    }

    /// A graphics input; `None` if `s` is not one.
    pub(super) fn sel_graphics_input(&mut self, d: Comp, s: &SysVal) -> Result<Option<()>> {
        let missing = || err("an input the plan did not place");
        match *s {
            SysVal::Attribute {
                location,
                component,
                ..
            } => {
                let (r, _, _) = *self.io.attributes.get(&location).ok_or_else(missing)?;
                let src = self.fixed(r + component);
                self.copy(d, src, false);
            }
            SysVal::VertexId | SysVal::InstanceId => {
                let r = if *s == SysVal::VertexId {
                    self.io.vertex_id
                } else {
                    self.io.instance_id
                };
                let src = self.fixed(r.ok_or_else(missing)?);
                self.copy(d, src, false);
            }
            SysVal::FragCoord(c) if c < 2 => {
                let r = self.io.frag_coord_xy.ok_or_else(missing)?;
                let src = self.fixed(r + c);
                let t = self.new_reg(false);
                self.emit(MOp::Mov {
                    dst: t.into(),
                    src,
                    src_type: Type::U32,
                    dst_type: Type::F32,
                    round: Round::Zero,
                });
                let sixteenth = self.new_reg(false);
                self.copy(
                    sixteenth.into(),
                    MSrc::Imm(0.0625f32.to_bits() as i32),
                    false,
                );
                self.emit(MOp::Alu {
                    op: Opcode::MulF,
                    dst: d,
                    srcs: smallvec![
                        (MSrc::Reg(t.into()), Mods::default()),
                        (MSrc::Reg(sixteenth.into()), Mods::default())
                    ],
                    cond: Cond::default(),
                    sat: false,
                    half: false,
                });
            }
            SysVal::FragCoord(c) => {
                let r = self.io.frag_coord_zw.ok_or_else(missing)?;
                let src = self.fixed(r + c - 2);
                self.copy(d, src, false);
            }
            SysVal::FrontFacing => {
                // 1 when the low half is 0 (front), whatever the high half holds.
                let src = self.fixed(self.io.face.ok_or_else(missing)?);
                let low = self.new_reg(false);
                self.alu_plain(Opcode::ShlB, low.into(), &[src, MSrc::Imm(16)], false);
                let srcs = [MSrc::Reg(low.into()), MSrc::Imm(0)].map(Self::plain);
                self.alu(Opcode::CmpsU, d, &srcs, Cond::Eq, false);
            }
            SysVal::SampleId => {
                let src = self.fixed(self.io.sample_id.ok_or_else(missing)?);
                let high = self.new_reg(false);
                self.alu_plain(Opcode::ShlB, high.into(), &[src, MSrc::Imm(16)], false);
                self.alu_plain(
                    Opcode::ShrB,
                    d,
                    &[MSrc::Reg(high.into()), MSrc::Imm(16)],
                    false,
                );
            }
            SysVal::SampleMaskIn => {
                let src = self.fixed(self.io.sample_mask_in.ok_or_else(missing)?);
                self.copy(d, src, false);
            }
            SysVal::Varying {
                location,
                component,
                interpolation,
                sampling,
                ..
            } => {
                let v = *self.io.varyings.get(&location).ok_or_else(missing)?;
                let inloc = (v.inloc + u32::from(component - v.first)) as i32;
                let srcs = if interpolation == Interpolation::Flat {
                    smallvec![
                        (MSrc::Imm(inloc), Mods::default()),
                        (MSrc::Imm(0), Mods::default())
                    ]
                } else {
                    let ij = *self
                        .io
                        .ij
                        .get(&mode_key(interpolation, sampling))
                        .ok_or_else(missing)?;
                    // Both registers of the pair are inputs the allocator keeps.
                    self.fixed(ij + 1);
                    smallvec![
                        (MSrc::Imm(inloc), Mods::default()),
                        (self.fixed(ij), Mods::default())
                    ]
                };
                let op = if interpolation == Interpolation::Flat {
                    Opcode::FlatB
                } else {
                    Opcode::BaryF
                };
                self.emit(MOp::Alu {
                    op,
                    dst: d,
                    srcs,
                    cond: Cond::default(),
                    sat: false,
                    half: false,
                });
            }
            _ => return Ok(None),
        }
        Ok(Some(()))
    }

    /// `slot = src` into the output's register group.
    pub(super) fn sel_output(&mut self, o: &ir::Output) -> Result<()> {
        let (key, comp) = match o.slot {
            OutputSlot::Varying(s, c) => (OutputKey::Varying(s), c),
            OutputSlot::Color {
                location,
                component,
                ..
            } => (OutputKey::Color(location), component),
            OutputSlot::Depth => (OutputKey::Depth, 0),
            OutputSlot::SampleMask => (OutputKey::SampleMask, 0),
        };
        // Outputs never written are left out of the plan.
        let Some(out) = self.io.outputs.get(&key).copied() else {
            return Ok(());
        };
        if out.mask >> comp & 1 == 0 {
            return Ok(());
        }
        self.copy_value(Comp(out.vreg, comp), o.src, false);
        Ok(())
    }
}

impl IoPlan {
    /// Bit k: clip or cull distance k is written.
    fn distances_written(&self) -> u32 {
        (0..2u8)
            .filter_map(|g| {
                self.outputs
                    .get(&OutputKey::Varying(VaryingSlot::ClipCullDistance(g)))
                    .map(|o| u32::from(o.mask) << (4 * g))
            })
            .fold(0, |a, b| a | b)
    }

    /// What the driver programs for the stage, once the output groups have registers
    /// (`phys`: the allocation's first scalar of each virtual register).
    pub fn stage_info(
        &self,
        shader: &ir::Shader,
        phys: &[u32],
        uses_derivatives: bool,
    ) -> Option<crate::stage_info::StageInfo> {
        let discards = shader
            .blocks
            .iter()
            .any(|b| b.instrs.iter().any(|i| i.op == Op::Kill));
        use crate::stage_info::*;
        let reg = |r: u8| RegId(r);
        let out_reg = |o: &PlannedOutput| RegId(phys[o.vreg.0 as usize] as u8);
        match shader.stage {
            Stage::Compute => None,
            Stage::Vertex => {
                let outputs: Vec<VaryingOutput> = self
                    .outputs
                    .iter()
                    .filter_map(|(k, o)| match k {
                        OutputKey::Varying(slot) => Some(VaryingOutput {
                            slot: *slot,
                            reg: out_reg(o),
                            mask: o.mask,
                        }),
                        _ => None,
                    })
                    .collect();
                let find = |s: VaryingSlot| outputs.iter().find(|o| o.slot == s).map(|o| o.reg);
                // glslang declares gl_ClipDistance[1] and gl_CullDistance[1] in every
                // gl_PerVertex; only written ones count (`plan` refuses a gap).
                let written = self.distances_written();
                let clip_distances =
                    (written & ((1u32 << shader.clip_distances) - 1)).count_ones() as u8;
                let cull_distances = written.count_ones() as u8 - clip_distances;
                Some(StageInfo::Vertex(VertexInfo {
                    inputs: self
                        .attributes
                        .iter()
                        .map(|(&location, &(r, n, kind))| VertexInput {
                            location,
                            reg: reg(r),
                            components: n,
                            kind,
                            half: false,
                        })
                        .collect(),
                    vertex_id_reg: self.vertex_id.map(reg),
                    instance_id_reg: self.instance_id.map(reg),
                    position_reg: find(VaryingSlot::Position),
                    point_size_reg: find(VaryingSlot::PointSize),
                    outputs,
                    clip_distances,
                    cull_distances,
                }))
            }
            Stage::Fragment => {
                let ij =
                    |i: Interpolation, s: Sampling| self.ij.get(&mode_key(i, s)).map(|&r| reg(r));
                let get = |k: OutputKey| self.outputs.get(&k).map(out_reg);
                let per_sample = self.ij.keys().any(|k| k.1 == Sampling::Sample as u8)
                    || self.sample_id.is_some();
                // The half register aliasing the low 16 bits of scalar `r`.
                let low_half = |r: u8| RegId(2 * r);
                Some(StageInfo::Fragment(FragmentInfo {
                    inputs: self
                        .varyings
                        .iter()
                        .map(|(&location, v)| FragmentInput {
                            location,
                            component: v.first,
                            components: v.last - v.first + 1,
                            interpolation: v.interpolation,
                            sampling: v.sampling,
                            kind: v.kind,
                            inloc: v.inloc,
                        })
                        .collect(),
                    barycentrics: Barycentrics {
                        persp_pixel: ij(Interpolation::Smooth, Sampling::Center),
                        persp_centroid: ij(Interpolation::Smooth, Sampling::Centroid),
                        persp_sample: ij(Interpolation::Smooth, Sampling::Sample),
                        linear_pixel: ij(Interpolation::NoPerspective, Sampling::Center),
                        linear_centroid: ij(Interpolation::NoPerspective, Sampling::Centroid),
                        linear_sample: ij(Interpolation::NoPerspective, Sampling::Sample),
                    },
                    frag_coord_xy_reg: self.frag_coord_xy.map(reg),
                    frag_coord_zw_reg: self.frag_coord_zw.map(reg),
                    front_facing_reg: self.face.map(low_half),
                    sample_id_reg: self.sample_id.map(low_half),
                    sample_mask_in_reg: self.sample_mask_in.map(reg),
                    per_sample,
                    color_outputs: self
                        .outputs
                        .iter()
                        .filter_map(|(k, o)| match k {
                            OutputKey::Color(location) => Some(ColorOutput {
                                location: *location,
                                reg: out_reg(o),
                                half: false,
                                components: 8 - o.mask.leading_zeros() as u8,
                                kind: o.kind,
                            }),
                            _ => None,
                        })
                        .collect(),
                    depth_reg: get(OutputKey::Depth),
                    sample_mask_reg: get(OutputKey::SampleMask),
                    discards,
                    early_fragment_tests: shader.early_fragment_tests,
                    uses_derivatives,
                    input_attachments: shader.input_attachments.clone(),
                }))
            }
        }
    }
}
