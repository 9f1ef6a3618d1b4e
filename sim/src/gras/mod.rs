//! GRAS: clipping, the viewport transform, primitive setup, culling,
//! scissors and rasterization into 2x2 quads of covered samples.
//!
//! - [`clip`]: clip-space clipping against the view volume and the user
//!   clip distances;
//! - [`setup`]: the planes that give a fragment's barycentrics and depth;
//! - [`coverage`]: which samples a polygon covers, with the top-left rule;
//! - [`samples`]: where the samples are.
//!
//! Registers (a6xx.xml): GRAS_CL_CNTL (which clipping, the [0, w] or
//! [-w, w] z range, perspective division and viewport transform bypass),
//! GRAS_CL_VPORT[n] (XOFFSET/XSCALE, ...: window = ndc * scale + offset),
//! GRAS_CL_Z_CLAMP[n], GRAS_SU_CNTL (cull face, front face winding, line
//! half width and mode, polygon offset enable), GRAS_SU_POINT_MINMAX and
//! _POINT_SIZE, GRAS_SU_POLY_OFFSET_*, GRAS_SU_DEPTH_BUFFER_INFO (the depth
//! format the offset unit is relative to), the window, screen and viewport
//! scissors (inclusive corners), PC_POLYGON_MODE, GRAS_SAMPLE_CNTL
//! (per-sample shading) and GRAS_SU_CONSERVATIVE_RAS_CNTL.
//!
//! Culling follows Vulkan's "Basic Polygon Rasterization": the signed area
//! a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i) in framebuffer coordinates is
//! positive for a counter-clockwise triangle, which is front-facing unless
//! GRAS_SU_CNTL.FRONT_CW says clockwise ones are. Depth bias is
//! m * SCALE + r * OFFSET, clamped to OFFSET_CLAMP when that is not 0,
//! with m = max(|dz/dx|, |dz/dy|) and r = 2^-n for an n-bit normalized
//! depth format, 2^(e - 23) for a float one whose largest depth in the
//! primitive has exponent e (Vulkan's "Depth Bias").

pub(crate) mod clip;
pub(crate) mod coverage;
pub(crate) mod samples;
pub(crate) mod setup;

use parsnip_registers::enums::{A5xxLineMode, A6xxDepthFormat, A6xxPolygonMode};
use parsnip_registers::regs;

use crate::draw_context::{DrawContext, DrawError};
use crate::pc::Shape;
use crate::report::Unit;
use crate::vpc::VaryingLayout;
use clip::{Plane, Polygon};
use coverage::{rasterize_convex, Bounds, Quad};
use samples::SamplePattern;
use setup::{PointSprite, PrimitiveSetup, WindowVertex};

const U: Unit = Unit::Gras;

/// The largest window coordinate the rasterizer's fixed point holds, in
/// pixels (the hardware's maximum framebuffer size).
const MAX_COORD: f64 = 16384.0;

/// Viewports GRAS_CL_VPORT and the scissors have.
const VIEWPORTS: usize = 16;

/// Where the fragments of a draw go: the fragment shader and the RB.
pub(crate) trait FragmentSink {
    /// The primitive the quads after this belong to: its setup, the
    /// vertices `bary.f` reads (as many as its shape has) and the
    /// provoking vertex `flat.b` reads.
    fn primitive(
        &mut self,
        setup: &PrimitiveSetup,
        vertices: [&[u32]; 3],
        provoking: &[u32],
    ) -> Result<(), DrawError>;
    /// One quad of the current primitive.
    fn quad(&mut self, quad: Quad) -> Result<(), DrawError>;
}

/// A primitive as the PC assembled it: its vertices' stored outputs.
pub(crate) struct PrimitiveIn<'a> {
    pub shape: Shape,
    pub vertices: [&'a [u32]; 3],
    pub provoking: usize,
    pub id: u32,
}

#[derive(Clone, Copy, Debug)]
struct Viewport {
    offset: [f32; 3],
    scale: [f32; 3],
    z_clamp: Option<(f64, f64)>,
    scissor: Bounds,
}

#[derive(Clone, Copy, Debug)]
struct DepthBias {
    scale: f64,
    units: f64,
    clamp: f64,
    format: A6xxDepthFormat,
}

/// The rasterizer of one draw.
pub(crate) struct Rasterizer {
    cl: regs::GrasClCntl,
    cull_front: bool,
    cull_back: bool,
    front_cw: bool,
    line_half_width: f64,
    line_mode: A5xxLineMode,
    polygon_mode: A6xxPolygonMode,
    bias: Option<DepthBias>,
    point_size: f64,
    point_min: f64,
    point_max: f64,
    pub samples: SamplePattern,
    pub per_sample: bool,
    window: Bounds,
    max_layer: u32,
    viewports: [Option<Viewport>; VIEWPORTS],
    scratch: [Polygon; 2],
}

fn scissor(tl_x: u32, tl_y: u32, br_x: u32, br_y: u32) -> Bounds {
    Bounds {
        x0: tl_x as i32,
        y0: tl_y as i32,
        x1: br_x as i32 + 1,
        y1: br_y as i32 + 1,
    }
}

impl Rasterizer {
    pub fn read(ctx: &DrawContext, layout: &VaryingLayout) -> Result<Rasterizer, DrawError> {
        let cl = regs::GrasClCntl::from_raw(ctx.reg32::<regs::GrasClCntl>(U)?);
        let su = regs::GrasSuCntl::from_raw(ctx.reg32::<regs::GrasSuCntl>(U)?);
        if su.multiview_enable {
            return Err(DrawError::not_modelled(U, "multiview (GRAS_SU_CNTL)"));
        }
        let conservative = regs::GrasSuConservativeRasCntl::from_raw(
            ctx.reg32::<regs::GrasSuConservativeRasCntl>(U)?,
        );
        if conservative.conservativerasen {
            return Err(DrawError::not_modelled(U, "conservative rasterization"));
        }
        let polygon_mode =
            regs::PcPolygonMode::from_raw(ctx.reg32::<regs::PcPolygonMode>(Unit::Pc)?).mode;
        let bias = if su.poly_offset {
            let info =
                regs::GrasSuDepthBufferInfo::from_raw(ctx.reg32::<regs::GrasSuDepthBufferInfo>(U)?);
            Some(DepthBias {
                scale: f64::from(
                    regs::GrasSuPolyOffsetScale::from_raw(
                        ctx.reg32::<regs::GrasSuPolyOffsetScale>(U)?,
                    )
                    .0,
                ),
                units: f64::from(
                    regs::GrasSuPolyOffsetOffset::from_raw(
                        ctx.reg32::<regs::GrasSuPolyOffsetOffset>(U)?,
                    )
                    .0,
                ),
                clamp: f64::from(
                    regs::GrasSuPolyOffsetOffsetClamp::from_raw(
                        ctx.reg32::<regs::GrasSuPolyOffsetOffsetClamp>(U)?,
                    )
                    .0,
                ),
                format: info.depth_format,
            })
        } else {
            None
        };
        let minmax = regs::GrasSuPointMinmax::from_raw(ctx.reg32::<regs::GrasSuPointMinmax>(U)?);
        let point_size = if layout.point_size.is_some() {
            0.0
        } else {
            f64::from(regs::GrasSuPointSize::from_raw(ctx.reg32::<regs::GrasSuPointSize>(U)?).0)
        };
        let per_sample =
            regs::GrasSampleCntl::from_raw(ctx.reg32::<regs::GrasSampleCntl>(U)?).per_samp_mode;
        let tl =
            regs::GrasScWindowScissorTl::from_raw(ctx.reg32::<regs::GrasScWindowScissorTl>(U)?);
        let br =
            regs::GrasScWindowScissorBr::from_raw(ctx.reg32::<regs::GrasScWindowScissorBr>(U)?);
        let max_layer = if layout.layer.is_some() {
            regs::GrasMaxLayerIndex::from_raw(ctx.reg32::<regs::GrasMaxLayerIndex>(U)?).0
        } else {
            0
        };
        Ok(Rasterizer {
            cl,
            cull_front: su.cull_front,
            cull_back: su.cull_back,
            front_cw: su.front_cw,
            line_half_width: f64::from(su.linehalfwidth),
            line_mode: su.line_mode,
            polygon_mode,
            bias,
            point_size,
            point_min: f64::from(minmax.min),
            point_max: f64::from(minmax.max),
            samples: SamplePattern::read(ctx)?,
            per_sample,
            window: scissor(tl.x, tl.y, br.x, br.y),
            max_layer,
            viewports: [None; VIEWPORTS],
            scratch: [
                Polygon::new(layout.stride, layout.position),
                Polygon::new(layout.stride, layout.position),
            ],
        })
    }

    /// Viewport `n`'s transform, clamp and scissors, read the first time a
    /// primitive uses it.
    fn viewport(&mut self, ctx: &DrawContext, n: usize) -> Result<Viewport, DrawError> {
        if let Some(v) = self.viewports[n] {
            return Ok(v);
        }
        let i = n as u32;
        let f = |raw: u32| f32::from_bits(raw);
        let offset = [
            f(ctx.reg32_at::<regs::GrasClVportXoffset>(U, i)?),
            f(ctx.reg32_at::<regs::GrasClVportYoffset>(U, i)?),
            f(ctx.reg32_at::<regs::GrasClVportZoffset>(U, i)?),
        ];
        let scale = [
            f(ctx.reg32_at::<regs::GrasClVportXscale>(U, i)?),
            f(ctx.reg32_at::<regs::GrasClVportYscale>(U, i)?),
            f(ctx.reg32_at::<regs::GrasClVportZscale>(U, i)?),
        ];
        let z_clamp = if self.cl.z_clamp_enable {
            Some((
                f64::from(f(ctx.reg32_at::<regs::GrasClZClampMin>(U, i)?)),
                f64::from(f(ctx.reg32_at::<regs::GrasClZClampMax>(U, i)?)),
            ))
        } else {
            None
        };
        let stl = regs::GrasScScreenScissorTl::from_raw(
            ctx.reg32_at::<regs::GrasScScreenScissorTl>(U, i)?,
        );
        let sbr = regs::GrasScScreenScissorBr::from_raw(
            ctx.reg32_at::<regs::GrasScScreenScissorBr>(U, i)?,
        );
        let vtl = regs::GrasScViewportScissorTl::from_raw(
            ctx.reg32_at::<regs::GrasScViewportScissorTl>(U, i)?,
        );
        let vbr = regs::GrasScViewportScissorBr::from_raw(
            ctx.reg32_at::<regs::GrasScViewportScissorBr>(U, i)?,
        );
        let v = Viewport {
            offset,
            scale,
            z_clamp,
            scissor: scissor(stl.x, stl.y, sbr.x, sbr.y)
                .intersect(scissor(vtl.x, vtl.y, vbr.x, vbr.y))
                .intersect(self.window),
        };
        self.viewports[n] = Some(v);
        Ok(v)
    }

    /// Clips, sets up and rasterizes one primitive into `sink`.
    pub fn draw(
        &mut self,
        ctx: &DrawContext,
        layout: &VaryingLayout,
        prim: &PrimitiveIn,
        sink: &mut dyn FragmentSink,
    ) -> Result<(), DrawError> {
        let n = prim.shape.vertices();
        let provoking = prim.vertices[prim.provoking];
        let vp_index = match layout.viewport {
            Some(loc) => (provoking[loc] as usize).min(VIEWPORTS - 1),
            None => 0,
        };
        let layer = match layout.layer {
            Some(loc) => provoking[loc].min(self.max_layer),
            None => 0,
        };
        let vp = self.viewport(ctx, vp_index)?;
        // Cull distances: all vertices outside one plane drops the
        // primitive.
        for k in 0..8 {
            if layout.cull_mask >> k & 1 != 0 {
                let loc = layout.distance_locations[k];
                if prim.vertices[..n]
                    .iter()
                    .all(|v| f32::from_bits(v[loc]) < 0.0)
                {
                    return Ok(());
                }
            }
        }
        let [mut poly, mut other] =
            std::mem::replace(&mut self.scratch, [Polygon::new(0, 0), Polygon::new(0, 0)]);
        poly.clear();
        for v in &prim.vertices[..n] {
            poly.push(v);
        }
        let result = self.clip_and_rasterize(
            layout, prim, &vp, vp_index, layer, provoking, &mut poly, &mut other, sink,
        );
        self.scratch = [poly, other];
        result
    }

    /// The planes a primitive is clipped against.
    fn planes(&self, layout: &VaryingLayout, vp: &Viewport) -> Vec<Plane> {
        let mut planes = Vec::new();
        if !self.cl.clip_disable {
            if !self.cl.znear_clip_disable {
                planes.push(Plane::Position(if self.cl.zero_gb_scale_z {
                    [0.0, 0.0, 1.0, 0.0]
                } else {
                    [0.0, 0.0, 1.0, 1.0]
                }));
            }
            if !self.cl.zfar_clip_disable {
                planes.push(Plane::Position([0.0, 0.0, -1.0, 1.0]));
            }
            if !self.cl.persp_division_disable && !self.cl.vp_xform_disable {
                for axis in 0..2 {
                    let g = ((MAX_COORD - f64::from(vp.offset[axis]).abs())
                        / f64::from(vp.scale[axis]).abs().max(1e-30))
                    .max(1.0) as f32;
                    let mut lo = [0.0; 4];
                    lo[axis] = 1.0;
                    lo[3] = g;
                    let mut hi = [0.0; 4];
                    hi[axis] = -1.0;
                    hi[3] = g;
                    planes.push(Plane::Position(lo));
                    planes.push(Plane::Position(hi));
                }
            }
        }
        for k in 0..8 {
            if layout.clip_mask >> k & 1 != 0 {
                planes.push(Plane::Distance(layout.distance_locations[k]));
            }
        }
        planes
    }

    #[allow(clippy::too_many_arguments)]
    fn clip_and_rasterize(
        &mut self,
        layout: &VaryingLayout,
        prim: &PrimitiveIn,
        vp: &Viewport,
        vp_index: usize,
        layer: u32,
        provoking: &[u32],
        poly: &mut Polygon,
        other: &mut Polygon,
        sink: &mut dyn FragmentSink,
    ) -> Result<(), DrawError> {
        if prim.shape != Shape::Rect {
            for plane in self.planes(layout, vp) {
                let (all_in, all_out) = poly.classify(plane);
                if all_out {
                    return Ok(());
                }
                if all_in {
                    continue;
                }
                if prim.shape == Shape::Point {
                    // A point is not cut, only dropped when outside.
                    return Ok(());
                }
                poly.clip(plane, prim.shape == Shape::Triangle, other);
                std::mem::swap(poly, other);
                if poly.len < prim.shape.vertices() {
                    return Ok(());
                }
            }
        }
        let window: Vec<Option<WindowVertex>> = (0..poly.len)
            .map(|i| self.to_window(poly.vertex(i), layout, vp))
            .collect();
        let common = |mut s: PrimitiveSetup| {
            s.id = prim.id;
            s.layer = layer;
            s.viewport = vp_index;
            s.z_clamp = vp.z_clamp;
            s
        };
        match prim.shape {
            Shape::Triangle => {
                for k in 1..poly.len.saturating_sub(1) {
                    let (Some(a), Some(b), Some(c)) = (window[0], window[k], window[k + 1]) else {
                        continue;
                    };
                    let tri = [a, b, c];
                    let Some(setup) = PrimitiveSetup::triangle(&tri) else {
                        continue;
                    };
                    // Vulkan's a is minus half the shoelace sum.
                    let shoelace = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
                    let front = if self.front_cw {
                        shoelace > 0.0
                    } else {
                        shoelace < 0.0
                    };
                    if (front && self.cull_front) || (!front && self.cull_back) {
                        return Ok(());
                    }
                    let mut setup = common(setup);
                    setup.front_facing = front;
                    let bias = self.bias(&setup, &tri);
                    setup.z[2] += bias;
                    let verts = [poly.vertex(0), poly.vertex(k), poly.vertex(k + 1)];
                    match self.polygon_mode {
                        A6xxPolygonMode::POLYMODE6_TRIANGLES => {
                            sink.primitive(&setup, verts, provoking)?;
                            let corners = [(a.x, a.y), (b.x, b.y), (c.x, c.y)];
                            self.fill(&corners, vp, sink)?;
                        }
                        A6xxPolygonMode::POLYMODE6_LINES => {
                            for e in 0..3 {
                                let (p, q) = (tri[e], tri[(e + 1) % 3]);
                                let mut s = common(PrimitiveSetup::line(&p, &q));
                                s.front_facing = front;
                                s.z[2] += bias;
                                let (va, vb) = (verts[e], verts[(e + 1) % 3]);
                                sink.primitive(&s, [va, vb, vb], provoking)?;
                                self.line(&p, &q, vp, sink)?;
                            }
                        }
                        A6xxPolygonMode::POLYMODE6_POINTS => {
                            for e in 0..3 {
                                let mut s = common(PrimitiveSetup::flat(Shape::Point, &tri[e]));
                                s.front_facing = front;
                                s.z[2] += bias;
                                let size = self.point_size(verts[e], layout);
                                s.sprite = Some(PointSprite {
                                    x: tri[e].x,
                                    y: tri[e].y,
                                    size,
                                });
                                sink.primitive(&s, [verts[e]; 3], provoking)?;
                                self.point(&tri[e], size, vp, sink)?;
                            }
                        }
                        m => {
                            return Err(DrawError::bad_state(
                                Unit::Pc,
                                format!("PC_POLYGON_MODE {:#x} is no polygon mode", m.0),
                            ))
                        }
                    }
                }
            }
            Shape::Line => {
                let (Some(a), Some(b)) = (window[0], window[1]) else {
                    return Ok(());
                };
                let setup = common(PrimitiveSetup::line(&a, &b));
                sink.primitive(
                    &setup,
                    [poly.vertex(0), poly.vertex(1), poly.vertex(1)],
                    provoking,
                )?;
                self.line(&a, &b, vp, sink)?;
            }
            Shape::Point => {
                let Some(a) = window[0] else {
                    return Ok(());
                };
                let size = self.point_size(poly.vertex(0), layout);
                let mut setup = common(PrimitiveSetup::flat(Shape::Point, &a));
                setup.sprite = Some(PointSprite {
                    x: a.x,
                    y: a.y,
                    size,
                });
                sink.primitive(&setup, [poly.vertex(0); 3], provoking)?;
                self.point(&a, size, vp, sink)?;
            }
            Shape::Rect => {
                let (Some(a), Some(b)) = (window[0], window[1]) else {
                    return Ok(());
                };
                let setup = common(PrimitiveSetup::flat(Shape::Rect, &a));
                sink.primitive(
                    &setup,
                    [poly.vertex(0), poly.vertex(1), poly.vertex(1)],
                    provoking,
                )?;
                let corners = [(a.x, a.y), (b.x, a.y), (b.x, b.y), (a.x, b.y)];
                self.fill(&corners, vp, sink)?;
            }
        }
        Ok(())
    }

    /// A vertex's window coordinates, `None` if it has no finite ones
    /// (w = 0 after clipping, or a position that is not a number).
    fn to_window(&self, v: &[u32], layout: &VaryingLayout, vp: &Viewport) -> Option<WindowVertex> {
        let p: [f64; 4] =
            std::array::from_fn(|c| f64::from(f32::from_bits(v[layout.position + c])));
        let (ndc, rhw) = if self.cl.persp_division_disable {
            ([p[0], p[1], p[2]], 1.0)
        } else {
            let rhw = 1.0 / p[3];
            ([p[0] * rhw, p[1] * rhw, p[2] * rhw], rhw)
        };
        let w = if self.cl.vp_xform_disable {
            ndc
        } else {
            std::array::from_fn(|c| ndc[c] * f64::from(vp.scale[c]) + f64::from(vp.offset[c]))
        };
        let out = WindowVertex {
            x: w[0],
            y: w[1],
            z: w[2],
            rhw,
        };
        (out.x.is_finite() && out.y.is_finite() && out.z.is_finite() && rhw.is_finite())
            .then_some(out)
    }

    /// The depth bias of a polygon with these window vertices.
    fn bias(&self, setup: &PrimitiveSetup, tri: &[WindowVertex; 3]) -> f64 {
        let Some(b) = self.bias else { return 0.0 };
        let r = match b.format {
            A6xxDepthFormat::DEPTH6_16 => 2f64.powi(-16),
            A6xxDepthFormat::DEPTH6_24_8 => 2f64.powi(-24),
            A6xxDepthFormat::DEPTH6_32 => {
                let max = tri.iter().map(|v| v.z.abs()).fold(0.0, f64::max);
                let e = if max == 0.0 {
                    -126
                } else {
                    max.log2().floor() as i32
                };
                2f64.powi(e - 23)
            }
            _ => 0.0,
        };
        let offset = setup.max_depth_slope() * b.scale + r * b.units;
        if b.clamp > 0.0 {
            offset.min(b.clamp)
        } else if b.clamp < 0.0 {
            offset.max(b.clamp)
        } else {
            offset
        }
    }

    fn point_size(&self, v: &[u32], layout: &VaryingLayout) -> f64 {
        let size = match layout.point_size {
            Some(loc) => f64::from(f32::from_bits(v[loc])),
            None => self.point_size,
        };
        size.clamp(self.point_min, self.point_max)
    }

    fn fill(
        &self,
        corners: &[(f64, f64)],
        vp: &Viewport,
        sink: &mut dyn FragmentSink,
    ) -> Result<(), DrawError> {
        let mut result = Ok(());
        rasterize_convex(corners, vp.scissor, &self.samples, |q| {
            if result.is_ok() {
                result = sink.quad(q);
            }
        });
        result
    }

    /// A rectangular line: the segment widened by the line width.
    fn line(
        &self,
        a: &WindowVertex,
        b: &WindowVertex,
        vp: &Viewport,
        sink: &mut dyn FragmentSink,
    ) -> Result<(), DrawError> {
        if self.line_mode == A5xxLineMode::BRESENHAM {
            return Err(DrawError::not_modelled(
                U,
                "Bresenham lines (GRAS_SU_CNTL.LINE_MODE)",
            ));
        }
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len = (dx * dx + dy * dy).sqrt();
        if len == 0.0 {
            return Ok(());
        }
        let (nx, ny) = (
            -dy / len * self.line_half_width,
            dx / len * self.line_half_width,
        );
        let corners = [
            (a.x + nx, a.y + ny),
            (b.x + nx, b.y + ny),
            (b.x - nx, b.y - ny),
            (a.x - nx, a.y - ny),
        ];
        self.fill(&corners, vp, sink)
    }

    /// A point's square.
    fn point(
        &self,
        a: &WindowVertex,
        size: f64,
        vp: &Viewport,
        sink: &mut dyn FragmentSink,
    ) -> Result<(), DrawError> {
        let h = size / 2.0;
        let corners = [
            (a.x - h, a.y - h),
            (a.x + h, a.y - h),
            (a.x + h, a.y + h),
            (a.x - h, a.y + h),
        ];
        self.fill(&corners, vp, sink)
    }
}
