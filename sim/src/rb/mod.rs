//! The render backend: what happens to a fragment after rasterization and
//! the fragment shader. Per sample, in Vulkan's order ("Per-Fragment
//! Operations"): the sample mask (the shader's and RB_BLEND_CNTL's
//! SAMPLE_MASK) and alpha to coverage, then the depth bounds, stencil and
//! depth tests ([`depth`]), the occlusion sample count, and blending or
//! the logic operation ([`blend`]) into each colour target with its write
//! mask. The depth and stencil tests run before the fragment shader when
//! RB_DEPTH_PLANE_CNTL.Z_MODE is A6XX_EARLY_Z (the shader then neither
//! writes depth nor, for the tests, runs), after it otherwise.
//!
//! In a bin pass (see [`crate::gmem::bin::render_bin`]) the targets are in
//! GMEM, laid out for the bin, and the RB sees only the bin's pixels.
//! Otherwise they are [`crate::surface`]s in memory, one per layer a primitive goes to
//! (the VPC's layer output), built from the registers the first time a
//! fragment of the draw reaches the layer: tiling, UBWC and the texel
//! formats are the surface module's.
//!
//! Registers (a6xx.xml): RB_FS_OUTPUT_CNTL0/1 and SP_FS_OUTPUT_CNTL0/1 (how
//! many colour outputs, whether the shader writes depth, sample mask and
//! stencil reference, and from which registers), SP_FS_OUTPUT[i] (the
//! first of the four registers of colour output i, full or half),
//! SP_FS_MRT[i] (integer outputs), RB_RENDER_COMPONENTS, RB_MRT[i] (write
//! mask, blend and ROP enables, blend equations, format, tile mode, pitch,
//! base), RB_BLEND_CNTL, RB_BLEND_*_F32, RB_SRGB_CNTL, RB_DEPTH_*,
//! RB_STENCIL_*, RB_Z_BOUNDS_*, RB_Z_CLAMP_*. The RB counts the samples
//! that pass the tests, for ZPASS_DONE to report, unless
//! RB_SAMPLE_COUNT_CONTROL.DISABLE is set: Turnip sets it around its own
//! clears (tu_clear_blit.cc) and programs the register nowhere else, so
//! a context that never wrote it counts (its reset value, 0).

pub(crate) mod blend;
pub(crate) mod depth;

use parsnip_registers::enums::{
    A3xxRbBlendOpcode, A6xxDepthFormat, A6xxZtestMode, AdrenoRbBlendFactor, AdrenoRbDitherMode,
};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

use crate::ccu::CcuPart;
use crate::draw_context::{DrawContext, DrawError};
use crate::gmem::bin::Bin;
use crate::gras::coverage::Quad;
use crate::gras::samples::SamplePattern;
use crate::gras::setup::PrimitiveSetup;
use crate::memory::AddressSpace;
use crate::report::Unit;
use crate::shader_state::RegId;
use crate::surface::format::{DepthFormat, NumberClass, Texel, TexelFormat};
use crate::surface::{registers as surfaces, Surface, SurfaceError};
use blend::{blend_component, logic_op, BlendInputs};
use depth::{DepthStencil, StencilFace, TestBuffers};

const U: Unit = Unit::Rb;

/// Colour targets the RB has.
pub(crate) const TARGETS: usize = 8;

/// The blend equation of one target.
#[derive(Clone, Copy, Debug)]
struct Blend {
    rgb: (A3xxRbBlendOpcode, AdrenoRbBlendFactor, AdrenoRbBlendFactor),
    alpha: (A3xxRbBlendOpcode, AdrenoRbBlendFactor, AdrenoRbBlendFactor),
    rgb_on: bool,
    alpha_on: bool,
}

/// One colour target and the shader output that feeds it.
#[derive(Clone, Copy, Debug)]
struct ColorTarget {
    format: TexelFormat,
    write_mask: u8,
    blend: Option<Blend>,
    rop: Option<u32>,
    /// The first register of the output, and whether it is half.
    output: (u32, bool),
    /// Integer outputs, and whether signed.
    integer: Option<bool>,
}

/// The surfaces of one layer: colour targets (by target index), depth and
/// separate stencil.
struct LayerSurfaces {
    layer: u32,
    colors: Vec<Option<Surface>>,
    depth: Option<Surface>,
    stencil: Option<Surface>,
}

/// The render backend of one draw.
pub(crate) struct RenderBackend {
    targets: Vec<Option<ColorTarget>>,
    /// The layers fragments went to so far; the first is layer 0, built
    /// when the draw starts.
    layers: Vec<LayerSurfaces>,
    tests: DepthStencil,
    early: bool,
    sample_mask: u32,
    alpha_to_coverage: bool,
    alpha_to_one: bool,
    /// Dual-source blending: the register of the second source.
    dual_source: Option<(u32, bool)>,
    constant: [f32; 4],
    depth_reg: Option<u32>,
    sample_mask_reg: Option<u32>,
    stencil_ref_reg: Option<u32>,
    samples: SamplePattern,
    count_samples: bool,
    /// Samples that passed the depth and stencil tests, for occlusion
    /// queries.
    pub passed_samples: u64,
    /// When the targets are in GMEM, the bin they hold.
    bin: Option<Bin>,
}

impl RenderBackend {
    /// The RB state of a draw. `fs`: the draw has a fragment shader.
    pub fn read(
        ctx: &DrawContext,
        samples: SamplePattern,
        fs: bool,
    ) -> Result<RenderBackend, DrawError> {
        let bin =
            crate::gmem::bin::render_bin(ctx.regs).map_err(|e| surface_error("the bin", e))?;
        let alpha = regs::RbAlphaControl::from_raw(ctx.reg32::<regs::RbAlphaControl>(U)?);
        if alpha.alpha_test {
            return Err(DrawError::not_modelled(
                U,
                "the alpha test (RB_ALPHA_CONTROL)",
            ));
        }
        let blend_cntl = regs::RbBlendCntl::from_raw(ctx.reg32::<regs::RbBlendCntl>(U)?);
        let out0 = regs::RbFsOutputCntl0::from_raw(ctx.reg32::<regs::RbFsOutputCntl0>(U)?);
        let mrt = if fs {
            regs::RbFsOutputCntl1::from_raw(ctx.reg32::<regs::RbFsOutputCntl1>(U)?).mrt as usize
        } else {
            0
        };
        if mrt > TARGETS {
            return Err(DrawError::bad_state(
                U,
                format!("RB_FS_OUTPUT_CNTL1.MRT is {mrt}; the RB has {TARGETS} targets"),
            ));
        }
        let (sp_out0, components) = if fs {
            (
                regs::SpFsOutputCntl0::from_raw(ctx.reg32::<regs::SpFsOutputCntl0>(U)?),
                ctx.reg32::<regs::RbRenderComponents>(U)?,
            )
        } else {
            (regs::SpFsOutputCntl0::from_raw(0xfcfc_fc00), 0)
        };
        let count = sample_count(ctx)?;
        let mut targets = Vec::with_capacity(mrt);
        let mut colors = vec![None; mrt];
        let mut uses_constant = false;
        let dither = if mrt > 0 {
            regs::RbDitherCntl::from_raw(ctx.reg32::<regs::RbDitherCntl>(U)?)
        } else {
            regs::RbDitherCntl::default()
        };
        let dithers = [
            dither.dither_mode_mrt0,
            dither.dither_mode_mrt1,
            dither.dither_mode_mrt2,
            dither.dither_mode_mrt3,
            dither.dither_mode_mrt4,
            dither.dither_mode_mrt5,
            dither.dither_mode_mrt6,
            dither.dither_mode_mrt7,
        ];
        for i in 0..mrt as u32 {
            let control = regs::RbMrtControl::from_raw(ctx.reg32_at::<regs::RbMrtControl>(U, i)?);
            let rt_components = (components >> (4 * i)) & 0xf;
            let write_mask = (control.component_enable & rt_components) as u8;
            if write_mask == 0 {
                targets.push(None);
                continue;
            }
            if dithers[i as usize] != AdrenoRbDitherMode::DITHER_DISABLE {
                return Err(DrawError::not_modelled(
                    U,
                    format!("dithering of render target {i} (RB_DITHER_CNTL)"),
                ));
            }
            let surface = match &bin {
                Some(bin) => surfaces::color_target_in_gmem(ctx.regs, ctx.info, i, bin),
                None => surfaces::color_target(ctx.regs, ctx.info, i, 0),
            }
            .map_err(|e| surface_error(&format!("render target {i}"), e))?;
            check_samples(&surface, count, &format!("render target {i}"))?;
            let cf = surface
                .texel_format()
                .map_err(|e| surface_error(&format!("render target {i}"), e))?;
            colors[i as usize] = Some(surface);
            let out = regs::SpFsOutputReg::from_raw(ctx.reg32_at::<regs::SpFsOutputReg>(U, i)?);
            let mrt_reg = regs::SpFsMrtReg::from_raw(ctx.reg32_at::<regs::SpFsMrtReg>(U, i)?);
            let integer = if mrt_reg.color_sint || mrt_reg.color_uint {
                Some(mrt_reg.color_sint)
            } else {
                None
            };
            if integer.is_some() != cf.is_integer() {
                return Err(DrawError::bad_state(
                    U,
                    format!(
                        "SP_FS_MRT[{i}] says the output is {}integer but RB_MRT[{i}]'s format is \
                         {}",
                        if integer.is_some() { "" } else { "not " },
                        if cf.is_integer() { "integer" } else { "not" }
                    ),
                ));
            }
            let blend = if control.blend || control.blend2 {
                if cf.is_integer() {
                    None
                } else {
                    let b = regs::RbMrtBlendControl::from_raw(
                        ctx.reg32_at::<regs::RbMrtBlendControl>(U, i)?,
                    );
                    for f in [
                        b.rgb_src_factor,
                        b.rgb_dest_factor,
                        b.alpha_src_factor,
                        b.alpha_dest_factor,
                    ] {
                        uses_constant |= (12..=15).contains(&f.0);
                    }
                    Some(Blend {
                        rgb: (b.rgb_blend_opcode, b.rgb_src_factor, b.rgb_dest_factor),
                        alpha: (
                            b.alpha_blend_opcode,
                            b.alpha_src_factor,
                            b.alpha_dest_factor,
                        ),
                        rgb_on: control.blend,
                        alpha_on: control.blend2,
                    })
                }
            } else {
                None
            };
            let float_target = !cf.is_integer() && !is_normalized(&cf);
            let rop = (control.rop_enable && !float_target).then_some(control.rop_code.0);
            targets.push(Some(ColorTarget {
                format: cf,
                write_mask,
                blend: if rop.is_some() { None } else { blend },
                rop,
                output: (out.regid, out.half_precision),
                integer,
            }));
        }
        let constant = if uses_constant {
            [
                f32::from_bits(ctx.reg32::<regs::RbBlendRedF32>(U)?),
                f32::from_bits(ctx.reg32::<regs::RbBlendGreenF32>(U)?),
                f32::from_bits(ctx.reg32::<regs::RbBlendBlueF32>(U)?),
                f32::from_bits(ctx.reg32::<regs::RbBlendAlphaF32>(U)?),
            ]
        } else {
            [0.0; 4]
        };
        let z_mode =
            regs::RbDepthPlaneCntl::from_raw(ctx.reg32::<regs::RbDepthPlaneCntl>(U)?).z_mode;
        let early = match z_mode {
            A6xxZtestMode::A6XX_EARLY_Z => true,
            A6xxZtestMode::A6XX_LATE_Z | A6xxZtestMode::A6XX_EARLY_LRZ_LATE_Z => false,
            m => {
                return Err(DrawError::bad_state(
                    U,
                    format!("RB_DEPTH_PLANE_CNTL.Z_MODE {}: no such test order", m.0),
                ))
            }
        };
        if early && out0.frag_writes_z {
            return Err(DrawError::bad_state(
                U,
                "early depth testing of a fragment shader that writes depth",
            ));
        }
        let reg = |enabled: bool, r: u32| (enabled && RegId(r as u8).is_used()).then_some(r);
        let dual_source = if fs && blend_cntl.dual_color_in_enable {
            let out = regs::SpFsOutputReg::from_raw(ctx.reg32_at::<regs::SpFsOutputReg>(U, 1)?);
            Some((out.regid, out.half_precision))
        } else {
            None
        };
        let count_samples = ctx.regs.register_written_at::<regs::RbSampleCountControl>() == 0
            || !regs::RbSampleCountControl::from_raw(ctx.reg32::<regs::RbSampleCountControl>(U)?)
                .disable;
        let (tests, depth, stencil) = read_tests(ctx, count, bin.as_ref())?;
        Ok(RenderBackend {
            targets,
            layers: vec![LayerSurfaces {
                layer: 0,
                colors,
                depth,
                stencil,
            }],
            tests,
            early,
            sample_mask: blend_cntl.sample_mask,
            alpha_to_coverage: blend_cntl.alpha_to_coverage,
            alpha_to_one: blend_cntl.alpha_to_one,
            dual_source,
            constant,
            depth_reg: reg(out0.frag_writes_z, sp_out0.depth_regid),
            sample_mask_reg: reg(out0.frag_writes_sampmask, sp_out0.sampmask_regid),
            stencil_ref_reg: reg(out0.frag_writes_stencilref, sp_out0.stencilref_regid),
            samples,
            count_samples,
            passed_samples: 0,
            bin,
        })
    }

    /// Where the targets' pixel (x, y) is: in memory at (x, y), or in GMEM
    /// in bin coordinates; None for a pixel outside the bin, which the RB
    /// of a bin pass never sees.
    fn place(&self, x: i32, y: i32) -> Option<(u32, u32)> {
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        match &self.bin {
            None => Some((x, y)),
            Some(b) => {
                let r = b.rect();
                ((r.x0..=r.x1).contains(&x) && (r.y0..=r.y1).contains(&y)).then(|| b.local(x, y))
            }
        }
    }

    /// The memory the targets are in: GMEM in a bin, else memory, through
    /// the CCU's `part` with strict caches.
    fn target_memory<'m>(
        &self,
        ctx: &DrawContext<'m>,
        part: CcuPart,
    ) -> Result<&'m AddressSpace, DrawError> {
        match self.bin {
            None => Ok(ctx.ccu.map_or(ctx.memory, |c| c.part(part))),
            Some(_) => ctx.gmem.memory().map_err(|e| surface_error("GMEM", e)),
        }
    }

    /// Whether the tests run before the fragment shader.
    pub fn is_early(&self) -> bool {
        self.early
    }

    fn sample_position(&self, x: i32, y: i32, s: usize) -> (f64, f64) {
        let (sx, sy) = self.samples.positions[s];
        (f64::from(x) + f64::from(sx), f64::from(y) + f64::from(sy))
    }

    /// The depth and stencil tests of every covered sample of a quad, with
    /// depths from the primitive; returns the quad with the samples that
    /// failed removed.
    pub fn early_tests(
        &mut self,
        ctx: &DrawContext,
        setup: &PrimitiveSetup,
        mut quad: Quad,
    ) -> Result<Quad, DrawError> {
        let layer = self.layer(ctx, setup.layer)?;
        for p in 0..4 {
            let (x, y) = quad.pixel(p);
            let Some((px, py)) = self.place(x, y) else {
                quad.coverage[p] = 0;
                continue;
            };
            let mut cov = quad.coverage[p] & self.sample_mask;
            for s in 0..self.samples.count {
                if cov >> s & 1 == 0 {
                    continue;
                }
                let (sx, sy) = self.sample_position(x, y, s);
                let z = setup.depth(sx, sy) as f32;
                if !self.test_sample(ctx, layer, px, py, s, z, setup.front_facing, None)? {
                    cov &= !(1 << s);
                }
            }
            quad.coverage[p] = cov;
        }
        Ok(quad)
    }

    /// Whether the depth test, without changing anything, keeps sample `s`
    /// of pixel (x, y) at depth `z` (stencil aside): for strict mode's
    /// check that LRZ rejects only what the depth test would.
    pub fn depth_test_keeps(
        &mut self,
        ctx: &DrawContext,
        layer: u32,
        x: i32,
        y: i32,
        s: usize,
        z: f32,
    ) -> Result<bool, DrawError> {
        let Some((px, py)) = self.place(x, y) else {
            return Ok(false);
        };
        let layer = self.layer(ctx, layer)?;
        let memory = self.target_memory(ctx, CcuPart::Depth)?;
        let l = &self.layers[layer];
        let buffers = TestBuffers {
            depth: l.depth.as_ref(),
            stencil: None,
        };
        let look = DepthStencil {
            write: false,
            stencil: None,
            bounds: None,
            ..self.tests
        };
        let o = look
            .test(memory, buffers, px, py, s as u32, z, true, None)
            .map_err(|e| surface_error("the depth test", e))?;
        Ok(o.passed)
    }

    /// Which entry of `layers` holds `layer`'s surfaces, building them the
    /// first time a fragment goes there.
    fn layer(&mut self, ctx: &DrawContext, layer: u32) -> Result<usize, DrawError> {
        if let Some(i) = self.layers.iter().position(|l| l.layer == layer) {
            return Ok(i);
        }
        if self.bin.is_some() {
            return Err(DrawError::not_modelled(
                U,
                format!("layer {layer} of targets in GMEM: layered bin rendering"),
            ));
        }
        let mut colors = Vec::with_capacity(self.targets.len());
        for (i, t) in self.targets.iter().enumerate() {
            colors.push(match t {
                Some(_) => Some(
                    surfaces::color_target(ctx.regs, ctx.info, i as u32, layer)
                        .map_err(|e| surface_error(&format!("render target {i}"), e))?,
                ),
                None => None,
            });
        }
        let depth = match self.tests.depth {
            Some(_) => Some(
                surfaces::depth_buffer(ctx.regs, ctx.info, layer)
                    .map_err(|e| surface_error("the depth buffer", e))?
                    .0,
            ),
            None => None,
        };
        let stencil = if self.tests.separate_stencil {
            surfaces::stencil_buffer(ctx.regs, ctx.info, layer)
                .map_err(|e| surface_error("the stencil buffer", e))?
        } else {
            None
        };
        self.layers.push(LayerSurfaces {
            layer,
            colors,
            depth,
            stencil,
        });
        Ok(self.layers.len() - 1)
    }

    #[allow(clippy::too_many_arguments)]
    fn test_sample(
        &mut self,
        ctx: &DrawContext,
        layer: usize,
        x: u32,
        y: u32,
        s: usize,
        z: f32,
        front: bool,
        stencil_ref: Option<u8>,
    ) -> Result<bool, DrawError> {
        let memory = self.target_memory(ctx, CcuPart::Depth)?;
        let l = &self.layers[layer];
        let buffers = TestBuffers {
            depth: l.depth.as_ref(),
            stencil: l.stencil.as_ref(),
        };
        let o = self
            .tests
            .test(memory, buffers, x, y, s as u32, z, front, stencil_ref)
            .map_err(|e| surface_error("the depth and stencil tests", e))?;
        if o.passed && self.count_samples {
            self.passed_samples += 1;
        }
        Ok(o.passed)
    }

    /// One fragment (a pixel, or a sample of it with per-sample shading)
    /// after the fragment shader: `coverage` its samples, `read(register,
    /// half)` the shader's registers (`None` without a fragment shader).
    #[allow(clippy::too_many_arguments)]
    pub fn fragment(
        &mut self,
        ctx: &DrawContext,
        setup: &PrimitiveSetup,
        x: i32,
        y: i32,
        coverage: u32,
        read: Option<&dyn Fn(u32, bool) -> Option<u32>>,
    ) -> Result<(), DrawError> {
        let reg = |r: u32, half: bool| -> Result<u32, DrawError> {
            let read = read.expect("registers read only with a fragment shader");
            read(r, half).ok_or_else(|| {
                DrawError::bad_state(
                    U,
                    format!(
                        "the RB reads fragment shader output register {}r{}.{}, outside its \
                         register footprint",
                        if half { "h" } else { "" },
                        r / 4,
                        ['x', 'y', 'z', 'w'][(r % 4) as usize]
                    ),
                )
            })
        };
        let Some((px, py)) = self.place(x, y) else {
            return Ok(());
        };
        let layer = self.layer(ctx, setup.layer)?;
        let mut cov = coverage & self.sample_mask;
        if let Some(r) = self.sample_mask_reg {
            cov &= reg(r, false)?;
        }
        let colors = self.read_colors(&reg)?;
        if self.alpha_to_coverage {
            if let Some(c0) = colors[0] {
                if let Texel::Float(v) = c0.0 {
                    cov &= alpha_coverage(v[3], self.samples.count);
                }
            }
        }
        if cov == 0 {
            return Ok(());
        }
        if !self.early {
            let z_out = match self.depth_reg {
                Some(r) => Some(f32::from_bits(reg(r, false)?)),
                None => None,
            };
            let stencil_ref = match self.stencil_ref_reg {
                Some(r) => Some(reg(r, false)? as u8),
                None => None,
            };
            for s in 0..self.samples.count {
                if cov >> s & 1 == 0 {
                    continue;
                }
                let z = match z_out {
                    Some(z) => z,
                    None => {
                        let (sx, sy) = self.sample_position(x, y, s);
                        setup.depth(sx, sy) as f32
                    }
                };
                if !self.test_sample(ctx, layer, px, py, s, z, setup.front_facing, stencil_ref)? {
                    cov &= !(1 << s);
                }
            }
        }
        if cov == 0 {
            return Ok(());
        }
        let memory = self.target_memory(ctx, CcuPart::Color)?;
        let surfaces = &self.layers[layer].colors;
        for (i, t) in self.targets.iter().enumerate() {
            let (Some(t), Some((color, src1)), Some(surface)) = (t, colors[i], &surfaces[i]) else {
                continue;
            };
            for s in 0..self.samples.count {
                if cov >> s & 1 == 0 {
                    continue;
                }
                write_sample(
                    memory,
                    t,
                    surface,
                    px,
                    py,
                    s as u32,
                    color,
                    src1,
                    self.constant,
                    self.alpha_to_one,
                )?;
            }
        }
        Ok(())
    }

    /// Each target's colour (and second source for dual-source blending).
    #[allow(clippy::type_complexity)]
    fn read_colors(
        &self,
        reg: &dyn Fn(u32, bool) -> Result<u32, DrawError>,
    ) -> Result<[Option<(Texel, [f32; 4])>; TARGETS], DrawError> {
        let mut out = [None; TARGETS];
        for (i, t) in self.targets.iter().enumerate() {
            let Some(t) = t else {
                continue;
            };
            let (first, half) = t.output;
            let mut raw = [0u32; 4];
            for (c, v) in raw.iter_mut().enumerate() {
                *v = reg(first + c as u32, half)?;
            }
            let texel = match (t.integer, half) {
                (Some(signed), true) => Texel::Int(raw.map(|v| {
                    if signed {
                        v as u16 as i16 as i32 as u32
                    } else {
                        v & 0xffff
                    }
                })),
                (Some(_), false) => Texel::Int(raw),
                (None, true) => {
                    Texel::Float(raw.map(|v| parsnip_isa::eval::float::f16_to_f32(v as u16)))
                }
                (None, false) => Texel::Float(raw.map(f32::from_bits)),
            };
            out[i] = Some((texel, [0.0; 4]));
        }
        if let Some((first, half)) = self.dual_source {
            let mut src1 = [0f32; 4];
            for (c, v) in src1.iter_mut().enumerate() {
                let r = reg(first + c as u32, half)?;
                *v = if half {
                    parsnip_isa::eval::float::f16_to_f32(r as u16)
                } else {
                    f32::from_bits(r)
                };
            }
            if let Some(c0) = &mut out[0] {
                c0.1 = src1;
            }
        }
        Ok(out)
    }
}

/// Alpha to coverage: the first round(alpha * n) samples. Which samples
/// the hardware keeps for a given alpha is not public; Vulkan leaves the
/// pattern to the implementation, so this keeps the count right.
fn alpha_coverage(alpha: f32, n: usize) -> u32 {
    let k = (f64::from(alpha.clamp(0.0, 1.0)) * n as f64).round() as u32;
    if k >= 32 {
        u32::MAX
    } else {
        (1 << k) - 1
    }
}

/// Converts a surface error of `what` to the RB's.
fn surface_error(what: &str, e: SurfaceError) -> DrawError {
    match e {
        SurfaceError::Fault(f) => DrawError::fault(U, f),
        SurfaceError::Register(e) => DrawError::Unit {
            unit: U,
            problem: crate::report::UnitProblem::Register(e),
        },
        SurfaceError::Invalid(why) | SurfaceError::Compression(why) => {
            DrawError::bad_state(U, format!("{what}: {why}"))
        }
        SurfaceError::NotModelled(why) => DrawError::not_modelled(U, format!("{what}: {why}")),
    }
}

/// A target whose sample count is not the rasterizer's.
fn check_samples(surface: &Surface, count: usize, what: &str) -> Result<(), DrawError> {
    if surface.desc.samples as usize != count {
        return Err(DrawError::not_modelled(
            U,
            format!(
                "{what} has {} samples a pixel (RB_DEST_MSAA_CNTL) but the rasterizer makes {count} \
                 (RB_RAS_MSAA_CNTL): mixed sample counts are not modelled",
                surface.desc.samples
            ),
        ));
    }
    Ok(())
}

/// Unorm or snorm: values clamp to the format's range before blending.
fn is_normalized(f: &TexelFormat) -> bool {
    matches!(f.class, NumberClass::Unorm | NumberClass::Snorm)
}

/// Clamps a colour to a normalized format's range.
fn clamp_to(f: &TexelFormat, v: [f32; 4]) -> [f32; 4] {
    match f.class {
        NumberClass::Unorm => v.map(|c| c.clamp(0.0, 1.0)),
        NumberClass::Snorm => v.map(|c| c.clamp(-1.0, 1.0)),
        _ => v,
    }
}

/// The bits of a texel with these components.
fn pack(f: &TexelFormat, texel: Texel) -> u128 {
    let mut raw = [0u8; 16];
    f.encode(texel, &mut raw);
    u128::from_le_bytes(raw)
}

/// Blends (or logic-ops) one sample of a target and writes it.
#[allow(clippy::too_many_arguments)]
fn write_sample(
    memory: &AddressSpace,
    t: &ColorTarget,
    surface: &Surface,
    x: u32,
    y: u32,
    s: u32,
    color: Texel,
    src1: [f32; 4],
    constant: [f32; 4],
    alpha_to_one: bool,
) -> Result<(), DrawError> {
    let err = |e| surface_error("a render target", e);
    let mut old = [0u8; 16];
    let all = (0..4)
        .filter(|&c| t.format.has_component(c))
        .fold(0u8, |m, c| m | 1 << c);
    let partial = t.write_mask & all != all;
    if t.blend.is_some() || t.rop.is_some() || partial {
        surface
            .read_element(memory, x, y, s, &mut old)
            .map_err(err)?;
    }
    let old_bits = u128::from_le_bytes(old);
    let color = match color {
        Texel::Float(mut v) => {
            if alpha_to_one {
                v[3] = 1.0;
            }
            Texel::Float(clamp_to(&t.format, v))
        }
        i => i,
    };
    let new_bits = match (t.blend, color) {
        (Some(b), Texel::Float(src)) => {
            let dst = match t.format.decode(&old) {
                Texel::Float(d) => d,
                Texel::Int(_) => [0.0; 4],
            };
            let inputs = BlendInputs {
                src,
                src1: clamp_to(&t.format, src1),
                dst,
                constant: clamp_to(&t.format, constant),
            };
            let mut out = src;
            for (c, o) in out.iter_mut().enumerate() {
                let (on, (op, sf, df)) = if c < 3 {
                    (b.rgb_on, b.rgb)
                } else {
                    (b.alpha_on, b.alpha)
                };
                if on {
                    *o = blend_component(op, sf, df, c, &inputs)
                        .map_err(|e| DrawError::bad_state(U, e))?;
                }
            }
            pack(&t.format, Texel::Float(out))
        }
        _ => {
            let src = pack(&t.format, color);
            match t.rop {
                Some(code) => logic_op(code, src, old_bits),
                None => src,
            }
        }
    };
    let keep = !t.format.component_bits(t.write_mask);
    let bits = new_bits & !keep | old_bits & keep;
    surface
        .write_element(
            memory,
            x,
            y,
            s,
            &bits.to_le_bytes()[..t.format.bytes as usize],
        )
        .map_err(err)
}

/// The sample count of the draw's targets (RB_RAS_MSAA_CNTL).
fn sample_count(ctx: &DrawContext) -> Result<usize, DrawError> {
    let msaa = regs::RbRasMsaaCntl::from_raw(ctx.reg32::<regs::RbRasMsaaCntl>(U)?);
    Ok(crate::gras::samples::sample_count(msaa.samples))
}

/// The depth, stencil and depth bounds state, and layer 0's depth and
/// separate stencil buffers.
fn read_tests(
    ctx: &DrawContext,
    samples: usize,
    bin: Option<&Bin>,
) -> Result<(DepthStencil, Option<Surface>, Option<Surface>), DrawError> {
    let cntl = regs::RbDepthCntl::from_raw(ctx.reg32::<regs::RbDepthCntl>(U)?);
    let format = match ctx.chip() {
        Chip::A6xx => {
            a6xx::RbDepthBufferInfo::from_raw(ctx.reg32::<a6xx::RbDepthBufferInfo>(U)?).depth_format
        }
        Chip::A7xx => {
            a7xx::RbDepthBufferInfo::from_raw(ctx.reg32::<a7xx::RbDepthBufferInfo>(U)?).depth_format
        }
    };
    let sc = regs::RbStencilControl::from_raw(ctx.reg32::<regs::RbStencilControl>(U)?);
    // The buffer is touched only when a test uses it.
    let used =
        cntl.z_test_enable || cntl.z_write_enable || cntl.z_bounds_enable || sc.stencil_enable;
    let (depth, depth_surface) = if format == A6xxDepthFormat::DEPTH6_NONE || !used {
        (None, None)
    } else {
        let (surface, format) = match bin {
            Some(bin) => surfaces::depth_buffer_in_gmem(ctx.regs, ctx.info, bin),
            None => surfaces::depth_buffer(ctx.regs, ctx.info, 0),
        }
        .map_err(|e| surface_error("the depth buffer", e))?;
        check_samples(&surface, samples, "the depth buffer")?;
        (Some(format), Some(surface))
    };
    let clamp = if cntl.z_clamp_enable {
        Some((
            f32::from_bits(ctx.reg32::<regs::RbZClampMin>(U)?),
            f32::from_bits(ctx.reg32::<regs::RbZClampMax>(U)?),
        ))
    } else {
        None
    };
    let bounds = if cntl.z_bounds_enable {
        Some((
            f32::from_bits(ctx.reg32::<regs::RbZBoundsMin>(U)?),
            f32::from_bits(ctx.reg32::<regs::RbZBoundsMax>(U)?),
        ))
    } else {
        None
    };
    let (stencil, stencil_buffer) = if sc.stencil_enable {
        let r = regs::RbStencilref::from_raw(ctx.reg32::<regs::RbStencilref>(U)?);
        let m = regs::RbStencilmask::from_raw(ctx.reg32::<regs::RbStencilmask>(U)?);
        let w = regs::RbStencilwrmask::from_raw(ctx.reg32::<regs::RbStencilwrmask>(U)?);
        let front = StencilFace {
            func: sc.func,
            fail: sc.fail,
            zpass: sc.zpass,
            zfail: sc.zfail,
            reference: r.r#ref as u8,
            mask: m.mask as u8,
            write_mask: w.wrmask as u8,
        };
        let back = if sc.stencil_enable_bf {
            StencilFace {
                func: sc.func_bf,
                fail: sc.fail_bf,
                zpass: sc.zpass_bf,
                zfail: sc.zfail_bf,
                reference: r.bfref as u8,
                mask: m.bfmask as u8,
                write_mask: w.bfwrmask as u8,
            }
        } else {
            front
        };
        let separate = match bin {
            Some(bin) => surfaces::stencil_buffer_in_gmem(ctx.regs, ctx.info, bin),
            None => surfaces::stencil_buffer(ctx.regs, ctx.info, 0),
        }
        .map_err(|e| surface_error("the stencil buffer", e))?;
        match &separate {
            Some(surface) => check_samples(surface, samples, "the stencil buffer")?,
            None if depth.is_some_and(|d: DepthFormat| d.has_stencil()) => {}
            None => {
                return Err(DrawError::bad_state(
                    U,
                    "the stencil test is on, but there is no stencil buffer (no separate \
                     stencil, and the depth format is not D24S8)",
                ))
            }
        }
        (Some((front, back)), separate)
    } else {
        (None, None)
    };
    Ok((
        DepthStencil {
            depth,
            test: cntl.z_test_enable,
            write: cntl.z_write_enable,
            func: cntl.zfunc,
            clamp,
            bounds,
            stencil,
            separate_stencil: stencil_buffer.is_some(),
        },
        depth_surface,
        stencil_buffer,
    ))
}
