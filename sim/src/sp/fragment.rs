//! Fragment shader waves: quads of 2x2 fragments packed into waves, their
//! inputs written where HLSQ_CONTROL_2..4_REG say before the first
//! instruction, and what they leave behind read by the RB after `end`.
//!
//! A wave of N fibers holds N/4 quads, quad k in fibers 4k..4k+3 in the
//! order top-left, top-right, bottom-left, bottom-right (what
//! `quad_shuffle` and `dsx`/`dsy` rely on). Fragments of a quad no sample
//! of the primitive covers run as helper invocations. With per-sample
//! shading (GRAS_SAMPLE_CNTL.PER_SAMP_MODE) a quad runs once per sample
//! any of its pixels covers, each fiber for that sample of its pixel.
//!
//! The inputs (ir3_compiler_nir.c's reading of them):
//! - the ij pairs, two full registers each: the weights of the primitive's
//!   vertices 1 and 2 (see `gras::setup`), at the pixel centre, at the
//!   centroid (the centre when every sample is covered, else the first
//!   covered sample) or at the sample, perspective-correct or linear;
//!   CENTERRHW: 1/w at the centre;
//! - XYCOORDREGID: gl_FragCoord.xy as unsigned integers in 1/16 pixel
//!   ("cov.u32f32 then mul 1/16"), at the centre or the sample as
//!   RB_RENDER_CONTROL1.FRAGCOORDSAMPLEMODE says; ZWCOORDREGID: the
//!   fragment's depth and 1/w there as floats;
//! - FACEREGID: a half register, 0 for a front-facing primitive and -1 for
//!   a back-facing one ("we get -1 for back and 0 for front");
//! - SAMPLEID: a half register; SAMPLEMASK: the covered samples.

use super::dispatch::{check_wave_size, failure, DispatchContext};
use super::program::Program;
use super::trap::{error, Trap};
use super::wave::{Wave, WaveState};
use super::wave_registers::WaveRegisters;
use crate::gras::coverage::Quad;
use crate::gras::samples::SamplePattern;
use crate::gras::setup::PrimitiveSetup;
use crate::memory::AddressSpace;
use crate::report::{GraphicsStage, Launch, ShaderFailure};
use crate::shader_state::{RegId, ShaderState};
use crate::vpc::{Interpolation, PointCoord, VaryingLayout, LOCATIONS};

/// Where the hardware writes the fragment shader's inputs (r63.x: not
/// written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FragmentInputRegs {
    pub ij_persp_pixel: RegId,
    pub ij_linear_pixel: RegId,
    pub ij_persp_centroid: RegId,
    pub ij_linear_centroid: RegId,
    pub ij_persp_sample: RegId,
    pub ij_linear_sample: RegId,
    pub xy: RegId,
    pub zw: RegId,
    pub face: RegId,
    pub sample_id: RegId,
    pub sample_mask: RegId,
    pub center_rhw: RegId,
    /// gl_FragCoord.xy at the sample rather than the pixel centre.
    pub frag_coord_at_sample: bool,
    /// The texture lookups made before the shader starts.
    pub prefetch: [Option<Prefetch>; 4],
}

/// A texture prefetch (SP_FS_PREFETCH[i]): the lookup at the
/// perspective-interpolated (pixel centre) coordinates in varying
/// locations `location` and `location + 1`, with the quad's implicit level
/// of detail, its result in the registers from `dst` that `wrmask`
/// enables, one after another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefetch {
    pub location: u32,
    /// (bindless descriptor set, index) of the texture and the sampler.
    pub texture: (Option<u8>, u32),
    pub sampler: (Option<u8>, u32),
    pub dst: RegId,
    pub wrmask: u8,
    pub half: bool,
    pub op: PrefetchOp,
}

/// What a prefetch looks up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrefetchOp {
    Sample,
    /// A gather of component 0..3.
    Gather(u8),
}

/// A primitive some quad of the running wave belongs to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WavePrimitive {
    pub setup: PrimitiveSetup,
    /// Where its four vertex slots (vertices 0, 1, 2, then the provoking
    /// vertex) start in [`FragmentWave::varyings`].
    pub first: usize,
}

/// A quad waiting for its wave, and what the RB needs back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PendingQuad {
    pub quad: Quad,
    /// The sample this invocation is for (per-sample shading).
    pub sample: Option<u8>,
    /// Index into the primitives of the wave.
    pub primitive: u16,
}

/// The quads and primitives of the fragment wave being built or run, and
/// how the VPC interpolates each location: what `bary.f`, `flat.b` and
/// `ldlv` read.
pub(crate) struct FragmentWave {
    pub stride: usize,
    pub varyings: Vec<u32>,
    pub primitives: Vec<WavePrimitive>,
    pub quads: Vec<PendingQuad>,
    pub interpolation: [Interpolation; LOCATIONS],
    pub point_coord: [PointCoord; LOCATIONS],
    pub enabled: [u32; 4],
    /// Each fiber's position (for point coordinates).
    pub position: [(f32, f32); 128],
    /// Fibers that cover no sample: helper invocations.
    pub helpers: u128,
    /// Fibers a `kill` removed.
    pub killed: u128,
}

impl FragmentWave {
    /// The primitive fiber `lane` shades.
    pub fn primitive(&self, lane: usize) -> &WavePrimitive {
        &self.primitives[self.quads[lane / 4].primitive as usize]
    }

    /// Vertex slot `v` (0..=2, 3: the provoking vertex) of fiber `lane`'s
    /// primitive.
    pub fn vertex(&self, lane: usize, v: usize) -> &[u32] {
        let start = self.primitive(lane).first + v * self.stride;
        &self.varyings[start..start + self.stride]
    }

    pub fn is_enabled(&self, location: usize) -> bool {
        location < LOCATIONS && self.enabled[location / 32] >> (location % 32) & 1 != 0
    }
}

/// The fragment shader of one draw.
pub(crate) struct FragmentShader<'a> {
    ctx: DispatchContext<'a>,
    program: Program,
    wave: Wave,
    inputs: FragmentInputRegs,
    samples: SamplePattern,
    per_sample: bool,
    draw: u32,
    waves: u32,
    /// The primitive quads are being added for, as pushed last.
    current: Option<(PrimitiveSetup, Vec<u32>)>,
}

impl<'a> FragmentShader<'a> {
    pub fn new(
        shader: &'a ShaderState,
        inputs: FragmentInputRegs,
        layout: &VaryingLayout,
        samples: SamplePattern,
        per_sample: bool,
        memory: &'a AddressSpace,
        draw: u32,
    ) -> Result<Self, ShaderFailure> {
        check_wave_size(shader).map_err(|message| ShaderFailure::Error { message, at: None })?;
        let mut ctx = DispatchContext::new(shader, memory);
        ctx.fragment = Some(FragmentWave {
            stride: layout.stride,
            varyings: Vec::new(),
            primitives: Vec::new(),
            quads: Vec::new(),
            interpolation: layout.interpolation,
            point_coord: layout.point_coord,
            enabled: layout.enabled,
            position: [(0.0, 0.0); 128],
            helpers: 0,
            killed: 0,
        });
        Ok(FragmentShader {
            ctx,
            program: Program::new(shader.program_iova, shader.a7xx),
            wave: Wave::new(WaveRegisters::new(shader)),
            inputs,
            samples,
            per_sample,
            draw,
            waves: 0,
            current: None,
        })
    }

    fn wave_data(&mut self) -> &mut FragmentWave {
        self.ctx
            .fragment
            .as_mut()
            .expect("a fragment launch has fragment data")
    }

    /// The primitive the next quads belong to: its setup and the vertices
    /// its varyings come from.
    pub fn begin_primitive(
        &mut self,
        setup: &PrimitiveSetup,
        vertices: [&[u32]; 3],
        provoking: &[u32],
    ) {
        let stride = self.wave_data().stride;
        let mut data = Vec::with_capacity(4 * stride);
        for v in vertices.iter().chain(std::iter::once(&provoking)) {
            data.extend_from_slice(&v[..stride]);
        }
        self.current = Some((*setup, data));
        self.add_current();
    }

    /// Copies the current primitive into the wave's table.
    fn add_current(&mut self) {
        let Some((setup, data)) = self.current.take() else {
            return;
        };
        let w = self.wave_data();
        let first = w.varyings.len();
        w.varyings.extend_from_slice(&data);
        w.primitives.push(WavePrimitive { setup, first });
        self.current = Some((setup, data));
    }

    /// Quads a wave holds.
    fn capacity(&self) -> usize {
        self.ctx.d.wave_size as usize / 4
    }

    /// Adds a quad of the current primitive; true when the wave is full
    /// and must run before more quads are added.
    pub fn push_quad(&mut self, quad: Quad) -> bool {
        let primitive = (self.wave_data().primitives.len() - 1) as u16;
        if self.per_sample {
            let any = quad.coverage.iter().fold(0, |a, &c| a | c);
            for s in 0..self.samples.count {
                if any >> s & 1 == 0 {
                    continue;
                }
                let mut q = quad;
                for c in q.coverage.iter_mut() {
                    *c &= 1 << s;
                }
                self.wave_data().quads.push(PendingQuad {
                    quad: q,
                    sample: Some(s as u8),
                    primitive,
                });
            }
        } else {
            self.wave_data().quads.push(PendingQuad {
                quad,
                sample: None,
                primitive,
            });
        }
        self.wave_data().quads.len() >= self.capacity()
    }

    pub fn has_quads(&self) -> bool {
        self.ctx
            .fragment
            .as_ref()
            .is_some_and(|w| !w.quads.is_empty())
    }

    /// Runs the waiting quads as waves; `output(quad, lane, killed, read)`
    /// then sees each fiber, in quad order, with `read(register, half)`
    /// reading what the shader left in its registers.
    pub fn run(
        &mut self,
        mut output: impl FnMut(
            &PendingQuad,
            &PrimitiveSetup,
            usize,
            bool,
            &dyn Fn(u32, bool) -> Option<u32>,
        ),
    ) -> Result<(), ShaderFailure> {
        let capacity = self.capacity();
        let all = std::mem::take(&mut self.wave_data().quads);
        for chunk in all.chunks(capacity) {
            self.wave_data().quads = chunk.to_vec();
            let index = self.waves;
            self.waves += 1;
            let launch = Launch::Draw {
                draw: self.draw,
                stage: GraphicsStage::Fragment,
            };
            let fibers = 4 * chunk.len();
            self.wave.start(index, 0, fibers as u32);
            if let Err(t) = self.write_inputs() {
                return Err(failure(t, launch, &self.ctx, index, 0, &self.program));
            }
            for p in self.inputs.prefetch.iter().flatten() {
                if let Err(t) = super::sampling::prefetch(&mut self.wave, &mut self.ctx, p) {
                    return Err(failure(t, launch, &self.ctx, index, 0, &self.program));
                }
            }
            let w = &mut self.wave;
            let run = w.run(&mut self.program, &mut self.ctx).and_then(|()| {
                if w.state == WaveState::AtBarrier {
                    error("bar in a fragment shader: its waves have no work group to meet")
                        .map_err(|t| (t, 0))
                } else {
                    Ok(())
                }
            });
            if let Err((t, pc)) = run {
                return Err(failure(t, launch, &self.ctx, index, pc, &self.program));
            }
            let data = self.ctx.fragment.as_ref().expect("fragment data");
            let regs = &self.wave.regs;
            for lane in 0..fibers {
                let q = &data.quads[lane / 4];
                let setup = &data.primitives[q.primitive as usize].setup;
                let killed = data.killed >> lane & 1 != 0;
                output(q, setup, lane, killed, &|reg, half| {
                    regs.locate(i64::from(reg), half)
                        .and_then(|loc| regs.read(loc, lane))
                        .ok()
                });
            }
        }
        // Start the next wave's table with the primitive still being
        // rasterized.
        let w = self.wave_data();
        w.primitives.clear();
        w.varyings.clear();
        w.quads.clear();
        self.add_current();
        Ok(())
    }

    /// Writes every fiber's inputs for the quads of the wave.
    fn write_inputs(&mut self) -> Result<(), Trap> {
        let inputs = self.inputs;
        let samples = self.samples;
        let data = self.ctx.fragment.as_mut().expect("fragment data");
        data.helpers = 0;
        data.killed = 0;
        let regs = &mut self.wave.regs;
        for (k, q) in data.quads.iter().enumerate() {
            let setup = &data.primitives[q.primitive as usize].setup;
            for p in 0..4 {
                let lane = 4 * k + p;
                let (px, py) = q.quad.pixel(p);
                let coverage = q.quad.coverage[p];
                if coverage == 0 {
                    data.helpers |= 1 << lane;
                }
                let centre = (f64::from(px) + 0.5, f64::from(py) + 0.5);
                let at = |s: usize| {
                    let (sx, sy) = samples.positions[s];
                    (f64::from(px) + f64::from(sx), f64::from(py) + f64::from(sy))
                };
                let first_covered = (coverage != 0).then(|| coverage.trailing_zeros() as usize);
                let sample_pos = match (q.sample, first_covered) {
                    (Some(s), _) => at(usize::from(s)),
                    (None, Some(s)) => at(s),
                    (None, None) => centre,
                };
                let centroid = if q.sample.is_some() {
                    sample_pos
                } else if coverage == samples.all() || coverage == 0 {
                    centre
                } else {
                    sample_pos
                };
                let shading_pos = if q.sample.is_some() {
                    sample_pos
                } else {
                    centre
                };
                data.position[lane] = (shading_pos.0 as f32, shading_pos.1 as f32);
                let mut put =
                    |reg: RegId, values: &[u32]| put_input(regs, reg, lane, values, false);
                let pair = |(i, j): (f64, f64)| [(i as f32).to_bits(), (j as f32).to_bits()];
                if inputs.ij_persp_pixel.is_used() {
                    put(
                        inputs.ij_persp_pixel,
                        &pair(setup.perspective(centre.0, centre.1)),
                    )?;
                }
                if inputs.ij_linear_pixel.is_used() {
                    put(
                        inputs.ij_linear_pixel,
                        &pair(setup.linear(centre.0, centre.1)),
                    )?;
                }
                if inputs.ij_persp_centroid.is_used() {
                    put(
                        inputs.ij_persp_centroid,
                        &pair(setup.perspective(centroid.0, centroid.1)),
                    )?;
                }
                if inputs.ij_linear_centroid.is_used() {
                    put(
                        inputs.ij_linear_centroid,
                        &pair(setup.linear(centroid.0, centroid.1)),
                    )?;
                }
                if inputs.ij_persp_sample.is_used() {
                    put(
                        inputs.ij_persp_sample,
                        &pair(setup.perspective(sample_pos.0, sample_pos.1)),
                    )?;
                }
                if inputs.ij_linear_sample.is_used() {
                    put(
                        inputs.ij_linear_sample,
                        &pair(setup.linear(sample_pos.0, sample_pos.1)),
                    )?;
                }
                if inputs.center_rhw.is_used() {
                    put(
                        inputs.center_rhw,
                        &[(setup.rhw_at(centre.0, centre.1) as f32).to_bits()],
                    )?;
                }
                let coord = if inputs.frag_coord_at_sample {
                    sample_pos
                } else {
                    centre
                };
                if inputs.xy.is_used() {
                    put(
                        inputs.xy,
                        &[(coord.0 * 16.0) as u32, (coord.1 * 16.0) as u32],
                    )?;
                }
                if inputs.zw.is_used() {
                    put(
                        inputs.zw,
                        &[
                            (setup.depth(coord.0, coord.1) as f32).to_bits(),
                            (setup.rhw_at(coord.0, coord.1) as f32).to_bits(),
                        ],
                    )?;
                }
                put(inputs.sample_mask, &[coverage])?;
                let face = if setup.front_facing { 0 } else { 0xffff };
                put_input(regs, inputs.face, lane, &[face], true)?;
                let sample = u32::from(q.sample.unwrap_or(0));
                put_input(regs, inputs.sample_id, lane, &[sample], true)?;
            }
        }
        Ok(())
    }
}

/// Writes an input to consecutive registers from `reg` (nothing for r63).
fn put_input(
    regs: &mut WaveRegisters,
    reg: RegId,
    lane: usize,
    values: &[u32],
    half: bool,
) -> Result<(), Trap> {
    if !reg.is_used() {
        return Ok(());
    }
    for (i, &v) in values.iter().enumerate() {
        let loc = regs
            .locate(i64::from(reg.0) + i as i64, half)
            .map_err(|_| {
                Trap::Error(format!(
                    "HLSQ_CONTROL_*_REG puts a fragment shader input in {}r{}.{}, outside the \
                 register footprint (SP_FS_CTRL_REG0)",
                    if half { "h" } else { "" },
                    (u32::from(reg.0) + i as u32) / 4,
                    ['x', 'y', 'z', 'w'][((u32::from(reg.0) + i as u32) % 4) as usize]
                ))
            })?;
        regs.write(loc, lane, v);
    }
    Ok(())
}

/// `kill p0.c`: the fibers whose predicate holds are removed from the
/// fragment's output. They run on as helpers, as Mesa's ir3 relies on:
/// it encodes demote (which must keep derivatives working) as `kill` too.
pub(crate) fn kill(
    w: &super::wave::Wave,
    pred: Option<parsnip_isa::Pred>,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let Some(data) = ctx.fragment.as_mut() else {
        return error("kill outside a fragment shader: only fragments can be killed");
    };
    let p = pred.unwrap_or_default();
    for lane in super::lanes::lanes(mask) {
        if w.regs.predicate(usize::from(p.comp), lane) != p.inv {
            data.killed |= 1 << lane;
        }
    }
    Ok(())
}
