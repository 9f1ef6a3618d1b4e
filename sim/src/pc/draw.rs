//! One draw through the pipeline: indices and primitives (PC), vertex fetch
//! and the vertex shader (VFD, SP), the varyings (VPC), rasterization
//! (GRAS), the fragment shader (SP) and the render backend (RB).

use std::collections::HashMap;

use parsnip_registers::regs;

use super::index::{self, Index, IndexSource};
use super::topology;
use super::DrawCall;
use crate::draw_context::{DrawContext, DrawError};
use crate::gras::coverage::Quad;
use crate::gras::setup::PrimitiveSetup;
use crate::gras::{FragmentSink, PrimitiveIn, Rasterizer};
use crate::hlsq;
use crate::lrz::Lrz;
use crate::rb::RenderBackend;
use crate::report::Unit;
use crate::sp::fragment::FragmentShader;
use crate::sp::vertex::{VertexShader, WaveError};
use crate::vfd::{VertexFetch, VertexId};
use crate::vpc::VaryingLayout;
use crate::vsc::{BinGrid, BinningSink, DrawVisibility};

/// What a draw did, for the pipeline statistics counters and occlusion
/// queries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DrawStats {
    /// Vertices and primitives the PC assembled.
    pub vertices: u64,
    pub primitives: u64,
    pub vertex_invocations: u64,
    /// Primitives that reached clipping, and that left it.
    pub clip_invocations: u64,
    pub clip_primitives: u64,
    pub fragment_invocations: u64,
    /// Fragments (pixels) LRZ rejected before the fragment shader.
    pub lrz_rejected: u64,
    /// Samples that passed the depth and stencil tests where the RB counts
    /// them.
    pub passed_samples: u64,
}

/// Runs `call` with the state in `ctx`.
pub(crate) fn run_draw(ctx: &DrawContext, call: &DrawCall) -> Result<DrawStats, DrawError> {
    run(ctx, call, None).map(|(stats, _)| stats)
}

/// Runs `call` as the binning pass does: vertices are shaded and primitives
/// rasterized, and the bins of `grid` they cover are returned; no fragment
/// is shaded or written.
pub(crate) fn run_binning_draw(
    ctx: &DrawContext,
    call: &DrawCall,
    grid: &BinGrid,
) -> Result<(DrawStats, DrawVisibility), DrawError> {
    run(ctx, call, Some(grid)).map(|(stats, v)| (stats, v.unwrap_or_default()))
}

/// Where a draw's fragments go.
enum Back<'a, 'b> {
    /// Boxed: a sink is large and the binning one small.
    Render(Box<Sink<'a, 'b>>),
    Binning(BinningSink<'a>),
}

fn run(
    ctx: &DrawContext,
    call: &DrawCall,
    binning: Option<&BinGrid>,
) -> Result<(DrawStats, Option<DrawVisibility>), DrawError> {
    if call.geometry || call.tessellation {
        return Err(DrawError::not_modelled(
            Unit::Pc,
            "a draw with geometry or tessellation shaders",
        ));
    }
    let shape = topology::shape(call.primitive)?;
    let mut stats = DrawStats::default();
    if call.count == 0 || call.instances == 0 {
        return Ok((stats, None));
    }
    let cntl = regs::PcPrimitiveCntl0::from_raw(ctx.reg32::<regs::PcPrimitiveCntl0>(Unit::Pc)?);
    let restart = match call.source {
        IndexSource::Dma { .. } if cntl.primitive_restart => {
            Some(ctx.reg32::<regs::PcRestartIndex>(Unit::Pc)?)
        }
        _ => None,
    };
    let raster_cntl = regs::PcRasterCntl::from_raw(ctx.reg32::<regs::PcRasterCntl>(Unit::Pc)?);
    if raster_cntl.stream != 0 {
        return Err(DrawError::not_modelled(
            Unit::Pc,
            "rasterizing a transform feedback stream other than 0 (PC_RASTER_CNTL.STREAM)",
        ));
    }
    let indices = index::fetch(ctx.memory, call.source, call.count, restart)?;
    let mut primitives = Vec::new();
    topology::assemble(
        call.primitive,
        &indices,
        cntl.provoking_vtx_last,
        &mut primitives,
    )?;

    // The distinct vertices of an instance and, for each position in the
    // index stream, which of them it is.
    let mut distinct: Vec<u32> = Vec::new();
    let mut slot_of: Vec<u32> = Vec::with_capacity(indices.len());
    let mut seen: HashMap<u32, u32> = HashMap::new();
    for index in &indices {
        match *index {
            Index::Vertex(v) => {
                let slot = *seen.entry(v).or_insert_with(|| {
                    distinct.push(v);
                    (distinct.len() - 1) as u32
                });
                slot_of.push(slot);
            }
            Index::Restart => slot_of.push(u32::MAX),
        }
    }

    let vfd = VertexFetch::read(ctx)?;
    let vs_state = hlsq::vertex_shader(ctx)?;
    let layout = VaryingLayout::read(ctx)?;
    let fs_state = if raster_cntl.discard || binning.is_some() {
        None
    } else {
        hlsq::fragment_shader(ctx)?
    };
    let mut raster = Rasterizer::read(ctx, &layout)?;
    let mut vs = VertexShader::new(&vs_state, ctx.memory, ctx.draw).map_err(DrawError::Shader)?;
    let mut back = match binning {
        Some(grid) => Back::Binning(BinningSink {
            grid,
            visibility: DrawVisibility::default(),
        }),
        None => {
            let rb = RenderBackend::read(ctx, raster.samples, fs_state.is_some())?;
            let lrz = Lrz::read(ctx, raster.samples)?;
            let fs = match &fs_state {
                Some((state, inputs)) => Some(
                    FragmentShader::new(
                        state,
                        *inputs,
                        &layout,
                        raster.samples,
                        raster.per_sample,
                        ctx.memory,
                        ctx.draw,
                    )
                    .map_err(DrawError::Shader)?,
                ),
                None => None,
            };
            Back::Render(Box::new(Sink {
                ctx,
                fs,
                rb,
                lrz,
                setup: None,
                primitive_id: layout.primitive_id,
                provoking: Vec::new(),
                fragments: 0,
            }))
        }
    };

    let stride = layout.stride;
    let mut outputs = vec![0u32; distinct.len() * stride];
    let wave = vs.wave_size();
    for instance in 0..call.instances {
        for (w, chunk) in distinct.chunks(wave).enumerate() {
            let first = w * wave;
            vs.run_wave(
                chunk.len(),
                |lane, write| {
                    vfd.fetch(
                        ctx,
                        VertexId {
                            index: chunk[lane],
                            instance,
                        },
                        write,
                    )
                },
                |lane, read| {
                    let at = (first + lane) * stride;
                    layout.store(read, &mut outputs[at..at + stride])
                },
            )
            .map_err(|e| match e {
                WaveError::Shader(f) => DrawError::Shader(f),
                WaveError::Unit(e) => e,
            })?;
        }
        stats.vertices += indices.iter().filter(|i| **i != Index::Restart).count() as u64;
        stats.vertex_invocations += distinct.len() as u64;
        stats.primitives += primitives.len() as u64;
        if raster_cntl.discard {
            continue;
        }
        for p in &primitives {
            let vertex = |k: usize| -> &[u32] {
                let slot = slot_of[p.vertices[k.min(shape.vertices() - 1)] as usize] as usize;
                &outputs[slot * stride..(slot + 1) * stride]
            };
            let prim = PrimitiveIn {
                shape,
                vertices: [vertex(0), vertex(1), vertex(2)],
                provoking: usize::from(p.provoking),
                id: p.id,
            };
            stats.clip_invocations += 1;
            let sink: &mut dyn FragmentSink = match &mut back {
                Back::Render(s) => &mut **s,
                Back::Binning(s) => s,
            };
            raster.draw(ctx, &layout, &prim, sink)?;
        }
    }
    stats.clip_primitives = stats.clip_invocations;
    match back {
        Back::Render(mut sink) => {
            sink.finish()?;
            stats.fragment_invocations = sink.fragments;
            stats.lrz_rejected = sink.lrz.as_ref().map_or(0, |l| l.rejected);
            stats.passed_samples = sink.rb.passed_samples;
            Ok((stats, None))
        }
        Back::Binning(sink) => Ok((stats, Some(sink.visibility))),
    }
}

/// Where the rasterizer's fragments go: early tests, the fragment shader,
/// then the RB.
struct Sink<'a, 'b> {
    ctx: &'a DrawContext<'b>,
    fs: Option<FragmentShader<'b>>,
    rb: RenderBackend,
    lrz: Option<Lrz>,
    setup: Option<PrimitiveSetup>,
    /// Where the VPC puts gl_PrimitiveID for the fragment shader.
    primitive_id: Option<usize>,
    provoking: Vec<u32>,
    fragments: u64,
}

impl Sink<'_, '_> {
    /// Runs the waiting fragment waves and hands their fragments to the RB.
    fn run_waves(&mut self) -> Result<(), DrawError> {
        let Some(fs) = &mut self.fs else {
            return Ok(());
        };
        if !fs.has_quads() {
            return Ok(());
        }
        let (rb, ctx) = (&mut self.rb, self.ctx);
        let mut error = None;
        let mut fragments = 0;
        fs.run(|q, setup, lane, killed, read| {
            if error.is_some() {
                return;
            }
            let p = lane % 4;
            let coverage = q.quad.coverage[p];
            if coverage != 0 {
                fragments += 1;
            }
            if killed || coverage == 0 {
                return;
            }
            let (x, y) = q.quad.pixel(p);
            if let Err(e) = rb.fragment(ctx, setup, x, y, coverage, Some(read)) {
                error = Some(e);
            }
        })
        .map_err(DrawError::Shader)?;
        self.fragments += fragments;
        match error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn finish(&mut self) -> Result<(), DrawError> {
        if let Some(lrz) = &mut self.lrz {
            lrz.end_primitive(self.ctx.memory)?;
        }
        self.run_waves()
    }
}

impl FragmentSink for Sink<'_, '_> {
    fn primitive(
        &mut self,
        setup: &PrimitiveSetup,
        vertices: [&[u32]; 3],
        provoking: &[u32],
    ) -> Result<(), DrawError> {
        if let Some(lrz) = &mut self.lrz {
            lrz.end_primitive(self.ctx.memory)?;
        }
        self.setup = Some(*setup);
        if let Some(fs) = &mut self.fs {
            match self.primitive_id {
                Some(loc) => {
                    self.provoking.clear();
                    self.provoking.extend_from_slice(provoking);
                    self.provoking[loc] = setup.id;
                    fs.begin_primitive(setup, vertices, &self.provoking);
                }
                None => fs.begin_primitive(setup, vertices, provoking),
            }
        }
        Ok(())
    }

    fn quad(&mut self, quad: Quad) -> Result<(), DrawError> {
        let setup = self.setup.expect("a primitive precedes its quads");
        let quad = match &mut self.lrz {
            Some(lrz) => {
                let kept = lrz.quad(self.ctx, &setup, quad)?;
                if self.ctx.options.strict {
                    lrz.check_rejections(self.ctx, &setup, &quad, &kept, |x, y, s, z| {
                        self.rb.depth_test_keeps(self.ctx, setup.layer, x, y, s, z)
                    })?;
                }
                kept
            }
            None => quad,
        };
        if quad.is_empty() {
            return Ok(());
        }
        let quad = if self.rb.is_early() {
            self.rb.early_tests(self.ctx, &setup, quad)?
        } else {
            quad
        };
        if quad.is_empty() {
            return Ok(());
        }
        match &mut self.fs {
            None => {
                for p in 0..4 {
                    if quad.coverage[p] != 0 {
                        let (x, y) = quad.pixel(p);
                        self.rb
                            .fragment(self.ctx, &setup, x, y, quad.coverage[p], None)?;
                    }
                }
                Ok(())
            }
            Some(fs) => {
                if fs.push_quad(quad) {
                    self.run_waves()?;
                }
                Ok(())
            }
        }
    }
}
